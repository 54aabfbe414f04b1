package sim

import "strconv"

// Time is a point in virtual time, in microseconds since the start of a run.
type Time int64

// Duration is a span of virtual time, in microseconds.
type Duration int64

// Units of virtual time.
const (
	Microsecond Duration = 1
	Millisecond Duration = 1000
	Second      Duration = 1000 * Millisecond
)

// Ms returns a duration of ms milliseconds.
func Ms(ms int64) Duration { return Duration(ms) * Millisecond }

// AtMs returns the instant ms milliseconds after the start of the run.
func AtMs(ms int64) Time { return Time(ms) * Time(Millisecond) }

// Ms returns t in whole milliseconds, rounded down.
func (t Time) Ms() int64 { return int64(t) / int64(Millisecond) }

// Add returns t+d.
func (t Time) Add(d Duration) Time { return t + Time(d) }

// Sub returns the duration t-u.
func (t Time) Sub(u Time) Duration { return Duration(t - u) }

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
