package explore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"tierfetch/campaign"
	"tierfetch/scenarios"
)

// HeaderVersion is the format of a shard file's header (tierfetch_explore).
const HeaderVersion = 2

// Header names one search: what a shard's --jsonl file begins with, so
// that merge folds only the shards of one search. ContentDigest covers the
// scenario's content and the other fields, so shards of two scenarios
// that share a name are not folded together.
type Header struct {
	Explore       int      `json:"tierfetch_explore"` // format version: HeaderVersion
	Scenario      string   `json:"scenario"`
	ContentDigest string   `json:"content_digest"`
	Strategy      string   `json:"strategy"`
	Profile       string   `json:"profile"`
	Mutant        string   `json:"mutant"`
	Fix           string   `json:"fix,omitempty"` // --fix as given; absent: none
	Depth         int      `json:"depth"`         // 0: to the scenario's end
	FromMs        int64    `json:"from_ms"`
	MaxStates     int      `json:"max_states"`
	MaxMemory     int      `json:"max_memory_mib"`
	MaxSteps      int64    `json:"max_steps"`
	Reduction     bool     `json:"reduction"`
	Faults        []string `json:"faults"`
	FaultMs       int64    `json:"fault_ms"`
	Lost          bool     `json:"lost"`
	Liveness      bool     `json:"liveness"`
	Shard         string   `json:"shard"` // K/N
}

// ContentDigest is the header's content_digest: the XXH64, in hex, of the
// scenario's canonical file (its explore schedule left out: the search
// ignores it) and of h's other fields, shard and digest aside.
func ContentDigest(sc *scenarios.Scenario, h Header) (string, error) {
	plain := *sc
	plain.Explore = nil
	data, err := plain.Marshal()
	if err != nil {
		return "", err
	}
	h.Shard, h.ContentDigest = "", ""
	opts, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	d := xxhash.New()
	d.Write(data)
	d.Write([]byte{0})
	d.Write(opts)
	return fmt.Sprintf("%016x", d.Sum64()), nil
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
	States           int64     `json:"states"`
	SharedStates     int64     `json:"shared_states"`
	Transitions      int64     `json:"transitions"`
	Skipped          int64     `json:"skipped"`
	Reexpanded       int64     `json:"reexpanded"`
	Depth            int       `json:"depth_reached"`
	Covered          int       `json:"depth_covered"`
	ReachedMinMs     int64     `json:"reached_min_ms"`
	ReachedMaxMs     int64     `json:"reached_max_ms"`
	ScenarioSteps    int64     `json:"scenario_steps"`
	ScenarioMs       int64     `json:"scenario_ms"`
	SeededOutcome    string    `json:"seeded_outcome"`
	BaseSteps        int64     `json:"base_steps"`
	BaseMs           int64     `json:"base_ms"`
	Frontier         int       `json:"frontier"`
	Ended            int64     `json:"ended"`
	Exhausted        bool      `json:"exhausted"`
	Complete         bool      `json:"complete"`
	Stop             string    `json:"stop"`
	LivenessChecked  int64     `json:"liveness_checked"`
	MemoHits         int64     `json:"memo_hits"`
	LivenessCut      int64     `json:"liveness_cut"`
	LivenessStepsCut int64     `json:"liveness_steps_cut"`
	ContSteps        int64     `json:"continuation_steps"`
	MemoryMiB        float64   `json:"memory_mib"`
	Rebuilt          int64     `json:"rebuilt"`
	KnownCount       int64     `json:"known_count"`
	Interrupted      bool      `json:"interrupted,omitempty"`
	InterruptedIn    string    `json:"-"` // never in a shard file: an interrupted search writes none
	BudgetCut        int64     `json:"budget_cut"`
	Collision        float64   `json:"collision_probability"` // CollisionProbability(States)
	Violation        *Finding  `json:"violation,omitempty"`
	Known            []Finding `json:"known,omitempty"`
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
	r := Report{States: res.States, SharedStates: res.SharedStates, Transitions: res.Transitions, Skipped: res.Skipped,
		Reexpanded: res.Reexpanded, Depth: res.Depth, Covered: res.Covered, ReachedMinMs: res.ReachedMinMs,
		ReachedMaxMs: res.ReachedMaxMs, ScenarioSteps: res.ScenarioSteps, ScenarioMs: res.ScenarioMs,
		SeededOutcome: res.SeededOutcome, BaseSteps: res.BaseSteps, BaseMs: res.BaseMs, Frontier: res.Frontier,
		Ended: res.Ended, Exhausted: res.Exhausted, Complete: res.Complete, Stop: res.Stop,
		LivenessChecked: res.LivenessChecked, MemoHits: res.MemoHits, LivenessCut: res.LivenessCut, LivenessStepsCut: res.LivenessStepsCut, ContSteps: res.ContinuationSteps,
		MemoryMiB: res.MemoryMiB, Rebuilt: res.Rebuilt, KnownCount: res.KnownCount, Interrupted: res.Interrupted,
		InterruptedIn: res.InterruptedIn, BudgetCut: res.BudgetCut, Collision: CollisionProbability(res.States)}
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
// lowest shard); the depth covered is the least any shard covered (each
// covered its own part of that level), and the merged search stopped for
// the reason the worst shard did: exhausted and complete hold when they
// hold for every shard.
func Merge(reports []Report, shards []campaign.Shard) (Report, error) {
	if len(reports) == 0 {
		return Report{}, fmt.Errorf("no shards")
	}
	if err := campaign.CheckSplit(shards); err != nil {
		return Report{}, err
	}
	m := Report{Exhausted: true, Complete: true, Covered: reports[0].Covered, ReachedMinMs: reports[0].ReachedMinMs,
		ScenarioSteps: reports[0].ScenarioSteps, ScenarioMs: reports[0].ScenarioMs, SeededOutcome: reports[0].SeededOutcome,
		BaseSteps: reports[0].BaseSteps, BaseMs: reports[0].BaseMs, Stop: StopComplete}
	var violationShard uint64 // the shard of m.Violation
	var knownShard []uint64   // the shard of each of m.Known
	for i, r := range reports {
		m.States += r.States
		if i > 0 {
			m.States -= r.SharedStates
		}
		m.SharedStates = max(m.SharedStates, r.SharedStates)
		m.Transitions += r.Transitions
		m.Skipped += r.Skipped
		m.Reexpanded += r.Reexpanded
		m.Depth = max(m.Depth, r.Depth)
		m.Covered = min(m.Covered, r.Covered)
		m.ReachedMinMs = min(m.ReachedMinMs, r.ReachedMinMs)
		m.ReachedMaxMs = max(m.ReachedMaxMs, r.ReachedMaxMs)
		m.Frontier += r.Frontier
		m.Ended += r.Ended
		m.Exhausted = m.Exhausted && r.Exhausted
		m.Complete = m.Complete && r.Complete
		if stopRank[r.Stop] > stopRank[m.Stop] {
			m.Stop = r.Stop
		}
		m.LivenessChecked += r.LivenessChecked
		m.MemoHits += r.MemoHits
		m.LivenessCut += r.LivenessCut
		m.LivenessStepsCut += r.LivenessStepsCut
		m.ContSteps += r.ContSteps
		m.MemoryMiB = max(m.MemoryMiB, r.MemoryMiB)
		m.Rebuilt += r.Rebuilt
		m.KnownCount += r.KnownCount
		m.BudgetCut += r.BudgetCut
		// Ties go to the lowest shard, whatever the order shards are given in.
		earlier := func(f Finding, k uint64, than Finding, thanK uint64) bool {
			return f.Step < than.Step || f.Step == than.Step && k < thanK
		}
		if v := r.Violation; v != nil && (m.Violation == nil || earlier(*v, shards[i].K, *m.Violation, violationShard)) {
			m.Violation, violationShard = v, shards[i].K
		}
		for _, k := range r.Known {
			j := slices.IndexFunc(m.Known, func(f Finding) bool { return f.Kind == k.Kind })
			switch {
			case j < 0:
				m.Known, knownShard = append(m.Known, k), append(knownShard, shards[i].K)
			case earlier(k, shards[i].K, m.Known[j], knownShard[j]):
				m.Known[j], knownShard[j] = k, shards[i].K
			}
		}
	}
	slices.SortFunc(m.Known, func(a, b Finding) int { return strings.Compare(a.Kind, b.Kind) })
	m.Collision = CollisionProbability(m.States)
	return m, nil
}

// CollisionProbability is the optimistic estimate of the probability
// that two of n distinct states share a 64-bit hash, n^2/2^65 (the
// birthday bound, as TLC states it for its fingerprints): the visited
// set, the levels and the liveness memo hold hashes only, so such a pair
// is taken for one state and the second's successors may go unexplored.
// It assumes the hash spreads states uniformly; it is not a bound.
func CollisionProbability(n int64) float64 {
	f := float64(n)
	return f * f / (1 << 65)
}

// stopRank orders the reasons a search stopped, from the one that says
// the most about the search to the one that says the least.
var stopRank = map[string]int{StopComplete: 0, StopDepth: 1, StopSteps: 2, StopStates: 3, StopMemory: 4,
	StopInterrupted: 5, StopViolation: 6}
