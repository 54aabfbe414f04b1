package sim

import "fmt"

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
	us := int64(t)
	sign := ""
	if us < 0 {
		sign, us = "-", -us
	}
	return fmt.Sprintf("t=%s%d.%03ds", sign, us/1_000_000, (us/1000)%1000)
}

// Ms returns d in whole milliseconds, rounded down.
func (d Duration) Ms() int64 { return int64(d) / int64(Millisecond) }
