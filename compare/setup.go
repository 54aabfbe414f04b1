package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/plan"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

// Config is a comparison's settings, as 'simrun compare' takes them. New
// validates them; its errors name the field at fault (config.Error).
type Config struct {
	Scenario  string
	Generated bool
	Seeds     string
	Out       string
	Vary      string
	Workers   int
	Profile   string // shorthand for Profiles with one profile
	Profiles  string
	// Fix is the fixes every pair runs with; "" runs each pair without
	// fixes and again with every fix (the report's column "with fixes").
	Fix      string
	Shard    string // "" runs every pair
	JSONL    string // with Shard: the shard file to write
	MaxSteps int64
	MaxInput int64
	// ResumeFrom is the first job of an interrupted comparison to run
	// (with JSONL): the jobs before it are in the interrupted part.
	ResumeFrom int
	// Changed names the fields given (not defaults); Args are the settings
	// that fix the comparison as the command line gave them, normalized,
	// for the shard file's header.
	Changed map[string]bool
	Args    []string
	// Version is the simrun version the report records.
	Version string
	// Names spells the settings the comparison's texts name (the
	// command's flags; nil: the fields' names).
	Names config.Names
}

// flags is Config, as the comparison reads them.
type flags struct {
	scenario   string
	generated  bool
	seeds      string
	out        string
	vary       string
	workers    int
	profile    string
	profiles   string
	fix        string
	shard      string
	jsonl      string
	maxSteps   int64
	maxInput   int64
	resumeFrom int
	names      config.Names
}

// ProduceScaleKey is the --vary key that scales every produce event's record
// count (the other keys are config fields of the scenario file).
const ProduceScaleKey = "produce_scale"

// DefaultProfiles is --profiles when not given: the statistics on the KIP
// text, and the same pairs under Kafka 4.3.0's code and Kafka trunk's.
const DefaultProfiles = "kip,kafka-4.3,kafka-trunk"

// The default comparison (every named scenario, nothing varied) also runs
// this parameter sweep, the headline curve of the catch-up ratio against
// the leader's local log, and reports it beside the statistics.
const (
	DefaultSweepScenario = "local-retention-sweep"
	DefaultSweepKey      = "local_retention_bytes"
	DefaultSweepValues   = "1048576,5242880,10485760,20971520,41943040,-2"
	DefaultSweepOut      = "local-retention-sweep-out"
)

// Setup is a comparison ready to run: its settings checked, its scenarios
// resolved and validated.
type Setup struct {
	f         flags
	from, to  uint64
	profiles  []model.Profile       // the statistics use the first
	scenarios []*scenarios.Scenario // nil with --generated
	// fixes are every pair's fixes (--fix); withFixes, without --fix,
	// runs each pair of the comparison again with every fix, after the
	// others, for the report's column "with fixes".
	fixes      model.Fixes
	withFixes  bool
	varyKey    string
	varyValues []string
	// sweep is the parameter sweep the default comparison runs beside
	// its statistics, nil otherwise.
	sweep *Setup
	// shard is the part of the pairs this run computes (--shard), and
	// args the flags that fix the comparison (all but --shard, --jsonl,
	// --out and --workers), normalized, for the shard file's header.
	shard   campaign.Shard
	args    []string
	version string
	// claim holds --jsonl, locked, from CheckOutputs until the pairs are
	// written (SavePart).
	claim *os.File
	// checked holds, once Check has passed, the scenario each pair runs by
	// varied value and scenario (none for generated ones, which differ by
	// seed) with its passed budget check, so a pair neither rebuilds its
	// varied scenario nor checks its budget again.
	checked [][]checkedScenario
}

// checkedScenario is a scenario Check built and found within the budget.
type checkedScenario struct {
	sc     *scenarios.Scenario
	budget harness.Budgeted
}

// Report renders the comparison of pairs (every job's, in job order, and
// the default sweep's) and writes it to the output directory: nothing is
// written unless every file could be made. It returns the analysis the
// report shows.
func (s *Setup) Report(pairs, sweepPairs []reports.ComparePair) (*reports.Analysis, error) {
	if err := os.MkdirAll(s.f.out, 0o755); err != nil {
		return nil, config.Errorf("Out", "{Out}: %v", err)
	}
	in := s.input(pairs)
	in.FindingsLink = findingsLink(s.f.out)
	if s.sweep != nil {
		in.Sweep = s.sweep.input(sweepPairs)
		in.Sweep.About = s.sweep.scenarios[0].Description
	}
	files, a, err := s.render(in)
	if err != nil {
		return nil, fmt.Errorf("compare: rendering: %w", err)
	}
	// All or nothing (a full disk leaves the earlier report whole), and a
	// sweep chart of an earlier report goes when this one has none.
	if err := outfile.WriteSet(s.f.out, files, []string{reports.ChartSweep}); err != nil {
		return nil, config.Errorf("Out", "{Out}: %v", err)
	}
	return a, nil
}

// ReportSummary writes the report of the pairs (Report) and prints its
// summary to w, as 'simrun compare' and 'simrun merge' do. It returns the
// runs stopped by their work budget.
func (s *Setup) ReportSummary(w io.Writer, pairs, sweepPairs []reports.ComparePair) (budgetRuns int, err error) {
	a, err := s.Report(pairs, sweepPairs)
	if err != nil {
		return 0, err
	}
	budgetRuns = BudgetRuns(pairs) + BudgetRuns(sweepPairs)
	reports.CompareSummary(w, a, reports.CompareSummaryInput{SweepKey: s.SweepKey(), SweepScenario: DefaultSweepScenario,
		Jobs: s.JobsText(), ReportPath: filepath.Join(s.Out(), "report.md"), BudgetRuns: budgetRuns, MaxSteps: s.MaxSteps(), Names: s.f.names})
	return budgetRuns, nil
}

// BudgetRuns counts the runs of pairs stopped by their work budget.
func BudgetRuns(pairs []reports.ComparePair) int {
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

// input gathers the comparison of pairs, every job's in job order: the
// first profile's pairs for the statistics, the others' beside them.
func (s *Setup) input(pairs []reports.ComparePair) *reports.CompareInput {
	in := &reports.CompareInput{Command: s.command(), Version: s.version, Generated: s.f.generated, Seeds: fmt.Sprintf("%d..%d", s.from, s.to),
		Profile: s.profiles[0].Name(), VaryKey: s.varyKey, VaryValues: s.varyValues, BrokerScale: s.brokerScale(), Names: s.f.names}
	for _, sc := range s.scenarios {
		in.Scenarios = append(in.Scenarios, sc.Name)
	}
	in.Fix = s.f.fix
	var fixed []reports.ComparePair
	if s.withFixes {
		pairs, fixed = pairs[:len(pairs)/2], pairs[len(pairs)/2:]
	}
	per := len(pairs) / len(s.profiles)
	in.Pairs = pairs[:per]
	for i, p := range s.profiles[1:] {
		in.Others = append(in.Others, reports.ProfilePairs{Profile: p.Name(), Pairs: pairs[(i+1)*per : (i+2)*per]})
	}
	for i, p := range s.profiles {
		if len(fixed) > 0 {
			in.Fixed = append(in.Fixed, reports.ProfilePairs{Profile: p.Name(), Pairs: fixed[i*per : (i+1)*per]})
		}
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

// maxComparePairs bounds the pairs of one comparison (every profile, varied
// value, scenario and seed, and the default sweep's): each is kept until
// the report is written, a few kilobytes apiece.
const maxComparePairs = 200_000

// checkPairs refuses a comparison of more than maxComparePairs pairs before
// anything runs (or is generated).
func (s *Setup) checkPairs() error {
	seeds := s.to - s.from + 1
	per := uint64(len(s.profiles) * max(1, len(s.varyValues)) * max(1, len(s.scenarios)))
	times, twice := uint64(1), ""
	if s.withFixes {
		times, twice = 2, " x 2 (without fixes, and with {Fix} all)"
	}
	if seeds*per*times > maxComparePairs {
		return config.Errorf("Seeds", "compare: %d seeds x %d profiles, values and scenarios"+twice+" = %d pairs, at most %d: split it with {Shard}, fewer seeds or one {Fix}",
			seeds, per, seeds*per*times, maxComparePairs)
	}
	return nil
}

// checkResumeFrom refuses a --resume-from past the comparison's last job:
// its part would hold no job and a header merge refuses.
func (s *Setup) checkResumeFrom() error {
	pairs, sweepPairs, _ := s.Jobs()
	if jobs := pairs + sweepPairs; s.f.resumeFrom > jobs {
		return config.Errorf("ResumeFrom", "{ResumeFrom}: want a job number in 0..%d (the comparison has %d jobs), got %d", jobs, jobs, s.f.resumeFrom)
	}
	return nil
}

// setup checks the flags fs parsed into s.f and derives the comparison.
func New(fl Config) (s *Setup, err error) {
	s = &Setup{args: fl.Args, version: fl.Version, f: flags{scenario: fl.Scenario, generated: fl.Generated, seeds: fl.Seeds,
		out: fl.Out, vary: fl.Vary, workers: fl.Workers, profile: fl.Profile, profiles: fl.Profiles, fix: fl.Fix, shard: fl.Shard, jsonl: fl.JSONL,
		maxSteps: fl.MaxSteps, maxInput: fl.MaxInput, resumeFrom: fl.ResumeFrom, names: fl.Names}}
	if err := s.setup(fl.Changed); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Setup) setup(changed map[string]bool) (err error) {
	if err := s.parseShard(); err != nil {
		return err
	}
	if s.from, s.to, err = campaign.ParseSeeds(s.f.seeds); err != nil {
		return config.Errorf("Seeds", "{Seeds}: %v", err)
	}
	if s.to-s.from >= 1_000_000 {
		return config.Errorf("Seeds", "{Seeds}: at most 1000000 seeds, got %q", s.f.seeds)
	}
	defer func() {
		if err == nil {
			err = s.checkPairs()
		}
		if err == nil {
			err = s.checkResumeFrom()
		}
	}()
	if err := s.parseProfiles(changed); err != nil {
		return err
	}
	if s.fixes, err = harness.ParseFixes(s.f.fix); err != nil {
		return err
	}
	s.withFixes = s.fixes == 0
	if s.f.workers < 1 || s.f.workers > 1024 {
		return config.Errorf("Workers", "{Workers}: want 1..1024, got %d", s.f.workers)
	}
	if s.f.out == "" {
		return config.Errorf("Out", "{Out}: want a directory, got an empty name")
	}
	switch {
	case s.f.generated && s.f.scenario != "":
		return config.Errorf("Scenario", "compare: give {Scenario} or {Generated}, not both")
	case s.f.generated:
	case s.f.scenario != "":
		sc, err := scenarios.ResolveMax(s.f.scenario, int64(s.f.maxInput))
		if err != nil {
			return config.Errorf("Scenario", "{Scenario}: %v", err)
		}
		s.scenarios = []*scenarios.Scenario{sc}
	default:
		s.scenarios = DefaultSet()
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
func (s *Setup) parseProfiles(set map[string]bool) error {
	field, list := "Profiles", s.f.profiles
	if set["Profile"] {
		if set["Profiles"] {
			return config.Errorf("Profile", "{Profile}: give {Profile} or {Profiles}, not both")
		}
		field, list = "Profile", s.f.profile
		if strings.Contains(list, ",") {
			return config.Errorf("Profile", "{Profile}: want one profile (use {Profiles} for several), got %q", list)
		}
	}
	profiles, err := harness.ParseProfileList(field, list)
	if err != nil {
		return err
	}
	s.profiles = append(s.profiles, profiles...)
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
func (s *Setup) defaultSweep() *Setup {
	sc, ok := scenarios.Lookup(DefaultSweepScenario)
	if !ok {
		panic("compare: no named scenario " + DefaultSweepScenario)
	}
	sw := &Setup{f: s.f, from: s.from, to: s.to, profiles: s.profiles[:1], scenarios: []*scenarios.Scenario{sc},
		varyKey: DefaultSweepKey, varyValues: strings.Split(DefaultSweepValues, ","), fixes: s.fixes}
	sw.f.scenario, sw.f.vary, sw.f.out = DefaultSweepScenario, DefaultSweepKey+"="+DefaultSweepValues, DefaultSweepOut
	sw.f.profiles = s.profiles[0].Name()
	return sw
}

// DefaultSet is the named scenarios that add a replica, known
// findings aside.
func DefaultSet() []*scenarios.Scenario {
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
// (or Kafka's name for it, with '.' for '_': local.retention.bytes) or
// produce_scale, each value a JSON number or boolean, or for a byte count
// a number with a binary unit as plan takes it (1MiB, 1.5 GiB), written as
// the integer it is, or for a field that is a [min, max] range of
// milliseconds (network_latency_ms, remote_fetch_ms, remote_upload_ms) MS
// (a fixed time) or MIN..MAX.
func parseVary(s string) (string, []string, error) {
	key, list, ok := strings.Cut(s, "=")
	key = strings.ReplaceAll(strings.TrimSpace(key), ".", "_")
	if !ok || key == "" || list == "" {
		return "", nil, config.Errorf("Vary", "{Vary}: want KEY=V1,V2,..., got %q", s)
	}
	if key != ProduceScaleKey && key != PartitionCountKey {
		if _, known := ConfigKeys()[key]; !known {
			keys := append(sortStrings(mapKeysAny(ConfigKeys())), PartitionCountKey, ProduceScaleKey)
			if near := scenarios.Closest(key, keys); near != "" {
				return "", nil, config.Errorf("Vary", "{Vary}: unknown key %q (did you mean %s?)", key, near)
			}
			return "", nil, config.Errorf("Vary", "{Vary}: unknown key %q (want a config field of the scenario file, e.g. %s, or %s)",
				key, strings.Join(keys[:len(keys)-1], ", "), ProduceScaleKey)
		}
	}
	var values []string
	seen := map[string]bool{}
	spelt := map[string]string{} // a number's value: its first spelling
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if key == PartitionCountKey {
			if err := partitionCountValue(v); err != nil {
				return "", nil, err
			}
			if seen[v] {
				return "", nil, config.Errorf("Vary", "{Vary} %s: value %q given twice", key, v)
			}
			seen[v] = true
			values = append(values, v)
			continue
		}
		if rangeKey(key) {
			if _, ok := rangeValue(v); !ok {
				return "", nil, config.Errorf("Vary", "{Vary} %s: want MS (a fixed time) or MIN..MAX with 0 <= MIN <= MAX, got %q", key, v)
			}
			if seen[v] {
				return "", nil, config.Errorf("Vary", "{Vary} %s: value %q given twice", key, v)
			}
			seen[v] = true
			values = append(values, v)
			continue
		}
		if n, err := plan.ParseBytes(v); err == nil && byteKey(key) && strings.ContainsAny(v, "KMGT") {
			v = strconv.FormatInt(n, 10)
		}
		var x any
		if err := json.Unmarshal([]byte(v), &x); err != nil {
			if byteKey(key) {
				return "", nil, config.Errorf("Vary", "{Vary} %s: value %q is not a number (or a byte count such as 1MiB)", key, v)
			}
			return "", nil, config.Errorf("Vary", "{Vary} %s: value %q is not a number or a boolean", key, v)
		}
		switch x := x.(type) {
		case float64:
			if key == ProduceScaleKey && !(x > 0 && x <= 1000) {
				return "", nil, config.Errorf("Vary", "{Vary} %s: want a factor in (0, 1000], got %q", key, v)
			}
		case bool:
			if key == ProduceScaleKey {
				return "", nil, config.Errorf("Vary", "{Vary} %s: want a number, got %q", key, v)
			}
		default:
			return "", nil, config.Errorf("Vary", "{Vary} %s: value %q is not a number or a boolean", key, v)
		}
		// One number, however spelt (0.1 and 0.10, 1 and 1.0), is one value.
		same := v
		if f, ok := x.(float64); ok && (strings.ContainsAny(v, ".eE") || v == "-0") {
			same = strconv.FormatFloat(f+0, 'g', -1, 64) // +0: -0 is 0
		}
		if first, ok := spelt[same]; ok {
			if first == v {
				return "", nil, config.Errorf("Vary", "{Vary} %s: value %q given twice", key, v)
			}
			return "", nil, config.Errorf("Vary", "{Vary} %s: value %q given twice (as %q)", key, v, first)
		}
		spelt[same] = v
		values = append(values, v)
	}
	if len(values) > 100 {
		return "", nil, config.Errorf("Vary", "{Vary} %s: at most 100 values, got %d", key, len(values))
	}
	return key, values, nil
}

// byteKey reports whether a config field is a byte count or a rate in
// bytes a second, whose --vary values may carry a unit.
func byteKey(key string) bool {
	return strings.Contains(key, "bytes") || strings.HasSuffix(key, "throttled_rate")
}

// ConfigKeys is the config fields of a scenario file.
func ConfigKeys() map[string]any {
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

// rangeKey reports whether config field key is a [min, max] range.
func rangeKey(key string) bool {
	_, ok := ConfigKeys()[key].([]any)
	return ok
}

// rangeValue reads a --vary value of a range field, MS or MIN..MAX, as the
// JSON array the scenario file holds.
func rangeValue(v string) (string, bool) {
	lo, hi, isRange := strings.Cut(v, "..")
	if !isRange {
		hi = lo
	}
	a, err1 := strconv.ParseInt(lo, 10, 64)
	b, err2 := strconv.ParseInt(hi, 10, 64)
	if err1 != nil || err2 != nil || a < 0 || a > b {
		return "", false
	}
	return fmt.Sprintf("[%d, %d]", a, b), true
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
func (s *Setup) scenario(v, i int, seed uint64) (*scenarios.Scenario, error) {
	var sc *scenarios.Scenario
	if s.scenarios == nil {
		sc = gen.Generate(seed)
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
	if key == PartitionCountKey {
		if err := applyPartitionCount(doc, sc, value); err != nil {
			return nil, err
		}
	} else if key == ProduceScaleKey {
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
		if rangeKey(key) {
			value, _ = rangeValue(value)
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
		return nil, config.Errorf("Vary", "{Vary} %s=%s on scenario %s: %v", key, value, sc.Name, err)
	}
	return varied, nil
}

// Check checks the scenarios of the comparison and of its default sweep
// before anything runs: a bad varied value is bad input, a scenario
// predicted to exceed the work budget a *harness.BudgetError.
func (s *Setup) Check() error {
	if err := s.checkScenarios(); err != nil {
		return err
	}
	if s.sweep != nil {
		return s.sweep.checkScenarios()
	}
	return nil
}

// checkScenarios builds every varied scenario before anything runs, so a
// bad value is reported, with exit code 2, before any work; and checks that
// no scenario file or named one is predicted to exceed the work budget
// (exit 4).
func (s *Setup) checkScenarios() error {
	checked := make([][]checkedScenario, max(1, len(s.varyValues)))
	for _, sc := range s.scenarios {
		if err := harness.CheckRunnable(sc); err != nil {
			return config.Errorf("Scenario", "{Scenario} %s: %v", s.f.scenario, err)
		}
		budget, err := harness.Budget(sc, int64(s.f.maxSteps))
		if err != nil {
			return err
		}
		checked[0] = append(checked[0], checkedScenario{sc, budget})
	}
	if s.varyKey == "" {
		if s.scenarios != nil {
			s.checked = checked
		}
		return nil
	}
	checked[0] = nil
	for v := range s.varyValues {
		if s.scenarios == nil {
			for seed := range campaign.SeedRange(s.from, s.to) {
				sc, err := s.scenario(v, 0, seed)
				if err != nil {
					return err
				}
				if err := harness.CheckRunnable(sc); err != nil {
					return config.Errorf("Vary", "{Vary} %s=%s: %v", s.varyKey, s.varyValues[v], err)
				}
			}
			continue
		}
		for i := range s.scenarios {
			sc, err := s.scenario(v, i, s.from)
			if err != nil {
				return err
			}
			if err := harness.CheckRunnable(sc); err != nil {
				return config.Errorf("Vary", "{Vary} %s=%s on scenario %s: %v", s.varyKey, s.varyValues[v], sc.Name, err)
			}
			budget, err := harness.Budget(sc, int64(s.f.maxSteps))
			if err != nil {
				return err
			}
			checked[v] = append(checked[v], checkedScenario{sc, budget})
		}
	}
	if s.scenarios != nil {
		s.checked = checked
	}
	return nil
}

// Partitions is the most partitions of the scenarios the comparison runs,
// its default sweep's too, as Check built them (1 before Check, and for
// generated scenarios: one partition each).
func (s *Setup) Partitions() int {
	n := 1
	for _, scs := range s.checked {
		for _, c := range scs {
			n = max(n, c.sc.PartitionCount())
		}
	}
	if s.sweep != nil {
		n = max(n, s.sweep.Partitions())
	}
	return n
}

// Workers is how many pairs run at a time.
func (s *Setup) Workers() int { return s.f.workers }

// pairScenario is the scenario of varied value v, scenario i and seed, and
// its passed budget check when Check made one (else the run checks).
func (s *Setup) pairScenario(v, i int, seed uint64) (*scenarios.Scenario, harness.Budgeted, error) {
	if s.checked != nil {
		c := s.checked[v][i]
		return c.sc, c.budget, nil
	}
	sc, err := s.scenario(v, i, seed)
	return sc, harness.Budgeted{}, err
}

// command is the command that regenerates the report.
func (s *Setup) command() string {
	n := s.f.names
	parts := []string{"go run ./cmd/simrun compare"}
	switch {
	case s.f.generated:
		parts = append(parts, n.Of("Generated"))
	case s.f.scenario != "":
		parts = append(parts, n.Sprintf("{Scenario} %s", s.f.scenario))
	}
	parts = append(parts, n.Sprintf("{Seeds} %d..%d", s.from, s.to))
	if s.varyKey != "" {
		parts = append(parts, n.Sprintf("{Vary} %s=%s", s.varyKey, strings.Join(s.varyValues, ",")))
	}
	if s.f.profiles != DefaultProfiles {
		parts = append(parts, n.Sprintf("{Profiles} %s", s.f.profiles))
	}
	if s.f.fix != "" {
		parts = append(parts, n.Sprintf("{Fix} %s", s.f.fix))
	}
	return strings.Join(append(parts, n.Sprintf("{Out} %s", s.f.out)), " ")
}

// job is one pair to run: a profile, a varied value, a scenario, a
// seed, and whether it runs with every fix (withFixes).
type job struct {
	profile, vary, scenario int
	seed                    uint64
	fixed                   bool
}

// jobs lists the pairs by profile, then varied value, scenario and seed;
// with withFixes, the same again with every fix.
func (s *Setup) jobs() []job {
	values := max(1, len(s.varyValues))
	nsc := max(1, len(s.scenarios))
	var jobs []job
	for _, fixed := range []bool{false, true} {
		if fixed && !s.withFixes {
			break
		}
		for p := range s.profiles {
			for v := range values {
				for i := range nsc {
					for seed := range campaign.SeedRange(s.from, s.to) {
						jobs = append(jobs, job{profile: p, vary: v, scenario: i, seed: seed, fixed: fixed})
					}
				}
			}
		}
	}
	return jobs
}

// jobFixes are the fixes job j runs with.
func (s *Setup) jobFixes(j job) model.Fixes {
	if j.fixed {
		return model.AllFixes
	}
	return s.fixes
}

func (s *Setup) runPair(j job) reports.ComparePair {
	sc, budget, err := s.pairScenario(j.vary, j.scenario, j.seed)
	if err != nil {
		panic(fmt.Sprintf("compare: scenario checked before running: %v", err)) // validated up front
	}
	prof := s.profiles[j.profile]
	p := reports.ComparePair{Scenario: sc.Name, Seed: j.seed, Profile: prof.Name(), Fixes: s.jobFixes(j).String()}
	if s.f.generated {
		p.Scenario = "generated"
	}
	if s.varyKey != "" {
		p.VaryValue = s.varyValues[j.vary]
	}
	opt := harness.Options{Seed: j.seed, Profile: prof, Fixes: s.jobFixes(j), MaxSteps: int64(s.f.maxSteps), Budget: budget}
	opt.Strategy = harness.LocalLogStart
	p.Local = measure(sc, opt)
	opt.Strategy = harness.LastTiered
	p.Tiered = measure(sc, opt)
	return p
}

// render builds every output file in memory: nothing is written unless all
// of them could be made.
func (s *Setup) render(in *reports.CompareInput) (map[string][]byte, *reports.Analysis, error) {
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
		data, err := reports.CopyChart(in, a)
		if err := add(reports.ChartCopy, data, err); err != nil {
			return nil, nil, err
		}
		data, err = reports.CDFChart(in, a)
		if err := add(reports.ChartCDF, data, err); err != nil {
			return nil, nil, err
		}
		data, err = reports.PairedChart(in, a)
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
	if pick := reports.TimelinePick(in.Pairs); pick != nil && !s.brokerScale() { // a timeline draws one partition
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
func (s *Setup) timeline(in *reports.CompareInput, p *reports.ComparePair) ([]byte, error) {
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
	sc, budget, err := s.pairScenario(v, i, p.Seed)
	if err != nil {
		return nil, err
	}
	also := ""
	if p.VaryValue != "" {
		also = fmt.Sprintf("%s=%s", in.VaryKey, p.VaryValue)
	}
	title := reports.TimelineTitle(sc.Name, s.profiles[0].Name(), p.Seed, also)
	return drawTimeline(sc, harness.Options{Seed: p.Seed, Profile: s.profiles[0], Fixes: s.fixes, MaxSteps: int64(s.f.maxSteps), Budget: budget},
		harness.Strategies, title)
}

// timelineCommand is the command that draws the picked pair's timeline
// alone; "" when a varied value makes it a different scenario.
func (s *Setup) timelineCommand(p *reports.ComparePair) string {
	if s.varyKey != "" {
		return ""
	}
	n := s.f.names
	profile := ""
	if name := s.profiles[0].Name(); name != "kip" {
		profile = n.Sprintf(" {Profile} %s", name)
	}
	if s.f.generated {
		return n.Sprintf("go run ./cmd/simrun gen {Seed} %d {Out} gen-%d.json\ngo run ./cmd/simrun run {Scenario} gen-%d.json {Seed} %d%s {Timeline} timeline.svg",
			p.Seed, p.Seed, p.Seed, p.Seed, profile)
	}
	arg := p.Scenario
	if s.f.scenario != "" {
		arg = s.f.scenario
	}
	return n.Sprintf("go run ./cmd/simrun run {Scenario} %s {Seed} %d%s {Timeline} timeline.svg", arg, p.Seed, profile)
}

// drawTimeline runs sc with each strategy, sampling a timeline, and draws
// them on one page.
func drawTimeline(sc *scenarios.Scenario, opt harness.Options, strategies []harness.Strategy, title string) ([]byte, error) {
	var samplers []*reports.TimelineSampler
	for _, st := range strategies {
		smp := reports.NewTimelineSampler(string(st))
		opt.Strategy, opt.Observers = st, []model.Observer{smp}
		res := harness.Execute(sc, opt)
		smp.Finish(res.End)
		samplers = append(samplers, smp)
	}
	return reports.TimelineChart(title, samplers)
}

// badInput is an error in what the user gave.
func badInput(format string, args ...any) error { return fmt.Errorf(format, args...) }

func sortStrings(s []string) []string {
	sort.Strings(s)
	return s
}
