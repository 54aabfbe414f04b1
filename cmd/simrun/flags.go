package main

import (
	"github.com/spf13/pflag"

	"tierfetch/config"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// maxStepsVar adds --max-steps to fs.
func maxStepsVar(fs *pflag.FlagSet, f *harness.StepsFlag) {
	*f = harness.DefaultMaxSteps
	fs.Var(f, "max-steps", "the work budget of each run, in steps (simulation events): a run that reaches it stops\n(outcome budget-exceeded, exit 4), a scenario predicted to exceed it is refused (exit 4)")
}

// fixFlag adds --fix to fs: the upstream reports' suggested fixes of
// Kafka's code to switch on (see 'simrun fixes').
func fixFlag(fs *pflag.FlagSet, f *string) {
	fs.StringVar(f, "fix", "", "switch on suggested fixes of Kafka's code, comma-separated, or all (see 'simrun fixes')")
}

// maxInputVar adds --max-input-bytes to fs.
func maxInputVar(fs *pflag.FlagSet, f *scenarios.InputFlag) {
	*f = scenarios.DefaultMaxInputBytes
	fs.Var(f, "max-input-bytes", "the size limit of a scenario file: a longer (or endless) file is refused")
}

// fieldFlags is err with the config field it names (config.Error) named as
// the flag that sets it: fields maps a Config's fields to its command's
// flags. Other errors are unchanged.
func fieldFlags(err error, fields map[string]string) error {
	return config.Rename(err, func(field string) string {
		if flag, ok := fields[field]; ok {
			return "--" + flag
		}
		return ""
	})
}
