package explore

import (
	"strings"
	"testing"

	"tierfetch/campaign"
)

// TestCollisionRiskStated: every explore summary states the optimistic
// chance that two of the n states visited share a 64-bit hash, n^2/2^65
// (2^20 states: 2^40/2^65 = 2^-25, about 3.0e-08), in the text and in the
// shard file's report, and a merge states it for the merged count.
func TestCollisionRiskStated(t *testing.T) {
	res := &Result{States: 1 << 20, Stop: StopStates}
	r, err := ReportOf(res)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1.0 / (1 << 25); r.Collision != want {
		t.Errorf("report: collision %g, want 2^-25 = %g", r.Collision, want)
	}
	text := Text(Header{MaxStates: 1 << 20}, r, 0, nil)
	if want := "chance two of the 1048576 states collided"; !strings.Contains(text, want) || !strings.Contains(text, "n^2/2^65: 3.0e-08\n") {
		t.Errorf("text lacks %q and n^2/2^65: 3.0e-08:\n%s", want, text)
	}
	// Four times the states: sixteen times the chance.
	shard := Report{States: 1 << 20, Collision: 1.0 / (1 << 25), Stop: StopStates}
	third := Report{States: 1 << 21, Collision: 1.0 / (1 << 23), Stop: StopStates}
	m, err := Merge([]Report{shard, shard, third}, []campaign.Shard{{K: 0, N: 3}, {K: 1, N: 3}, {K: 2, N: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1.0 / (1 << 21); m.States != 1<<22 || m.Collision != want {
		t.Errorf("merge: %d states, collision %g, want 2^22 states and 2^-21 = %g", m.States, m.Collision, want)
	}
	if r0, _ := ReportOf(&Result{}); r0.Collision != 0 || !strings.Contains(Text(Header{}, r0, 0, nil), "n^2/2^65: 0.0e+00") {
		t.Errorf("no states: collision %g, want 0", r0.Collision)
	}
}
