package sim

import (
	"math"
	"strconv"
)

// Time is a point in virtual time, in microseconds since the start of a run.
//
// Arithmetic on Time and Duration saturates at MaxTime / MaxDuration (and
// their negatives) instead of wrapping: an instant past the end of every run
// is "never", while a wrapped one would lie in the past.
type Time int64

// Duration is a span of virtual time, in microseconds.
type Duration int64

// The ends of virtual time: saturated arithmetic stops there.
const (
	MaxTime     Time     = math.MaxInt64
	MinTime     Time     = math.MinInt64
	MaxDuration Duration = math.MaxInt64
	MinDuration Duration = math.MinInt64
)

// Units of virtual time.
const (
	Microsecond Duration = 1
	Millisecond Duration = 1000
	Second      Duration = 1000 * Millisecond
)

// Ms returns a duration of ms milliseconds, saturated at MaxDuration and
// MinDuration.
func Ms(ms int64) Duration { return Duration(MulSat(ms, int64(Millisecond))) }

// AtMs returns the instant ms milliseconds after the start of the run,
// saturated at MaxTime and MinTime.
func AtMs(ms int64) Time { return Time(MulSat(ms, int64(Millisecond))) }

// Ms returns t in whole milliseconds, rounded down.
func (t Time) Ms() int64 { return int64(t) / int64(Millisecond) }

// Add returns t+d, saturated at MaxTime and MinTime.
func (t Time) Add(d Duration) Time { return Time(AddSat(int64(t), int64(d))) }

// Sub returns the duration t-u, saturated at MaxDuration and MinDuration.
func (t Time) Sub(u Time) Duration { return Duration(SubSat(int64(t), int64(u))) }

// AddSat returns a+b, saturated at the ends of int64 instead of wrapping.
func AddSat(a, b int64) int64 {
	s := a + b
	if (s > a) != (b > 0) { // overflowed: the sum moved against b's sign
		if b > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

// SubSat returns a-b, saturated at the ends of int64 instead of wrapping.
func SubSat(a, b int64) int64 {
	if b == math.MinInt64 {
		if a >= 0 {
			return math.MaxInt64
		}
		return a - b
	}
	return AddSat(a, -b)
}

// MulSat returns a*b, saturated at the ends of int64 instead of wrapping.
func MulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		if (a > 0) == (b > 0) {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return p
}

// String prints t as seconds with millisecond precision, e.g. "t=1.250s".
func (t Time) String() string {
	var buf [32]byte
	return string(t.AppendTo(buf[:0]))
}

// AppendTo appends t as String prints it to dst and returns the extended
// slice: trace lines are built with it, without an allocation per line.
func (t Time) AppendTo(dst []byte) []byte {
	us := int64(t)
	dst = append(dst, "t="...)
	if us < 0 {
		dst = append(dst, '-')
		us = -us
	}
	dst = strconv.AppendInt(dst, us/1_000_000, 10)
	ms := (us / 1000) % 1000
	return append(dst, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 's')
}

// Ms returns d in whole milliseconds, rounded down.
func (d Duration) Ms() int64 { return int64(d) / int64(Millisecond) }
