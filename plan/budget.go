package plan

// StepBudget is how many simulated events a plan spends over all its runs,
// about 10 s on two cores. Runs whose replica needs longer to copy the
// leader's log than the budget allows simulate less time, and a replica
// still copying at the end is extrapolated at the rate it gains on the
// leader (RunOutcome.ExtrapolatedMs).
const StepBudget = 20_000_000

// Events a second and a fetch, measured on the plan's scenarios: followers
// long-poll twice a second when idle; each 100 ms produce batch wakes every
// follower; a fetch of replica.fetch.max.bytes is a request and a response.
const (
	idleStepsPerFollowerSec    = 6
	produceStepsPerSec         = 10
	produceStepsPerFollowerSec = 17
	stepsPerFetch              = 2
)

// runHorizon returns the simulated time every run gets: the scenario's
// duration when the budget allows, else the longest time it allows, but at
// least what a flag-on replica needs (its pending bytes, the waits, a
// segment roll when the plan must wait for an upload).
func (b *builder) runHorizon(runsPerStrategy int) int64 {
	budget := float64(StepBudget)
	if b.in.StepBudget > 0 {
		budget = float64(b.in.StepBudget)
	}
	full := b.horizonMs
	if b.estimateSteps(full, runsPerStrategy) <= budget {
		return full
	}
	least := b.minHorizonMs()
	lo, hi := least, full
	for hi-lo > 1000 {
		mid := lo + (hi-lo)/2
		if b.estimateSteps(mid, runsPerStrategy) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	h := lo / 1000 * 1000
	b.notef("the work budget (%.0f simulated events over all runs) covers %s of the scenario's %s: runs stop there, and a replica still copying then is extrapolated at the rate it was gaining on the leader; simrun run on the saved scenario simulates it all",
		budget, formatMs(h), formatMs(full))
	return h
}

// minHorizonMs is what a flag-on replica needs: the waits, its copy of the
// records not yet uploaded, and a segment roll and upload when nothing is
// tiered at or above the log start.
func (b *builder) minHorizonMs() int64 {
	c := &b.cfg
	h := c.RemoteMetadataReadyMs + 2*c.RemoteLogManagerTaskIntervalMs + 10*c.ReplicaFetchBackoffMs + 60_000
	if b.copyRate > 0 {
		h += int64(1.1 * float64(b.st.PendingUploadBytes) / b.copyRate * 1000)
	}
	if produce := b.in.Env.ProduceBytesPerSec; b.waitsForUpload() && produce > 0 {
		h += min(c.SegmentBytes*1000/produce, 6*3_600_000) + c.RemoteLogManagerTaskIntervalMs + c.RemoteUploadMs[1]
	}
	return min(max(h, 120_000), b.horizonMs)
}

// estimateSteps estimates the events of every run over h ms of simulated
// time: each strategy's steady state, and the flag-off and flag-on copies.
func (b *builder) estimateSteps(h int64, runsPerStrategy int) float64 {
	sec := float64(h) / 1000
	followers := float64(len(b.st.InSync))
	produce := float64(b.in.Env.ProduceBytesPerSec)
	steady := idleStepsPerFollowerSec * followers
	if produce > 0 {
		steady += produceStepsPerSec + produceStepsPerFollowerSec*followers
	}
	fetch := float64(b.cfg.ReplicaFetchMaxBytes)
	fetchRate := max(b.copyRate, 0) + produce
	copySteps := func(bytes int64) float64 {
		return stepsPerFetch * min(sec*fetchRate, float64(bytes)+produce*sec) / fetch
	}
	perSeed := 2*steady*sec + copySteps(b.st.LocalBytes) + copySteps(b.st.PendingUploadBytes)
	return perSeed * float64(runsPerStrategy)
}
