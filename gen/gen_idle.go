package gen

import (
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// quietChance is how often a generated tiered scenario goes quiet early under
// time-based local retention.
const quietChance = 0.15

// quiet, drawn from its own stream so that the other draws of a seed do not
// move, makes some tiered scenarios go quiet early under time-based local
// retention: every produce ends in the first third of the fault phase, and
// replicas are added once retention has rolled the active segment (KAFKA-15047),
// the copy task uploaded it and retention deleted it locally, so they meet an
// idle partition that is fully tiered (LLSO = EPUO = LEO), which under Kafka's
// code answers ListOffsets -6 with -1.
func quiet(sc *scenarios.Scenario) {
	r := sim.NewStream(sc.Seed, "quiet")
	if !sc.Config.RemoteStorageEnable || !r.Chance(quietChance) {
		return
	}
	c := &sc.Config
	c.LocalRetentionMs = r.Int64Range(5_000, 60_000)
	c.LogRetentionCheckIntervalMs = r.Int64Range(1_000, 10_000)
	quietAt := sc.DurationMs / 3
	// Retention rolls the active segment within a check of its breach; the
	// copy task uploads it within a run; the next check deletes it.
	tiered := quietAt + c.LocalRetentionMs + 2*c.LogRetentionCheckIntervalMs + 2*c.RemoteLogManagerTaskIntervalMs + c.RemoteUploadMs[1]
	for i := range sc.Events {
		e := &sc.Events[i]
		switch e.Type {
		case scenarios.EventProduce:
			if e.AtMs >= quietAt {
				e.AtMs = r.Int64Range(0, quietAt-1)
			}
			e.OverMs = min(e.OverMs, quietAt-e.AtMs)
		case scenarios.EventAddReplica:
			e.AtMs = min(sc.DurationMs, tiered+r.Int64Range(0, 30_000))
		}
	}
}
