package invariants

import (
	"bytes"
	"testing"
)

// TestAppendStateTellsHistoriesApart: two checkers of one cluster state
// encode alike; a different committed history, uploaded range, unclean
// bookkeeping, stale clock or memo encodes differently, so explore does not
// merge paths the checker could judge differently. Observer counters alone
// (a log generation that moved while its memo was already stale) do not.
func TestAppendStateTellsHistoriesApart(t *testing.T) {
	c := healthy()
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	base := k.AppendState(nil, c, c.Now)
	if got := k.Clone().AppendState(nil, c, c.Now); !bytes.Equal(got, base) {
		t.Fatal("a clone encodes differently")
	}
	edits := map[string]func(k *Checker){
		"history batch":  func(k *Checker) { k.history[0].Origin++ },
		"history bounds": func(k *Checker) { k.histEnd-- },
		"uploaded":       func(k *Checker) { k.uploaded = addSpan(k.uploaded, 500, 600) },
		"max log start":  func(k *Checker) { k.maxLogStart++ },
		"unclean":        func(k *Checker) { k.unclean++ },
		"stale clock":    func(k *Checker) { k.staleSince = c.Now },
		"cursor":         func(k *Checker) { k.cursors[1].checked-- },
		"hro memo":       func(k *Checker) { k.cursors[1].hro = -2 },
		"hole memo":      func(k *Checker) { k.holeKey.remoteVer++ },
		"lineage memo":   func(k *Checker) { k.cursors[1].lin = lineageHot{} },
		"lineage ends":   func(k *Checker) { k.cold[1].ends = lineageEnds{} },
		"label facts":    func(k *Checker) { k.f.unfinished = addSpan(k.f.unfinished, 0, 9) },
	}
	for name, edit := range edits {
		n := k.Clone()
		edit(n)
		if bytes.Equal(n.AppendState(nil, c, c.Now), base) {
			t.Errorf("%s: encodes like the original", name)
		}
	}
	// A cursor whose log moved on is stale however far it had got: its
	// generation and position are not state.
	a, b := k.Clone(), k.Clone()
	gen := c.Brokers[1].Log.Gen
	a.cursors[1].gen, a.cursors[1].checked, a.cold[1].pos = gen+1, 10, logPos{1, 2}
	b.cursors[1].gen, b.cursors[1].checked, b.cold[1].pos = gen+2, 20, logPos{3, 4}
	if !bytes.Equal(a.AppendState(nil, c, c.Now), b.AppendState(nil, c, c.Now)) {
		t.Error("two stale cursors encode differently")
	}
}
