package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// parseSeed reads a seed strictly (fuzz.ParseSeed).
func parseSeed(s string) (uint64, error) { return fuzz.ParseSeed(s) }

// parseSeeds reads "A..B" or "N", strictly, as --seeds.
func parseSeeds(s string) (uint64, uint64, error) {
	from, to, err := fuzz.ParseSeeds(s)
	if err != nil {
		return 0, 0, badInput("--seeds: %v", err)
	}
	return from, to, nil
}

// seedFlag is a strictly parsed seed flag; set reports whether it was given.
type seedFlag struct {
	n   uint64
	set bool
}

func (f *seedFlag) String() string { return strconv.FormatUint(f.n, 10) }

func (f *seedFlag) Type() string { return "seed" }

func (f *seedFlag) Set(s string) error {
	n, err := parseSeed(s)
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
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > harness.MaxStepsLimit || s[0] == '+' {
		return fmt.Errorf("want a number of steps in 1..%d, got %q", int64(harness.MaxStepsLimit), s)
	}
	*f = stepsFlag(n)
	return nil
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
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > scenarios.MaxInputBytesLimit || s[0] == '+' {
		return fmt.Errorf("want a size in bytes in 1..%d, got %q", int64(scenarios.MaxInputBytesLimit), s)
	}
	*f = inputFlag(n)
	return nil
}

// maxInputVar adds --max-input-bytes to fs.
func maxInputVar(fs *pflag.FlagSet, f *inputFlag) {
	*f = scenarios.DefaultMaxInputBytes
	fs.Var(f, "max-input-bytes", "the size limit of a scenario file: a longer (or endless) file is refused")
}
