package sim

import (
	"fmt"
	"testing"
	"unsafe"
)

// holdPending is how many events the hold benchmarks keep queued: about what
// a run of a few brokers has pending (fetches, timers, RLM tasks, uploads).
const holdPending = 100

// holdDeltas returns the increments the hold workload draws from: a fixed
// table, so the scheduler and the baseline see the same sequence of times
// and the benchmark measures the queue, not a random generator.
func holdDeltas() []Duration {
	r := NewStream(1, "bench-hold")
	d := make([]Duration, 1024)
	for i := range d {
		d[i] = Duration(r.Int64Range(0, 2*int64(Millisecond)))
		if i%8 == 0 {
			d[i] = 0 // same-instant ties: seq must break them
		}
	}
	return d
}

// baseItem and baseHeap are the baseline: a bare binary min-heap on a value
// slice, ordered by (at, seq) exactly as Scheduler is, with nothing else (no
// cancel, no handles, no slot table). It is typed (no interface, no
// container/heap) and its sifts move a hole, as the scheduler's do, instead
// of swapping: the strongest plain heap, so the ratio measures what the
// scheduler's handles and slot table cost.
type baseItem[E any] struct {
	at  Time
	seq uint64
	ev  E
}

type baseHeap[E any] struct {
	now   Time
	seq   uint64
	items []baseItem[E]
}

func (h *baseHeap[E]) less(a, b *baseItem[E]) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func (h *baseHeap[E]) push(at Time, ev E) {
	h.seq++
	it := baseItem[E]{at, h.seq, ev}
	h.items = append(h.items, it)
	j := len(h.items) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !h.less(&it, &h.items[p]) {
			break
		}
		h.items[j] = h.items[p] // the hole moves up
		j = p
	}
	h.items[j] = it
}

func (h *baseHeap[E]) pop() (E, bool) {
	var zero E
	n := len(h.items)
	if n == 0 {
		return zero, false
	}
	top := h.items[0]
	last := h.items[n-1]
	h.items[n-1] = baseItem[E]{}
	h.items = h.items[:n-1]
	n--
	if n > 0 {
		i := 0 // the hole, moving down until last fits
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			j := l
			if r := l + 1; r < n && h.less(&h.items[r], &h.items[l]) {
				j = r
			}
			if !h.less(&h.items[j], &last) {
				break
			}
			h.items[i] = h.items[j]
			i = j
		}
		h.items[i] = last
	}
	h.now = top.at
	return top.ev, true
}

// runEventBytes is the size of the event a run's scheduler holds (harness's
// event: a timer key, produce-chunk fields and handles naming the message or
// remote op it carries, which the runner keeps beside the queue);
// harness.TestRunEventSizeIsTheBenchmarkPayload keeps the two equal.
const runEventBytes = 72

// fatEvent is a payload the size of the runner's event: the scheduler moves
// a slot index where the baseline moves the whole value.
type fatEvent struct {
	id  int64
	pad [runEventBytes/8 - 1]int64
}

// fatName names the fat-payload sub-benchmarks by the payload's real size.
var fatName = fmt.Sprintf("payload=%dB", unsafe.Sizeof(fatEvent{}))

// BenchmarkSchedulerHold is the hold model: pop the earliest event, push one
// a random delta later, with holdPending events queued. One op is one pop
// and one push.
func BenchmarkSchedulerHold(b *testing.B) {
	b.Run("payload=int64", func(b *testing.B) { benchSchedulerHold[int64](b, func(i int64) int64 { return i }) })
	b.Run(fatName, func(b *testing.B) { benchSchedulerHold[fatEvent](b, func(i int64) fatEvent { return fatEvent{id: i} }) })
}

// BenchmarkBaselineHeapHold is the same hold workload on the baseline heap.
func BenchmarkBaselineHeapHold(b *testing.B) {
	b.Run("payload=int64", func(b *testing.B) { benchBaselineHold[int64](b, func(i int64) int64 { return i }) })
	b.Run(fatName, func(b *testing.B) { benchBaselineHold[fatEvent](b, func(i int64) fatEvent { return fatEvent{id: i} }) })
}

func benchSchedulerHold[E any](b *testing.B, mk func(int64) E) {
	d := holdDeltas()
	var s Scheduler[E]
	for i := 0; i < holdPending; i++ {
		s.After(d[i%len(d)]*Duration(i%7+1), mk(int64(i)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev, _ := s.Next()
		s.After(d[i&(len(d)-1)], ev)
	}
	b.StopTimer()
	if s.Len() != holdPending {
		b.Fatalf("pending %d, want %d", s.Len(), holdPending)
	}
}

func benchBaselineHold[E any](b *testing.B, mk func(int64) E) {
	d := holdDeltas()
	var h baseHeap[E]
	for i := 0; i < holdPending; i++ {
		h.push(h.now.Add(d[i%len(d)]*Duration(i%7+1)), mk(int64(i)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev, _ := h.pop()
		h.push(h.now.Add(d[i&(len(d)-1)]), ev)
	}
	b.StopTimer()
	if len(h.items) != holdPending {
		b.Fatalf("pending %d, want %d", len(h.items), holdPending)
	}
}

// TestBaselineHeapMatchesScheduler keeps the baseline honest: on the hold
// workload it pops the same events at the same times as the scheduler.
func TestBaselineHeapMatchesScheduler(t *testing.T) {
	d := holdDeltas()
	var s Scheduler[int64]
	var h baseHeap[int64]
	for i := 0; i < holdPending; i++ {
		s.After(d[i]*Duration(i%7+1), int64(i))
		h.push(h.now.Add(d[i]*Duration(i%7+1)), int64(i))
	}
	for i := 0; i < 10_000; i++ {
		a, _ := s.Next()
		b, _ := h.pop()
		if a != b || s.Now() != h.now {
			t.Fatalf("step %d: scheduler popped %d at %v, baseline %d at %v", i, a, s.Now(), b, h.now)
		}
		s.After(d[i&(len(d)-1)], a+holdPending)
		h.push(h.now.Add(d[i&(len(d)-1)]), b+holdPending)
	}
}

// BenchmarkTiesAtOneInstant pops n events scheduled for one instant, asking
// Ties before each pop as a run does, and every 16th by NextTie(1) as an
// explore schedule may. One op is one event: the cost per event must not
// grow with n (it grew linearly, the whole quadratically, when Ties counted
// the instant's events at every step).
func BenchmarkTiesAtOneInstant(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 160_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for done := 0; done < b.N; {
				b.StopTimer()
				var s Scheduler[int]
				for i := range n {
					s.At(AtMs(1), i)
				}
				b.StartTimer()
				for k := 0; k < n && done < b.N; k, done = k+1, done+1 {
					if s.Ties() > 1 && k%16 == 0 {
						s.NextTie(1)
					} else {
						s.Next()
					}
				}
			}
		})
	}
}
