package fuzz

import (
	"encoding/json"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// drawScenario draws a scenario from meaningful choices (cluster, fixture,
// each event), so rapid's shrinker removes events and lowers numbers rather
// than flipping opaque seed bits. Every drawn scenario is valid.
func drawScenario(t *rapid.T) *scenarios.Scenario {
	sc := &scenarios.Scenario{Name: "rapid", Seed: 1, Config: scenarios.DefaultConfig(), DurationMs: 60_000, HealMs: 180_000}
	sc.Brokers = rapid.IntRange(2, 4).Draw(t, "brokers")
	sc.Replicas = []int{0}
	if rapid.Bool().Draw(t, "twoReplicas") {
		sc.Replicas = append(sc.Replicas, 1)
	}
	c := &sc.Config
	segRecords := rapid.Int64Range(20, 400).Draw(t, "segmentRecords")
	c.RecordBytes, c.SegmentBytes = 1024, 1024*segRecords
	c.RemoteStorageEnable = true
	c.RemoteLogDeleteOnDisable = rapid.Bool().Draw(t, "deleteOnDisable")
	c.RemoteLogManagerTaskIntervalMs = rapid.Int64Range(1_000, 10_000).Draw(t, "rlmIntervalMs")
	c.LogRetentionCheckIntervalMs = rapid.Int64Range(1_000, 10_000).Draw(t, "retentionCheckMs")
	c.RemoteMetadataReadyMs = rapid.SampledFrom([]int64{0, 5_000}).Draw(t, "metadataReadyMs")
	c.LocalRetentionBytes = c.SegmentBytes * rapid.Int64Range(-1, 3).Draw(t, "localRetentionSegments")
	if c.LocalRetentionBytes < 0 {
		c.LocalRetentionBytes = -2
	}
	sc.Initial = drawFixture(t, segRecords)
	for _, e := range rapid.SliceOfN(rapid.Custom(func(t *rapid.T) scenarios.Event { return drawEvent(t, sc) }), 1, 12).Draw(t, "events") {
		sc.Events = append(sc.Events, e)
	}
	if err := sc.Validate(); err != nil {
		t.Fatalf("drew an invalid scenario: %v", err)
	}
	sc.Normalize()
	return sc
}

func drawFixture(t *rapid.T, segRecords int64) *scenarios.Initial {
	n := rapid.IntRange(1, 5).Draw(t, "segments")
	tiered := rapid.IntRange(0, n-1).Draw(t, "tieredSegments")
	local := rapid.IntRange(0, tiered).Draw(t, "firstLocalSegment")
	in := &scenarios.Initial{HighestRemoteOffset: -1}
	for i := 0; i < n; i++ {
		s := scenarios.SegmentSpec{BaseOffset: int64(i) * segRecords, EndOffset: int64(i+1)*segRecords - 1}
		if i < tiered {
			in.RemoteSegments = append(in.RemoteSegments, s)
		}
		if i >= local {
			in.LocalSegments = append(in.LocalSegments, s)
		}
	}
	leo := int64(n) * segRecords
	in.LocalSegments = append(in.LocalSegments, scenarios.SegmentSpec{BaseOffset: leo, EndOffset: leo - 1})
	in.HighWatermark = leo
	if tiered > 0 && rapid.Bool().Draw(t, "hroKnown") {
		in.HighestRemoteOffset = in.RemoteSegments[tiered-1].EndOffset
	}
	return in
}

func drawEvent(t *rapid.T, sc *scenarios.Scenario) scenarios.Event {
	e := scenarios.Event{AtMs: rapid.Int64Range(0, sc.DurationMs).Draw(t, "atMs")}
	broker := func() *int { return ptr(rapid.IntRange(0, sc.Brokers-1).Draw(t, "broker")) }
	// Every broker outside the replica set is added at 0 by the test.
	switch kind := rapid.SampledFrom([]string{"produce", "elect", "crash", "restart", "tiering", "copy", "flag", "delete", "partition", "outage"}).Draw(t, "kind"); kind {
	case "produce":
		e.Type, e.Records, e.OverMs = scenarios.EventProduce, rapid.Int64Range(1, 3000).Draw(t, "records"), rapid.Int64Range(0, 10_000).Draw(t, "overMs")
	case "elect":
		e.Type, e.Broker = scenarios.EventElectLeader, broker()
	case "crash":
		e.Type, e.Broker = scenarios.EventCrash, broker()
	case "restart":
		e.Type, e.Broker = scenarios.EventRestart, broker()
	case "tiering", "copy", "flag":
		key := map[string]string{"tiering": "remote_storage_enable", "copy": "remote_log_copy_disable", "flag": "follower_fetch_last_tiered_offset_enable"}[kind]
		e.Type, e.Key, e.Value = scenarios.EventSetConfig, key, json.RawMessage(fmt.Sprint(rapid.Bool().Draw(t, "value")))
	case "delete":
		e.Type, e.BeforeOffset = scenarios.EventDeleteRecords, rapid.Int64Range(0, 3000).Draw(t, "beforeOffset")
	case "partition":
		e.Type, e.Brokers, e.DurationMs = scenarios.EventNetworkPartition, []int{*broker()}, rapid.Int64Range(100, 40_000).Draw(t, "partitionMs")
	case "outage":
		e.Type, e.DurationMs = scenarios.EventRemoteOutage, rapid.Int64Range(100, 40_000).Draw(t, "outageMs")
	}
	return e
}

// TestPropertyNoUnknownFailures draws scenarios with rapid and runs both
// protocols: any failure that is not a known finding fails, and rapid
// shrinks the drawn choices. A failing case is saved under testdata/rapid
// and replays with go test -run TestPropertyNoUnknownFailures -rapid.failfile=FILE.
func TestPropertyNoUnknownFailures(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t)
		for b := 0; b < sc.Brokers; b++ {
			if !containsInt(sc.Replicas, b) {
				sc.Events = append([]scenarios.Event{{AtMs: 0, Type: scenarios.EventAddReplica, Broker: ptr(b)}}, sc.Events...)
			}
		}
		for _, st := range harness.Strategies {
			r := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st})
			if r.Outcome != harness.OutcomeOK && r.Violation.Kind == "" {
				data, _ := sc.Marshal()
				t.Fatalf("%s: %s %s: %s\nscenario:\n%s", st, r.Outcome, r.Violation.Invariant, r.Violation.Message, data)
			}
		}
	})
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// ptr is a pointer to v, for the scenario fields that take one.
func ptr(v int) *int { return &v }
