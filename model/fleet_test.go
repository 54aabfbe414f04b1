package model

import (
	"bytes"
	"reflect"
	"testing"

	"tierfetch/sim"
)

// TestOnePartitionFleetIsItsCluster: a Fleet of one partition, stepped on
// the same inputs as a bare Cluster, gives the same events and effects,
// encodes them the same, and names its one partition as dirty after each
// step.
func TestOnePartitionFleetIsItsCluster(t *testing.T) {
	cfg, fx := testConfig(), tieredFixture()
	c := fx.cluster(cfg, KIP, 3, []int{0, 1}, true)
	f := NewFleet(FleetConfig{}, KIP, 3, true, []PartitionInit{{Cfg: cfg, Replicas: []int{0, 1}, Init: fx.initial(cfg.RecordBytes)}})
	if f.Multi() {
		t.Fatal("a fleet of one partition says it holds many")
	}
	same := func(what string) {
		t.Helper()
		a, b := c.Ready(), f.Ready()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: cluster's Ready\n%+v\nfleet's\n%+v", what, a, b)
		}
		var ea, eb []byte
		for i := range a.Events {
			ea = a.Events[i].AppendBinary(ea, c.Now)
			eb = b.Events[i].AppendBinary(eb, f.Now)
		}
		if !bytes.Equal(ea, eb) {
			t.Fatalf("%s: encodings differ", what)
		}
		if d := f.Dirty(); len(d) != 1 || d[0] != 0 {
			t.Fatalf("%s: dirty %v, want [0]", what, d)
		}
		c.Advance()
		f.Advance()
		if len(f.Dirty()) != 0 {
			t.Fatalf("%s: dirty %v after Advance", what, f.Dirty())
		}
	}
	same("initial")
	ins := []Input{
		{Kind: EvProduce, Count: 10, Records: 10},
		{Kind: EvAddReplica, Broker: 2},
		{Kind: EvCrash, Broker: 1},
		{Kind: EvHeal},
	}
	for i, in := range ins {
		now := sim.Time(i+1) * sim.Time(sim.Second)
		c.Step(now, &in)
		f.Step(now, &in)
		same(in.Kind.String())
	}
}

// TestAppendBinaryPart: a many-partition run's encoding marks the kind and
// adds the partition, the event's and its message's, so two events that
// differ only in their partition hash apart.
func TestAppendBinaryPart(t *testing.T) {
	e := brokerEv(EvDeliver, 1)
	e.Peer, e.Msg = 0, Message{Kind: MsgFetch, From: 0, To: 1, ReqID: 3, Part: 7}
	e.Part = 7
	plain, part := e.AppendBinary(nil, 5), e.AppendBinaryPart(nil, 5)
	if part[1] != plain[1]|0x80 || !bytes.Equal(part[2:len(plain)], plain[2:]) {
		t.Fatalf("AppendBinaryPart %x does not begin as AppendBinary %x with bit 7 of the kind set", part, plain)
	}
	// The event's partition and fetcher, its message's, no parts, not
	// full, nothing forgotten.
	if want := []byte{14, 0, 14, 0, 0, 0, 0}; !bytes.Equal(part[len(plain):], want) {
		t.Fatalf("partition fields %x, want %x (varints of 7, 0, 7, 0, then 0 parts, not full, 0 forgotten)", part[len(plain):], want)
	}
	o := e
	o.Msg.Full, o.Msg.Forget = true, []PartID{3}
	if bytes.Equal(o.AppendBinaryPart(nil, 5), part) {
		t.Fatal("a full fetch forgetting a partition encodes as an empty incremental one")
	}
	o = e
	o.Part, o.Msg.Part = 8, 8
	if bytes.Equal(o.AppendBinaryPart(nil, 5), part) {
		t.Fatal("events of two partitions encode alike")
	}
}

// twoPartitions is a fleet of 3 brokers holding the tiered fixture twice:
// t-0 led by b0 with b1, t-1 led by b1 with b0.
func twoPartitions(t *testing.T, cfg Config, fc FleetConfig) *Fleet {
	t.Helper()
	fx := tieredFixture()
	init := func() Initial { return fx.initial(cfg.RecordBytes) }
	return NewFleet(fc, KIP, 3, true, []PartitionInit{
		{TP: TopicPartition{"t", 0}, Cfg: cfg, Replicas: []int{0, 1}, Init: init()},
		{TP: TopicPartition{"t", 1}, Cfg: cfg, Replicas: []int{1, 0}, Init: init()},
	})
}

// TestFleetFansOutBrokerInputs: a broker's crash is one input event of the
// whole fleet (Part -1) that every partition handles, each outcome naming
// its partition; an input about one partition touches only it.
func TestFleetFansOutBrokerInputs(t *testing.T) {
	f := twoPartitions(t, testConfig(), FleetConfig{})
	if !f.Multi() || f.TPs[1].String() != "t-1" {
		t.Fatalf("multi %v, second partition %s", f.Multi(), f.TPs[1])
	}
	f.Advance()
	f.Step(sim.Time(sim.Second), &Input{Kind: EvCrash, Broker: 1, Part: -1})
	evs := f.Ready().Events
	if evs[0].Kind != EvCrash || evs[0].Part != -1 {
		t.Fatalf("first event %s of partition %d, want the crash of the fleet (-1)", evs[0].Kind, evs[0].Part)
	}
	seen := map[PartID]bool{}
	for _, e := range evs[1:] {
		if e.Kind.IsInput() {
			t.Fatalf("a second input event %s (partition %d)", e.Kind, e.Part)
		}
		if e.Part != 0 && e.Part != 1 {
			t.Fatalf("%s of partition %d", e.Kind, e.Part)
		}
		seen[e.Part] = true
	}
	if !seen[1] {
		t.Fatalf("outcomes of partitions %v, want t-1's new leader's", seen)
	}
	if d := f.Dirty(); len(d) != 2 {
		t.Fatalf("dirty %v, want both partitions", d)
	}
	if f.Parts[1].Ctrl.Leader != 0 || f.Incarnation(1) != 1 {
		t.Fatalf("t-1's leader b%d (want b0, b1 crashed), b1's incarnation %d", f.Parts[1].Ctrl.Leader, f.Incarnation(1))
	}
	f.Advance()
	f.Step(2*sim.Time(sim.Second), &Input{Kind: EvProduce, Part: 1, Count: 5, Records: 5})
	if d := f.Dirty(); len(d) != 1 || d[0] != 1 {
		t.Fatalf("a produce to t-1 touched %v", d)
	}
	for _, e := range f.Ready().Events {
		if e.Part != 1 {
			t.Fatalf("a produce to t-1 made %s of partition %d", e.Kind, e.Part)
		}
	}
}

// TestReplaceBrokerLeavesNoEmptyLeader: replacing the disk of a partition's
// only in-sync replica leaves the partition offline rather than electing
// the empty log; replacing a follower re-adds it empty, bootstrapping.
func TestReplaceBrokerLeavesNoEmptyLeader(t *testing.T) {
	cfg, fx := testConfig(), tieredFixture()
	c := fx.cluster(cfg, KIP, 2, []int{0}, true)
	c.Advance()
	c.Step(sim.Time(sim.Second), &Input{Kind: EvReplaceBroker, Broker: 0})
	if c.Ctrl.Leader != -1 || len(c.Ctrl.ISR) != 0 || !c.Brokers[0].Log.Empty() || !c.Brokers[0].Up {
		t.Fatalf("after replacing the only replica: leader b%d, ISR %v, log empty %v, up %v",
			c.Ctrl.Leader, c.Ctrl.ISR, c.Brokers[0].Log.Empty(), c.Brokers[0].Up)
	}
	c = fx.cluster(cfg, KIP, 2, []int{0, 1}, true)
	c.Advance()
	c.Step(sim.Time(sim.Second), &Input{Kind: EvReplaceBroker, Broker: 1})
	b := c.Brokers[1]
	if c.Ctrl.Leader != 0 || c.Ctrl.InISR(1) || !b.Log.Empty() || b.Role != RoleFollower || !b.fetch.bootstrapping {
		t.Fatalf("after replacing the follower: leader b%d, ISR %v, its log empty %v, role %s, bootstrapping %v",
			c.Ctrl.Leader, c.Ctrl.ISR, b.Log.Empty(), b.Role, b.fetch.bootstrapping)
	}
}
