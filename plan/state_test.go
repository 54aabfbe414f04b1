package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// buildState builds the plan's state and scenario from in without running
// them (the first half of Make).
func buildState(t *testing.T, in Input) (State, *scenarios.Scenario) {
	t.Helper()
	b, sc := buildOnly(t, in)
	return b.st, sc
}

// buildOnly is buildState with the builder itself (its notes too).
func buildOnly(t *testing.T, in Input) (*builder, *scenarios.Scenario) {
	t.Helper()
	f, err := gather(&in)
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{in: &in, f: f}
	sc, _, err := b.build()
	if err != nil {
		t.Fatal(err)
	}
	return b, sc
}

// TestSteadyStateUploadsEveryInactiveSegment: without latest-tiered (-5)
// and earliest-pending-upload (-6) the plan takes the leader's copy task to
// have uploaded every inactive local segment: of the local records
// [earliest-local, latest) in 1024-record segments, all but the last
// (active) one; none when the leader holds one segment.
func TestSteadyStateUploadsEveryInactiveSegment(t *testing.T) {
	const llso, seg = 20480, 1024
	for _, local := range []int64{1, seg, seg + 1, 2 * seg, 2*seg + 1, 5 * seg} {
		segments := (local + seg - 1) / seg
		want := llso + (segments-1)*seg - 1
		st, sc := buildState(t, smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: llso, TimeLatest: llso + local}, nil))
		if st.HighestRemoteOffset != want || sc.Initial.HighestRemoteOffset != want {
			t.Errorf("%d local records (%d segments): HRO %d (scenario %d), want %d (the end of the last inactive one)",
				local, segments, st.HighestRemoteOffset, sc.Initial.HighestRemoteOffset, want)
		}
	}
}

// TestRecordSizeFromTheLargestReplica: with kafka-log-dirs.sh and no
// kafka-topics.sh (the leader unknown) the record size is the largest
// replica's local size (the leader holds at least what a follower does)
// over the local records [earliest-local, latest), whatever order the
// brokers are listed in.
func TestRecordSizeFromTheLargestReplica(t *testing.T) {
	const llso, hw = 20480, 20480 + 4096
	sizes := map[int]int64{1: 1 << 20, 2: 3 << 20, 3: 2 << 20} // the largest: 3 MiB over 4096 records, 768 bytes
	for _, order := range [][]int{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}} {
		dirs := "Querying brokers for log directories information\nReceived log directory information from brokers 1,2,3\n" +
			`{"version":1,"brokers":[`
		for i, b := range order {
			if i > 0 {
				dirs += ","
			}
			dirs += fmt.Sprintf(`{"broker":%d,"logDirs":[{"logDir":"/d","error":null,"partitions":[{"partition":"orders-2","size":%d,"offsetLag":0,"isFuture":false}]}]}`, b, sizes[b])
		}
		dirs += "]}\n"
		in := files{offsets: offsetsOf(map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: llso, TimeLatest: hw}),
			configs: topicConfigsWith(nil), logDirs: dirs}.input(t, 2)
		st, sc := buildState(t, in)
		if want := int64(3<<20) / (hw - llso); st.RecordBytes != want || sc.Config.RecordBytes != want {
			t.Errorf("brokers listed %v: records of %d bytes (scenario %d), want %d", order, st.RecordBytes, sc.Config.RecordBytes, want)
		}
	}
}

// TestLivenessFailsOnlyAWholeRun: a plan lists as failures the runs that
// broke a safety invariant, and those that broke liveness only when the run
// covered the whole scenario (the heal is where liveness is judged) and its
// share of the work budget did not stop it.
func TestLivenessFailsOnlyAWholeRun(t *testing.T) {
	runs := []RunOutcome{
		{Seed: 1, Outcome: harness.OutcomeOK},
		{Seed: 2, Outcome: harness.OutcomeSafety},
		{Seed: 3, Outcome: harness.OutcomeLiveness},
		{Seed: 4, Outcome: harness.OutcomeLiveness, stopped: true},
	}
	for _, c := range []struct {
		full bool
		want []uint64
	}{{true, []uint64{2, 3}}, {false, []uint64{2}}} {
		sp := strategyPlan(harness.LastTiered, runs, c.full)
		var got []uint64
		for _, o := range sp.Failures {
			got = append(got, o.Seed)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("whole scenario simulated %v: failures of seeds %v, want %v", c.full, got, c.want)
		}
	}
}

// TestDistributionNearestRank: a plan's p10, median and p90 over n seeds
// are the values of rank ceil(p% of n) (the nearest-rank method): of 5
// seeds the 1st, 3rd and 5th, of 10 the 1st, 5th and 9th, of 4 the 1st,
// 2nd and 4th; given in any order; the spread is max - min.
func TestDistributionNearestRank(t *testing.T) {
	for _, c := range []struct {
		values           []int64
		p10, median, p90 int64
	}{
		{[]int64{50, 10, 40, 20, 30}, 10, 30, 50},
		{[]int64{100, 90, 80, 70, 60, 50, 40, 30, 20, 10}, 10, 50, 90},
		{[]int64{4, 1, 3, 2}, 1, 2, 4},
		{[]int64{7}, 7, 7, 7},
	} {
		d := distribution(c.values)
		if d.N != len(c.values) || d.P10 != c.p10 || d.Median != c.median || d.P90 != c.p90 {
			t.Errorf("%v: p10 %d, median %d, p90 %d; want %d, %d, %d", c.values, d.P10, d.Median, d.P90, c.p10, c.median, c.p90)
		}
		if lo, hi := slices.Min(c.values), slices.Max(c.values); d.Min != lo || d.Max != hi || d.Spread != hi-lo {
			t.Errorf("%v: min %d, max %d, spread %d; want %d, %d, %d", c.values, d.Min, d.Max, d.Spread, lo, hi, hi-lo)
		}
	}
}

// TestOutOfSyncReplicasAreLeftOut: the scenario starts the leader and
// the replicas kafka-topics.sh lists in the ISR; a replica outside it (it
// cannot start part-way behind) is left out, with a note naming it.
func TestOutOfSyncReplicasAreLeftOut(t *testing.T) {
	topics := "Topic: orders\tTopicId: abc\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: remote.storage.enable=true\n" +
		"\tTopic: orders\tPartition: 2\tLeader: 3\tReplicas: 3,1,2\tIsr: 3,2\n"
	in := files{offsets: offsetsOf(map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatest: 22528}),
		configs: topicConfigsWith(nil), topics: topics}.input(t, 2)
	b, sc := buildOnly(t, in)
	if b.st.Leader != 3 || fmt.Sprint(b.st.InSync) != "[3 2]" || sc.Brokers != 3 {
		t.Errorf("leader %d, in sync %v, %d brokers; want leader 3, in sync [3 2], and the new replica: 3 brokers",
			b.st.Leader, b.st.InSync, sc.Brokers)
	}
	noted := false
	for _, n := range b.notes {
		noted = noted || strings.HasPrefix(n, "replica(s) 1 are not in the ISR")
	}
	if !noted {
		t.Errorf("no note names replica 1 as out of the ISR: %q", b.notes)
	}
}

// TestRangeMsTakesOneValueForBoth: a MIN,MAX flag (--network-latency-ms)
// takes MIN == MAX and one value for both; MIN above MAX or below 0 is bad.
func TestRangeMsTakesOneValueForBoth(t *testing.T) {
	for in, want := range map[string][2]int64{"5,5": {5, 5}, "5": {5, 5}, "0,0": {0, 0}, "1, 9": {1, 9}} {
		if got, err := ParseRangeMs(in); err != nil || got != want {
			t.Errorf("ParseRangeMs(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"9,1", "-1", "-1,2", "x", "1,", ""} {
		if _, err := ParseRangeMs(bad); err == nil {
			t.Errorf("ParseRangeMs(%q) accepted", bad)
		}
	}
}
