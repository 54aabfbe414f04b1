package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/plan"
	"tierfetch/scenarios"
)

// brokerPlanFlags are what plan --broker adds to plan's flags.
type brokerPlanFlags struct {
	broker    int32
	brokerSet bool
	// changed says which flags the command line set.
	changed func(name string) bool
}

// brokerFlagSet adds --broker to fs.
func brokerFlagSet(fs *pflag.FlagSet, f *brokerPlanFlags) {
	fs.Func("broker", "plan the replacement of this broker (its id) by an empty one, from --log-dirs, --topics and --configs\nfor the whole cluster: how long until it is back, flag on and off, and which knob helps most", func(s string) error {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("want a broker id (a whole number >= 0), got %q", s)
		}
		f.broker, f.brokerSet = int32(n), true
		return nil
	})
}

// cmdPlanBroker is simrun plan --broker ID.
func cmdPlanBroker(f *planFlags, stdout io.Writer) (int, error) {
	for _, name := range []string{"offsets", "topic", "partition", "produce-bytes-per-sec"} {
		if f.changed != nil && f.changed(name) {
			return exitBadInput, badInput("plan: --%s is not read with --broker (the broker plan reads --log-dirs, --topics and --configs for the whole cluster)", name)
		}
	}
	in := plan.BrokerInput{Broker: f.broker, Env: f.Env, Workers: max(1, f.Workers), SavePath: f.SavePath, Names: flagNames}
	if f.changed != nil && f.changed("seeds") {
		from, to, err := campaign.ParseSeeds(f.Seeds)
		if err != nil {
			return exitBadInput, badInput("plan: --seeds: %v", err)
		}
		in.SeedFrom, in.SeedTo = from, to
	}
	if f.Profile != "" {
		profiles, err := harness.ParseProfileList("Profile", f.Profile)
		if err != nil {
			return exitBadInput, badInput("plan: %v", err)
		}
		in.Profiles = profiles
	}
	read := func(flag, name string, parse func(string, []byte) error) error {
		if name == "" {
			return nil
		}
		data, err := scenarios.ReadLimited(name, int64(f.maxInput))
		if err != nil {
			return badInput("plan: --%s: %v", flag, err)
		}
		if err := parse(name, data); err != nil {
			return badInput("plan: %v", err)
		}
		return nil
	}
	if err := read("log-dirs", f.LogDirs, func(n string, d []byte) (err error) { in.LogDirs, err = plan.ParseLogDirs(n, d); return }); err != nil {
		return exitBadInput, err
	}
	if err := read("topics", f.Topics, func(n string, d []byte) (err error) { in.Topics, err = plan.ParseTopics(n, d); return }); err != nil {
		return exitBadInput, err
	}
	if err := read("configs", f.Configs, func(n string, d []byte) (err error) { in.Configs, err = plan.ParseConfigs(n, d); return }); err != nil {
		return exitBadInput, err
	}
	if err := checkOutputs([]outfile.Named{{Flag: "--save", Path: f.SavePath}}, f.inputs()); err != nil {
		return exitBadInput, err
	}
	if in.Topics != nil {
		allowPartitions(in.Topics.PartitionCount(), in.Workers)
	}
	r, _, data, err := plan.MakeBroker(in)
	if err != nil {
		return exitBadInput, badInput("plan: %v", err)
	}
	return printPlan(f, r, data, stdout)
}
