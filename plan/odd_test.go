package plan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A small partition "orders-2" (1 KiB records, 1 MiB segments) in the
// states the odd cases need; fixtures are tool output written by hand.

// offsetsOf writes kafka-get-offsets.sh output for orders-2 (and orders-0,
// which the plan must ignore); a negative value leaves orders-2 out, as the
// tool does for an UNKNOWN_OFFSET answer.
func offsetsOf(values map[Time]int64) map[Time]string {
	out := map[Time]string{}
	for tm, v := range values {
		text := "orders:0:77\n"
		if v >= 0 {
			text += fmt.Sprintf("orders:2:%d\n", v)
		}
		out[tm] = text
	}
	return out
}

// topicConfigsWith writes kafka-configs.sh --describe --all output for
// orders with 1 MiB segments and the given overrides.
func topicConfigsWith(overrides map[string]string) string {
	configs := map[string]string{"cleanup.policy": "delete", "local.retention.bytes": "-2", "local.retention.ms": "-2",
		"remote.log.copy.disable": "false", "remote.log.delete.on.disable": "false", "remote.storage.enable": "true",
		"retention.bytes": "-1", "retention.ms": "604800000", "segment.bytes": "1048576", "unclean.leader.election.enable": "false"}
	for k, v := range overrides {
		configs[k] = v
	}
	var b strings.Builder
	b.WriteString("All configs for topic orders are:\n")
	for _, k := range sortedKeys(configs) {
		fmt.Fprintf(&b, "  %s=%s sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:%s=%s}\n", k, configs[k], k, configs[k])
	}
	return b.String()
}

func smallInput(t *testing.T, values map[Time]int64, overrides map[string]string) Input {
	t.Helper()
	in := files{offsets: offsetsOf(values), configs: topicConfigsWith(overrides)}.input(t, 2)
	in.SeedTo = 2
	return in
}

func TestPlanTopicWithoutTiering(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 1000, TimeEarliestLocal: 1000, TimeLatestTiered: -1, TimeLatest: 60000},
		map[string]string{"remote.storage.enable": "false"})
	r, _ := mustPlan(t, in)
	if r.State.RemoteStorageEnable || r.State.HighestRemoteOffset != -1 || r.State.RemoteOnlyBytes != 0 {
		t.Errorf("state %+v", r.State)
	}
	for _, pp := range r.Profiles {
		if pp.Verdict != "no-difference" || !slices.Equal(hazardIDs(&pp), []string{HazardTieringOff}) {
			t.Errorf("%s: verdict %s, hazards %v", pp.Profile, pp.Verdict, hazardIDs(&pp))
		}
		for _, sp := range pp.Strategies {
			if sp.Joined != sp.Seeds || sp.StartOffset.Min != 1000 {
				t.Errorf("%s %s: joined %d, start %+v", pp.Profile, sp.Strategy, sp.Joined, sp.StartOffset)
			}
		}
	}
	if !strings.Contains(r.Recommendation, "makes no difference") {
		t.Errorf("recommendation %q", r.Recommendation)
	}
}

// TestPlanOffsetsDisagreeWithConfigs: the configs say tiering is off and
// local retention is 1 MiB, the offsets show tiered data and 50 MiB on the
// leader's disk: the plan follows the offsets and says so.
func TestPlanOffsetsDisagreeWithConfigs(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: 70655, TimeLatest: 71680},
		map[string]string{"remote.storage.enable": "false", "local.retention.bytes": "1048576"})
	r, _ := mustPlan(t, in)
	if !r.State.RemoteStorageEnable {
		t.Error("tiering modelled off, want on (the offsets show tiered data)")
	}
	if !anyContains(r.Notes, "the configs say remote.storage.enable=false, but the offsets show tiered data") {
		t.Errorf("notes %q: want the tiering disagreement", r.Notes)
	}
	if !anyContains(r.Notes, "but local.retention.bytes is 1.00 MiB: the offsets and the configs disagree") {
		t.Errorf("notes %q: want the local retention disagreement", r.Notes)
	}
}

// TestPlanOffsetsNoLogCanHold: offsets in an impossible order name the file
// and line to save again.
func TestPlanOffsetsNoLogCanHold(t *testing.T) {
	cases := []struct {
		values map[Time]int64
		want   string
	}{
		{map[Time]int64{TimeEarliest: 500, TimeLatest: 400}, "earliest.txt:2: earliest 500 is above latest 400 (latest.txt:2)"},
		{map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 900, TimeLatest: 400}, "earliest-local.txt:2: earliest-local 900 is outside"},
		{map[Time]int64{TimeEarliest: 0, TimeLatestTiered: 400, TimeLatest: 400}, "latest-tiered.txt:2: latest-tiered 400 is at or above latest 400"},
		{map[Time]int64{TimeEarliest: 0, TimeLatest: -1}, "latest.txt: no latest offset for partition orders-2 (the file has orders-0)"},
	}
	for _, c := range cases {
		_, _, _, err := Make(smallInput(t, c.values, nil))
		var te *ToolError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want a ToolError containing %q", c.values, err, c.want)
		}
	}
}

// TestPlanEarliestPendingUploadUnsupported: an older broker fails -6; the
// plan says the flag needs an upgrade and still plans.
func TestPlanEarliestPendingUploadUnsupported(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: 70655, TimeLatest: 71680}, nil)
	of, err := ParseOffsets("pending.txt", TimeEarliestPendingUpload, []byte("orders:0:77\nSkip getting offsets for topic-partition orders-2 due to error: "+
		"org.apache.kafka.common.errors.UnsupportedVersionException: The broker does not support LIST_OFFSETS with version in range [11,11]. The supported range is [0,10].\n"))
	if err != nil {
		t.Fatal(err)
	}
	in.Offsets = append(in.Offsets, of)
	r, _ := mustPlan(t, in)
	if !anyContains(r.Notes, "does not support earliest-pending-upload (-6) (pending.txt:2): it predates Kafka 4.2") ||
		!strings.Contains(r.Recommendation, "predate Kafka 4.2") || r.State.EarliestPendingUploadOffset != nil {
		t.Errorf("notes %q, recommendation %q", r.Notes, r.Recommendation)
	}
}

// TestPlanHighestUploadedUnknown: an older tool prints -1 for latest-tiered
// (the leader does not know it): a flag-on replica retries until the
// leader's copy task seeds it, under every profile.
func TestPlanHighestUploadedUnknown(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatest: 71680}, nil)
	of, err := ParseOffsets("latest-tiered.txt", TimeLatestTiered, []byte("orders:0:76\norders:2:-1\n"))
	if err != nil {
		t.Fatal(err)
	}
	in.Offsets = append(in.Offsets, of)
	r, _ := mustPlan(t, in)
	if r.State.HighestRemoteOffset != -1 || r.State.RemoteEndOffset != 70655 {
		t.Errorf("state %+v: want HRO unknown, remote holding the inactive local segments", r.State)
	}
	for _, pp := range r.Profiles {
		on := pp.Strategies[1]
		if !slices.Contains(hazardIDs(&pp), HazardHROUnknown) || on.RetriesByReason["epuo-unknown"] == 0 || on.Joined != on.Seeds {
			t.Errorf("%s: hazards %v, flag-on retries %v, joined %d", pp.Profile, hazardIDs(&pp), on.RetriesByReason, on.Joined)
		}
	}
}

// TestPlanFullyTieredIdle: everything uploaded and nothing produced: Kafka
// 4.3's leader answers -6 with -1, so the flag-on replica never joins; the
// KIP text starts it at the log end.
func TestPlanFullyTieredIdle(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 70656, TimeLatestTiered: 71679, TimeLatest: 71680}, nil)
	in.Env.ProduceBytesPerSec, in.Env.Given[FieldProduce] = 0, true
	r, _ := mustPlan(t, in)
	k43, kip := profilePlan(t, r, "kafka-4.3"), profilePlan(t, r, "kip")
	if !slices.Contains(hazardIDs(k43), HazardFullyTieredIdle) || k43.Strategies[1].Joined != 0 || k43.Verdict != "off" {
		t.Errorf("kafka-4.3: hazards %v, flag on joined %d, verdict %s", hazardIDs(k43), k43.Strategies[1].Joined, k43.Verdict)
	}
	if slices.Contains(hazardIDs(kip), HazardFullyTieredIdle) || kip.Strategies[1].Joined != kip.Strategies[1].Seeds {
		t.Errorf("kip: hazards %v, flag on joined %d", hazardIDs(kip), kip.Strategies[1].Joined)
	}
	if !strings.Contains(r.Recommendation, "leave it off with kafka-4.3") && !strings.Contains(r.Recommendation, "leave the flag off") {
		t.Errorf("recommendation %q", r.Recommendation)
	}
}

// TestPlanLogStartAboveTiered: tiering just enabled on a topic whose log
// starts at 5000: Kafka 4.3's flag-on replica needs the remote segment
// holding 4999 and waits for the first upload; the KIP text needs nothing.
func TestPlanLogStartAboveTiered(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 5000, TimeEarliestLocal: 5000, TimeLatestTiered: -1, TimeLatest: 9000}, nil)
	r, _ := mustPlan(t, in)
	k43, kip := profilePlan(t, r, "kafka-4.3"), profilePlan(t, r, "kip")
	on := k43.Strategies[1]
	if !slices.Contains(hazardIDs(k43), HazardLogStartAboveTiered) || on.RetriesByReason["aux-unavailable"] == 0 {
		t.Errorf("kafka-4.3: hazards %v, flag-on retries %v", hazardIDs(k43), on.RetriesByReason)
	}
	if slices.Contains(hazardIDs(kip), HazardLogStartAboveTiered) || kip.Strategies[1].RetriesByReason["aux-unavailable"] != 0 {
		t.Errorf("kip: hazards %v, retries %v", hazardIDs(kip), kip.Strategies[1].RetriesByReason)
	}
}

// TestPlanCopyDisabled: copying disabled and the leader does not know its
// highest uploaded offset: Kafka 4.3 has no copy task to seed it, so the
// leader answers -6 with -1 while its log start is below its local log
// start; the KIP text's leader knows it, and trunk's expiration task seeds
// it (KAFKA-20732): there the hazard is the retry until it does
// (hro-unknown), not copy-disabled. Here the plan's retention makes the
// expiration task raise the log start to the local log start at once and
// then delete the segments below it one at a time
// (RemoteLogManager.java:1529-1550 @025293cb): -6 then answers the log start
// and a flag-on replica may build from the segment holding it - 1 before
// that one's deletion starts, so whether it joins under 4.3 is a race (the
// hazard says so rather than "never"); the hazard and the verdict stand.
func TestPlanCopyDisabled(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: -1, TimeLatest: 71680},
		map[string]string{"remote.log.copy.disable": "true"})
	r, _ := mustPlan(t, in)
	k43, kip := profilePlan(t, r, "kafka-4.3"), profilePlan(t, r, "kip")
	if !slices.Contains(hazardIDs(k43), HazardCopyDisabled) || k43.Verdict != "off" {
		t.Errorf("kafka-4.3: hazards %v, flag on joined %d, verdict %s", hazardIDs(k43), k43.Strategies[1].Joined, k43.Verdict)
	}
	for _, hz := range k43.Hazards {
		if hz.ID == HazardCopyDisabled && (!strings.Contains(hz.Explanation, "remote retention") || strings.Contains(hz.Explanation, "-1 for good")) {
			t.Errorf("kafka-4.3: %q: want the wait until remote retention raises the log start, not a wait for good", hz.Explanation)
		}
	}
	for _, pp := range []*ProfilePlan{kip, profilePlan(t, r, "kafka-trunk")} {
		if slices.Contains(hazardIDs(pp), HazardCopyDisabled) || !slices.Contains(hazardIDs(pp), HazardHROUnknown) ||
			pp.Strategies[1].Joined != pp.Strategies[1].Seeds {
			t.Errorf("%s: hazards %v, flag on joined %d of %d: want hro-unknown only, every seed joined", pp.Profile, hazardIDs(pp),
				pp.Strategies[1].Joined, pp.Strategies[1].Seeds)
		}
	}
}

// TestMissingPartitionNamesTheFilesPartitionsInOrder: a file without the
// partition lists the ones it has, by topic and then by partition number
// (orders-9 before orders-10), whatever order the tool printed them in.
func TestMissingPartitionNamesTheFilesPartitionsInOrder(t *testing.T) {
	in := files{offsets: map[Time]string{TimeEarliest: "orders:2:0\n", TimeLatest: "zeta:1:5\norders:10:7\norders:0:77\nalpha:3:1\norders:9:3\n"},
		configs: topicConfigsWith(nil)}.input(t, 2)
	_, _, _, err := Make(in)
	want := "latest.txt: no latest offset for partition orders-2 (the file has alpha-3, orders-0, orders-9, orders-10, zeta-1)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}
