package gen

import (
	"testing"

	"tierfetch/scenarios"
)

// TestGeneratedLocalLogStartsAtOrBelowTheTieredEnd: a generated initial
// log with tiered segments has its local segments start anywhere from the
// first offset to just past the last tiered one: seeds 1..300 give both a
// local log overlapping the tiered part and one starting right at its end
// (nothing tiered also on disk), and never a gap.
func TestGeneratedLocalLogStartsAtOrBelowTheTieredEnd(t *testing.T) {
	overlap, atEnd := 0, 0
	for seed := uint64(1); seed <= 300; seed++ {
		in := Generate(seed).Initial
		if in == nil || len(in.RemoteSegments) == 0 {
			continue
		}
		end := in.RemoteSegments[len(in.RemoteSegments)-1].EndOffset
		switch base := in.LocalSegments[0].BaseOffset; {
		case base == end+1:
			atEnd++
		case base <= end:
			overlap++
		default:
			t.Fatalf("seed %d: local log from %d, tiered up to %d: a gap", seed, base, end)
		}
	}
	if overlap == 0 || atEnd == 0 {
		t.Errorf("seeds 1..300: %d local logs overlapping the tiered part, %d starting at its end; want both", overlap, atEnd)
	}
}

// TestGeneratedRestartsTheCrashedBroker: every restart a generated
// scenario holds restarts a broker crashed before it (at or before its
// time), as a crash fault's restart does.
func TestGeneratedRestartsTheCrashedBroker(t *testing.T) {
	restarts := 0
	for seed := uint64(1); seed <= 300; seed++ {
		sc := Generate(seed)
		for i, e := range sc.Events {
			if e.Type != scenarios.EventRestart {
				continue
			}
			restarts++
			crashed := false
			for _, c := range sc.Events {
				crashed = crashed || c.Type == scenarios.EventCrash && *c.Broker == *e.Broker && c.AtMs <= e.AtMs
			}
			if !crashed {
				t.Errorf("seed %d: event %d restarts broker %d at %d ms, which no crash took down before", seed, i, *e.Broker, e.AtMs)
			}
		}
	}
	if restarts == 0 {
		t.Fatal("seeds 1..300 generate no restart")
	}
}
