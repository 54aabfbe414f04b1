package cliutil

import "time"

// Progress paces a progress line: at most one line every interval (a
// final one always), with the rate so far and the time left.
type Progress struct {
	now          func() time.Time
	every        time.Duration
	start, shown time.Time
}

// NewProgress starts a progress line's clock now; the first line is due
// one interval later.
func NewProgress(now func() time.Time, every time.Duration) *Progress {
	t := now()
	return &Progress{now: now, every: every, start: t, shown: t}
}

// Due reports whether a line is due (a final one always is) and, if so,
// counts it shown.
func (p *Progress) Due(final bool) bool {
	t := p.now()
	if !final && t.Sub(p.shown) < p.every {
		return false
	}
	p.shown = t
	return true
}

// Pace is the rate since the start, items a second, and the time left for
// the rest of total at that rate ("?" before the first item is done).
func (p *Progress) Pace(done, total int64) (perSec float64, left string) {
	perSec = float64(done) / max(p.now().Sub(p.start).Seconds(), 1e-9)
	left = "?"
	if perSec > 0 {
		left = (time.Duration(float64(total-done)/perSec) * time.Second).Round(time.Second).String()
	}
	return perSec, left
}
