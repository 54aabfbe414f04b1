package plan

import (
	"fmt"

	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/harness"
)

// Files names what 'simrun plan' reads: the saved output of Kafka's tools,
// and the choices of its flags.
type Files struct {
	Offsets                  []string // TIME=FILE, each a kafka-get-offsets.sh output
	Configs, LogDirs, Topics string   // file names, "" when not given
	Topic                    string
	Partition                int32
	Seeds                    string // A..B
	Profile                  string // comma-separated, "" for all
	Fix                      string // fixes of Kafka's code every run has on
	Env                      Env
	Workers                  int
	SavePath                 string
}

// maxPlanSeeds bounds the seeds of a plan: its work budget is shared by
// every run, so more seeds only shorten each.
const maxPlanSeeds = 10_000

// ReadInput parses the tool outputs files names, reading each with read (a
// size-limited file reader), and checks the seeds and profiles.
func ReadInput(f Files, read func(name string) ([]byte, error)) (*Input, error) {
	in := &Input{Topic: f.Topic, Partition: f.Partition, Env: f.Env, Workers: max(1, f.Workers), SavePath: f.SavePath}
	from, to, err := campaign.ParseSeeds(f.Seeds)
	if err != nil {
		return nil, config.Errorf("Seeds", "{Seeds}: %v", err)
	}
	if to-from >= maxPlanSeeds {
		return nil, config.Errorf("Seeds", "{Seeds}: at most %d seeds for a plan, got %q", maxPlanSeeds, f.Seeds)
	}
	in.SeedFrom, in.SeedTo = from, to
	if f.Profile != "" {
		if in.Profiles, err = harness.ParseProfileList("Profile", f.Profile); err != nil {
			return nil, err
		}
	}
	if in.Fixes, err = harness.ParseFixes(f.Fix); err != nil {
		return nil, err
	}
	if len(f.Offsets) == 0 {
		return nil, config.Errorf("Offsets", "plan: {Offsets} earliest=FILE and {Offsets} latest=FILE are required (kafka-get-offsets.sh output); see simrun plan --help")
	}
	seen := map[Time]string{}
	for _, arg := range f.Offsets {
		t, name, err := ParseOffsetsArg(arg)
		if err != nil {
			return nil, config.Errorf("Offsets", "plan: {Offsets}: %v", err)
		}
		if prev, dup := seen[t]; dup {
			return nil, config.Errorf("Offsets", "plan: {Offsets}: %s given twice (%s and %s)", t, prev, name)
		}
		seen[t] = name
	}
	for _, arg := range f.Offsets {
		t, name, _ := ParseOffsetsArg(arg)
		data, err := read(name)
		if err != nil {
			return nil, config.Errorf("Offsets", "plan: {Offsets} %s: %v", arg, err)
		}
		of, err := ParseOffsets(name, t, data)
		if err != nil {
			return nil, fmt.Errorf("plan: %v", err)
		}
		in.Offsets = append(in.Offsets, of)
	}
	return in, f.readOthers(in, read)
}

// readOthers reads the Configs, LogDirs and Topics files.
func (f Files) readOthers(in *Input, read func(string) ([]byte, error)) error {
	readOne := func(field, name string, parse func(string, []byte) error) error {
		if name == "" {
			return nil
		}
		data, err := read(name)
		if err != nil {
			return config.Errorf(field, "plan: {"+field+"}: %v", err)
		}
		if err := parse(name, data); err != nil {
			return fmt.Errorf("plan: %v", err)
		}
		return nil
	}
	if err := readOne("Configs", f.Configs, func(n string, d []byte) (err error) { in.Configs, err = ParseConfigs(n, d); return }); err != nil {
		return err
	}
	if err := readOne("LogDirs", f.LogDirs, func(n string, d []byte) (err error) { in.LogDirs, err = ParseLogDirs(n, d); return }); err != nil {
		return err
	}
	return readOne("Topics", f.Topics, func(n string, d []byte) (err error) { in.Topics, err = ParseTopics(n, d); return })
}
