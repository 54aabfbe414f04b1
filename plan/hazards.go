package plan

import (
	"fmt"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// Hazard is something about this partition's state that changes what the
// flag does under a profile.
type Hazard struct {
	ID string `json:"id"`
	// Severity: "stall" (the flag-on replica waits, or never joins),
	// "slower" (it takes a longer path), "later" (a risk once it has
	// joined), "info".
	Severity    string `json:"severity"`
	Explanation string `json:"explanation"`
	// Command shows the hazard on a named scenario; Replay on this
	// partition's saved scenario (when --save was given).
	Command string `json:"command"`
	Replay  string `json:"replay,omitempty"`
	// Seen is what the plan's flag-on runs showed of it.
	Seen string `json:"seen,omitempty"`
}

// Hazard ids.
const (
	HazardTieringOff          = "tiering-off"
	HazardCannotCatchUp       = "cannot-catch-up"
	HazardFullyTieredIdle     = "fully-tiered"
	HazardHROUnknown          = "hro-unknown"
	HazardLogStartAboveTiered = "log-start-above-tiered"
	HazardEPUOBelowLogStart   = "epuo-below-log-start"
	HazardCopyDisabled        = "copy-disabled"
	HazardMetadataNotReady    = "metadata-not-ready"
	HazardInvariantBroken     = "invariant-broken"
	HazardNotJoined           = "flag-on-not-joined"
	HazardDisableTieringLater = "disable-tiering-later"
)

// hazardCheck is the state of one profile's leader at time 0, as the
// profile's own code answers for it.
type hazardCheck struct {
	b       *builder
	p       model.Profile
	on      StrategyPlan
	epuo    int64 // the leader's ListOffsets -6 answer under p
	saved   string
	explain []Hazard
	c       *model.Cluster // the partition at time 0, with the plan's fixes
}

// hazards lists, in a fixed order, every hazard that applies to the
// partition under profile p, with what the flag-on runs showed.
func hazards(b *builder, sc *scenarios.Scenario, p model.Profile, on StrategyPlan) []Hazard {
	cfg := sc.Config.ModelConfig()
	cfg.Fixes = b.in.Fixes
	c := model.NewCluster(cfg, p, sc.Brokers, sc.Replicas, true, sc.ModelInitial())
	h := &hazardCheck{b: b, p: p, on: on, epuo: p.EarliestPendingUploadOffset(c, c.Leader()), saved: b.in.SavePath, c: c}
	for _, check := range []func(){h.tieringOff, h.cannotCatchUp, h.epuoUnknown, h.logStartAboveTiered,
		h.epuoBelowLogStart, h.copyDisabled, h.metadataNotReady, h.broken, h.notJoined, h.disableLater} {
		check()
	}
	if h.explain == nil {
		return []Hazard{}
	}
	return h.explain
}

func (h *hazardCheck) add(id, severity, reason, command, explanation string) {
	hz := Hazard{ID: id, Severity: severity, Explanation: explanation, Command: command}
	if reason != "" || severity == "stall" {
		hz.Seen = h.seen(reason)
		if h.saved != "" {
			hz.Replay = h.spell("simrun run {Scenario} %s {Profile} %s%s {Seed} %d {Strategy} last-tiered {Trace}", h.saved, h.p.Name(),
				h.fixFlag(), h.seedShowing(reason))
		}
	}
	h.explain = append(h.explain, hz)
}

// seen says what the flag-on runs showed: how many joined and when, and the
// retries for reason.
func (h *hazardCheck) seen(reason string) string {
	on := &h.on
	s := fmt.Sprintf("flag on: %d of %d seeds joined", on.Joined, on.Seeds)
	if on.CatchUpMs != nil {
		s += fmt.Sprintf(", median %s", formatMs(on.CatchUpMs.Median))
	}
	if n := on.RetriesByReason[reason]; reason != "" && n > 0 {
		s += fmt.Sprintf("; %d retries (%s) over the seeds", n, reason)
	}
	return s
}

// seedShowing is the first seed whose flag-on run retried for reason, else
// the first that did not join, else the first.
func (h *hazardCheck) seedShowing(reason string) uint64 {
	for _, o := range h.on.Runs {
		if o.RetriesByReason[reason] > 0 {
			return o.Seed
		}
	}
	for _, o := range h.on.Runs {
		if _, ok := o.Joined(); !ok {
			return o.Seed
		}
	}
	return h.on.Runs[0].Seed
}

// replay is the command that replays this partition's scenario.
func (h *hazardCheck) replay(extra string) string {
	if h.saved != "" {
		return h.spell("simrun run {Scenario} %s {Profile} %s%s%s", h.saved, h.p.Name(), h.fixFlag(), extra)
	}
	return h.spell("simrun plan ... {SavePath} plan.json, then simrun run {Scenario} plan.json {Profile} %s%s%s", h.p.Name(), h.fixFlag(), extra)
}

func (h *hazardCheck) named(name string) string {
	return h.spell("simrun run {Scenario} %s {Profile} %s%s", name, h.p.Name(), h.fixFlag())
}

// spell is the text of format and args with each {Field} as the caller
// names it (Input.Names).
func (h *hazardCheck) spell(format string, args ...any) string {
	return h.b.in.Names.Sprintf(format, args...)
}

// seededCopyDisabled reports whether an RLM task seeds an unknown highest
// uploaded offset with copying disabled, when there is no copy task: the
// KIP text's leader knows it whatever copying is, trunk's expiration task
// seeds it (KAFKA-20732), and FixRestartedLeaderCopyDisabled backports that.
func (h *hazardCheck) seededCopyDisabled() bool {
	return h.p.SeedWhenCopyDisabled() || h.c.ExpirationSeedsHighestRemote()
}

// fixFlag is " {Fix} F" (as spelled) for the plan's fixes, "" without.
func (h *hazardCheck) fixFlag() string {
	if h.b.in.Fixes == 0 {
		return ""
	}
	return h.spell(" {Fix} %s", h.b.in.Fixes.String())
}

func (h *hazardCheck) tieringOff() {
	if !h.b.st.RemoteStorageEnable {
		h.add(HazardTieringOff, "info", "", h.spell("simrun run {Scenario} tiering-off"),
			"tiering is off (remote.storage.enable=false): the flag changes nothing; a new replica copies the leader's whole log either way")
	}
}

func (h *hazardCheck) cannotCatchUp() {
	if h.b.neverCatchesUp {
		h.add(HazardCannotCatchUp, "stall", "", h.replay(""),
			fmt.Sprintf("%s/s produced leaves a new replica almost none of the %s/s it can copy: it never catches up, flag or not",
				formatBytes(h.b.in.Env.ProduceBytesPerSec), formatBytes(int64(h.b.copyRate)+h.b.in.Env.ProduceBytesPerSec)))
	}
}

// epuoUnknown: the leader answers -6 with -1 while -4 differs from -2, so
// the flag-on replica fails and retries (AbstractFetcherThread): because
// everything is uploaded (Kafka 4.3's ReplicaManager answers -1 at the log
// end) or because the leader does not know its highest uploaded offset.
func (h *hazardCheck) epuoUnknown() {
	st := &h.b.st
	if !st.RemoteStorageEnable || h.epuo >= 0 || st.LocalLogStartOffset == st.LogStartOffset {
		return
	}
	backoff := h.b.cfg.ReplicaFetchBackoffMs
	if st.HighestRemoteOffset >= 0 && st.HighestRemoteOffset+1 >= st.HighWatermark {
		until := "until new records arrive"
		if h.b.in.Env.ProduceBytesPerSec == 0 {
			until = "until new records arrive: with none produced, never"
		}
		h.add(HazardFullyTieredIdle, "stall", "epuo-unknown", h.named("hazard-idle-fully-tiered"),
			fmt.Sprintf("everything is uploaded (highest uploaded offset %d = log end - 1): this leader answers -6 with -1 and -4 (%d) differs from -2 (%d), so a flag-on replica retries every %d ms %s",
				st.HighestRemoteOffset, st.LocalLogStartOffset, st.LogStartOffset, backoff, until))
		return
	}
	if st.HighestRemoteOffset < 0 && (!h.b.cfg.RemoteLogCopyDisable || h.seededCopyDisabled()) {
		task := "copy task"
		if h.b.cfg.RemoteLogCopyDisable {
			task = "expiration task (with copying disabled there is no copy task)"
		}
		h.add(HazardHROUnknown, "stall", "epuo-unknown", h.named("leader-hro-unknown"),
			fmt.Sprintf("the leader does not know its highest uploaded offset (latest-tiered gave none): it answers -6 with -1 and -4 (%d) differs from -2 (%d), so a flag-on replica retries every %d ms until the leader's %s seeds it (every %d ms once remote metadata is ready)",
				st.LocalLogStartOffset, st.LogStartOffset, backoff, task, h.b.cfg.RemoteLogManagerTaskIntervalMs))
	}
}

// logStartAboveTiered: the flag-on replica starts at the log start and the
// profile's auxiliary-state build needs the remote segment holding start-1,
// which no longer exists (TierStateMachine in Kafka 4.3).
func (h *hazardCheck) logStartAboveTiered() {
	st := &h.b.st
	lso := st.LogStartOffset
	if !st.RemoteStorageEnable || lso == 0 || h.epuo != lso || h.c.AuxStateTrivial(lso, lso) {
		return
	}
	interval := h.b.cfg.RemoteLogManagerTaskIntervalMs
	var wait string
	switch rate := h.b.in.Env.ProduceBytesPerSec; {
	case st.HighWatermark-st.uploadedEnd() > h.b.segRecords:
		wait = fmt.Sprintf("until the copy task (every %d ms) uploads the oldest of the full segments waiting on the leader's disk", interval)
	case rate > 0:
		wait = fmt.Sprintf("until a segment fills (%s at %s/s) and the copy task (every %d ms) uploads it",
			formatMs(h.b.cfg.SegmentBytes*1000/rate), formatBytes(rate), interval)
	default:
		wait = "until a segment fills and is uploaded: with none produced, never"
	}
	h.add(HazardLogStartAboveTiered, "stall", "aux-unavailable", h.named("hazard-log-start-above-tiered"),
		fmt.Sprintf("nothing is tiered at or above the log start %d: this profile's auxiliary-state build needs the remote segment holding %d, which no longer exists, so a flag-on replica retries %s",
			lso, lso-1, wait))
}

func (h *hazardCheck) epuoBelowLogStart() {
	st := &h.b.st
	if st.RemoteStorageEnable && h.epuo >= 0 && h.epuo < st.LogStartOffset {
		h.add(HazardEPUOBelowLogStart, "slower", "", h.named("tiering-toggle-epuo-below-lso"),
			fmt.Sprintf("the leader answers -6 with %d, below the log start %d (tiering was disabled and re-enabled, or records were deleted above the last upload): a flag-on replica falls back to copying the leader's local log",
				h.epuo, st.LogStartOffset))
	}
}

func (h *hazardCheck) copyDisabled() {
	st := &h.b.st
	if !st.RemoteStorageEnable || !h.b.cfg.RemoteLogCopyDisable || h.seededCopyDisabled() {
		return
	}
	if st.HighestRemoteOffset < 0 && st.LocalLogStartOffset != st.LogStartOffset {
		h.add(HazardCopyDisabled, "stall", "epuo-unknown", h.named("hazard-restarted-leader-copy-disabled"),
			"remote.log.copy.disable=true and the leader does not know its highest uploaded offset: with no copy task nothing in this release seeds it (trunk's expiration task does, KAFKA-20732), so the leader answers -6 with -1 and a flag-on replica retries until remote retention raises the log start offset to the local log start offset; it then starts at the log start and needs the remote segment holding the offset before it, which that retention is deleting: it joins only if it reads that segment first, and with no retention it never joins")
		return
	}
	h.add(HazardCopyDisabled, "later", "", h.named("hazard-restarted-leader-copy-disabled"),
		"remote.log.copy.disable=true: if the leader restarts, nothing in this release seeds its highest uploaded offset (there is no copy task; trunk's expiration task does, KAFKA-20732), so a flag-on replica added after that retries while the leader answers -6 with -1, and never joins unless remote retention raises the log start offset")
}

func (h *hazardCheck) metadataNotReady() {
	if h.on.RetriesByReason["metadata-not-ready"] > 0 {
		h.add(HazardMetadataNotReady, "slower", "metadata-not-ready", h.spell("simrun gen {Seed} 177 {Out} s.json && simrun run {Scenario} s.json {Profile} %s", h.p.Name()),
			fmt.Sprintf("the flag-on bootstrap builds auxiliary state from remote storage, so it waits for the new replica's own remote log metadata (%d ms after it is assigned; KAFKA-19523)",
				h.b.cfg.RemoteMetadataReadyMs))
	}
}

// broken reports runs that broke a safety invariant: a known finding by its
// kind, or an unknown failure worth a report.
func (h *hazardCheck) broken() {
	for _, o := range h.on.Failures {
		if o.Outcome != harness.OutcomeSafety {
			continue
		}
		what := "an unknown failure: please report it with the saved scenario"
		if o.Kind != "" {
			what = "known finding " + o.Kind + " (FINDINGS.md)"
		}
		h.add(HazardInvariantBroken, "stall", "", h.replay(h.spell(" {Seed} %d {Strategy} last-tiered {Trace}", o.Seed)),
			fmt.Sprintf("the flag-on run of seed %d broke invariant %s: %s", o.Seed, o.Invariant, what))
		return
	}
}

// notJoined reports flag-on replicas that never joined when no hazard above
// explains it.
func (h *hazardCheck) notJoined() {
	if h.on.Joined == h.on.Seeds {
		return
	}
	for _, hz := range h.explain {
		if hz.Severity == "stall" {
			return
		}
	}
	h.add(HazardNotJoined, "stall", "", h.replay(h.spell(" {Seed} %d {Strategy} last-tiered {Trace}", h.seedShowing(""))),
		h.spell("the flag-on replica did not join in %d of %d seeds, for no reason the plan knows: replay one with {Trace}", h.on.Seeds-h.on.Joined, h.on.Seeds))
}

func (h *hazardCheck) disableLater() {
	if h.b.st.RemoteStorageEnable {
		h.add(HazardDisableTieringLater, "later", "", h.spell("simrun run {Scenario} finding-tiered-follower-after-disable"),
			"if tiering is later disabled (remote.storage.enable=false with remote.log.delete.on.disable=true), the records between the leader's local log start and a flag-on replica's start are on the leader's disk only: keep leadership off flag-on replicas until they hold the leader's local log")
	}
}
