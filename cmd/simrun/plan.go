package main

import (
	"fmt"
	"io"
	"runtime"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/plan"
	"tierfetch/scenarios"
)

// planFlags are simrun plan's flags: the files and settings a plan is
// read from, and how to print it. The plan package does the work.
type planFlags struct {
	plan.Files
	brokerPlanFlags
	json     bool
	maxInput scenarios.InputFlag
}

// planFlagSet adds plan's flags to fs.
func planFlagSet(fs *pflag.FlagSet, f *planFlags) {
	f.Env = plan.DefaultEnv()
	fs.Func("offsets", "TIME=FILE: saved output of kafka-get-offsets.sh --time TIME (repeat it; TIME earliest|-2, earliest-local|-4,\nlatest-tiered|-5, earliest-pending-upload|-6, latest|-1; earliest and latest required)", func(s string) error {
		f.Offsets = append(f.Offsets, s)
		return nil
	})
	fs.StringVar(&f.Configs, "configs", "", "saved output of kafka-configs.sh --describe --all --entity-type topics --entity-name TOPIC\n(may be followed by the leader broker's: --entity-type brokers --entity-name ID)")
	fs.StringVar(&f.LogDirs, "log-dirs", "", "saved output of kafka-log-dirs.sh --describe --topic-list TOPIC (gives the record size)")
	fs.StringVar(&f.Topics, "topics", "", "saved output of kafka-topics.sh --describe --topic TOPIC (gives the leader and the ISR)")
	fs.StringVar(&f.Topic, "topic", "", "the topic to plan for (default: the only one in the offsets files)")
	f.Partition = -1
	fs.Func("partition", "the partition to plan for (default: the only one in the offsets files)", func(s string) error {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("want a partition number, got %q", s)
		}
		f.Partition = int32(n)
		return nil
	})
	fs.StringVar(&f.Seeds, "seeds", fmt.Sprintf("%d..%d", plan.DefaultSeedFrom, plan.DefaultSeedTo), "seeds every profile and strategy runs, A..B")
	fs.StringVar(&f.Profile, "profile", "", "behaviour profiles to run, comma-separated (default: all: "+harness.ProfileNames()+")")
	fixFlag(fs, &f.Fix)
	fs.StringVar(&f.SavePath, "save", "", "write the scenario the plan built here (simrun run --scenario FILE replays it)")
	maxInputVar(fs, &f.maxInput)
	fs.Lookup("max-input-bytes").Usage = "the size limit of each tool output file: a longer (or endless) file is refused"
	fs.BoolVar(&f.json, "json", false, "print the plan object (docs/reference/result.md) instead of text")
	fs.IntVar(&f.Workers, "workers", runtime.NumCPU(), "simulations run in parallel (the output does not depend on it)")
	envFlags(fs, &f.Env)
	brokerFlagSet(fs, &f.brokerPlanFlags)
}

func newPlanCmd(c *cli) *cobra.Command {
	var f planFlags
	cmd := &cobra.Command{
		Use:   "plan --offsets earliest=FILE --offsets latest=FILE [--offsets TIME=FILE ...] [--configs FILE] [--log-dirs FILE] [--topics FILE] [--topic T] [--partition P]",
		Short: "from Kafka's tools' saved output for one partition: should the flag be on? (docs/guide/plan.md)",
		Long:  help("plan"),
		Args:  noArgs,
		RunE: c.action(func(cmd *cobra.Command, _ []string) (int, error) {
			f.changed = cmd.Flags().Changed
			return cmdPlan(&f, c.stdout)
		}),
	}
	planFlagSet(cmd.Flags(), &f)
	return cmd
}

// envFlags registers what the tools cannot tell (plan.Env's fields, each
// named in fieldFlag); a flag the user sets is recorded in env.Given.
func envFlags(fs *pflag.FlagSet, env *plan.Env) {
	set := func(field string) func(string) error {
		return func(s string) error { return env.Set(field, s) }
	}
	fs.Func("produce-bytes-per-sec", "bytes produced to the partition a second (default 1MiB)", set(plan.FieldProduce))
	fs.Func("replication-bytes-per-sec", "replication bandwidth out of the leader, bytes a second (default 100MiB)", set(plan.FieldReplication))
	fs.Func("record-bytes", "bytes a record (default: from --log-dirs, else 1024)", set(plan.FieldRecordBytes))
	fs.Func("network-latency-ms", "network latency MIN,MAX in ms (default 1,5)", set(plan.FieldNetworkLatency))
	fs.Func("remote-fetch-ms", "remote storage read latency MIN,MAX in ms (default 20,200)", set(plan.FieldRemoteFetch))
	fs.Func("remote-upload-ms", "segment upload time MIN,MAX in ms (default 50,500)", set(plan.FieldRemoteUpload))
	fs.Func("remote-metadata-ready-ms", "ms until remote log metadata is ready after a broker starts, leads or is assigned (default 0)", set(plan.FieldMetadataReady))
	fs.Func("replication-factor", "replicas, all in sync, when --topics is not given (default 3)", set(plan.FieldReplicationFactor))
}

func cmdPlan(f *planFlags, stdout io.Writer) (int, error) {
	if f.brokerSet {
		return cmdPlanBroker(f, stdout)
	}
	in, err := f.input()
	if err != nil {
		return exitBadInput, err
	}
	// --save is checked before the runs: a plan is not lost to a missing
	// directory, nor saved over one of the files it was made from.
	if err := checkOutputs([]outfile.Named{{Flag: "--save", Path: f.SavePath}}, f.inputs()); err != nil {
		return exitBadInput, err
	}
	in.Names = flagNames
	r, _, data, err := plan.Make(*in)
	if err != nil {
		return exitBadInput, badInput("plan: %v", err)
	}
	return printPlan(f, r, data, stdout)
}

// printPlan saves the scenario a plan made (--save) and prints the plan.
func printPlan(f *planFlags, r interface {
	WriteJSON(io.Writer) error
	WriteText(io.Writer) error
}, data []byte, stdout io.Writer) (int, error) {
	if f.SavePath != "" {
		if err := outfile.WriteAtomic(f.SavePath, data); err != nil {
			return exitBadInput, badInput("plan: --save: %v", err)
		}
	}
	if f.json {
		return exitOK, r.WriteJSON(stdout)
	}
	return exitOK, r.WriteText(stdout)
}

// inputs are the files the flags name, to keep --save from.
func (f *planFlags) inputs() []outfile.Named {
	in := []outfile.Named{{Flag: "--configs", Path: f.Configs}, {Flag: "--log-dirs", Path: f.LogDirs}, {Flag: "--topics", Path: f.Topics}}
	for _, arg := range f.Offsets {
		if _, name, err := plan.ParseOffsetsArg(arg); err == nil {
			in = append(in, outfile.Named{Flag: "--offsets " + arg, Path: name})
		}
	}
	return in
}

// input reads the files the flags name (plan.ReadInput parses them).
func (f *planFlags) input() (*plan.Input, error) {
	in, err := plan.ReadInput(f.Files, func(name string) ([]byte, error) { return scenarios.ReadLimited(name, int64(f.maxInput)) })
	if err != nil {
		return nil, badInput("%v", err)
	}
	return in, nil
}
