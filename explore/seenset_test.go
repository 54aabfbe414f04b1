package explore

import (
	"math/rand/v2"
	"testing"
)

// TestHashMapAgreesWithAMap puts and gets keys in a hashMap and a Go map
// alike, through several growths: random keys, keys that share their low
// 20 bits (as a shard's states share theirs modulo the shard count), key
// 0 (the empty slot's mark) and keys put twice.
func TestHashMapAgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var m hashMap
	want := map[uint64]uint64{}
	check := func(k uint64) {
		t.Helper()
		v, ok := m.get(k)
		w, wok := want[k]
		if v != w || ok != wok {
			t.Fatalf("get(%#x) = %d, %v; want %d, %v", k, v, ok, w, wok)
		}
	}
	check(0)
	check(42)
	for i := range 20000 {
		var k uint64
		switch i % 4 {
		case 0, 1:
			k = rng.Uint64()
		case 2:
			k = uint64(i) << 20
		default:
			k = uint64(rng.IntN(i+1)) << 20 // often one put before
		}
		if i == 777 {
			k = 0
		}
		v := rng.Uint64()
		m.put(k, v)
		want[k] = v
		check(k)
		check(rng.Uint64())
	}
	for k := range want {
		check(k)
	}
	for range 10000 {
		check(rng.Uint64())
		check(uint64(rng.IntN(40000)) << 20)
	}
}
