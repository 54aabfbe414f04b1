package harness

import (
	"fmt"
	"reflect"
	"strings"

	"tierfetch/config"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// The work budget of a run: a number of steps (events popped off the
// scheduler), never wall time, so a run that reaches it stops at the same
// step on every machine. The default is about 50 times the largest run of the
// benchmarks (a 10 TiB bootstrap, 2.2 million steps, docs/contributing/BENCHMARKS.md) and takes
// a few seconds of one core; a run keeps at most a few hundred bytes a step,
// so the default also keeps a run's memory well under 1 GiB.
const (
	DefaultMaxSteps = 5_000_000
	// MaxStepsLimit bounds a work budget: a fetch answer is at most 2^31
	// bytes, so byte counters stay below 2^62 within it.
	MaxStepsLimit = 1 << 31
)

// OutcomeBudget is the outcome of a run stopped by its work budget (or
// refused before its first step because its predicted cost exceeds it); its
// Violation names InvariantBudget.
const (
	OutcomeBudget   = "budget-exceeded"
	InvariantBudget = "work-budget"
)

// maxStepsFor is the budget opt asks for a run of s: a broker-scale file's
// default grows with its partitions (DefaultMaxStepsFor).
func (opt *Options) maxStepsFor(s *scenarios.Scenario) int64 {
	if opt.MaxSteps <= 0 {
		return DefaultMaxStepsFor(s)
	}
	return opt.MaxSteps
}

// DefaultMaxStepsFor is the default work budget of a run of s:
// DefaultMaxSteps, plus 10,000 steps a partition for a broker-scale file.
func DefaultMaxStepsFor(s *scenarios.Scenario) int64 {
	if !s.BrokerScale() {
		return DefaultMaxSteps
	}
	return DefaultMaxSteps + 10_000*int64(s.PartitionCount())
}

// BudgetError says that a scenario's predicted cost exceeds a work budget.
type BudgetError struct {
	Scenario  string
	Predicted int64
	MaxSteps  int64
	Why       string
}

// Error names the scenario, the prediction, what drives it and the budget,
// and says to raise Options.MaxSteps ({MaxSteps}: a command renames it to
// its flag, config.Rename).
func (e *BudgetError) Error() string { return e.Unwrap().Error() }

// Unwrap is the *config.Error naming MaxSteps that Error prints.
func (e *BudgetError) Unwrap() error {
	return config.Errorf("MaxSteps", "%s: raise {MaxSteps} or make the scenario smaller", e.prediction())
}

// prediction names the scenario, the prediction, what drives it and the
// budget.
func (e *BudgetError) prediction() string {
	return fmt.Sprintf("scenario %s: predicted %d steps (%s), more than the work budget of %d", e.Scenario, e.Predicted, e.Why, e.MaxSteps)
}

// violation is the message of a run refused by e (the result object's,
// which names no flag).
func (e *BudgetError) violation() string {
	return e.prediction() + ": raise the work budget or make the scenario smaller"
}

// CheckBudget returns a *BudgetError when the steps s predictably takes
// exceed maxSteps (0: DefaultMaxSteps), nil otherwise.
func CheckBudget(s *scenarios.Scenario, maxSteps int64) error {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxStepsFor(s)
	}
	n, why := PredictSteps(s)
	if n > maxSteps {
		return &BudgetError{Scenario: s.Name, Predicted: n, MaxSteps: maxSteps, Why: why}
	}
	return nil
}

// Budgeted is a budget check that passed: scenario s is predicted within
// maxSteps. Given to a run of the same scenario with the same budget
// (Options.Budget), it spares NewRun the same check, so a command that
// checks before its first output (to refuse with exit 4) checks once.
type Budgeted struct {
	s        *scenarios.Scenario
	maxSteps int64
}

// Budget checks s against maxSteps (0: the default) as CheckBudget does,
// and returns the passed check for the runs of s (Options.Budget).
func Budget(s *scenarios.Scenario, maxSteps int64) (Budgeted, error) {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxStepsFor(s)
	}
	if err := CheckBudget(s, maxSteps); err != nil {
		return Budgeted{}, err
	}
	return Budgeted{s: s, maxSteps: maxSteps}, nil
}

// Scheduled is b for s when s is a copy of b's scenario that differs only
// in its explore schedule and failure record, which the prediction does not
// read (simrun explore runs its scenario under schedules of its own);
// otherwise the zero Budgeted, and a run of s checks.
func (b Budgeted) Scheduled(s *scenarios.Scenario) Budgeted {
	if b.s == nil || s == nil {
		return Budgeted{}
	}
	c := *s
	c.Explore, c.Failure = b.s.Explore, b.s.Failure
	if !reflect.DeepEqual(&c, b.s) {
		return Budgeted{}
	}
	return Budgeted{s: s, maxSteps: b.maxSteps}
}

// covers reports whether b is the passed check of s with the budget
// maxSteps (a run's own, the default resolved).
func (b Budgeted) covers(s *scenarios.Scenario, maxSteps int64) bool {
	return b.s != nil && b.s == s && b.maxSteps == maxSteps
}

// PredictSteps estimates from below the steps a run of s takes, and says
// what drives the estimate: one step per event and per produce chunk, one
// batch a chunk on every replica that holds the log (memory grows with
// them), and the periodic work of the run's whole span: the leader's
// ISR-expiry and retention checks, the RLM tasks when tiering is on, and one
// fetch per follower every replica_fetch_wait_max_ms (or backoff, if
// longer). A run with no leader for long stretches may take fewer steps.
func PredictSteps(s *scenarios.Scenario) (int64, string) {
	c := &s.Config
	spanMs := s.DurationMs + s.HealMs
	chunks, holders, tiered := int64(0), int64(len(s.Replicas)), c.RemoteStorageEnable
	followerMs := sim.MulSat(int64(len(s.Replicas)-1), spanMs)
	for _, e := range s.Events {
		switch {
		case e.Type == scenarios.EventProduce:
			chunks = sim.AddSat(chunks, produceChunks(e))
		case e.Type == scenarios.EventAddReplica:
			holders++
			followerMs = sim.AddSat(followerMs, spanMs-e.AtMs)
		case e.Type == scenarios.EventSetConfig && e.Key == "remote_storage_enable":
			tiered = tiered || e.BoolValue()
		}
	}
	parts := []struct {
		what string
		n    int64
	}{
		{"events", int64(len(s.Events))},
		{"produce chunks", chunks},
		{"batches on the replicas", sim.MulSat(chunks, holders-1)},
		{"ISR expiry checks", spanMs / max(1, c.ReplicaLagTimeMaxMs/2)},
		{"retention checks", spanMs / c.LogRetentionCheckIntervalMs},
		{"follower fetches", followerMs / max(c.ReplicaFetchWaitMaxMs, c.ReplicaFetchBackoffMs)},
	}
	if tiered {
		parts = append(parts, struct {
			what string
			n    int64
		}{"RLM task runs", 2 * (spanMs / c.RemoteLogManagerTaskIntervalMs)})
	}
	total, big := int64(0), parts[0]
	for _, p := range parts {
		total = sim.AddSat(total, p.n)
		if p.n > big.n {
			big = p
		}
	}
	var why []string
	why = append(why, fmt.Sprintf("%d %s", big.n, big.what))
	if big.what == "RLM task runs" || big.what == "follower fetches" || strings.HasSuffix(big.what, "checks") {
		why = append(why, fmt.Sprintf("over %d ms of duration_ms + heal_ms", spanMs))
	}
	return total, strings.Join(why, " ")
}

// produceChunks is how many batches a produce event is spread into (apply.go).
func produceChunks(e scenarios.Event) int64 {
	return max(1, min(e.Records, e.OverMs/produceChunkMs))
}

// budgetFailure is the violation of a run stopped by its budget.
func (r *runner) budgetFailure(msg string) *Failure {
	f := &Failure{Invariant: InvariantBudget, Message: msg, Step: r.steps, AtMs: r.sched.Now().Ms()}
	return r.withTrace(f)
}
