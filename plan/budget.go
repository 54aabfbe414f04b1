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

// BrokerStepBudget is how many simulated events a broker plan
// (MakeBroker) spends over all its runs of one seed, each run an equal
// share, unless the broker's size needs more (brokerRunSteps): more seeds,
// more runs, the same share each (a broker plan does not extrapolate a run
// cut short). A plan of one profile has 10 runs a seed and of three 14, so
// each share holds the broker replacement of BenchmarkBrokerScale at 4,000
// partitions (827,000 steps flag off, 596,000 on). A run stopped by its
// share before the broker is back says "not back" and the plan notes it.
const BrokerStepBudget = 20_000_000

// What a broker plan's run needs, from the broker's size: a step for each
// MiB its partitions' leaders hold locally (what a flag-off replica
// copies) and brokerStepsPerPartition for each partition, twice what was
// measured: 4,000 partitions holding 4,103 GiB (1 GiB segments, 100 MiB/s
// from each of 4 leaders) took 2,578,385 steps flag off and 2,306,123 on,
// 0.61 a MiB, about 11 s of CPU each. At most BrokerRunStepsMax a run, so
// a plan's work stays bounded (14 runs of it: about 20 minutes of one
// core) whatever the tools' output says.
const (
	brokerStepsPerMiB       = 1
	brokerStepsPerPartition = 500
	BrokerRunStepsMax       = 20_000_000
)

// Events a second and a fetch, measured on the plan's scenarios: followers
// long-poll twice a second when idle (replica.fetch.wait.max.ms=500; more
// often at a shorter wait); each 100 ms produce batch wakes every follower;
// a fetch of replica.fetch.max.bytes is a request and a response.
const (
	idleStepsPerFollowerSec    = 6
	idleFetchWaitMs            = 500
	produceStepsPerSec         = 10
	produceStepsPerFollowerSec = 17
	stepsPerFetch              = 2
)

// budget is the simulated events the plan's runs may spend.
func (b *builder) budget() float64 {
	if b.in.StepBudget > 0 {
		return float64(b.in.StepBudget)
	}
	return StepBudget
}

// runCaps returns how many steps each flag-on and each flag-off run may
// take: the budget shared in proportion to their estimates, so that all
// runs together never take more than the budget whatever the estimate
// missed (a run stopped by its cap is extrapolated like one its horizon
// cut short). The caps depend only on the input, so the plan does too.
func (b *builder) runCaps(on, off int64, runsPerStrategy int) (capOn, capOff int64) {
	eOn, eOff := b.estimateSteps(on, 0, 1), b.estimateSteps(0, off, 1)
	share := b.budget() / float64(runsPerStrategy) / max(eOn+eOff, 1)
	return max(int64(eOn*share), 1), max(int64(eOff*share), 1)
}

// noteStopped notes the runs their share of the budget stopped before their
// horizon.
func (b *builder) noteStopped(outs []RunOutcome, capOn, capOff int64) {
	n := 0
	for _, o := range outs {
		if o.stopped {
			n++
		}
	}
	if n > 0 {
		b.notef("the work budget (%.0f simulated events over all runs) stopped %d of %d runs before the time they were to simulate (each run's share: %d events flag on, %d flag off): a replica still copying then is extrapolated at the rate it was gaining on the leader; simrun run on the saved scenario simulates it all",
			b.budget(), n, len(outs), capOn, capOff)
	}
}

// runHorizons returns the simulated time the flag-on and the flag-off runs
// get: the scenario's duration when the budget allows it; else the flag-on
// runs get what a flag-on replica needs (they join early; what follows is
// steady state) and the flag-off runs the longest time the rest of the
// budget allows.
func (b *builder) runHorizons(runsPerStrategy int) (on, off int64) {
	budget := b.budget()
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
	c := &b.cfg
	followers := float64(len(b.st.InSync))
	produce := float64(b.in.Env.ProduceBytesPerSec)
	poll := float64(idleFetchWaitMs) / float64(max(min(c.ReplicaFetchWaitMaxMs, idleFetchWaitMs), 1))
	steady := idleStepsPerFollowerSec * followers * poll
	// The leader's periodic work, negligible at Kafka's defaults: the
	// retention and ISR checks and the RLM tasks' runs.
	steady += 1000/float64(c.LogRetentionCheckIntervalMs) + 2000/float64(max(c.ReplicaLagTimeMaxMs, 2))
	if c.RemoteStorageEnable {
		steady += 2000 / float64(c.RemoteLogManagerTaskIntervalMs)
	}
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
