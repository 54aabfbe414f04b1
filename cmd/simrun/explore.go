package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tierfetch/cliutil"
	"tierfetch/explore"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

type exploreFlags struct {
	scenario  string
	strategy  string
	profile   string
	mutants   string
	depth     int
	maxStates int
	faults    string
	faultMs   int64
	lost      bool
	noLive    bool
	reexecute bool
	fromMs    int64
	out       string
	jsonl     string
	shard     string
	maxSteps  stepsFlag
	maxInput  inputFlag
}

func newExploreCmd(c *cli) *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use: "explore --scenario NAME|FILE [--depth N] [--max-states N] [--faults LIST] [--lost] [--from-ms T]\n" +
			"        [--strategy S] [--profile P] [--mutant M] [--out FILE] [--shard K/N] [--jsonl FILE]",
		Short: "every state of a small scenario within a depth bound, breadth first; counterexamples as replayable files",
		Long:  help("explore"),
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			return cmdExplore(f, c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.scenario, "scenario", "", "a named scenario (see 'simrun scenarios') or a scenario file")
	fs.StringVar(&f.strategy, "strategy", string(harness.LastTiered), "local-log-start or last-tiered")
	fs.StringVar(&f.profile, "profile", "kip", "behaviour profile: "+fuzz.ProfileNames())
	fs.StringVar(&f.mutants, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants')")
	fs.IntVar(&f.depth, "depth", explore.DefaultDepth, "the bound: steps of a path, 1..100000")
	fs.IntVar(&f.maxStates, "max-states", explore.DefaultMaxStates, "the work budget: distinct states, 1..100000000")
	fs.StringVar(&f.faults, "faults", "", "faults that may be injected before any step until the heal, comma-separated: "+
		strings.Join(explore.FaultKinds, ", ")+" (on every replica)")
	fs.Int64Var(&f.faultMs, "fault-ms", explore.DefaultFaultMs, "how long an injected partition or remote outage lasts, 1..3600000 ms")
	fs.BoolVar(&f.lost, "lost", false, "a message may also be lost (a third latency class)")
	fs.BoolVar(&f.noLive, "no-liveness", false, "skip the healed continuation from the states the bound cuts")
	fs.Int64Var(&f.fromMs, "from-ms", 0, "start the search at this simulated time, reached with no faults and fast links (0: the start)")
	fs.BoolVar(&f.reexecute, "reexecute", false, "re-run every path from the start instead of stepping copies of states (slower; a cross-check)")
	fs.StringVar(&f.out, "out", "explore-counterexample.json", "where a violation's scenario file is written (known findings beside it, suffixed by kind)")
	fs.StringVar(&f.jsonl, "jsonl", "", "write the search's header and result to this file, for 'simrun merge'")
	fs.StringVar(&f.shard, "shard", "0/1", "explore only shard K of N of the frontier (split by state hash)")
	maxStepsVar(fs, &f.maxSteps)
	maxInputVar(fs, &f.maxInput)
	return cmd
}

// exploreRun is explore.Run (a variable for tests).
var exploreRun = explore.Run

func cmdExplore(f exploreFlags, stdout, stderr io.Writer) (int, error) {
	cfg, h, err := exploreConfig(f)
	if err != nil {
		return exitBadInput, err
	}
	if err := harness.CheckBudget(cfg.Scenario, int64(f.maxSteps)); err != nil {
		return exitBudget, err
	}
	if e := cfg.Scenario.Explore; e != nil {
		fmt.Fprintf(stderr, "simrun: warning: %s already has an explore schedule (%d faults, %d picks): explore ignores it "+
			"and searches from the scenario's start with --faults and --lost as given (--from-ms starts further in)\n",
			f.scenario, len(e.Faults), len(e.Choices))
	}
	ctx, received, stop := catchSignals()
	defer stop()
	cfg.Stopped = func() bool { return ctx.Err() != nil }
	begin := time.Now()
	cfg.Progress = func(depth int, states int64, level int) {
		fmt.Fprintf(stderr, "explore: depth %d, %d states, %d in the last level, %.1f s\n", depth, states, level,
			time.Since(begin).Seconds())
	}
	res, err := exploreRun(cfg)
	if nd := (*explore.NondeterminismError)(nil); errors.As(err, &nd) {
		return exitNondeterminism, nd
	}
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	elapsed := time.Since(begin)
	rep, err := explore.ReportOf(res)
	if err != nil {
		return exitBadInput, err
	}
	printExplore(stdout, h, rep, elapsed)
	if err := saveFindings(stdout, f.out, h, rep); err != nil {
		return exitBadInput, err
	}
	if rep.Interrupted {
		sig := received()
		fmt.Fprintf(stdout, "  stopped by %s: the figures are those of the part searched", cliutil.SignalName(sig))
		if f.jsonl != "" {
			fmt.Fprintf(stdout, "; %s not written (a partial shard would pass for a whole one)", f.jsonl)
		}
		fmt.Fprintln(stdout)
		return cliutil.SignalExit(sig), nil
	}
	if f.jsonl != "" {
		if err := writeExploreJSONL(f.jsonl, h, rep); err != nil {
			return exitBadInput, err
		}
	}
	return exploreExit(rep), nil
}

// exploreConfig checks the flags and builds the search.
func exploreConfig(f exploreFlags) (explore.Config, explore.Header, error) {
	var cfg explore.Config
	if f.scenario == "" {
		return cfg, explore.Header{}, badInput("--scenario: required (a named scenario or a file); see 'simrun scenarios'")
	}
	if f.strategy != string(harness.LocalLogStart) && f.strategy != string(harness.LastTiered) {
		return cfg, explore.Header{}, badInput("--strategy: want local-log-start or last-tiered, got %q", f.strategy)
	}
	profile, err := fuzz.ParseProfile(f.profile)
	if err != nil {
		return cfg, explore.Header{}, badInput("%v", err)
	}
	mutants, err := fuzz.ParseMutants(f.mutants)
	if err != nil {
		return cfg, explore.Header{}, badInput("%v", err)
	}
	if f.depth < 1 || f.depth > 100_000 {
		return cfg, explore.Header{}, badInput("--depth: want 1..100000, got %d", f.depth)
	}
	if f.maxStates < 1 || f.maxStates > 100_000_000 {
		return cfg, explore.Header{}, badInput("--max-states: want 1..100000000, got %d", f.maxStates)
	}
	if f.faultMs < 1 || f.faultMs > 3_600_000 {
		return cfg, explore.Header{}, badInput("--fault-ms: want 1..3600000, got %d", f.faultMs)
	}
	var faults []string
	if f.faults != "" {
		for _, k := range strings.Split(f.faults, ",") {
			k = strings.TrimSpace(k)
			known := false
			for _, x := range explore.FaultKinds {
				known = known || x == k
			}
			if !known {
				return cfg, explore.Header{}, badInput("--faults: unknown fault %q (want some of %s)", k, strings.Join(explore.FaultKinds, ", "))
			}
			faults = append(faults, k)
		}
	}
	shard, err := explore.ParseShard(f.shard)
	if err != nil {
		return cfg, explore.Header{}, badInput("--shard: %v", err)
	}
	if f.fromMs < 0 {
		return cfg, explore.Header{}, badInput("--from-ms: want >= 0, got %d", f.fromMs)
	}
	if f.out == "" {
		return cfg, explore.Header{}, badInput("--out: want a file name")
	}
	sc, err := scenarios.ResolveMax(f.scenario, int64(f.maxInput))
	if err != nil {
		return cfg, explore.Header{}, badInput("%v", err)
	}
	cfg = explore.Config{Scenario: sc, Strategy: harness.Strategy(f.strategy), Profile: profile, Mutants: mutants,
		Depth: f.depth, MaxStates: f.maxStates, Faults: faults, FaultMs: f.faultMs, Lost: f.lost, Liveness: !f.noLive,
		Shard: shard, MaxSteps: int64(f.maxSteps), Reexecute: f.reexecute, FromMs: f.fromMs}
	h := explore.Header{Explore: 1, Scenario: sc.Name, Strategy: f.strategy, Profile: profile.Name(), Mutant: f.mutants,
		Depth: f.depth, FromMs: f.fromMs, MaxStates: f.maxStates, Faults: faults, FaultMs: f.faultMs, Lost: f.lost, Liveness: !f.noLive,
		Shard: shard.String()}
	if h.Faults == nil {
		h.Faults = []string{}
	}
	return cfg, h, nil
}

func printExplore(w io.Writer, h explore.Header, r explore.Report, elapsed time.Duration) {
	faults := "none"
	if len(h.Faults) > 0 {
		faults = strings.Join(h.Faults, ",")
	}
	fmt.Fprintf(w, "explore %s  strategy %s  profile %s  depth %d  faults %s  lost %v  shard %s", h.Scenario, h.Strategy,
		h.Profile, h.Depth, faults, h.Lost, h.Shard)
	if h.Mutant != "" {
		fmt.Fprintf(w, "  mutant %s", h.Mutant)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  states %d  transitions %d  depth reached %d  frontier %d  ended %d  liveness continuations %d\n",
		r.States, r.Transitions, r.Depth, r.Frontier, r.Ended, r.LivenessChecked)
	if elapsed > 0 {
		fmt.Fprintf(w, "  %.2f s, %.0f states/s\n", elapsed.Seconds(), float64(r.States)/elapsed.Seconds())
	}
	switch {
	case r.Violation != nil:
		fmt.Fprintf(w, "  search stopped at a violation\n")
	case r.Complete:
		fmt.Fprintf(w, "  exhausted: every reachable state visited (every path ended, at the scenario's end or a violation, within the bound)\n")
	case r.Exhausted:
		fmt.Fprintf(w, "  exhausted: every state within depth %d visited\n", h.Depth)
	case r.Interrupted:
		fmt.Fprintf(w, "  NOT exhausted: stopped at depth %d\n", r.Depth)
	case r.BudgetCut > 0:
		fmt.Fprintf(w, "  NOT exhausted: --max-steps cut %d paths\n", r.BudgetCut)
	default:
		fmt.Fprintf(w, "  NOT exhausted: --max-states %d reached at depth %d\n", h.MaxStates, r.Depth)
	}
	for _, k := range r.Known {
		fmt.Fprintf(w, "  known finding %s: %s %s at step %d (t=%d ms), %d choices\n", k.Kind, k.Outcome, k.Invariant, k.Step, k.AtMs, k.Choices)
	}
	if r.KnownCount > 0 {
		fmt.Fprintf(w, "  %d violating transitions explained by known findings\n", r.KnownCount)
	}
	if v := r.Violation; v != nil {
		fmt.Fprintf(w, "  VIOLATION %s %s at step %d (t=%d ms), %d choices: %s\n", v.Outcome, v.Invariant, v.Step, v.AtMs, v.Choices, v.Message)
		for _, f := range v.Faults {
			fmt.Fprintf(w, "    injected %s\n", f)
		}
	} else {
		fmt.Fprintf(w, "  no unknown violation\n")
	}
}

// saveFindings writes the violation's scenario to out and each known
// finding's beside it.
func saveFindings(w io.Writer, out string, h explore.Header, r explore.Report) error {
	replay := func(file string) string {
		s := fmt.Sprintf("simrun run --scenario %s --strategy %s --profile %s", file, h.Strategy, h.Profile)
		if h.Mutant != "" {
			s += " --mutant " + h.Mutant
		}
		return s + " --trace"
	}
	if v := r.Violation; v != nil {
		if err := outfile.WriteAtomic(out, append([]byte(nil), v.Scenario...)); err != nil {
			return badInput("--out: %v", err)
		}
		fmt.Fprintf(w, "    counterexample: %s\n    replay: %s\n", out, replay(out))
	}
	for _, k := range r.Known {
		ext := filepath.Ext(out)
		file := strings.TrimSuffix(out, ext) + "-" + k.Kind + ext
		if err := outfile.WriteAtomic(file, append([]byte(nil), k.Scenario...)); err != nil {
			return badInput("--out: %v", err)
		}
		fmt.Fprintf(w, "    %s: %s\n", k.Kind, replay(file))
	}
	return nil
}

func exploreExit(r explore.Report) int {
	switch {
	case r.Violation != nil && r.Violation.Outcome == harness.OutcomeSafety:
		return exitSafety
	case r.Violation != nil:
		return exitLiveness
	case !r.Exhausted:
		return exitBudget
	}
	return exitOK
}

func writeExploreJSONL(path string, h explore.Header, r explore.Report) error {
	a, err := json.Marshal(h)
	if err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	data := append(append(append(a, '\n'), b...), '\n')
	if err := outfile.WriteAtomic(path, data); err != nil {
		return badInput("--jsonl: %v", err)
	}
	return nil
}

// maxExploreShardBytes bounds one shard file (its violations embed
// scenario files).
const maxExploreShardBytes = 64 << 20

// mergeExplore folds the --jsonl files of every shard of one search.
func mergeExplore(files []string, out string, stdout io.Writer) (int, error) {
	var first explore.Header
	var reports []explore.Report
	var shards []explore.Shard
	for i, name := range files {
		h, r, err := readExploreShard(name)
		if err != nil {
			return exitBadInput, badInput("merge: %v", err)
		}
		if i == 0 {
			first = h
		} else if !h.Same(first) {
			return exitBadInput, badInput("merge: %s is a shard of another search than %s", name, files[0])
		}
		s, err := explore.ParseShard(h.Shard)
		if err != nil {
			return exitBadInput, badInput("merge: %s: shard: %v", name, err)
		}
		reports, shards = append(reports, r), append(shards, s)
	}
	m, err := explore.Merge(reports, shards)
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	first.Shard = "0/1"
	fmt.Fprintf(stdout, "merged %d shards (states: an upper bound, shards do not share their visited sets)\n", len(files))
	printExplore(stdout, first, m, 0)
	if err := saveFindings(stdout, out, first, m); err != nil {
		return exitBadInput, err
	}
	return exploreExit(m), nil
}

func readExploreShard(name string) (explore.Header, explore.Report, error) {
	var h explore.Header
	var r explore.Report
	file, err := os.Open(name)
	if err != nil {
		return h, r, err
	}
	defer file.Close()
	sc := bufio.NewScanner(io.LimitReader(file, maxExploreShardBytes))
	sc.Buffer(make([]byte, 64<<10), maxExploreShardBytes)
	var lines [][]byte
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil {
		return h, r, fmt.Errorf("%s: %v", name, err)
	}
	if len(lines) != 2 {
		return h, r, fmt.Errorf("%s: want 2 lines (header, result), got %d", name, len(lines))
	}
	if err := strictUnmarshal(lines[0], &h); err != nil || h.Explore != 1 {
		return h, r, fmt.Errorf("%s: line 1: not an explore header (%v)", name, err)
	}
	if err := strictUnmarshal(lines[1], &r); err != nil {
		return h, r, fmt.Errorf("%s: line 2: %v", name, err)
	}
	return h, r, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}
