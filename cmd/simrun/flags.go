package main

import (
	"strconv"

	"github.com/spf13/pflag"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// seedFlag is a strictly parsed seed flag; set reports whether it was given.
type seedFlag struct {
	n   uint64
	set bool
}

func (f *seedFlag) String() string { return strconv.FormatUint(f.n, 10) }

func (f *seedFlag) Type() string { return "seed" }

func (f *seedFlag) Set(s string) error {
	n, err := fuzz.ParseSeed(s)
	if err != nil {
		return err
	}
	f.n, f.set = n, true
	return nil
}

// stepsFlag is --max-steps: the work budget of every run, strictly decimal.
type stepsFlag int64

func (f *stepsFlag) String() string { return strconv.FormatInt(int64(*f), 10) }

func (f *stepsFlag) Type() string { return "steps" }

func (f *stepsFlag) Set(s string) error {
	n, err := harness.ParseMaxSteps(s)
	if err == nil {
		*f = stepsFlag(n)
	}
	return err
}

// maxStepsVar adds --max-steps to fs.
func maxStepsVar(fs *pflag.FlagSet, f *stepsFlag) {
	*f = harness.DefaultMaxSteps
	fs.Var(f, "max-steps", "the work budget of each run, in steps (simulation events): a run that reaches it stops\n(outcome budget-exceeded, exit 4), a scenario predicted to exceed it is refused (exit 4)")
}

// inputFlag is --max-input-bytes: the size limit of a scenario file.
type inputFlag int64

func (f *inputFlag) String() string { return strconv.FormatInt(int64(*f), 10) }

func (f *inputFlag) Type() string { return "bytes" }

func (f *inputFlag) Set(s string) error {
	n, err := scenarios.ParseMaxInputBytes(s)
	if err == nil {
		*f = inputFlag(n)
	}
	return err
}

// maxInputVar adds --max-input-bytes to fs.
func maxInputVar(fs *pflag.FlagSet, f *inputFlag) {
	*f = scenarios.DefaultMaxInputBytes
	fs.Var(f, "max-input-bytes", "the size limit of a scenario file: a longer (or endless) file is refused")
}
