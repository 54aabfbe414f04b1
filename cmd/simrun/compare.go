package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/reports"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

type compareFlags struct {
	scenario  string
	generated bool
	seeds     string
	out       string
	vary      string
	workers   int
	profile   string // shorthand for --profiles with one profile
	profiles  string
	shard     string // "" runs every pair
	jsonl     string // with --shard: the shard file to write
	maxSteps  stepsFlag
	maxInput  inputFlag
	// resumeFrom is the first job of an interrupted comparison to run
	// (with --jsonl): the jobs before it are in the interrupted part.
	resumeFrom int
}

// produceScaleKey is the --vary key that scales every produce event's record
// count (the other keys are config fields of the scenario file).
const produceScaleKey = "produce_scale"

// defaultProfiles is --profiles when not given: the statistics on the KIP
// text, and the same pairs under Kafka 4.3.0's code and Kafka trunk's.
const defaultProfiles = "kip,kafka-4.3,kafka-trunk"

// The default comparison (every named scenario, nothing varied) also runs
// this parameter sweep, the headline curve of the catch-up ratio against
// the leader's local log, and reports it beside the statistics.
const (
	defaultSweepScenario = "local-retention-sweep"
	defaultSweepKey      = "local_retention_bytes"
	defaultSweepValues   = "1048576,5242880,10485760,20971520,41943040,-2"
	defaultSweepOut      = "local-retention-sweep-out"
)

// compareFlagSet adds compare's flags to fs.
func compareFlagSet(fs *pflag.FlagSet, f *compareFlags) {
	fs.StringVar(&f.scenario, "scenario", "", "a named scenario or a scenario file (default: every named scenario with an add_replica event, findings aside)")
	fs.BoolVar(&f.generated, "generated", false, "compare on the scenario each seed generates (see 'simrun gen')")
	fs.StringVar(&f.seeds, "seeds", "1..20", "seed range A..B (inclusive), or one seed")
	fs.StringVar(&f.out, "out", "compare-out", "directory for report.md, runs.csv and the charts")
	fs.StringVar(&f.vary, "vary", "", "sweep one parameter: KEY=V1,V2,... where KEY is a config field of the scenario file\n(e.g. local_retention_bytes, replication_bytes_per_sec, remote_log_manager_task_interval_ms)\nor "+produceScaleKey+" (multiplies every produce event's records)")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "pairs run in parallel (the output does not depend on it)")
	fs.StringVar(&f.profiles, "profiles", defaultProfiles, "behaviour profiles, comma-separated: "+profileNames()+";\nthe statistics use the first, the report compares them all")
	fs.StringVar(&f.profile, "profile", "", "one behaviour profile: the same as --profiles P")
	fs.StringVar(&f.shard, "shard", "", "run only shard K of N: the pairs whose index in the job list is K modulo N\n(with --jsonl; 'simrun merge' renders the report)")
	fs.StringVar(&f.jsonl, "jsonl", "", "write the pairs (of the shard, with --shard) to this file as JSON Lines instead of a report;\n'simrun merge' renders the report")
	fs.IntVar(&f.resumeFrom, "resume-from", 0, "with --jsonl: run only the jobs from this one on (the rest of an interrupted comparison)")
	maxStepsVar(fs, &f.maxSteps)
	maxInputVar(fs, &f.maxInput)
}

const compareLong = `Runs both follower protocols on every seed (the same seed gives both the same
exogenous events) and writes, in --out: report.md (setup, headline numbers,
charts, exclusions, the command that regenerates it), runs.csv (one row per
seed, strategy, scenario, varied value and profile, every metric) and SVG
charts: the catch-up ratio against the leader's local log fraction, the CDF
of catch-up time, the paired per-seed scatter, a timeline of one seed and,
with --vary, the parameter sweep. Only pairs where both runs pass every
invariant enter the statistics; the report says how many were excluded and
why. The statistics use the first of --profiles; the report compares the
same pairs under every profile (default: the KIP text and Kafka 4.3).
The default comparison (every named scenario that adds a replica, findings
aside, nothing varied) also sweeps ` + defaultSweepKey + ` on ` + defaultSweepScenario + `
(` + defaultSweepValues + `, the first profile) for the headline curve.
Ctrl-C (SIGINT) or SIGTERM stops at a pair boundary: the pairs done are
saved as JSON Lines (in --jsonl, or --out/pairs.jsonl) with a header that says
where it stopped, and the command that resumes (--resume-from) and the merge
that renders the report are printed.
--shard K/N --jsonl FILE runs only the pairs whose index in the job list
(profile, varied value, scenario, seed; the default sweep's pairs after
the comparison's) is K modulo N and writes them to FILE instead of a report;
'simrun merge --out DIR FILE...' folds the files of every shard into the
report the whole comparison writes with --out DIR, byte for byte.
Exit codes: 0 report written, 4 report written but a run reached its work budget
(--max-steps; such pairs are excluded and named), or a scenario is predicted to
(nothing runs), 2 bad input or an output that could not be written, 130/143
stopped by SIGINT/SIGTERM.
`

func newCompareCmd(c *cli) *cobra.Command {
	s := &compareSetup{}
	cmd := &cobra.Command{
		Use:   "compare [--scenario NAME|FILE | --generated] [--seeds A..B] [--out DIR] [--vary KEY=V1,V2,...] [--profiles P1,P2] [--workers N] [--shard K/N --jsonl FILE]",
		Short: "both protocols on the same seeds: report.md, runs.csv and charts of catch-up time and its costs",
		Long:  compareLong,
		Args:  noArgs,
		RunE: c.action(func(cmd *cobra.Command, _ []string) (int, error) {
			if err := s.setup(cmd.Flags()); err != nil {
				return exitBadInput, err
			}
			return cmdCompare(s, c.stdout, c.stderr)
		}),
	}
	compareFlagSet(cmd.Flags(), &s.f)
	return cmd
}

// compareSetup is a parsed compare command.
type compareSetup struct {
	f          compareFlags
	from, to   uint64
	profiles   []model.Profile       // the statistics use the first
	scenarios  []*scenarios.Scenario // nil with --generated
	varyKey    string
	varyValues []string
	// sweep is the parameter sweep the default comparison runs beside
	// its statistics, nil otherwise.
	sweep *compareSetup
	// shard is the part of the pairs this run computes (--shard), and
	// args the flags that fix the comparison (all but --shard, --jsonl,
	// --out and --workers), normalized, for the shard file's header.
	shard fuzz.Shard
	args  []string
}

func cmdCompare(s *compareSetup, stdout, stderr io.Writer) (int, error) {
	if err := s.checkScenarios(); err != nil {
		return errorCode(err), err
	}
	if s.sweep != nil {
		if err := s.sweep.checkScenarios(); err != nil {
			return errorCode(err), err
		}
	}
	ctx, received, stop := catchSignals()
	defer stop()
	if s.f.jsonl != "" {
		return s.writeShard(ctx, received, stdout, stderr)
	}
	// A bad --out fails before the pairs run (report makes it too).
	if err := ensureOutDir("--out", s.f.out); err != nil {
		return exitBadInput, err
	}
	run := s.runJobs(ctx, stderr)
	if !run.complete {
		part := filepath.Join(s.f.out, "pairs.jsonl")
		if err := s.writePart(part, run); err != nil {
			return exitBadInput, badInput("--out: %v", err)
		}
		s.printResume(stdout, received(), run, part)
		return signalExit(received()), nil
	}
	return s.report(run.pairs, run.sweepPairs, stdout)
}

// report renders the comparison of pairs (every job's, in job order, and
// the default sweep's), writes it to --out and prints its summary.
func (s *compareSetup) report(pairs, sweepPairs []reports.ComparePair, stdout io.Writer) (int, error) {
	if err := os.MkdirAll(s.f.out, 0o755); err != nil {
		return exitBadInput, badInput("--out: %v", err)
	}
	in := s.input(pairs)
	in.FindingsLink = findingsLink(s.f.out)
	if s.sweep != nil {
		in.Sweep = s.sweep.input(sweepPairs)
		in.Sweep.About = s.sweep.scenarios[0].Description
	}
	files, a, err := s.render(in)
	if err != nil {
		return exitBadInput, fmt.Errorf("compare: rendering: %w", err)
	}
	for _, name := range sortStrings(mapKeys(files)) {
		if err := writeFileAtomic(filepath.Join(s.f.out, name), files[name]); err != nil {
			return exitBadInput, badInput("--out: %v", err)
		}
	}
	if _, ok := files[reports.ChartSweep]; !ok {
		stale := filepath.Join(s.f.out, reports.ChartSweep) // a sweep chart of an earlier report
		if fi, err := os.Lstat(stale); err == nil && fi.Mode().IsRegular() {
			os.Remove(stale)
		}
	}
	fmt.Fprintf(stdout, "compare: %d pairs, %d in the statistics, %d excluded", a.All.Pairs, a.All.Included, a.All.Pairs-a.All.Included)
	if a.All.RatioN > 0 {
		fmt.Fprintf(stdout, "; catch-up ratio last-tiered/local-log-start %.2fx (95%% CI %.2f to %.2f), win rate %.0f%%",
			a.All.GeoMean, a.All.CILo, a.All.CIHi, 100*a.All.WinRate)
	} else {
		fmt.Fprintf(stdout, "; no pair to compare catch-up times on")
	}
	fmt.Fprintln(stdout)
	if pc := a.Profiles; pc != nil {
		for i := 1; i < len(pc.Profiles); i++ {
			fmt.Fprintf(stdout, "profile %s: %d runs, %d broke an invariant (listed in the report, not in the statistics)\n",
				pc.Profiles[i], pc.Runs[i], pc.Failed[i])
		}
	}
	if a.Sweep != nil {
		fmt.Fprintf(stdout, "sweep %s on %s: %d pairs, %d in the statistics\n", s.sweep.varyKey, defaultSweepScenario,
			a.Sweep.All.Pairs, a.Sweep.All.Included)
	}
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(s.f.out, "report.md"))
	if n := budgetRuns(pairs) + budgetRuns(sweepPairs); n > 0 {
		fmt.Fprintf(stdout, "%d runs reached the work budget of %d steps (excluded, named in the report): raise --max-steps\n", n, s.f.maxSteps)
		return exitBudget, nil
	}
	return exitOK, nil
}

// budgetRuns counts the runs of pairs stopped by their work budget.
func budgetRuns(pairs []reports.ComparePair) int {
	n := 0
	for _, p := range pairs {
		for _, r := range []*harness.RunMetrics{p.Local, p.Tiered} {
			if r != nil && r.Outcome == harness.OutcomeBudget {
				n++
			}
		}
	}
	return n
}

// errorCode is the exit code of an error found before any run: 4 when a
// scenario's predicted cost exceeds the work budget, 2 otherwise.
func errorCode(err error) int {
	var be *harness.BudgetError
	if errors.As(err, &be) {
		return exitBudget
	}
	return exitBadInput
}

// input gathers the comparison of pairs, every job's in job order: the
// first profile's pairs for the statistics, the others' beside them.
func (s *compareSetup) input(pairs []reports.ComparePair) *reports.CompareInput {
	in := &reports.CompareInput{Command: s.command(), Generated: s.f.generated, Seeds: fmt.Sprintf("%d..%d", s.from, s.to),
		Profile: s.profiles[0].Name(), VaryKey: s.varyKey, VaryValues: s.varyValues}
	for _, sc := range s.scenarios {
		in.Scenarios = append(in.Scenarios, sc.Name)
	}
	per := len(pairs) / len(s.profiles)
	in.Pairs = pairs[:per]
	for i, p := range s.profiles[1:] {
		in.Others = append(in.Others, reports.ProfilePairs{Profile: p.Name(), Pairs: pairs[(i+1)*per : (i+2)*per]})
	}
	return in
}

// findingsLink is the link from the report in out to FINDINGS.md, when
// simrun runs at the repository root and out is relative (so the link does
// not depend on where the repository is); "" otherwise.
func findingsLink(out string) string {
	if filepath.IsAbs(out) {
		return ""
	}
	if _, err := os.Stat("FINDINGS.md"); err != nil {
		return ""
	}
	rel, err := filepath.Rel(out, "FINDINGS.md")
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

func mapKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// maxComparePairs bounds the pairs of one comparison (every profile, varied
// value, scenario and seed, and the default sweep's): each is kept until
// the report is written, a few kilobytes apiece.
const maxComparePairs = 200_000

// checkPairs refuses a comparison of more than maxComparePairs pairs before
// anything runs (or is generated).
func (s *compareSetup) checkPairs() error {
	seeds := s.to - s.from + 1
	per := uint64(len(s.profiles) * max(1, len(s.varyValues)) * max(1, len(s.scenarios)))
	if seeds*per > maxComparePairs {
		return badInput("compare: %d seeds x %d profiles, values and scenarios = %d pairs, at most %d: split it with --shard or fewer seeds",
			seeds, per, seeds*per, maxComparePairs)
	}
	return nil
}

// parseCompare parses compare's flags from args (merge reads a shard's).
func parseCompare(args []string) (*compareSetup, error) {
	s := &compareSetup{}
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	compareFlagSet(fs, &s.f)
	if err := fs.Parse(args); err != nil {
		return nil, badInput("compare: %v", err)
	}
	if fs.NArg() > 0 {
		return nil, badInput("compare: unexpected argument %q", fs.Arg(0))
	}
	if err := s.setup(fs); err != nil {
		return nil, err
	}
	return s, nil
}

// setup checks the flags fs parsed into s.f and derives the comparison.
func (s *compareSetup) setup(fs *pflag.FlagSet) (err error) {
	fs.Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "shard", "jsonl", "out", "workers", "resume-from":
		default:
			s.args = append(s.args, "--"+f.Name+"="+f.Value.String())
		}
	})
	if err := s.parseShard(); err != nil {
		return err
	}
	if s.from, s.to, err = parseSeeds(s.f.seeds); err != nil {
		return err
	}
	if s.to-s.from >= 1_000_000 {
		return badInput("--seeds: at most 1000000 seeds, got %q", s.f.seeds)
	}
	defer func() {
		if err == nil {
			err = s.checkPairs()
		}
	}()
	if err := s.parseProfiles(fs); err != nil {
		return err
	}
	if s.f.workers < 1 || s.f.workers > 1024 {
		return badInput("--workers: want 1..1024, got %d", s.f.workers)
	}
	if s.f.out == "" {
		return badInput("--out: want a directory, got an empty name")
	}
	switch {
	case s.f.generated && s.f.scenario != "":
		return badInput("compare: give --scenario or --generated, not both")
	case s.f.generated:
	case s.f.scenario != "":
		sc, err := scenarios.ResolveMax(s.f.scenario, int64(s.f.maxInput))
		if err != nil {
			return badInput("--scenario: %v", err)
		}
		s.scenarios = []*scenarios.Scenario{sc}
	default:
		s.scenarios = defaultCompareSet()
	}
	if s.f.vary != "" {
		if s.varyKey, s.varyValues, err = parseVary(s.f.vary); err != nil {
			return err
		}
	}
	if !s.f.generated && s.f.scenario == "" && s.f.vary == "" {
		s.sweep = s.defaultSweep()
	}
	return nil
}

// parseProfiles reads --profiles (or --profile, its one-profile form).
func (s *compareSetup) parseProfiles(fs *pflag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *pflag.Flag) { set[f.Name] = true })
	name, list := "--profiles", s.f.profiles
	if set["profile"] {
		if set["profiles"] {
			return badInput("--profile: give --profile or --profiles, not both")
		}
		name, list = "--profile", s.f.profile
		if strings.Contains(list, ",") {
			return badInput("--profile: want one profile (use --profiles for several), got %q", list)
		}
	}
	seen := map[string]bool{}
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		prof, ok := model.Profiles[p]
		if !ok {
			return badInput("%s: want profiles from %s, comma-separated, got %q", name, profileNames(), p)
		}
		if seen[p] {
			return badInput("%s: profile %q given twice", name, p)
		}
		seen[p] = true
		s.profiles = append(s.profiles, prof)
	}
	s.f.profiles = strings.Join(profileList(s.profiles), ",")
	return nil
}

func profileList(ps []model.Profile) []string {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name())
	}
	return names
}

// defaultSweep is the sweep the default comparison runs beside its
// statistics: the same seeds and workers, the first profile.
func (s *compareSetup) defaultSweep() *compareSetup {
	sc, ok := scenarios.Lookup(defaultSweepScenario)
	if !ok {
		panic("compare: no named scenario " + defaultSweepScenario)
	}
	sw := &compareSetup{f: s.f, from: s.from, to: s.to, profiles: s.profiles[:1], scenarios: []*scenarios.Scenario{sc},
		varyKey: defaultSweepKey, varyValues: strings.Split(defaultSweepValues, ",")}
	sw.f.scenario, sw.f.vary, sw.f.out = defaultSweepScenario, defaultSweepKey+"="+defaultSweepValues, defaultSweepOut
	sw.f.profiles = s.profiles[0].Name()
	return sw
}

// defaultCompareSet is the named scenarios that add a replica, known
// findings aside.
func defaultCompareSet() []*scenarios.Scenario {
	var out []*scenarios.Scenario
	for _, sc := range scenarios.Named() {
		if strings.HasPrefix(sc.Name, "finding-") {
			continue
		}
		for _, e := range sc.Events {
			if e.Type == scenarios.EventAddReplica {
				out = append(out, sc)
				break
			}
		}
	}
	return out
}

// parseVary reads KEY=V1,V2,...: KEY a config field of the scenario file
// or produce_scale, each value a JSON number or boolean.
func parseVary(s string) (string, []string, error) {
	key, list, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" || list == "" {
		return "", nil, badInput("--vary: want KEY=V1,V2,..., got %q", s)
	}
	if key != produceScaleKey {
		if _, known := configKeys()[key]; !known {
			return "", nil, badInput("--vary: unknown key %q (want a config field of the scenario file, e.g. %s, or %s)",
				key, strings.Join(sortStrings(mapKeysAny(configKeys())), ", "), produceScaleKey)
		}
	}
	var values []string
	seen := map[string]bool{}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		var x any
		if err := json.Unmarshal([]byte(v), &x); err != nil {
			return "", nil, badInput("--vary %s: value %q is not a number or a boolean", key, v)
		}
		switch x := x.(type) {
		case float64:
			if key == produceScaleKey && !(x > 0 && x <= 1000) {
				return "", nil, badInput("--vary %s: want a factor in (0, 1000], got %q", key, v)
			}
		case bool:
			if key == produceScaleKey {
				return "", nil, badInput("--vary %s: want a number, got %q", key, v)
			}
		default:
			return "", nil, badInput("--vary %s: value %q is not a number or a boolean", key, v)
		}
		if seen[v] {
			return "", nil, badInput("--vary %s: value %q given twice", key, v)
		}
		seen[v] = true
		values = append(values, v)
	}
	if len(values) > 100 {
		return "", nil, badInput("--vary %s: at most 100 values, got %d", key, len(values))
	}
	return key, values, nil
}

// configKeys is the config fields of a scenario file.
func configKeys() map[string]any {
	data, err := json.Marshal(scenarios.DefaultConfig())
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		panic(err)
	}
	delete(m, "follower_fetch_last_tiered_offset_enable") // set by the strategy: varying it makes no comparison
	return m
}

func mapKeysAny(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// scenario returns the scenario of one pair: named or file scenario i (or
// the seed's generated one), with the varied value v applied.
func (s *compareSetup) scenario(v, i int, seed uint64) (*scenarios.Scenario, error) {
	var sc *scenarios.Scenario
	if s.scenarios == nil {
		sc = fuzz.Generate(seed)
	} else {
		sc = s.scenarios[i]
	}
	if s.varyKey == "" {
		return sc, nil
	}
	return applyVary(sc, s.varyKey, s.varyValues[v])
}

// applyVary returns sc with key set to value, validated as a scenario file
// is.
func applyVary(sc *scenarios.Scenario, key, value string) (*scenarios.Scenario, error) {
	data, err := sc.Marshal()
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if key == produceScaleKey {
		var factor float64
		fmt.Sscan(value, &factor)
		var events []map[string]json.RawMessage
		if err := json.Unmarshal(doc["events"], &events); err != nil {
			return nil, err
		}
		for _, e := range events {
			var typ string
			json.Unmarshal(e["type"], &typ)
			if typ != scenarios.EventProduce {
				continue
			}
			var n int64
			json.Unmarshal(e["records"], &n)
			e["records"] = json.RawMessage(fmt.Sprint(max(1, int64(math.Round(float64(n)*factor)))))
		}
		if doc["events"], err = json.Marshal(events); err != nil {
			return nil, err
		}
	} else {
		var cfg map[string]json.RawMessage
		if err := json.Unmarshal(doc["config"], &cfg); err != nil {
			return nil, err
		}
		cfg[key] = json.RawMessage(value)
		if doc["config"], err = json.Marshal(cfg); err != nil {
			return nil, err
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	varied, err := scenarios.Parse(out)
	if err != nil {
		return nil, badInput("--vary %s=%s on scenario %s: %v", key, value, sc.Name, err)
	}
	return varied, nil
}

// checkScenarios builds every varied scenario before anything runs, so a
// bad value is reported, with exit code 2, before any work; and checks that
// no scenario file or named one is predicted to exceed the work budget
// (exit 4).
func (s *compareSetup) checkScenarios() error {
	for _, sc := range s.scenarios {
		if err := harness.CheckBudget(sc, int64(s.f.maxSteps)); err != nil {
			return err
		}
	}
	if s.varyKey == "" {
		return nil
	}
	for v := range s.varyValues {
		if s.scenarios == nil {
			for seed := range fuzz.SeedRange(s.from, s.to) {
				if _, err := s.scenario(v, 0, seed); err != nil {
					return err
				}
			}
			continue
		}
		for i := range s.scenarios {
			sc, err := s.scenario(v, i, s.from)
			if err != nil {
				return err
			}
			if err := harness.CheckBudget(sc, int64(s.f.maxSteps)); err != nil {
				return err
			}
		}
	}
	return nil
}

// command is the command that regenerates the report.
func (s *compareSetup) command() string {
	parts := []string{"go run ./cmd/simrun compare"}
	switch {
	case s.f.generated:
		parts = append(parts, "--generated")
	case s.f.scenario != "":
		parts = append(parts, "--scenario "+s.f.scenario)
	}
	parts = append(parts, fmt.Sprintf("--seeds %d..%d", s.from, s.to))
	if s.varyKey != "" {
		parts = append(parts, "--vary "+s.varyKey+"="+strings.Join(s.varyValues, ","))
	}
	if s.f.profiles != defaultProfiles {
		parts = append(parts, "--profiles "+s.f.profiles)
	}
	return strings.Join(append(parts, "--out "+s.f.out), " ")
}

// compareJob is one pair to run: a profile, a varied value, a scenario, a
// seed.
type compareJob struct {
	profile, vary, scenario int
	seed                    uint64
}

// jobs lists the pairs by profile, then varied value, scenario and seed.
func (s *compareSetup) jobs() []compareJob {
	values := max(1, len(s.varyValues))
	nsc := max(1, len(s.scenarios))
	var jobs []compareJob
	for p := range s.profiles {
		for v := range values {
			for i := range nsc {
				for seed := range fuzz.SeedRange(s.from, s.to) {
					jobs = append(jobs, compareJob{profile: p, vary: v, scenario: i, seed: seed})
				}
			}
		}
	}
	return jobs
}

// runAll runs the pairs of the jobs held (by index) on s.f.workers
// goroutines; each result lands at its job's index (the others stay zero),
// so the output does not depend on the number of workers. When ctx ends,
// no job starts; done says which ran.
func (s *compareSetup) runAll(ctx context.Context, stderr io.Writer, held func(i int) bool) (pairs []reports.ComparePair, done []bool) {
	jobs := s.jobs()
	pairs = make([]reports.ComparePair, len(jobs))
	done = make([]bool, len(jobs))
	var todo []int
	for i := range jobs {
		if held(i) {
			todo = append(todo, i)
		}
	}
	next := make(chan int)
	finished := make(chan int, s.f.workers)
	var wg sync.WaitGroup
	for range s.f.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				pairs[i] = s.runPair(jobs[i])
				finished <- i
			}
		}()
	}
	go func() {
		defer close(next)
		for _, i := range todo {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(finished) }()
	start := time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	n := 0
	for {
		select {
		case i, ok := <-finished:
			if !ok {
				s.progress(stderr, n, len(todo), start, true)
				return pairs, done
			}
			done[i] = true
			n++
		case <-tick.C:
			s.progress(stderr, n, len(todo), start, false)
		}
	}
}

func (s *compareSetup) runPair(j compareJob) reports.ComparePair {
	sc, err := s.scenario(j.vary, j.scenario, j.seed)
	if err != nil {
		panic(fmt.Sprintf("compare: scenario checked before running: %v", err)) // validated up front
	}
	prof := s.profiles[j.profile]
	p := reports.ComparePair{Scenario: sc.Name, Seed: j.seed, Profile: prof.Name()}
	if s.f.generated {
		p.Scenario = "generated"
	}
	if s.varyKey != "" {
		p.VaryValue = s.varyValues[j.vary]
	}
	opt := harness.Options{Seed: j.seed, Profile: prof, MaxSteps: int64(s.f.maxSteps)}
	opt.Strategy = harness.LocalLogStart
	p.Local, _ = harness.Measure(sc, opt)
	opt.Strategy = harness.LastTiered
	p.Tiered, _ = harness.Measure(sc, opt)
	return p
}

// progress shows pairs done, rate and time left on a terminal.
func (s *compareSetup) progress(stderr io.Writer, done, total int, start time.Time, final bool) {
	if !isTerminal(stderr) {
		return
	}
	elapsed := time.Since(start).Seconds()
	rate := float64(done) / max(elapsed, 1e-9)
	left := "?"
	if rate > 0 {
		left = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(stderr, "\rcompare: pairs %d/%d  %.0f/s  time left %s   ", done, total, rate, left)
	if final {
		fmt.Fprintln(stderr)
	}
}

// render builds every output file in memory: nothing is written unless all
// of them could be made.
func (s *compareSetup) render(in *reports.CompareInput) (map[string][]byte, *reports.Analysis, error) {
	a := reports.Analyze(in)
	files := map[string][]byte{}
	var csvBuf bytes.Buffer
	if err := reports.CompareCSV(&csvBuf, in); err != nil {
		return nil, nil, err
	}
	files["runs.csv"] = csvBuf.Bytes()
	var charts []string
	add := func(name string, data []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files[name] = data
		charts = append(charts, name)
		return nil
	}
	if a.All.Compared > 0 {
		data, err := reports.LocalLogChart(a)
		if err := add(reports.ChartLocalLog, data, err); err != nil {
			return nil, nil, err
		}
		data, err = reports.CDFChart(a)
		if err := add(reports.ChartCDF, data, err); err != nil {
			return nil, nil, err
		}
		data, err = reports.PairedChart(a)
		if err := add(reports.ChartPaired, data, err); err != nil {
			return nil, nil, err
		}
	}
	if s.varyKey != "" && a.All.Compared > 0 {
		data, err := reports.SweepChart(in, a)
		if err := add(reports.ChartSweep, data, err); err != nil {
			return nil, nil, err
		}
	}
	if in.Sweep != nil && a.Sweep.All.Compared > 0 {
		data, err := reports.SweepChart(in.Sweep, a.Sweep)
		if err := add(reports.ChartSweep, data, err); err != nil {
			return nil, nil, err
		}
	}
	if pick := reports.TimelinePick(in.Pairs); pick != nil {
		in.Timeline, in.TimelineCommand = pick, s.timelineCommand(pick)
		data, err := s.timeline(in, pick)
		if err := add(reports.ChartTimeline, data, err); err != nil {
			return nil, nil, err
		}
	}
	var md bytes.Buffer
	reports.CompareReport(&md, in, a, charts)
	files["report.md"] = md.Bytes()
	return files, a, nil
}

// timeline reruns the picked pair with a timeline sampler on each strategy
// (the runs are deterministic: the same runs) and draws it.
func (s *compareSetup) timeline(in *reports.CompareInput, p *reports.ComparePair) ([]byte, error) {
	v, i := 0, 0
	for k, val := range in.VaryValues {
		if val == p.VaryValue {
			v = k
		}
	}
	for k, sc := range s.scenarios {
		if sc.Name == p.Scenario {
			i = k
		}
	}
	sc, err := s.scenario(v, i, p.Seed)
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("%s, seed %d", sc.Name, p.Seed)
	if p.VaryValue != "" {
		title += fmt.Sprintf(", %s=%s", in.VaryKey, p.VaryValue)
	}
	return drawTimeline(sc, harness.Options{Seed: p.Seed, Profile: s.profiles[0], MaxSteps: int64(s.f.maxSteps)}, harness.Strategies, title)
}

// timelineCommand is the command that draws the picked pair's timeline
// alone; "" when a varied value makes it a different scenario.
func (s *compareSetup) timelineCommand(p *reports.ComparePair) string {
	if s.varyKey != "" {
		return ""
	}
	profile := ""
	if name := s.profiles[0].Name(); name != "kip" {
		profile = " --profile " + name
	}
	if s.f.generated {
		return fmt.Sprintf("go run ./cmd/simrun gen --seed %d --out gen-%d.json\ngo run ./cmd/simrun run --scenario gen-%d.json --seed %d%s --timeline timeline.svg",
			p.Seed, p.Seed, p.Seed, p.Seed, profile)
	}
	arg := p.Scenario
	if s.f.scenario != "" {
		arg = s.f.scenario
	}
	return fmt.Sprintf("go run ./cmd/simrun run --scenario %s --seed %d%s --timeline timeline.svg", arg, p.Seed, profile)
}

// drawTimeline runs sc with each strategy, sampling a timeline, and draws
// them on one page.
func drawTimeline(sc *scenarios.Scenario, opt harness.Options, strategies []harness.Strategy, title string) ([]byte, error) {
	var samplers []*reports.TimelineSampler
	for _, st := range strategies {
		smp := reports.NewTimelineSampler(string(st))
		opt.Strategy, opt.Observers = st, []model.Observer{smp}
		res := harness.Execute(sc, opt)
		smp.Finish(res.Cluster.Now)
		samplers = append(samplers, smp)
	}
	return reports.TimelineChart(title, samplers)
}

// runRecorder draws, for 'simrun run --timeline/--chrome-trace', a timeline
// and a Chrome trace of each strategy's run. RunAllWith runs the strategies
// one after another with the same observers: EvRunStart marks the next run.
type runRecorder struct {
	timelinePath, chromePath string
	strategies               []harness.Strategy
	samplers                 []*reports.TimelineSampler
	trace                    *reports.ChromeTrace
	traceRuns                []*reports.ChromeRun
	cur                      int
	title                    string
}

// newRunRecorder checks the output files (their directory must exist) and
// returns a recorder; with neither file it records nothing.
func newRunRecorder(strategies []harness.Strategy, timelinePath, chromePath string) (*runRecorder, error) {
	r := &runRecorder{timelinePath: timelinePath, chromePath: chromePath, strategies: strategies, cur: -1}
	for _, out := range []struct{ flag, path string }{{"--timeline", timelinePath}, {"--chrome-trace", chromePath}} {
		if out.path == "" {
			continue
		}
		if st, err := os.Stat(out.path); err == nil && st.IsDir() {
			return nil, badInput("%s: %s is a directory, want a file", out.flag, out.path)
		}
		if st, err := os.Stat(filepath.Dir(out.path)); err != nil || !st.IsDir() {
			return nil, badInput("%s: directory %s does not exist", out.flag, filepath.Dir(out.path))
		}
	}
	if chromePath != "" {
		r.trace = reports.NewChromeTrace()
	}
	for _, st := range strategies {
		if timelinePath != "" {
			r.samplers = append(r.samplers, reports.NewTimelineSampler(string(st)))
		}
		if r.trace != nil {
			r.traceRuns = append(r.traceRuns, r.trace.Run(string(st)))
		}
	}
	return r, nil
}

func (r *runRecorder) active() bool { return r.timelinePath != "" || r.chromePath != "" }

// hook adds the recorder to opt's observers: it follows each run in turn
// (a run's first event is EvRunStart).
func (r *runRecorder) hook(opt *harness.Options) {
	if !r.active() {
		return
	}
	opt.Observers = append(slices.Clip(opt.Observers), r)
}

// Event implements model.Observer: it hands the event to the current run's
// timeline sampler and Chrome trace.
func (r *runRecorder) Event(now sim.Time, e *model.Event) {
	if e.Kind == model.EvRunStart {
		r.cur++
	}
	if r.cur < 0 || r.cur >= len(r.strategies) {
		panic("simrun: more runs than strategies")
	}
	if r.trace != nil {
		r.traceRuns[r.cur].Event(now, e)
	}
	if r.samplers != nil {
		r.samplers[r.cur].Event(now, e)
	}
}

// finish closes each run at its end.
func (r *runRecorder) finish(runs []*harness.RunResult, title string) {
	r.title = title
	for i, res := range runs {
		if i < len(r.samplers) {
			r.samplers[i].Finish(res.Cluster.Now)
		}
		if i < len(r.traceRuns) {
			r.traceRuns[i].Finish(res.Cluster.Now)
		}
	}
}

// write renders and writes the files asked for.
func (r *runRecorder) write() error {
	if r.timelinePath != "" {
		data, err := reports.TimelineChart(r.title, r.samplers)
		if err != nil {
			return fmt.Errorf("--timeline: %w", err)
		}
		if err := writeFileAtomic(r.timelinePath, data); err != nil {
			return badInput("--timeline: %v", err)
		}
	}
	if r.chromePath != "" {
		data, err := r.trace.JSON()
		if err != nil {
			return fmt.Errorf("--chrome-trace: %w", err)
		}
		if err := writeFileAtomic(r.chromePath, data); err != nil {
			return badInput("--chrome-trace: %v", err)
		}
	}
	return nil
}
