package compare

import (
	"slices"
	"strings"
	"testing"

	"tierfetch/scenarios"
)

// TestVaryTakesKafkasNamesAndUnits: --vary takes Kafka's dotted name for a
// config field and byte counts with a unit, as plan does, written as the
// integers they are; a mistyped key gets the nearest one.
func TestVaryTakesKafkasNamesAndUnits(t *testing.T) {
	key, values, err := parseVary("local.retention.bytes=1MiB, 1.5 GiB,-2,4096,2TiB,8KiB")
	want := []string{"1048576", "1610612736", "-2", "4096", "2199023255552", "8192"}
	if err != nil || key != "local_retention_bytes" || !slices.Equal(values, want) {
		t.Errorf("parseVary: %q %v %v, want local_retention_bytes %v", key, values, err, want)
	}
	if _, _, err := parseVary("remote.log.manager.task.interval.ms=1MiB"); err == nil {
		t.Errorf("a unit on a field that is not a byte count: no error")
	}
	if _, _, err := parseVary("local.retention.byte=1MiB"); err == nil || !strings.Contains(err.Error(), "did you mean local_retention_bytes?") {
		t.Errorf("mistyped key: %v", err)
	}
}

// TestProduceScaleRoundsToNearest: --vary produce_scale=F gives each
// produce event F times its records rounded to the nearest whole record
// (halves up), at least one; other events keep theirs.
func TestProduceScaleRoundsToNearest(t *testing.T) {
	sc, ok := scenarios.Lookup("election-mid-bootstrap")
	if !ok {
		t.Fatal("no election-mid-bootstrap")
	}
	in := *sc
	in.Events = []scenarios.Event{
		{AtMs: 0, Type: scenarios.EventProduce, Records: 3, OverMs: 100},
		{AtMs: 200, Type: scenarios.EventProduce, Records: 10, OverMs: 100},
		{AtMs: 400, Type: scenarios.EventProduce, Records: 7},
	}
	for _, c := range []struct {
		factor string
		want   []int64
	}{
		{"1.5", []int64{5, 15, 11}},  // 4.5 -> 5, 10.5 -> 11
		{"0.29", []int64{1, 3, 2}},   // 0.87 -> 1, 2.9 -> 3, 2.03 -> 2
		{"0.001", []int64{1, 1, 1}},  // never below one record
		{"2.38", []int64{7, 24, 17}}, // 7.14 -> 7, 23.8 -> 24, 16.66 -> 17
	} {
		varied, err := applyVary(&in, ProduceScaleKey, c.factor)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, e := range varied.Events {
			got = append(got, e.Records)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("produce_scale %s of 3, 10, 7 records: %v, want %v", c.factor, got, c.want)
		}
	}
}
