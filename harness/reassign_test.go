package harness

import (
	"slices"
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// tieredInitial is a tiered partition's log: 1000-record segments, [0,
// 2000) uploaded, [1000, 4000) local.
const tieredInitial = `{"high_watermark": 4000, "highest_remote_offset": 1999,
	"remote_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0, "count": 2}],
	"local_segments": [{"base_offset": 1000, "end_offset": 1999, "epoch": 0, "count": 3}]}`

// TestReassignMovesReplicas: t-0 and t-1 move from [0, 1] (b0 leads) to
// [1, 2]; t-2 stays. In each moved partition b2 is added and bootstraps,
// the reassignment completes only once b2 is in the ISR, then b0 is
// removed: it leaves the replicas and the ISR, and since it led, the first
// target replica in the ISR, b1, leads in a new epoch (Kafka's
// PartitionReassignmentReplicas.maybeCompleteReassignment and
// PartitionChangeBuilder.electAnyLeader). restored_ms counts from the
// reassign to the later of b2's joins.
func TestReassignMovesReplicas(t *testing.T) {
	entries := strings.ReplaceAll(partitionsOf(3, tieredInitial), `"replicas": [0]`, `"replicas": [0, 1]`)
	res, evs := runWith(t, `{"brokers": 3, "duration_ms": 20000, "heal_ms": 20000,
	  "config": {"remote_storage_enable": true, "network_latency_ms": [1, 1], "remote_fetch_ms": [100, 100]},
	  "partitions": [`+entries+`],
	  "events": [{"at_ms": 1000, "type": "reassign", "topic": "t", "partitions": [0, 1], "replicas": [1, 2]}]}`)
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, res.Violation)
	}
	at := sim.Time(sim.Second)
	var last sim.Time
	for p := range model.PartID(2) {
		var joined, done sim.Time = -1, -1
		epoch := int32(-1)
		for _, x := range evs {
			if x.e.Part != p {
				continue
			}
			switch {
			case x.e.Kind == model.EvISRJoin && x.e.Broker == 2 && joined < 0:
				joined = x.at
			case x.e.Kind == model.EvReassignDone:
				done = x.at
				if !slices.Equal(x.e.Brokers, []int{1, 2}) {
					t.Errorf("t-%d: reassignment done with replicas %v, want [1 2]", p, x.e.Brokers)
				}
			case x.e.Kind == model.EvBecomeLeader && done >= 0:
				if x.e.Broker != 1 || epoch >= 0 {
					t.Errorf("t-%d: after the reassignment b%d becomes leader (epoch %d, an earlier one %d); want b1 once", p, x.e.Broker, x.e.Epoch, epoch)
				}
				epoch = x.e.Epoch
			case x.e.Kind == model.EvISRJoin && done >= 0 && slices.Contains(x.e.Brokers, 0):
				t.Errorf("t-%d: b0 in the ISR %v at %v, after its removal", p, x.e.Brokers, x.at)
			}
		}
		if joined < at || done != joined || epoch != 1 {
			t.Fatalf("t-%d: b2 joined at %v, reassignment done at %v, b1 leads in epoch %d: want done at the join, after %v, epoch 1", p, joined, done, epoch, at)
		}
		last = max(last, joined)
		c := res.Fleet.Parts[p]
		if !slices.Equal(c.Ctrl.Replicas, []int{1, 2}) || !slices.Equal(c.Ctrl.ISR, []int{1, 2}) || c.Ctrl.Leader != 1 || c.Ctrl.Reassigning() {
			t.Errorf("t-%d at the end: replicas %v, ISR %v, leader b%d, reassigning %v", p, c.Ctrl.Replicas, c.Ctrl.ISR, c.Ctrl.Leader, c.Ctrl.Reassigning())
		}
		if b0 := c.Brokers[0]; b0.Role != model.RoleNone || b0.Log.LogEnd != 0 {
			t.Errorf("t-%d: removed b0 is %s with log end %d, want no role and its log deleted", p, b0.Role, b0.Log.LogEnd)
		}
	}
	if c := res.Fleet.Parts[2]; !slices.Equal(c.Ctrl.Replicas, []int{0, 1}) || c.Ctrl.Leader != 0 {
		t.Errorf("t-2, not reassigned: replicas %v, leader b%d", c.Ctrl.Replicas, c.Ctrl.Leader)
	}
	j := res.JSON()
	for _, p := range j.Partitions[:2] {
		if len(p.Followers) != 1 || p.Followers[0].Broker != 2 || p.Followers[0].CaughtUpMs == nil {
			t.Errorf("t-%d followers %+v, want b2 added and caught up", p.Partition, p.Followers)
		}
	}
	if len(res.BrokerScale.Replaced) != 0 {
		t.Errorf("replaced brokers %v, want none (a reassignment replaces no broker)", res.BrokerScale.Replaced)
	}
	if b := j.BrokerScale; b.RestoredMs == nil || *b.RestoredMs != last.Sub(at).Ms() {
		t.Errorf("broker_scale %+v, want restored_ms %d (the later join, from the reassign)", b, last.Sub(at).Ms())
	}
}

// TestReassignNeverCompletes: under kafka-4.3 with the flag on, a
// reassignment that adds b1 to an idle, fully tiered partition never
// completes (b1 retries while the leader answers -1 for the earliest
// pending upload: FINDINGS' idle fully tiered partition), so b2, which it
// removes, stays assigned; liveness names the partition and says so. The
// other partition's reassignment completes.
func TestReassignNeverCompletes(t *testing.T) {
	idle := `{"high_watermark": 3000, "highest_remote_offset": 2999,
		"remote_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0, "count": 3}],
		"local_segments": [{"base_offset": 2000, "end_offset": 2999, "epoch": 0}, {"base_offset": 3000, "end_offset": 2999, "epoch": 0}]}`
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "duration_ms": 10000, "heal_ms": 10000,
	  "config": {"segment_bytes": 1024000, "record_bytes": 1024, "remote_storage_enable": true},
	  "partitions": [{"topic": "idle", "partition": 0, "replicas": [0, 2], "initial": ` + idle + `},
	    {"topic": "idle", "partition": 1, "replicas": [0, 2], "initial": {"high_watermark": 100, "local_segments": [{"base_offset": 0, "end_offset": 99, "epoch": 0}]},
	     "config": {"remote_storage_enable": false}}],
	  "events": [{"at_ms": 1000, "type": "reassign", "topic": "idle", "partitions": [0, 1], "replicas": [0, 1]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res := Execute(sc, Options{Seed: 1, Strategy: LastTiered, Profile: model.Kafka43})
	want := "idle-0: reassignment to [0 1] not complete: removing [2] still assigned; b1 not in ISR [0 2]"
	if res.Outcome != OutcomeLiveness || res.Violation == nil || !strings.HasPrefix(res.Violation.Message, want) {
		t.Fatalf("outcome %s, violation %+v; want liveness %q", res.Outcome, res.Violation, want)
	}
	if o := res.Partitions[1].Outcome; o != OutcomeOK {
		t.Errorf("idle-1 (untiered) outcome %s, want ok: its reassignment completes", o)
	}
	if c := res.Fleet.Parts[1]; !slices.Equal(c.Ctrl.Replicas, []int{0, 1}) || c.Ctrl.Reassigning() {
		t.Errorf("idle-1 replicas %v, reassigning %v", c.Ctrl.Replicas, c.Ctrl.Reassigning())
	}
}
