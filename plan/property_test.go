package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"tierfetch/model"
	"tierfetch/scenarios"
)

// kafkaState is a partition as a Kafka 4.3 leader holds it, drawn to be a
// state a real log can be in: the log start (LSO) <= the local log start
// (LLSO) <= the high watermark (HW); the highest uploaded offset (HRO) is
// below HW, and at or above LLSO-1 when local retention deleted segments
// (only uploaded segments are deleted locally), or anywhere below HW when
// the log starts on disk (deleteRecords may raise the log start past it);
// -1 when the leader does not know it (it became leader or restarted).
type kafkaState struct {
	lso, llso, hw, hro int64
	segRecords         int64
}

func drawKafkaState(t *rapid.T) kafkaState {
	var s kafkaState
	s.segRecords = rapid.Int64Range(1, 64).Draw(t, "segRecords")
	s.lso = rapid.Int64Range(0, 3000).Draw(t, "lso")
	s.hw = s.lso + rapid.Int64Range(0, 3000).Draw(t, "records")
	s.llso = s.lso
	if rapid.Bool().Draw(t, "locallyDeleted") {
		s.llso = rapid.Int64Range(s.lso, s.hw).Draw(t, "llso")
	}
	lo := max(0, s.llso-1)
	s.hro = -1
	if s.llso == s.lso {
		lo = 0
	}
	if s.hw > lo && rapid.Bool().Draw(t, "hroKnown") {
		s.hro = rapid.Int64Range(lo, s.hw-1).Draw(t, "hro")
	}
	return s
}

// answers is what kafka-get-offsets.sh prints for the state at each --time
// (-1: no offset, which the tool leaves out): Kafka 4.3's
// UnifiedLog.fetchEarliestPendingUploadOffset for -6 (max(HRO+1, LSO); the
// LSO when HRO is unknown and nothing is tiered; -1 when HRO is unknown with
// data tiered or the answer is at or past the log end), HRO or nothing for
// -5.
func (s kafkaState) answers() map[Time]int64 {
	epuo := int64(-1)
	switch {
	case s.hro < 0 && s.llso == s.lso:
		epuo = s.lso
	case s.hro >= 0:
		epuo = max(s.hro+1, s.lso)
	}
	if epuo >= s.hw {
		epuo = -1
	}
	return map[Time]int64{TimeEarliest: s.lso, TimeEarliestLocal: s.llso, TimeLatest: s.hw, TimeLatestTiered: s.hro, TimeEarliestPendingUpload: epuo}
}

// planInput writes the tool outputs of the times given for partition
// orders-2 (a second partition the plan must ignore beside it) and a
// tiered topic of segRecords 1 KiB records a segment, and a plan of one
// seed under profiles, small enough to make in a fraction of a second.
func planInput(t *rapid.T, values map[Time]int64, segRecords, produce int64, profiles ...model.Profile) Input {
	in := Input{Topic: "orders", Partition: 2, Env: DefaultEnv(), SeedFrom: 1, SeedTo: 1, Workers: 1, StepBudget: 20_000, Profiles: profiles}
	for _, tm := range Times {
		v, ok := values[tm]
		if !ok {
			continue
		}
		text := "orders:0:77\n"
		if v >= 0 {
			text += fmt.Sprintf("orders:2:%d\n", v)
		}
		of, err := ParseOffsets(tm.String()+".txt", tm, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", tm, err)
		}
		in.Offsets = append(in.Offsets, of)
	}
	cf, err := ParseConfigs("configs.txt", []byte(topicConfigsWith(map[string]string{"segment.bytes": fmt.Sprint(segRecords * 1024)})))
	if err != nil {
		t.Fatal(err)
	}
	in.Configs = cf
	in.Env.ProduceBytesPerSec, in.Env.Given[FieldProduce] = produce, true
	return in
}

// TestPlanScenarioAnswersAsTheTools: for tool outputs of any state a Kafka
// 4.3 partition can be in, with any of latest-tiered (-5),
// earliest-pending-upload (-6) and earliest-local (-4) left out, the scenario
// the plan builds has its leader's highest uploaded offset unknown (-1),
// below the log start (learned before retention or deleteRecords raised
// it; from -6 alone, the log start minus one) or at the end of a listed
// remote segment; and its leader, asked as Kafka 4.3 answers, gives the
// offsets the tools printed: -2, -1, -4 and -5 when given, and -6 whenever
// the tool printed a -6 offset or -5 was given too, and -4 was given or the
// leader's disk holds the whole log (from -6 alone the highest uploaded
// offset is the answer minus one, not the answer).
func TestPlanScenarioAnswersAsTheTools(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawKafkaState(t)
		all := s.answers()
		values := map[Time]int64{TimeEarliest: all[TimeEarliest], TimeLatest: all[TimeLatest]}
		for _, tm := range []Time{TimeEarliestLocal, TimeLatestTiered, TimeEarliestPendingUpload} {
			if rapid.Bool().Draw(t, "give "+tm.String()) {
				values[tm] = all[tm]
			}
		}
		produce := rapid.SampledFrom([]int64{0, 64 << 10}).Draw(t, "produce")
		r, sc, _, err := Make(planInput(t, values, s.segRecords, produce, model.Kafka43))
		if err != nil {
			t.Fatalf("state %+v, tools %v: %v", s, values, err)
		}
		in := sc.Initial
		if in == nil {
			t.Fatalf("state %+v: the scenario has no initial log", s)
		}
		hro := in.HighestRemoteOffset
		if r.State.HighestRemoteOffset != hro {
			t.Fatalf("the plan's state says HRO %d, its scenario %d", r.State.HighestRemoteOffset, hro)
		}
		ends := slices.ContainsFunc(in.RemoteSegments, func(seg scenarios.SegmentSpec) bool { return seg.EndOffset == hro })
		if hro >= in.LogStartOffset && !ends {
			t.Fatalf("state %+v, tools %v: HRO %d is neither below the log start %d nor the end of a remote segment %v",
				s, values, hro, in.LogStartOffset, in.RemoteSegments)
		}
		c := model.NewCluster(sc.Config.ModelConfig(), model.Kafka43, sc.Brokers, sc.Replicas, true, sc.ModelInitial())
		leader := c.Leader()
		got := map[Time]int64{TimeEarliest: leader.Log.LogStart, TimeLatest: leader.Log.HighWatermark, TimeEarliestLocal: leader.Log.LocalLogStartOffset(),
			TimeLatestTiered: leader.HighestRemote, TimeEarliestPendingUpload: model.Kafka43.EarliestPendingUploadOffset(c, leader)}
		_, has4 := values[TimeEarliestLocal]
		_, has5 := values[TimeLatestTiered]
		ep, has6 := values[TimeEarliestPendingUpload]
		for tm, want := range values {
			if tm == TimeEarliestPendingUpload && (ep < 0 && !has5 || !has4 && s.llso > s.lso) {
				// -6 printed nothing and -5 is not given, or -4 is not given
				// and the leader's disk does not hold the whole log: the
				// plan cannot tell the state the answer came from.
				continue
			}
			if got[tm] != want {
				t.Fatalf("state %+v, tools %v: the scenario's leader answers %s (%d) with %d, the tool printed %d",
					s, values, tm, int64(tm), got[tm], want)
			}
		}
		if has6 && ep > s.lso && !has5 && hro != ep-1 {
			t.Fatalf("-6 alone printed %d: HRO %d, want %d", ep, hro, ep-1)
		}
	})
}

// wantVerdict is the documented rule (README, "Plan from your cluster":
// verdict on, off or either within 10%) for two strategies that both join
// in every seed: the flag is "on" when the flag-on replica joins in at
// most 90% of the flag-off one's time, "off" when it takes at least 110%
// of it, "either" between; in whole milliseconds, a time of 0 counting as 1.
func wantVerdict(offMs, onMs int64) string {
	on := max(onMs, 1)
	switch {
	case 10*on <= 9*offMs:
		return "on"
	case 10*on >= 11*offMs:
		return "off"
	}
	return "either"
}

// TestPlanVerdictFollowsItsRuns: for tool outputs of any state a Kafka 4.3
// partition can be in and any produce rate, each profile's verdict is what
// its own runs show: a flag-on replica that did not always join is "off",
// one that did while the flag-off one did not is "on", and when both always
// join the documented 10% rule on the median catch-up times decides.
func TestPlanVerdictFollowsItsRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawKafkaState(t)
		produce := rapid.SampledFrom([]int64{0, 16 << 10, 1 << 20}).Draw(t, "produce")
		r, _, _, err := Make(planInput(t, s.answers(), s.segRecords, produce, model.Kafka43, model.KIP))
		if err != nil {
			t.Fatalf("state %+v: %v", s, err)
		}
		for _, pp := range r.Profiles {
			off, on := pp.Strategies[0], pp.Strategies[1]
			want := ""
			switch {
			case pp.Verdict == "never-catches-up" || hasSafety(&on):
				continue // decided by the workload or a broken invariant, not by the times
			case on.Joined < on.Seeds && off.Joined < off.Seeds:
				want = "neither"
			case on.Joined < on.Seeds:
				want = "off"
			case off.Joined < off.Seeds:
				want = "on"
			default:
				want = wantVerdict(off.CatchUpMs.Median, on.CatchUpMs.Median)
			}
			if pp.Verdict != want {
				t.Fatalf("state %+v, %s: verdict %s, want %s (flag off joined %d of %d, median %v; on %d of %d, median %v)", s, pp.Profile,
					pp.Verdict, want, off.Joined, off.Seeds, medianOf(off.CatchUpMs), on.Joined, on.Seeds, medianOf(on.CatchUpMs))
			}
		}
	})
}

func medianOf(d *Distribution) any {
	if d == nil {
		return "none"
	}
	return d.Median
}

// TestVerdictFlipsAtTheThresholds: catch-up times drawn about the
// documented thresholds (the flag-on time at 90% and at 110% of the flag-off
// time, to the millisecond) give the documented verdict, and the summary
// and the recommendation say the same: "faster", "slower" or "within 10%",
// and "turn the flag on" only for "on".
func TestVerdictFlipsAtTheThresholds(t *testing.T) {
	b := &builder{in: &Input{Env: DefaultEnv()}}
	b.st.RemoteStorageEnable = true
	rapid.Check(t, func(t *rapid.T) {
		offMs := rapid.Int64Range(1, 10_000_000).Draw(t, "offMs")
		var onMs int64
		switch rapid.IntRange(0, 2).Draw(t, "near") {
		case 0: // about 90%
			onMs = offMs*9/10 + rapid.Int64Range(-2, 2).Draw(t, "d")
		case 1: // about 110%
			onMs = offMs*11/10 + rapid.Int64Range(-2, 2).Draw(t, "d")
		default:
			onMs = rapid.Int64Range(0, 3*offMs).Draw(t, "onMs")
		}
		onMs = max(onMs, 0)
		pp := answerOf("kafka-4.3", "", offMs, onMs, onMs)
		v, summary := verdict(b, &pp)
		want := wantVerdict(offMs, onMs)
		if v != want {
			t.Fatalf("flag off %d ms, on %d ms: verdict %s, want %s", offMs, onMs, v, want)
		}
		words := map[string]string{"on": "faster", "off": "slower", "either": "within 10%"}[want]
		if !strings.Contains(summary, words) {
			t.Fatalf("flag off %d ms, on %d ms: verdict %s but the summary says %q", offMs, onMs, v, summary)
		}
		pp.Verdict = v
		advice := advice(&Result{Profiles: []ProfilePlan{pp}})
		if strings.Contains(advice, "turn the flag on") != (want == "on") {
			t.Fatalf("verdict %s: recommendation %q", want, advice)
		}
	})
}

// TestVerdictAtEveryThreshold: for every flag-off time up to 5 s, the
// flag-on times on both sides of 90% and of 110% of it, to the
// millisecond, give the documented verdict (floating-point rounding must
// not move a threshold).
func TestVerdictAtEveryThreshold(t *testing.T) {
	b := &builder{in: &Input{Env: DefaultEnv()}}
	b.st.RemoteStorageEnable = true
	bad := 0
	for offMs := int64(1); offMs <= 5_000 && bad < 10; offMs++ {
		for _, at := range []int64{offMs * 9 / 10, (offMs*9 + 9) / 10, offMs * 11 / 10, (offMs*11 + 9) / 10} {
			for onMs := max(at-1, 0); onMs <= at+1; onMs++ {
				pp := answerOf("kafka-4.3", "", offMs, onMs, onMs)
				if v, _ := verdict(b, &pp); v != wantVerdict(offMs, onMs) {
					t.Errorf("flag off %d ms, on %d ms: verdict %s, want %s", offMs, onMs, v, wantVerdict(offMs, onMs))
					bad++
				}
			}
		}
	}
}
