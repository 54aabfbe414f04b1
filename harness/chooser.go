package harness

import (
	"fmt"

	"tierfetch/scenarios"
	"tierfetch/sim"
)

// Chooser makes every nondeterministic choice of a run. The run asks it, in
// the order they arise:
//   - Fault, before each step until the heal: inject one of n faults now
//     (its index) or not (-1); nowMs is the time it would happen at;
//   - Tie, when n events are due at the same instant: which the step takes
//     (0 is the one scheduled first);
//   - Network, for each message sent: its latency in [lo, hi] ms, or lost;
//   - Remote, for each remote storage operation: its latency in [lo, hi] ms
//     and whether it fails (errRate is the scenario's remote_error_rate);
//   - Producer, for each produced batch: which of n producers writes it.
//
// The seeded chooser (Options.Chooser nil) draws from the run's streams
// exactly as runs always have: it never injects faults and takes ties in
// scheduling order, so digests do not depend on the interface. A Script
// follows a list of picks (scenarios.Schedule): simrun explore enumerates
// them and simrun run replays them.
type Chooser interface {
	Fault(n int, nowMs int64) int
	Tie(n int) int
	Network(lo, hi int64) (ms int64, lost bool)
	Remote(lo, hi int64, errRate float64) (ms int64, failed bool)
	Producer(n int) int
}

// seeded is the chooser of an ordinary run: one PCG stream per purpose.
type seeded struct {
	workload, network, remote *sim.Stream
}

func newSeeded(seed uint64) *seeded {
	return &seeded{workload: sim.NewStream(seed, "workload"), network: sim.NewStream(seed, "network"),
		remote: sim.NewStream(seed, "remote")}
}

func (s *seeded) Fault(int, int64) int { return -1 }
func (s *seeded) Tie(int) int          { return 0 }
func (s *seeded) Network(lo, hi int64) (int64, bool) {
	return s.network.Int64Range(lo, hi), false
}
func (s *seeded) Remote(lo, hi int64, errRate float64) (int64, bool) {
	ms := s.remote.Int64Range(lo, hi)
	return ms, s.remote.Chance(errRate)
}
func (s *seeded) Producer(n int) int { return s.workload.IntN(n) }

// ChoiceKind says what a choice point decides.
type ChoiceKind uint8

// Choice kinds.
const (
	ChoiceFault ChoiceKind = iota
	ChoiceTie
	ChoiceNetwork
	ChoiceRemoteLatency
	ChoiceRemoteFailure
	ChoiceProducer
)

var choiceNames = [...]string{"fault", "tie", "network", "remote-latency", "remote-failure", "producer"}

func (k ChoiceKind) String() string { return choiceNames[k] }

// Latency classes of an explored message, in pick order: fast is the low end
// of the scenario's range, slow the high end, lost never arrives.
const (
	ClassFast = 0
	ClassSlow = 1
	ClassLost = 2
)

// Point is one choice point a Script met: its kind, how many alternatives
// it had and which it took.
type Point struct {
	Kind ChoiceKind
	N    int
	Pick int
	AtMs int64 // faults only: when it would happen
}

// Script is a Chooser that follows Picks, one per choice point with two or
// more alternatives, and takes alternative 0 past their end: no fault, the
// event scheduled first, the fast latency, no remote failure, the first
// producer. Latencies take only the two ends of their range (and, with Lost,
// a third class: the message is lost), so the choices are finite.
//
// Every point it meets (with its number of alternatives) is appended to
// Points when Record is set: that is how an explorer learns a step's
// alternatives. A pick outside a point's alternatives is taken as the last
// one and counted in Clamped (a schedule written for another model).
type Script struct {
	Picks   []int
	Lost    bool
	Record  bool
	Points  []Point
	Clamped int
	next    int
}

// NewScript returns a script that follows s.
func NewScript(s *scenarios.Schedule) *Script {
	return &Script{Picks: s.Choices, Lost: s.Lost}
}

// Used returns how many picks the run took from Picks.
func (s *Script) Used() int { return s.next }

// pick takes the next choice among n alternatives.
func (s *Script) pick(k ChoiceKind, n int) int {
	if n < 2 {
		return 0
	}
	p := 0
	if s.next < len(s.Picks) {
		p = s.Picks[s.next]
		s.next++
		if p >= n {
			p = n - 1
			s.Clamped++
		}
	}
	if s.Record {
		s.Points = append(s.Points, Point{Kind: k, N: n, Pick: p})
	}
	return p
}

// Fault picks 0 for none, i+1 for fault i.
func (s *Script) Fault(n int, nowMs int64) int {
	p := s.pick(ChoiceFault, n+1)
	if s.Record && n > 0 {
		s.Points[len(s.Points)-1].AtMs = nowMs
	}
	return p - 1
}

// Tie picks among the events due now.
func (s *Script) Tie(n int) int { return s.pick(ChoiceTie, n) }

// Network picks a latency class.
func (s *Script) Network(lo, hi int64) (int64, bool) {
	n := 1
	if hi > lo {
		n = 2
	}
	if s.Lost {
		n = 3
	}
	switch s.pick(ChoiceNetwork, n) {
	case ClassSlow:
		return hi, false
	case ClassLost:
		return hi, true
	}
	return lo, false
}

// Remote picks a latency class, then (when remote operations can fail) a
// failure.
func (s *Script) Remote(lo, hi int64, errRate float64) (int64, bool) {
	ms := lo
	if hi > lo && s.pick(ChoiceRemoteLatency, 2) == 1 {
		ms = hi
	}
	failed := false
	if errRate > 0 {
		failed = s.pick(ChoiceRemoteFailure, 2) == 1
	}
	return ms, failed
}

// Producer picks a producer.
func (s *Script) Producer(n int) int { return s.pick(ChoiceProducer, n) }

// String prints a point, e.g. "network 2/3".
func (p Point) String() string { return fmt.Sprintf("%s %d/%d", p.Kind, p.Pick, p.N) }
