package plan

// StepBudget is how many simulated events a plan spends over all its runs:
// a plan's event costs 1.0-1.15 times one of scenarios' BenchmarkRun
// workload (BenchmarkPlan, CPU time measured in the same run), about 0.65 µs
// of an idle core, so about 4 s on two idle cores, leaving room under the
// 10 s an operator may wait on a busy machine. Runs that would need more
// simulate less time (the flag-on runs what a flag-on replica needs, the
// flag-off runs the rest), and a replica still copying at the end is
// extrapolated at the rate it gains on the leader (RunOutcome.ExtrapolatedMs).
const StepBudget = 12_000_000

// Events a second and a fetch, measured on the plan's scenarios: followers
// long-poll twice a second when idle; each 100 ms produce batch wakes every
// follower; a fetch of replica.fetch.max.bytes is a request and a response.
const (
	idleStepsPerFollowerSec    = 6
	produceStepsPerSec         = 10
	produceStepsPerFollowerSec = 17
	stepsPerFetch              = 2
)

// runHorizons returns the simulated time the flag-on and the flag-off runs
// get: the scenario's duration when the budget allows it; else the flag-on
// runs get what a flag-on replica needs (they join early; what follows is
// steady state) and the flag-off runs the longest time the rest of the
// budget allows.
func (b *builder) runHorizons(runsPerStrategy int) (on, off int64) {
	budget := float64(StepBudget)
	if b.in.StepBudget > 0 {
		budget = float64(b.in.StepBudget)
	}
	full := b.horizonMs
	if b.estimateSteps(full, full, runsPerStrategy) <= budget {
		return full, full
	}
	on = b.minHorizonMs()
	if b.estimateSteps(on, on, runsPerStrategy) > budget {
		// Even the flag-on replica's copy is beyond the budget: every run
		// simulates the same, shorter time and both copies are extrapolated.
		h := b.largest(b.floorHorizonMs(), on, func(h int64) bool { return b.estimateSteps(h, h, runsPerStrategy) <= budget })
		b.notef("the work budget (%.0f simulated events over all runs) does not cover the scenario's %s: every run simulates %s, and a replica still copying then is extrapolated at the rate it was gaining on the leader; simrun run on the saved scenario simulates it all",
			budget, formatMs(full), formatMs(h))
		return h, h
	}
	off = b.largest(on, full, func(h int64) bool { return b.estimateSteps(on, h, runsPerStrategy) <= budget })
	b.notef("the work budget (%.0f simulated events over all runs) does not cover the scenario's %s: flag-on runs simulate %s (they join within it), flag-off runs %s, and a replica still copying then is extrapolated at the rate it was gaining on the leader; simrun run on the saved scenario simulates it all",
		budget, formatMs(full), formatMs(on), formatMs(off))
	return on, off
}

// largest returns the largest whole second in [lo, hi] that fits, by
// bisection (fits is monotone); lo when none does.
func (b *builder) largest(lo, hi int64, fits func(int64) bool) int64 {
	for hi-lo > 1000 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return max(lo/1000*1000, 1000)
}

// floorHorizonMs is the least any run simulates: the waits a flag-on
// replica may meet, and a minute.
func (b *builder) floorHorizonMs() int64 {
	c := &b.cfg
	return min(max(c.RemoteMetadataReadyMs+2*c.RemoteLogManagerTaskIntervalMs+10*c.ReplicaFetchBackoffMs+60_000, 120_000), b.horizonMs)
}

// minHorizonMs is what a flag-on replica needs: the waits, its copy of the
// records not yet uploaded, and a segment roll and upload when nothing is
// tiered at or above the log start.
func (b *builder) minHorizonMs() int64 {
	c := &b.cfg
	h := b.floorHorizonMs()
	if b.copyRate > 0 {
		h += int64(1.1 * float64(b.st.PendingUploadBytes) / b.copyRate * 1000)
	}
	if produce := b.in.Env.ProduceBytesPerSec; b.waitsForUpload() && produce > 0 {
		h += min(c.SegmentBytes*1000/produce, 6*3_600_000) + c.RemoteLogManagerTaskIntervalMs + c.RemoteUploadMs[1]
	}
	return min(max(h, 120_000), b.horizonMs)
}

// estimateSteps estimates the events of every run when the flag-on runs
// simulate on ms and the flag-off runs off ms: each one's steady state and
// copy.
func (b *builder) estimateSteps(on, off int64, runsPerStrategy int) float64 {
	followers := float64(len(b.st.InSync))
	produce := float64(b.in.Env.ProduceBytesPerSec)
	steady := idleStepsPerFollowerSec * followers
	if produce > 0 {
		steady += produceStepsPerSec + produceStepsPerFollowerSec*followers
	}
	fetch := float64(b.cfg.ReplicaFetchMaxBytes)
	fetchRate := max(b.copyRate, 0) + produce
	run := func(ms, bytes int64) float64 {
		sec := float64(ms) / 1000
		return steady*sec + stepsPerFetch*min(sec*fetchRate, float64(bytes)+produce*sec)/fetch
	}
	return (run(on, b.st.PendingUploadBytes) + run(off, b.st.LocalBytes)) * float64(runsPerStrategy)
}
