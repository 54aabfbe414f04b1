package model

import (
	"bytes"
	"encoding/binary"
	"testing"

	"tierfetch/sim"
)

// appendBatchesRef is appendBatches written with binary.AppendVarint.
func appendBatchesRef(dst []byte, bs []Batch, now sim.Time) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(bs)))
	for i := range bs {
		b := &bs[i]
		for _, v := range [...]int64{b.Base, b.Count, b.Bytes, int64(b.Epoch), b.ProducerID, b.Seq, int64(b.Origin),
			b.TsMs - now.Ms()} {
			dst = binary.AppendVarint(dst, v)
		}
	}
	return dst
}

// stateBatches are batches whose fields take one to ten bytes, negative
// and positive, and a time before and after now.
func stateBatches() []Batch {
	bs := []Batch{{Base: -1, Count: 0, Bytes: 1 << 62, Epoch: -7, ProducerID: -1 << 63, Seq: 1<<63 - 1, Origin: 1 << 63, TsMs: -5}}
	for i := int64(0); i < 6; i++ {
		bs = append(bs, Batch{Base: 1000 + 10*i, Count: 10, Bytes: 10240, Epoch: 3, ProducerID: 2, Seq: 100 + 10*i,
			Origin: uint64(50 + i), TsMs: 40000 + i*300})
	}
	return bs
}

func TestAppendBatchesBytes(t *testing.T) {
	bs := stateBatches()
	for _, prefix := range [][]byte{nil, []byte("abc"), make([]byte, 5, 6)} {
		for k := range len(bs) + 1 {
			want := appendBatchesRef(bytes.Clone(prefix), bs[:k], sim.AtMs(41000))
			if got := appendBatches(bytes.Clone(prefix), bs[:k], sim.AtMs(41000)); !bytes.Equal(got, want) {
				t.Fatalf("%d batches after %d bytes: %x, want %x", k, len(prefix), got, want)
			}
		}
	}
}

// TestPutVarintBytes: PutVarint and PutUvarint write what binary.PutVarint
// and binary.PutUvarint do, where they are told to, one to ten bytes.
func TestPutVarintBytes(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 1 << 20, -1 << 20, 1<<62 + 3, -1 << 63, 1<<63 - 1} {
		out := make([]byte, 3+binary.MaxVarintLen64)
		want := binary.AppendVarint([]byte{7, 7, 7}, v)
		if n := PutVarint(out, 3, v); n != len(want) || !bytes.Equal(out[:n], append([]byte{0, 0, 0}, want[3:]...)) {
			t.Errorf("PutVarint(%d): %x ending at %d, want %x", v, out, n, want[3:])
		}
		out = make([]byte, 3+binary.MaxVarintLen64)
		want = binary.AppendUvarint([]byte{7, 7, 7}, uint64(v))
		if n := PutUvarint(out, 3, uint64(v)); n != len(want) || !bytes.Equal(out[:n], append([]byte{0, 0, 0}, want[3:]...)) {
			t.Errorf("PutUvarint(%d): %x ending at %d, want %x", uint64(v), out, n, want[3:])
		}
	}
}

var batchSink []byte

func BenchmarkAppendBatches(b *testing.B) {
	bs := stateBatches()[1:]
	for _, c := range []struct {
		name string
		f    func([]byte, []Batch, sim.Time) []byte
	}{{"put", appendBatches}, {"append", appendBatchesRef}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				buf = c.f(buf[:0], bs, sim.AtMs(41000))
			}
			batchSink = buf
		})
	}
}
