package cliutil

import (
	"fmt"
	"time"
)

// Progress paces a progress line on a terminal: at most one line every
// interval (a final one always), with the rate so far and the time left.
type Progress struct {
	now          func() time.Time
	every        time.Duration
	tty          bool
	start, shown time.Time
}

// NewProgress starts a progress line's clock now; the first line is due
// one interval later, and none is when the output is not a terminal (tty).
func NewProgress(now func() time.Time, every time.Duration, tty bool) *Progress {
	t := now()
	return &Progress{now: now, every: every, tty: tty, start: t, shown: t}
}

// Due reports whether a line is due (a final one always is, on a terminal)
// and, if so, counts it shown.
func (p *Progress) Due(final bool) bool {
	t := p.now()
	if !p.tty || !final && t.Sub(p.shown) < p.every {
		return false
	}
	p.shown = t
	return true
}

// Line is the progress line of done of total items, what they are, with
// extra (ending in two spaces) between the rate and the time left; it
// starts with a carriage return to overwrite the line before.
func (p *Progress) Line(what string, done, total int64, extra string) string {
	rate, left := p.Pace(done, total)
	return fmt.Sprintf("\r%s %d/%d  %.0f/s  %stime left %s   ", what, done, total, rate, extra, left)
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
