package plan

import "testing"

// BenchmarkBrokerPlan times simrun plan --broker 2 of testdata/broker
// (300 partitions, 59 GiB on the broker): every profile flag off and on,
// and the knob variants, on two workers. The goal is under 60 s.
func BenchmarkBrokerPlan(b *testing.B) {
	in := brokerInput(b)
	for b.Loop() {
		if _, _, _, err := MakeBroker(in); err != nil {
			b.Fatal(err)
		}
	}
}
