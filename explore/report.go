package explore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"tierfetch/scenarios"
)

// Header names one search: what a shard's --jsonl file begins with, so
// that merge folds only the shards of one search.
type Header struct {
	Explore   int      `json:"tierfetch_explore"` // format version: 1
	Scenario  string   `json:"scenario"`
	Strategy  string   `json:"strategy"`
	Profile   string   `json:"profile"`
	Mutant    string   `json:"mutant"`
	Depth     int      `json:"depth"`
	FromMs    int64    `json:"from_ms"`
	MaxStates int      `json:"max_states"`
	Faults    []string `json:"faults"`
	FaultMs   int64    `json:"fault_ms"`
	Lost      bool     `json:"lost"`
	Liveness  bool     `json:"liveness"`
	Shard     string   `json:"shard"` // K/N
}

// Same reports whether h and o name the same search (shards aside).
func (h Header) Same(o Header) bool {
	h.Shard, o.Shard = "", ""
	a, _ := json.Marshal(h)
	b, _ := json.Marshal(o)
	return string(a) == string(b)
}

// Report is a search's result as a shard file's second line holds it.
type Report struct {
	States          int64     `json:"states"`
	SharedStates    int64     `json:"shared_states"`
	Transitions     int64     `json:"transitions"`
	Depth           int       `json:"depth_reached"`
	Frontier        int       `json:"frontier"`
	Ended           int64     `json:"ended"`
	Exhausted       bool      `json:"exhausted"`
	Complete        bool      `json:"complete"`
	LivenessChecked int64     `json:"liveness_checked"`
	KnownCount      int64     `json:"known_count"`
	Interrupted     bool      `json:"interrupted,omitempty"`
	BudgetCut       int64     `json:"budget_cut"`
	Violation       *Finding  `json:"violation,omitempty"`
	Known           []Finding `json:"known,omitempty"`
}

// Finding is a counterexample in a report.
type Finding struct {
	Outcome   string          `json:"outcome"`
	Invariant string          `json:"invariant"`
	Kind      string          `json:"kind,omitempty"`
	Message   string          `json:"message"`
	Step      int64           `json:"step"`
	AtMs      int64           `json:"at_ms"`
	Choices   int             `json:"choices"`
	Faults    []string        `json:"faults,omitempty"` // "t=0.010s crash broker 1"
	Scenario  json.RawMessage `json:"scenario"`
}

// ReportOf turns a result into a report.
func ReportOf(res *Result) (Report, error) {
	r := Report{States: res.States, SharedStates: res.SharedStates, Transitions: res.Transitions, Depth: res.Depth,
		Frontier: res.Frontier, Ended: res.Ended, Exhausted: res.Exhausted, Complete: res.Complete,
		LivenessChecked: res.LivenessChecked, KnownCount: res.KnownCount, Interrupted: res.Interrupted,
		BudgetCut: res.BudgetCut}
	if res.Violation != nil {
		f, err := FindingOf(res.Violation)
		if err != nil {
			return r, err
		}
		r.Violation = &f
	}
	for _, k := range res.Known {
		f, err := FindingOf(k)
		if err != nil {
			return r, err
		}
		r.Known = append(r.Known, f)
	}
	return r, nil
}

// FindingOf describes a counterexample.
func FindingOf(cx *Counterexample) (Finding, error) {
	data, err := cx.Scenario.Marshal()
	if err != nil {
		return Finding{}, err
	}
	f := Finding{Outcome: cx.Outcome, Invariant: cx.Failure.Invariant, Kind: cx.Failure.Kind, Message: cx.Failure.Message,
		Step: cx.Steps, AtMs: cx.Failure.AtMs, Choices: cx.Choices, Scenario: json.RawMessage(data)}
	for _, in := range cx.Faults {
		f.Faults = append(f.Faults, DescribeFault(in))
	}
	return f, nil
}

// DescribeFault prints an injected fault, e.g. "t=0.010s crash broker 1".
func DescribeFault(in Injected) string {
	e := in.Event
	what := e.Type
	switch {
	case e.Broker != nil:
		what = fmt.Sprintf("%s broker %d", e.Type, *e.Broker)
	case e.Type == scenarios.EventNetworkPartition:
		what = fmt.Sprintf("%s %v for %d ms", e.Type, e.Brokers, e.DurationMs)
	case e.Type == scenarios.EventRemoteOutage:
		what = fmt.Sprintf("%s for %d ms", e.Type, e.DurationMs)
	}
	return fmt.Sprintf("t=%d.%03ds %s", in.AtMs/1000, in.AtMs%1000, what)
}

// Merge folds the reports of every shard of one search (shards[i] is
// K/N of reports[i]). States adds up the shards' states, counting the
// states visited before the split once; a state two shards reach below
// the split is counted by both, so it is an upper bound on the distinct
// states. The violation kept is the one at the lowest step (then the
// lowest shard); exhausted and complete hold when they hold for every
// shard.
func Merge(reports []Report, shards []Shard) (Report, error) {
	if len(reports) == 0 {
		return Report{}, fmt.Errorf("no shards")
	}
	n := shards[0].N
	seen := make([]bool, n)
	for _, s := range shards {
		if s.N != n {
			return Report{}, fmt.Errorf("shards of different splits: %d/%d and %d/%d", shards[0].K, n, s.K, s.N)
		}
		if seen[s.K] {
			return Report{}, fmt.Errorf("shard %d/%d given twice", s.K, n)
		}
		seen[s.K] = true
	}
	if i := slices.Index(seen, false); i >= 0 {
		return Report{}, fmt.Errorf("shard %d/%d missing", i, n)
	}
	m := Report{Exhausted: true, Complete: true}
	for i, r := range reports {
		m.States += r.States
		if i > 0 {
			m.States -= r.SharedStates
		}
		m.SharedStates = max(m.SharedStates, r.SharedStates)
		m.Transitions += r.Transitions
		m.Depth = max(m.Depth, r.Depth)
		m.Frontier += r.Frontier
		m.Ended += r.Ended
		m.Exhausted = m.Exhausted && r.Exhausted
		m.Complete = m.Complete && r.Complete
		m.LivenessChecked += r.LivenessChecked
		m.KnownCount += r.KnownCount
		m.BudgetCut += r.BudgetCut
		if v := r.Violation; v != nil && (m.Violation == nil || v.Step < m.Violation.Step) {
			m.Violation = v
		}
		for _, k := range r.Known {
			j := slices.IndexFunc(m.Known, func(f Finding) bool { return f.Kind == k.Kind })
			switch {
			case j < 0:
				m.Known = append(m.Known, k)
			case k.Step < m.Known[j].Step:
				m.Known[j] = k
			}
		}
	}
	slices.SortFunc(m.Known, func(a, b Finding) int { return strings.Compare(a.Kind, b.Kind) })
	return m, nil
}

// ParseShard reads "K/N" with 0 <= K < N <= 1,000,000.
func ParseShard(s string) (Shard, error) {
	var k, n uint64
	var rest string
	if c, _ := fmt.Sscanf(s+"\n", "%d/%d%s", &k, &n, &rest); c < 2 || n == 0 || n > 1_000_000 || k >= n ||
		fmt.Sprintf("%d/%d", k, n) != s {
		return Shard{}, fmt.Errorf("want K/N with 0 <= K < N <= 1000000, got %q", s)
	}
	return Shard{K: k, N: n}, nil
}

// String prints the shard as ParseShard reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }
