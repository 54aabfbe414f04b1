package invariants

import (
	"slices"

	"tierfetch/model"
	"tierfetch/sim"
)

// A violation is labelled with a known finding's kind only when the run
// matches that finding's mechanism: the preconditions its write-up states,
// checked against what the run did, never the broken invariant alone. A
// deliberate bug that breaks the same invariant some other way stays
// unknown.

// facts are what the labels need besides the state after a step: what a
// replica carried across a tiering disable or an unclean election, and what
// happened while a log start offset was stale. The checker updates them
// after every step; they never steer the run.
type facts struct {
	tiered bool // tiering was on after the previous step
	// carried: some hroAtDisable or hroAtUnclean entry may be other than
	// -1 (set where one is written, cleared by observe once none is). Only
	// then can observe's reset of a broker that lost its HRO change
	// anything, so only then does it read the brokers: at thousands of
	// partitions each read is a broker's cache line the step may not
	// otherwise touch. (Beside tiered: observe reads both at every Check.)
	carried bool
	// hroAtDisable[b] is the highest HRO broker b held when tiering was
	// disabled with the remote data deleted, -1 if none since b last lost
	// its HRO (a restart).
	hroAtDisable []int64
	// metaHighAtDisable is the highest per-epoch highest offset the remote
	// metadata held at a disable that deleted the remote data, -1 if none:
	// the deletion leaves it (RemoteLogLeaderEpochState never lowers it) and
	// every broker's cache rebuilds it from the metadata topic, restarts
	// included.
	metaHighAtDisable int64
	// disabled is set once a disable deleted the remote data;
	// disableLeader and disableLeaderLLSO are the leader then and its local
	// log start offset (its new log start), llsoAtDisable[b] b's local log
	// start then.
	disabled          bool
	disableLeader     int
	disableLeaderLLSO int64
	llsoAtDisable     []int64
	// hroAtUnclean[b] is b's HRO at the last unclean election, -1 if none
	// since b last lost its HRO.
	hroAtUnclean []int64
	// uncleanGapLo, uncleanGapHi: [lo, hi) is what the uncleanly elected
	// leader could serve neither locally nor remotely when it was elected.
	uncleanGapLo, uncleanGapHi int64
	// unfinished holds the offsets of every remote segment seen unfinished
	// (copy started, or deletion started), merged.
	unfinished []span
	// While a log start offset is stale: the first offset the leader cannot
	// serve, whether copying (tiering on, copy not disabled) was on at any
	// step, and since when it is on.
	stalePos          int64
	staleCopyingSeen  bool
	staleCopyingSince sim.Time
	// lastRetry[b] is why broker b last backed off (retryNone: never), from
	// its EvBackoff events (Checker.Event).
	lastRetry []model.RetryReason
	// shared: the per-broker lists above may be a copy's too (Clone shares
	// them; they change at a few steps, a search copies at every one):
	// mine copies them before a write.
	shared bool
}

// mine gives f lists of its own before a write to one of its per-broker
// lists.
func (f *facts) mine() {
	if !f.shared {
		return
	}
	model.Pack(&f.hroAtDisable, &f.llsoAtDisable, &f.hroAtUnclean)
	f.lastRetry = slices.Clone(f.lastRetry)
	f.shared = false
}

// retryNone is lastRetry's "never backed off".
const retryNone = model.NumRetryReasons

func newFacts(c *model.Cluster) facts {
	f := facts{tiered: c.Tiered(), hroAtDisable: make([]int64, len(c.Brokers)), llsoAtDisable: make([]int64, len(c.Brokers)),
		hroAtUnclean: make([]int64, len(c.Brokers)), metaHighAtDisable: -1, lastRetry: make([]model.RetryReason, len(c.Brokers))}
	for i := range c.Brokers {
		f.hroAtDisable[i], f.hroAtUnclean[i], f.lastRetry[i] = -1, -1, retryNone
	}
	return f
}

// copying reports whether an RLM task that raises a new leader's log start
// offset from the remote metadata may run: the copy task (tiering on and
// copying not disabled), or with model.FixStaleLogStartCopyDisabled the
// expiration task.
func copying(c *model.Cluster) bool { return c.LogStartFromRemoteTask() }

// observe updates the facts after a step.
func (k *Checker) observe(c *model.Cluster) {
	f := &k.f
	if l := c.Leader(); f.tiered && !c.Tiered() && l != nil {
		// The leader deleted the remote data (delete-on-disable) and moved
		// its log start offset to its local log start; every replica keeps
		// its in-memory HRO, and the metadata its per-epoch highest offsets.
		f.disabled, f.disableLeader, f.disableLeaderLLSO = true, l.ID, l.Log.LocalLogStart
		f.metaHighAtDisable = max(f.metaHighAtDisable, c.Remote.MaxHighestOffset())
		f.mine()
		f.carried = true
		for _, b := range c.Brokers {
			f.hroAtDisable[b.ID] = max(f.hroAtDisable[b.ID], b.HighestRemote)
			f.llsoAtDisable[b.ID] = b.Log.LocalLogStart
		}
	}
	f.tiered = c.Tiered()
	if !f.carried {
		return // every entry is -1: the loop below would change nothing
	}
	carried := false
	for _, b := range c.Brokers {
		if b.HighestRemote < 0 && (f.hroAtDisable[b.ID] != -1 || f.hroAtUnclean[b.ID] != -1) {
			f.mine()
			f.hroAtDisable[b.ID], f.hroAtUnclean[b.ID] = -1, -1
		}
		carried = carried || f.hroAtDisable[b.ID] != -1 || f.hroAtUnclean[b.ID] != -1
	}
	f.carried = carried
}

// observeUnclean records, at an unclean election of l, what each replica's
// HRO was and what l could not serve.
func (k *Checker) observeUnclean(c *model.Cluster, l *model.Broker) {
	k.f.mine()
	k.f.carried = true
	for _, b := range c.Brokers {
		k.f.hroAtUnclean[b.ID] = b.HighestRemote
	}
	k.f.uncleanGapLo = coveredFrom(c, l, l.Log.LogStart, l.Log.LocalLogStart)
	k.f.uncleanGapHi = l.Log.LocalLogStart
}

// holeFacts is what labelling a hole at pos of the leader's [LSO, LLSO)
// looks at.
type holeFacts struct {
	pos    int64
	tiered bool
	// The leader is the uncleanly elected one, still in that epoch, and
	// [uncleanGapLo, uncleanGapHi) is what it could not serve when elected.
	uncleanLeader              bool
	uncleanGapLo, uncleanGapHi int64
	// A disable deleted the remote data while another broker led, whose
	// local log started at disableLeaderLLSO; this leader's started at
	// llsoAtDisable. tieredPath: it bootstrapped from EPUO (KIP-1023).
	disabledByOther                  bool
	disableLeaderLLSO, llsoAtDisable int64
	tieredPath                       bool
	// The leader's HRO carried across the last disable, and across the last
	// unclean election (-1: none); the metadata's highest offset left by a
	// disable (-1: none).
	hroAtDisable, hroAtUnclean int64
	metaHighAtDisable          int64
	unclean                    bool // an unclean election happened in the run
	remoteHolds                bool // a listed segment whose copy finished holds pos
}

// holeKind names the known finding whose mechanism explains a hole at pos of
// the leader l's [LSO, LLSO), "" if none.
func (k *Checker) holeKind(c *model.Cluster, l *model.Broker, pos int64) string {
	f := &k.f
	return holeKindOf(holeFacts{pos: pos, tiered: c.Tiered(),
		uncleanLeader: l.LeaderEpoch == k.uncleanEpoch, uncleanGapLo: f.uncleanGapLo, uncleanGapHi: f.uncleanGapHi,
		disabledByOther: f.disabled && l.ID != f.disableLeader, disableLeaderLLSO: f.disableLeaderLLSO,
		llsoAtDisable: f.llsoAtDisable[l.ID], tieredPath: l.BootstrapPath() == model.PathEarliestPendingUpload,
		hroAtDisable: f.hroAtDisable[l.ID], hroAtUnclean: f.hroAtUnclean[l.ID], metaHighAtDisable: f.metaHighAtDisable,
		unclean:     k.unclean > 0,
		remoteHolds: remoteHolds(c, pos, model.CopyFinished, model.DeleteStarted)})
}

func holeKindOf(h holeFacts) string {
	switch {
	case h.uncleanLeader && h.uncleanGapLo <= h.pos && h.pos < h.uncleanGapHi:
		// Lost with the unclean election: the new leader could not serve it
		// when it was elected.
		return KindUncleanElection
	case !h.tiered:
		// Tiering was disabled with delete-on-disable while this leader
		// followed with a local log starting above the then leader's: the
		// disable deleted the only other copy of what lies between.
		if !h.disabledByOther || h.pos < h.disableLeaderLLSO || h.pos >= h.llsoAtDisable {
			return ""
		}
		if h.tieredPath {
			return KindTieredFollowerAfterDisable
		}
		return KindFollowerGapAfterDisable
	case h.pos <= max(h.hroAtDisable, h.metaHighAtDisable) && !h.remoteHolds:
		// Local retention trusted an HRO that a disable which deleted the
		// remote data left stale: carried in memory, or (restarts and
		// re-enables included) found again from the metadata's per-epoch
		// highest offsets, which the deletion does not lower. The segment
		// it names is gone.
		return KindStaleHRO
	case h.unclean && h.pos <= h.hroAtUnclean:
		// Local retention trusted an HRO learned in the lineage an unclean
		// election ended; the remote segment holding pos is that lineage's.
		return KindHROAfterTruncation
	}
	return ""
}

// observeStale updates, while the leader's log start offset is stale,
// whether the copy task could have run.
func (k *Checker) observeStale(c *model.Cluster, started bool) {
	f := &k.f
	on := copying(c)
	switch {
	case started:
		f.staleCopyingSeen, f.staleCopyingSince = on, k.now
	case on && !f.staleCopyingSeen:
		f.staleCopyingSeen, f.staleCopyingSince = true, k.now
	case on && !k.copyingBefore:
		f.staleCopyingSince = k.now
	}
	k.copyingBefore = on
}

// staleFacts is what labelling a stale log start offset looks at.
type staleFacts struct {
	copyingSeen   bool // copying was on at some step since it went stale
	posUnfinished bool // the first offset it cannot serve was in a segment seen unfinished
	tiered        bool
}

// staleLogStartKind names the known finding whose mechanism explains that
// leader l still advertises a stale log start offset, "" if none.
func (k *Checker) staleLogStartKind(c *model.Cluster) string {
	return staleLogStartKindOf(staleFacts{copyingSeen: k.f.staleCopyingSeen,
		posUnfinished: inSpans(k.f.unfinished, k.f.stalePos), tiered: c.Tiered()})
}

func staleLogStartKindOf(s staleFacts) string {
	switch {
	case s.copyingSeen && s.posUnfinished:
		// The copy task set the log start offset from the first segment the
		// metadata listed (it only raises it), and that segment's upload or
		// deletion had not finished: its offsets are readable nowhere.
		return KindStaleLogStartUnfinishedSegment
	case s.copyingSeen:
		return ""
	case s.tiered:
		// No copy task (remote.log.copy.disable) has run since the leader
		// was elected with its lagging log start offset.
		return KindStaleLogStartCopyDisabled
	}
	return KindStaleLogStartTieringOff
}

// stallFacts is what labelling a flag-on follower that never joined looks
// at: its last backoff, the leader's state and answers, and the follower's
// latest auxiliary-state build.
type stallFacts struct {
	retry     model.RetryReason
	flagOn    bool  // follower.fetch.last.tiered.offset.enable, and the follower is empty
	answer    int64 // the leader's ListOffsets -6 answer now
	lso, llso int64
	// llsoVar is the leader's local log start offset as UnifiedLog keeps it
	// (what -4 answers), which lags llso after a raise with tiering off.
	llsoVar      int64
	leo, hro     int64
	endUploaded  bool // a finished segment holds LEO-1 in the leader's lineage
	copyDisabled bool
	// The profile seeds an unknown HRO with copying disabled: its copy task
	// still does (the KIP text), or its expiration task does (KAFKA-20732).
	seededAnyway          bool
	auxStart, auxLogStart int64
	auxTrivial            bool // the profile needs nothing remote for that build
	startMinus1Held       bool // a finished remote segment holds auxStart-1
	// metaHRO is the highest offset the remote metadata gives the leader's
	// epochs (findHighestRemoteOffset), -1 if none.
	metaHRO int64
	hroHeld bool // a finished remote segment holds the HRO
	// The leader's HRO, and the metadata's highest offset, left by a
	// disable (facts.hroAtDisable, facts.metaHighAtDisable).
	hroAtDisable int64
}

// sentToLogStart reports whether the leader's answers send a flag-on
// follower to its log start offset, and will go on doing so: by the -6
// answer itself, or by -6 = -1 followed by -4 = the log start.
func sentToLogStart(s stallFacts) bool {
	switch {
	case s.answer == s.lso && s.hro >= 0:
		// EPUO = max(HRO+1, LSO) = LSO: nothing above the log start is
		// tiered, or the leader's HRO lags and, copying disabled, no task
		// raises a known HRO.
		return max(s.hro, s.metaHRO) < s.lso || s.copyDisabled
	case s.answer == s.lso:
		// HRO unknown and LLSO = LSO: Kafka answers the log start ("no
		// segments have been uploaded yet"). It stays so while nothing
		// above the log start is tiered, or nothing seeds the HRO (a
		// restarted leader with copying disabled before KAFKA-20732).
		return s.llso == s.lso && (s.metaHRO < s.lso || s.copyDisabled && !s.seededAnyway)
	case s.answer == -1:
		// EPUO at or beyond the log end (an empty log, or an HRO above the
		// LEO after a truncation: it only rises), which ReplicaManager
		// answers -1, and -4 equal to the log start.
		return s.llso == s.lso && max(s.hro+1, s.lso) >= s.leo
	}
	return false
}

// livenessKind names the known finding whose mechanism explains why
// follower b never joined the ISR of leader l, "" if none.
func (k *Checker) livenessKind(c *model.Cluster, b, l *model.Broker) string {
	retry := k.f.lastRetry[b.ID]
	if retry == retryNone {
		return ""
	}
	p := c.Profile
	start, logStart := b.AuxBuildTarget()
	return stallKindOf(stallFacts{retry: retry, flagOn: b.LastTieredEnable && b.Log.LogEnd == 0,
		answer: p.EarliestPendingUploadOffset(c, l), lso: l.Log.LogStart, llso: l.Log.LocalLogStart,
		llsoVar: l.Log.LocalLogStartOffset(), leo: l.Log.LogEnd,
		hro: l.HighestRemote, copyDisabled: c.Cfg.RemoteLogCopyDisable, endUploaded: uploadedInLineage(c, l, l.Log.LogEnd-1),
		seededAnyway: p.SeedWhenCopyDisabled() || c.ExpirationSeedsHighestRemote(),
		auxStart:     start, auxLogStart: logStart, auxTrivial: c.AuxStateTrivial(start, logStart),
		startMinus1Held: remoteHolds(c, start-1, model.CopyFinished), hroHeld: remoteHolds(c, l.HighestRemote, model.CopyFinished),
		metaHRO:      c.Remote.FindHighestRemoteOffset(&l.Log, false),
		hroAtDisable: max(k.f.hroAtDisable[l.ID], k.f.metaHighAtDisable)})
}

// uploadedInLineage reports whether a finished remote segment holds offset o
// in the leader epoch l's own cache gives it (how Kafka finds it).
func uploadedInLineage(c *model.Cluster, l *model.Broker, o int64) bool {
	_, ok := c.Remote.Lookup(l.Log.EpochAt(o), o)
	return ok
}

func stallKindOf(s stallFacts) string {
	if !s.flagOn {
		return ""
	}
	switch s.retry {
	case model.RetryEPUOUnknown:
		if s.answer == -1 && s.llso == s.lso && s.llsoVar < s.lso {
			// No local data lies above the log start's, but -4 answers the
			// local log start offset UnifiedLog kept from before a raise
			// with tiering off, so the follower is not sent to the log
			// start.
			return KindStaleLocalLogStart
		}
		if s.answer != -1 || s.llso == s.lso {
			return ""
		}
		// Kafka answers -1 for an EPUO at the log end (fully tiered, idle:
		// everything uploaded), and for an unknown HRO that nothing seeds
		// with copying disabled.
		idle := s.hro >= 0 && max(s.hro+1, s.lso) >= s.leo && s.endUploaded
		unseeded := s.hro < 0 && s.copyDisabled && !s.seededAnyway
		if idle || unseeded {
			return KindKafka43EPUOUnknownStall
		}
	case model.RetryAuxUnavailable:
		switch {
		case s.auxStart == s.auxLogStart && s.auxStart == s.lso && !s.auxTrivial && !s.startMinus1Held &&
			sentToLogStart(s):
			// Kafka's answers send the follower to the log start, and keep
			// doing so; its build needs the segment holding start-1 even
			// there, and nothing tiered holds it.
			return KindKafka43AuxStateStall
		case s.auxStart > s.lso && s.hro >= 0 && s.auxStart == s.hro+1 && s.hro <= s.hroAtDisable && !s.hroHeld:
			// EPUO comes from an HRO a disable that deleted its segment left
			// stale (in memory or in the metadata): the build waits for it
			// forever.
			return KindStaleHRO
		}
	}
	return ""
}
