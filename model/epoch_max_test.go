package model

import (
	"math"
	"strings"
	"testing"
)

// TestNoElectionPastTheMaximumEpoch: at the maximum leader epoch an
// election, a crash of the leader and a restart that would lead are
// refused with the reason (a schedule's injected faults can get there);
// a crash of a follower still happens; and elect itself still asserts
// that nothing reaches it at the maximum.
func TestNoElectionPastTheMaximumEpoch(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	c.Ctrl.LeaderEpoch = math.MaxInt32
	refused := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "the leader epoch is at its maximum (2147483647)") {
			t.Errorf("%s: %v, want a refusal naming the maximum epoch", what, err)
		}
	}
	refused("elect b1", c.electLeader(1))
	refused("crash the leader", c.crash(0))
	if c.Ctrl.Leader != 0 || !c.Brokers[0].Up {
		t.Fatalf("a refused crash changed the cluster: leader %d, b0 up %v", c.Ctrl.Leader, c.Brokers[0].Up)
	}
	if err := c.crash(2); err != nil {
		t.Errorf("crash of a follower: %v", err)
	}
	c.Ctrl.LeaderEpoch = math.MaxInt32 - 1
	for _, id := range []int{1, 0} { // b0 leads again at the maximum, then the partition goes offline
		if err := c.crash(id); err != nil {
			t.Fatal(err)
		}
	}
	if c.Ctrl.Leader != -1 {
		t.Fatalf("leader %d, want the partition offline", c.Ctrl.Leader)
	}
	c.Ctrl.LeaderEpoch = math.MaxInt32
	refused("restart into the offline partition", c.restart(0))
	defer func() {
		if recover() == nil {
			t.Errorf("elect at the maximum epoch did not panic")
		}
	}()
	c.elect(1)
}
