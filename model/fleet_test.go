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
	if want := []byte{14, 14}; !bytes.Equal(part[len(plain):], want) {
		t.Fatalf("partition fields %x, want %x (varints of 7, 7)", part[len(plain):], want)
	}
	o := e
	o.Part, o.Msg.Part = 8, 8
	if bytes.Equal(o.AppendBinaryPart(nil, 5), part) {
		t.Fatal("events of two partitions encode alike")
	}
}
