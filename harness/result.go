package harness

import (
	"fmt"
	"hash/fnv"
	"strconv"

	"tierfetch/model"
	"tierfetch/sim"
)

// SchemaVersion is the result object's schema_version.
const SchemaVersion = 1

// Result is the result object (docs/reference/result.md): one scenario, one seed, one
// profile, one entry per strategy run.
type Result struct {
	SchemaVersion int    `json:"schema_version"`
	Seed          uint64 `json:"seed"`
	Scenario      string `json:"scenario"`
	Profile       string `json:"profile"`
	// Fixes (extension) names the upstream fixes the runs had switched on
	// (simrun run --fix); absent for a run of Kafka as it is.
	Fixes []string  `json:"fixes,omitempty"`
	Runs  []RunJSON `json:"runs"`
}

// RunJSON is one strategy's run.
type RunJSON struct {
	Strategy  string         `json:"strategy"`
	Outcome   string         `json:"outcome"`
	Violation *ViolationJSON `json:"violation"`
	Digest    string         `json:"digest"`
	Steps     int64          `json:"steps"`
	SimMs     int64          `json:"sim_ms"`
	Leader    *LeaderJSON    `json:"leader"`
	Followers []FollowerJSON `json:"followers"`
	Consumes  []ConsumeJSON  `json:"consumes,omitempty"` // extension: what each consume event read
	// Skipped (extension) lists the scenario events that did not happen,
	// with the model's reason (an elect_leader of a broker outside the ISR,
	// a crash of a broker already down, records produced while offline).
	Skipped []SkippedJSON `json:"skipped,omitempty"`
	// Partitions and BrokerScale, for a broker-scale file (docs/reference/result.md,
	// "Broker scale"): each partition's outcome, leader and followers, and
	// the run's broker-scale statistics; the run's own leader is then null
	// and its followers empty.
	Partitions  []PartitionJSON  `json:"partitions,omitempty"`
	BrokerScale *BrokerScaleJSON `json:"broker_scale,omitempty"`
	// Schedule (extension), for a scenario file with an explore schedule:
	// how it fitted the run; fits false means the run diverged from the
	// path explore found (picks out of range or left unused).
	Schedule *ScheduleJSON `json:"schedule,omitempty"`
}

// PartitionJSON is one partition of a broker-scale run.
type PartitionJSON struct {
	Topic     string         `json:"topic"`
	Partition int32          `json:"partition"`
	Outcome   string         `json:"outcome"`
	Leader    *LeaderJSON    `json:"leader"`
	Followers []FollowerJSON `json:"followers"`
}

// BrokerScaleJSON is a broker-scale run's statistics (BrokerScaleStats), in
// milliseconds and bytes; a null time is one that never came.
type BrokerScaleJSON struct {
	RestoredMs       *int64 `json:"restored_ms"`
	CaughtUpMsP50    *int64 `json:"caught_up_ms_p50"`
	CaughtUpMsP99    *int64 `json:"caught_up_ms_p99"`
	BytesFromLeaders int64  `json:"bytes_from_leaders"`
	BytesFromRemote  int64  `json:"bytes_from_remote"`
	FetcherBlockedMs int64  `json:"fetcher_blocked_ms"`
}

// ScheduleJSON is a ScheduleFit with its verdict.
type ScheduleJSON struct {
	Fits bool `json:"fits"`
	ScheduleFit
}

// SkippedJSON is one scenario event that did not happen.
type SkippedJSON struct {
	AtMs   int64  `json:"at_ms"`
	Event  *int   `json:"event"`           // its index in the scenario's events; null for the heal's restarts and injected faults
	Fault  *int   `json:"fault,omitempty"` // an injected fault: its index in the schedule's explore.faults
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// ViolationJSON is a broken invariant.
type ViolationJSON struct {
	Invariant string `json:"invariant"`
	Kind      string `json:"kind,omitempty"` // extension: the known cause, e.g. "stale-hro"
	AtMs      int64  `json:"at_ms"`
	Step      int64  `json:"step"`
	Message   string `json:"message"`
}

// LeaderJSON is the leader at the end of a run.
type LeaderJSON struct {
	Broker              int   `json:"broker"`
	LogStartOffset      int64 `json:"log_start_offset"`
	LocalLogStartOffset int64 `json:"local_log_start_offset"`
	HighWatermark       int64 `json:"high_watermark"`
	LogEndOffset        int64 `json:"log_end_offset"`
	HighestRemoteOffset int64 `json:"highest_remote_offset"`
}

// FollowerJSON is a replica added by add_replica, at the end of a run.
type FollowerJSON struct {
	Broker              int           `json:"broker"`
	LogStartOffset      int64         `json:"log_start_offset"`
	LocalLogStartOffset int64         `json:"local_log_start_offset"`
	HighWatermark       int64         `json:"high_watermark"`
	LogEndOffset        int64         `json:"log_end_offset"`
	CaughtUpMs          *int64        `json:"caught_up_ms"`
	BytesFromLeader     int64         `json:"bytes_from_leader"`
	Bootstrap           BootstrapJSON `json:"bootstrap"`
}

// BootstrapJSON says how a follower was positioned before it first received
// records.
type BootstrapJSON struct {
	Path           string `json:"path"`
	StartOffset    int64  `json:"start_offset"`
	Retries        int    `json:"retries"`
	AuxStateBuilds int    `json:"aux_state_builds"`
	// Extensions.
	RetriesByReason map[string]int `json:"retries_by_reason,omitempty"`
	ListOffsets     int            `json:"list_offsets"`
	Fallbacks       int            `json:"fallbacks"` // KIP-1023 found EPUO < LSO and fell back
	RemoteAuxBytes  int64          `json:"remote_aux_bytes"`
}

// ConsumeJSON is what one consume event read.
type ConsumeJSON struct {
	AtMs        int64 `json:"at_ms"`
	Broker      int   `json:"broker"`
	FromOffset  int64 `json:"from_offset"`
	ToOffset    int64 `json:"to_offset"`
	LocalBytes  int64 `json:"local_bytes"`
	RemoteBytes int64 `json:"remote_bytes"`
}

// JSON returns the run as the result object's run entry.
func (r *RunResult) JSON() RunJSON {
	out := RunJSON{Strategy: string(r.Strategy), Outcome: r.Outcome, Digest: r.Digest, Steps: r.Steps, SimMs: r.SimMs,
		Followers: []FollowerJSON{}}
	if f := r.Violation; f != nil {
		out.Violation = &ViolationJSON{Invariant: f.Invariant, Kind: f.Kind, AtMs: f.AtMs, Step: f.Step, Message: f.Message}
	}
	if f := r.Schedule; f != nil {
		out.Schedule = &ScheduleJSON{Fits: f.Fits(), ScheduleFit: *f}
	}
	if r.Partitions != nil {
		r.brokerScaleJSON(&out)
	} else {
		out.Leader, out.Followers = leaderJSON(r.Cluster), followersJSON(r.Cluster, r.Replicas)
	}
	for _, s := range r.Consumes {
		out.Consumes = append(out.Consumes, ConsumeJSON(s))
	}
	for _, sk := range r.Skipped {
		j := SkippedJSON{AtMs: sk.AtMs, Type: sk.Type, Reason: sk.Reason}
		if sk.Fault >= 0 {
			j.Fault = &sk.Fault
		}
		if sk.Index >= 0 {
			j.Event = &sk.Index
		}
		out.Skipped = append(out.Skipped, j)
	}
	return out
}

// leaderJSON is c's leader at the end (nil: offline).
func leaderJSON(c *model.Cluster) *LeaderJSON {
	l := c.Leader()
	if l == nil {
		return nil
	}
	return &LeaderJSON{Broker: l.ID, LogStartOffset: l.Log.LogStart, LocalLogStartOffset: l.Log.LocalLogStart,
		HighWatermark: l.Log.HighWatermark, LogEndOffset: l.Log.LogEnd, HighestRemoteOffset: l.HighestRemote}
}

// followersJSON is c's added replicas at the end, by broker id.
func followersJSON(c *model.Cluster, replicas []ReplicaStats) []FollowerJSON {
	out := []FollowerJSON{}
	for _, b := range c.Brokers {
		if st := &replicas[b.ID]; st.Added {
			out = append(out, followerJSON(b, st))
		}
	}
	return out
}

// brokerScaleJSON fills a broker-scale run's partitions and statistics.
func (r *RunResult) brokerScaleJSON(out *RunJSON) {
	out.Partitions = make([]PartitionJSON, len(r.Partitions))
	for i := range r.Partitions {
		p, c := &r.Partitions[i], r.Fleet.Parts[i]
		out.Partitions[i] = PartitionJSON{Topic: p.TP.Topic, Partition: p.TP.Partition, Outcome: p.Outcome,
			Leader: leaderJSON(c), Followers: followersJSON(c, p.Replicas)}
	}
	s := r.BrokerScale
	ms := func(d sim.Duration, ok bool) *int64 {
		if !ok {
			return nil
		}
		v := d.Ms()
		return &v
	}
	p50, ok50 := s.Quantile(0.5)
	p99, ok99 := s.Quantile(0.99)
	out.BrokerScale = &BrokerScaleJSON{RestoredMs: ms(s.Restored, s.RestoredKnown), CaughtUpMsP50: ms(p50, ok50),
		CaughtUpMsP99: ms(p99, ok99), BytesFromLeaders: s.BytesFromLeaders, BytesFromRemote: s.BytesFromRemote,
		FetcherBlockedMs: s.FetcherBlocked.Ms()}
}

// followerJSON is broker b's follower entry: its log at the end, st what
// its events showed.
func followerJSON(b *model.Broker, st *ReplicaStats) FollowerJSON {
	f := FollowerJSON{Broker: b.ID, LogStartOffset: b.Log.LogStart, LocalLogStartOffset: b.Log.LocalLogStart,
		HighWatermark: b.Log.HighWatermark, LogEndOffset: b.Log.LogEnd, BytesFromLeader: st.BytesFromLeader}
	if st.CaughtUp {
		ms := st.CaughtUpAt.Sub(st.AddedAt).Ms()
		f.CaughtUpMs = &ms
	}
	start := st.StartOffset
	if !st.StartSet {
		start = b.Log.LocalLogStart
	}
	f.Bootstrap = BootstrapJSON{Path: st.Path.String(), StartOffset: start, Retries: st.Retries,
		AuxStateBuilds: st.AuxStateBuilds, ListOffsets: st.ListOffsets, Fallbacks: st.Fallbacks, RemoteAuxBytes: st.RemoteAuxBytes}
	for i, n := range st.RetriesByReason {
		if n > 0 {
			if f.Bootstrap.RetriesByReason == nil {
				f.Bootstrap.RetriesByReason = map[string]int{}
			}
			f.Bootstrap.RetriesByReason[model.RetryReason(i).String()] = n
		}
	}
	return f
}

// State is a compact, comparable view of a cluster: what a failure report
// diffs before and after the failing step.
type State struct {
	Controller ControllerState
	Brokers    []BrokerState
	Remote     []RemoteState
}

// ControllerState is the controller's view.
type ControllerState struct {
	Leader      int
	LeaderEpoch int32
	ISR         []int
	Replicas    []int
}

// BrokerState is one broker's offsets and caches.
type BrokerState struct {
	ID                                          int
	Up                                          bool
	Role                                        string
	LogStart, LocalLogStart, HighWatermark, LEO int64
	HighestRemote                               int64
	Epochs                                      []model.EpochEntry
	Segments                                    []string
}

// RemoteState is one remote segment.
type RemoteState struct {
	ID        uint64
	Base, End int64
	State     string
}

// Digest returns a 64-bit FNV-1a digest of the state's printed form.
func (s State) Digest() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%+v", s)
	return h.Sum64()
}

// StateOf captures c's state.
func StateOf(c *model.Cluster) State {
	s := State{Controller: ControllerState{Leader: c.Ctrl.Leader, LeaderEpoch: c.Ctrl.LeaderEpoch,
		ISR: append([]int(nil), c.Ctrl.ISR...), Replicas: append([]int(nil), c.Ctrl.Replicas...)}}
	for _, b := range c.Brokers {
		bs := BrokerState{ID: b.ID, Up: b.Up, Role: b.Role.String(), LogStart: b.Log.LogStart, LocalLogStart: b.Log.LocalLogStart,
			HighWatermark: b.Log.HighWatermark, LEO: b.Log.LogEnd, HighestRemote: b.HighestRemote,
			Epochs: append([]model.EpochEntry(nil), b.Log.Epochs...)}
		for _, seg := range b.Log.Segments {
			bs.Segments = append(bs.Segments, segRange(seg.Base, seg.End))
		}
		s.Brokers = append(s.Brokers, bs)
	}
	for _, r := range c.Remote.Segments {
		s.Remote = append(s.Remote, RemoteState{ID: r.ID, Base: r.Base, End: r.End, State: r.State.String()})
	}
	return s
}

func segRange(base, end int64) string {
	return "[" + strconv.FormatInt(base, 10) + ".." + strconv.FormatInt(end, 10) + "]"
}
