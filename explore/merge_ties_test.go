package explore

import (
	"testing"

	"tierfetch/campaign"
)

// TestMergeTiesGoToTheLowestShard: when two shards find a violation (or
// a known finding of one kind) at the same step, the merged report keeps
// the lowest shard's (Merge's doc: "the one at the lowest step (then the
// lowest shard)"), in whatever order the shards are given: the merge of
// the same files is the same report.
func TestMergeTiesGoToTheLowestShard(t *testing.T) {
	shard := func(invariant string) Report {
		return Report{States: 10, Exhausted: true, Complete: true, Stop: StopComplete,
			Violation: &Finding{Invariant: invariant, Step: 9},
			Known:     []Finding{{Invariant: invariant, Kind: "stale-hro", Step: 4}}}
	}
	low, high := shard("no-hole"), shard("offset-order")
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		rs := []Report{low, high}
		ss := []campaign.Shard{{K: 0, N: 2}, {K: 1, N: 2}}
		if order[0] == 1 {
			rs, ss = []Report{high, low}, []campaign.Shard{{K: 1, N: 2}, {K: 0, N: 2}}
		}
		m, err := Merge(rs, ss)
		if err != nil {
			t.Fatal(err)
		}
		if m.Violation == nil || m.Violation.Invariant != "no-hole" || len(m.Known) != 1 || m.Known[0].Invariant != "no-hole" {
			t.Errorf("shards in order %v: merged violation %+v, known %+v; want shard 0's (no-hole at steps 9 and 4)", order, m.Violation, m.Known)
		}
	}
}

// TestMergeCoversWhatEveryShardCovered: merged shards cover the depth and
// time every shard covered (the least of them), and reached the deepest
// and latest any did, in either order.
func TestMergeCoversWhatEveryShardCovered(t *testing.T) {
	a := Report{States: 10, Stop: StopStates, Depth: 10, Covered: 8, ReachedMinMs: 100, ReachedMaxMs: 200}
	b := Report{States: 12, Stop: StopStates, Depth: 12, Covered: 9, ReachedMinMs: 120, ReachedMaxMs: 300}
	for _, rs := range [][]Report{{a, b}, {b, a}} {
		m, err := Merge(rs, []campaign.Shard{{K: 0, N: 2}, {K: 1, N: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if m.Covered != 8 || m.ReachedMinMs != 100 || m.Depth != 12 || m.ReachedMaxMs != 300 {
			t.Errorf("shards covering %d and %d steps: merged covers %d steps to %d ms, reached %d steps and %d ms; want 8, 100, 12, 300",
				rs[0].Covered, rs[1].Covered, m.Covered, m.ReachedMinMs, m.Depth, m.ReachedMaxMs)
		}
	}
}
