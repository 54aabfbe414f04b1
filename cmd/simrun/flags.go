package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"tierfetch/config"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// stepsFlag is --max-steps (a pflag.Value): the work budget of every run,
// strictly decimal (parseMaxSteps).
type stepsFlag int64

func (f *stepsFlag) String() string { return strconv.FormatInt(int64(*f), 10) }

// Type names the flag's value in help.
func (f *stepsFlag) Type() string { return "steps" }

// Set parses s.
func (f *stepsFlag) Set(s string) error {
	n, err := parseMaxSteps(s)
	if err == nil {
		*f = stepsFlag(n)
	}
	return err
}

// parseMaxSteps reads a work budget as --max-steps takes it: a decimal
// number of steps in 1..harness.MaxStepsLimit, nothing else.
func parseMaxSteps(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > harness.MaxStepsLimit || s[0] == '+' {
		return 0, fmt.Errorf("want a number of steps in 1..%d, got %q", int64(harness.MaxStepsLimit), s)
	}
	return n, nil
}

// maxStepsVar adds --max-steps to fs.
func maxStepsVar(fs *pflag.FlagSet, f *stepsFlag) {
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

// fieldFlag maps the fields of the domain packages' configs (compare.Config,
// fuzz.SweepArgs, explore.Args, plan's Files, Input, BrokerInput and Env) to
// the flags that set them: every command
// spells a setting's flag the same way, so one map serves them all
// (TestConfigFieldsAreFlags checks each config against its command).
var fieldFlag = map[string]string{
	"All":                    "all",
	"Broker":                 "broker",
	"Configs":                "configs",
	"CheckDeterminism":       "check-determinism",
	"ChromeTrace":            "chrome-trace",
	"Depth":                  "depth",
	"FaultMs":                "fault-ms",
	"Faults":                 "faults",
	"Fix":                    "fix",
	"FromMs":                 "from-ms",
	"Generated":              "generated",
	"JSONL":                  "jsonl",
	"LogDirs":                "log-dirs",
	"Lost":                   "lost",
	"MaxInput":               "max-input-bytes",
	"MaxMemory":              "max-memory",
	"MaxSaved":               "max-saved",
	"MaxShrunk":              "max-shrunk",
	"MaxStates":              "max-states",
	"MaxSteps":               "max-steps",
	"Mutant":                 "mutant",
	"NoLiveness":             "no-liveness",
	"NetworkLatencyMs":       "network-latency-ms",
	"NoReduce":               "no-reduction",
	"Offsets":                "offsets",
	"Out":                    "out",
	"Partition":              "partition",
	"ProduceBytesPerSec":     "produce-bytes-per-sec",
	"Profile":                "profile",
	"Profiles":               "profiles",
	"RecordBytes":            "record-bytes",
	"Reexecute":              "reexecute",
	"RemoteFetchMs":          "remote-fetch-ms",
	"RemoteMetadataReadyMs":  "remote-metadata-ready-ms",
	"RemoteUploadMs":         "remote-upload-ms",
	"ReplicationBytesPerSec": "replication-bytes-per-sec",
	"ReplicationFactor":      "replication-factor",
	"ResumeFrom":             "resume-from",
	"SavePath":               "save",
	"Scenario":               "scenario",
	"Seed":                   "seed",
	"Seeds":                  "seeds",
	"Shard":                  "shard",
	"Shrink":                 "shrink",
	"Strategy":               "strategy",
	"Timeline":               "timeline",
	"Topic":                  "topic",
	"Topics":                 "topics",
	"Trace":                  "trace",
	"TracePartition":         "trace-partition",
	"Verbose":                "verbose",
	"Vary":                   "vary",
	"Workers":                "workers",
}

// flagNames spells a config field as the flag that sets it (fieldFlag):
// "Seeds" -> "--seeds"; "" (the text keeps "{Field}") for a field no flag
// sets. The domain packages print their texts through it (config.Names).
func flagNames(field string) string {
	if flag, ok := fieldFlag[field]; ok {
		return "--" + flag
	}
	return ""
}

// fieldFlags is err with the config field it names (config.Error) named as
// the flag that sets it (fieldFlag), so the user reads "--seeds: ...".
// Other errors are unchanged.
func fieldFlags(err error) error {
	return config.Rename(err, flagNames)
}
