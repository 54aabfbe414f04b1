package reports

import (
	"slices"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/sim"
)

// RunRecorder draws, for 'simrun run --timeline/--chrome-trace', a timeline
// and a Chrome trace of each strategy's run. RunAllWith runs the strategies
// one after another with the same observers: EvRunStart marks the next run.
type RunRecorder struct {
	timeline, chrome bool
	strategies       []harness.Strategy
	samplers         []*TimelineSampler
	trace            *ChromeTrace
	traceRuns        []*ChromeRun
	cur              int
	title            string
}

// NewRunRecorder returns a recorder of a timeline (when timeline) and a
// Chrome trace (when chrome) of each strategy's run.
func NewRunRecorder(strategies []harness.Strategy, timeline, chrome bool) *RunRecorder {
	r := &RunRecorder{timeline: timeline, chrome: chrome, strategies: strategies, cur: -1}
	if chrome {
		r.trace = NewChromeTrace()
	}
	for _, st := range strategies {
		if timeline {
			r.samplers = append(r.samplers, NewTimelineSampler(string(st)))
		}
		if r.trace != nil {
			r.traceRuns = append(r.traceRuns, r.trace.Run(string(st)))
		}
	}
	return r
}

func (r *RunRecorder) active() bool { return r.timeline || r.chrome }

// Hook adds the recorder to opt's observers: it follows each run in turn
// (a run's first event is EvRunStart).
func (r *RunRecorder) Hook(opt *harness.Options) {
	if !r.active() {
		return
	}
	opt.Observers = append(slices.Clip(opt.Observers), r)
}

// Event implements model.Observer: it hands the event to the current run's
// timeline sampler and Chrome trace.
func (r *RunRecorder) Event(now sim.Time, e *model.Event) {
	if e.Kind == model.EvRunStart {
		r.cur++
	}
	if r.cur < 0 || r.cur >= len(r.strategies) {
		panic("reports: more runs than strategies")
	}
	if r.trace != nil {
		r.traceRuns[r.cur].Event(now, e)
	}
	if r.samplers != nil {
		r.samplers[r.cur].Event(now, e)
	}
}

// Finish closes each run at its end.
func (r *RunRecorder) Finish(runs []*harness.RunResult, title string) {
	r.title = title
	for i, res := range runs {
		if i < len(r.samplers) {
			r.samplers[i].Finish(res.End)
		}
		if i < len(r.traceRuns) {
			r.traceRuns[i].Finish(res.End)
		}
	}
}

// Timeline renders the timeline of the runs (an SVG page).
func (r *RunRecorder) Timeline() ([]byte, error) { return TimelineChart(r.title, r.samplers) }

// ChromeCut is how many runs' Chrome traces were cut at their share of
// MaxChromeEvents.
func (r *RunRecorder) ChromeCut() int {
	if r.trace == nil {
		return 0
	}
	return r.trace.Cut()
}

// ChromeJSON renders the Chrome trace of the runs.
func (r *RunRecorder) ChromeJSON() ([]byte, error) { return r.trace.JSON() }
