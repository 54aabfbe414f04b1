package invariants

import (
	"testing"

	"tierfetch/model"
)

// Each known kind is checked on its mechanism and on near misses: the same
// broken invariant with one precondition of the finding's write-up false,
// which must stay unknown ("").

func TestHoleKinds(t *testing.T) {
	// base: tiering on, a hole at 50, no unclean election, no disable.
	base := holeFacts{pos: 50, tiered: true, hroAtDisable: -1, hroAtUnclean: -1, uncleanGapLo: 0, uncleanGapHi: 0}
	for _, tc := range []struct {
		name string
		edit func(h *holeFacts)
		want string
	}{
		{"a hole and nothing else", func(h *holeFacts) {}, ""},
		{"stale-hro: pos at the HRO carried across the disable", func(h *holeFacts) { h.hroAtDisable = 50 }, KindStaleHRO},
		{"near miss: HRO carried across the disable ends below pos", func(h *holeFacts) { h.hroAtDisable = 49 }, ""},
		{"near miss: a remote segment still holds pos", func(h *holeFacts) { h.hroAtDisable, h.remoteHolds = 99, true }, ""},
		{"unclean: pos in what the new leader could not serve", func(h *holeFacts) {
			h.unclean, h.uncleanLeader, h.uncleanGapLo, h.uncleanGapHi = true, true, 0, 51
		}, KindUncleanElection},
		{"near miss: the gap ended below pos", func(h *holeFacts) {
			h.unclean, h.uncleanLeader, h.uncleanGapLo, h.uncleanGapHi = true, true, 0, 50
		}, ""},
		{"near miss: a later leader, in the gap", func(h *holeFacts) {
			h.unclean, h.uncleanGapLo, h.uncleanGapHi = true, 0, 100
		}, ""},
		{"unclean: HRO from the lineage the election ended", func(h *holeFacts) { h.unclean, h.hroAtUnclean = true, 99 }, KindHROAfterTruncation},
		{"near miss: HRO learned after the unclean election", func(h *holeFacts) { h.unclean, h.hroAtUnclean = true, -1 }, ""},
		{"follower-gap: elected after a disable, local log started above", func(h *holeFacts) {
			h.tiered, h.disabledByOther, h.disableLeaderLLSO, h.llsoAtDisable = false, true, 40, 60
		}, KindFollowerGapAfterDisable},
		{"tiered-follower: the same, bootstrapped from EPUO", func(h *holeFacts) {
			h.tiered, h.disabledByOther, h.disableLeaderLLSO, h.llsoAtDisable, h.tieredPath = false, true, 40, 60, true
		}, KindTieredFollowerAfterDisable},
		{"follower-gap: pos at the first offset the then leader no longer held", func(h *holeFacts) {
			h.tiered, h.disabledByOther, h.disableLeaderLLSO, h.llsoAtDisable = false, true, 50, 60
		}, KindFollowerGapAfterDisable},
		{"near miss: its local log started at pos when tiering was disabled", func(h *holeFacts) {
			h.tiered, h.disabledByOther, h.disableLeaderLLSO, h.llsoAtDisable = false, true, 40, 50
		}, ""},
		{"near miss: the leader that deleted the data", func(h *holeFacts) {
			h.tiered, h.disableLeaderLLSO, h.llsoAtDisable = false, 40, 60
		}, ""},
		{"near miss: tiering off, never disabled with deletion", func(h *holeFacts) { h.tiered = false }, ""},
	} {
		h := base
		tc.edit(&h)
		if got := holeKindOf(h); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStaleLogStartKinds(t *testing.T) {
	for _, tc := range []struct {
		s    staleFacts
		want string
	}{
		{staleFacts{tiered: true}, KindStaleLogStartCopyDisabled},
		{staleFacts{tiered: false}, KindStaleLogStartTieringOff},
		{staleFacts{tiered: true, copyingSeen: true, posUnfinished: true}, KindStaleLogStartUnfinishedSegment},
		// Near misses: the copy task could run, and what it read was finished.
		{staleFacts{tiered: true, copyingSeen: true}, ""},
		{staleFacts{tiered: false, copyingSeen: true}, ""},
		// Without copying, an unfinished segment is not the cause.
		{staleFacts{tiered: true, posUnfinished: true}, KindStaleLogStartCopyDisabled},
	} {
		if got := staleLogStartKindOf(tc.s); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestStallKinds(t *testing.T) {
	// idle: fully tiered [0, 3000), LLSO = LEO = 3000, Kafka answers -1.
	idle := stallFacts{retry: model.RetryEPUOUnknown, flagOn: true, answer: -1, lso: 0, llso: 3000, llsoVar: 3000, leo: 3000, hro: 2999,
		endUploaded: true, hroAtDisable: -1}
	// above: the build for the log start 1000 needs 999, nothing tiered holds it.
	above := stallFacts{retry: model.RetryAuxUnavailable, flagOn: true, answer: 1000, lso: 1000, llso: 1000, llsoVar: 1000, leo: 3000, hro: -1,
		auxStart: 1000, auxLogStart: 1000, metaHRO: -1, hroAtDisable: -1}
	// stale: EPUO 2000 from an HRO 1999 carried across a disable; LSO 0.
	stale := stallFacts{retry: model.RetryAuxUnavailable, flagOn: true, answer: 2000, lso: 0, llso: 2000, llsoVar: 2000, leo: 4000, hro: 1999,
		auxStart: 2000, auxLogStart: 0, metaHRO: -1, hroAtDisable: 1999}
	// llso: the log start 2000 raised with tiering off; UnifiedLog's local
	// log start stayed 0, -4 answers it; nothing tiered, HRO unknown.
	llso := stallFacts{retry: model.RetryEPUOUnknown, flagOn: true, answer: -1, lso: 2000, llso: 2000, llsoVar: 0, leo: 3500, hro: -1,
		metaHRO: -1, hroAtDisable: -1}
	for _, tc := range []struct {
		name string
		s    stallFacts
		edit func(s *stallFacts)
		want string
	}{
		{"idle fully tiered", idle, func(s *stallFacts) {}, KindKafka43EPUOUnknownStall},
		{"copy disabled, HRO never seeded", idle, func(s *stallFacts) { s.hro, s.copyDisabled = -1, true }, KindKafka43EPUOUnknownStall},
		{"near miss: HRO unknown with copying on", idle, func(s *stallFacts) { s.hro = -1 }, ""},
		{"near miss: something seeds it (kip, trunk)", idle, func(s *stallFacts) { s.hro, s.copyDisabled, s.seededAnyway = -1, true, true }, ""},
		{"near miss: EPUO below the log end", idle, func(s *stallFacts) { s.hro = 2998 }, ""},
		{"near miss: HRO claims the log end, nothing there uploaded", idle, func(s *stallFacts) { s.endUploaded = false }, ""},
		{"near miss: the leader answers EPUO", idle, func(s *stallFacts) { s.answer = 3000 }, ""},
		{"near miss: LLSO = LSO", idle, func(s *stallFacts) { s.llso = 0 }, ""},
		{"near miss: flag off or not empty", idle, func(s *stallFacts) { s.flagOn = false }, ""},
		{"log start above tiered", above, func(s *stallFacts) {}, KindKafka43AuxStateStall},
		{"near miss: the KIP text builds nothing", above, func(s *stallFacts) { s.auxTrivial = true }, ""},
		{"near miss: a segment holds start-1", above, func(s *stallFacts) { s.startMinus1Held = true }, ""},
		{"near miss: the build starts above the log start", above, func(s *stallFacts) { s.auxStart = 1500 }, ""},
		{"stale HRO below the log start", above, func(s *stallFacts) { s.hro, s.metaHRO = 4, 4 }, KindKafka43AuxStateStall},
		{"near miss: tiered above the log start, the leader does not know", above, func(s *stallFacts) { s.metaHRO = 1999 }, ""},
		{"restarted leader, copying disabled, LLSO = LSO (seed 4122)", above,
			func(s *stallFacts) { s.metaHRO, s.copyDisabled = 1999, true }, KindKafka43AuxStateStall},
		{"near miss: the expiration task seeds it (trunk)", above,
			func(s *stallFacts) { s.metaHRO, s.copyDisabled, s.seededAnyway = 1999, true, true }, ""},
		{"near miss: a known HRO lags the metadata, copying on", above, func(s *stallFacts) { s.hro, s.metaHRO = 500, 1999 }, ""},
		{"known HRO lags the metadata, copying disabled", above,
			func(s *stallFacts) { s.hro, s.metaHRO, s.copyDisabled = 500, 1999, true }, KindKafka43AuxStateStall},
		{"HRO above the LEO after a truncation: -6 = -1, -4 = LSO (seed 8700)", above,
			func(s *stallFacts) { s.answer, s.hro, s.leo = -1, 3500, 3000 }, KindKafka43AuxStateStall},
		{"empty log above tiered: -6 = -1, -4 = LSO", above, func(s *stallFacts) { s.answer, s.leo = -1, 1000 }, KindKafka43AuxStateStall},
		{"near miss: -6 = -1 below the log end", above, func(s *stallFacts) { s.answer, s.hro = -1, 500 }, ""},
		{"near miss: -6 = -1, -4 above the log start", above, func(s *stallFacts) { s.answer, s.hro, s.leo, s.llso = -1, 3500, 3000, 2000 }, ""},
		{"near miss: the leader answers above the log start", above, func(s *stallFacts) { s.answer, s.hro = 1500, 1499 }, ""},
		{"near miss: the metadata's HRO is the log start (the copy task seeds it)", above,
			func(s *stallFacts) { s.hro, s.metaHRO = 500, 1000 }, ""},
		{"near miss: HRO unknown, the metadata holds the log start", above, func(s *stallFacts) { s.metaHRO = 1000 }, ""},
		{"fully tiered: HRO+1 = LEO, -6 = -1, -4 = LSO", above, func(s *stallFacts) { s.answer, s.hro = -1, 2999 }, KindKafka43AuxStateStall},
		{"idle fully tiered at HRO 0", idle, func(s *stallFacts) { s.hro, s.leo, s.llso = 0, 1, 1 }, KindKafka43EPUOUnknownStall},
		{"near miss: HRO 0 known, copying disabled, not idle", idle, func(s *stallFacts) { s.hro, s.copyDisabled = 0, true }, ""},
		{"stale HRO after a disable", stale, func(s *stallFacts) {}, KindStaleHRO},
		{"stale local log start: -4 lags -2, nothing tiered", llso, func(s *stallFacts) {}, KindStaleLocalLogStart},
		{"near miss: -4 is the log start", llso, func(s *stallFacts) { s.llsoVar = 2000 }, ""},
		{"fully deleted log, stale HRO, -6 = -1 at the log end (seed 1060)", llso,
			func(s *stallFacts) { s.lso, s.llso, s.leo, s.llsoVar, s.hro = 4905, 4905, 4905, 2616, 2615 }, KindStaleLocalLogStart},
		{"near miss: the leader answers -6", llso, func(s *stallFacts) { s.answer = 2000 }, ""},
		{"near miss: data below the local log start (tiered)", llso, func(s *stallFacts) { s.llso = 2500 }, ""},
		{"near miss: HRO not carried across a disable", stale, func(s *stallFacts) { s.hroAtDisable = -1 }, ""},
		{"near miss: its segment is there", stale, func(s *stallFacts) { s.hroHeld = true }, ""},
		{"near miss: EPUO is not HRO+1", stale, func(s *stallFacts) { s.auxStart = 2500 }, ""},
	} {
		s := tc.s
		tc.edit(&s)
		if got := stallKindOf(s); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStaleHROLabelNeedsTheDisable drives the checker: the same hole under
// the same HRO is stale-hro only when the checker saw tiering disabled
// (remote data deleted) while the leader held that HRO.
func TestStaleHROLabelNeedsTheDisable(t *testing.T) {
	for _, disable := range []bool{false, true} {
		c := healthy() // remote [0, 99], local [50, 299], hro 99
		k := New(c)
		if v := k.Check(c, c.Now); v != nil {
			t.Fatal(v)
		}
		if disable {
			c.Cfg.RemoteLogDeleteOnDisable = true
			if err := setBool(c, "remote_storage_enable", false, -1); err != nil {
				t.Fatal(err)
			}
			if v := k.Check(c, c.Now); v != nil {
				t.Fatalf("after the disable: %v", v)
			}
			if err := setBool(c, "remote_storage_enable", true, -1); err != nil {
				t.Fatal(err)
			}
		} else {
			c.Remote.Segments = nil // gone another way
			c.Remote.Version++
			c.Brokers[0].Log.LogStart = 50
		}
		if v := k.Check(c, c.Now); v != nil {
			t.Fatalf("before local retention: %v", v)
		}
		c.Brokers[0].Log.IncrementLocalLogStart(100) // local retention trusts hro 99
		v := k.Check(c, c.Now)
		want := ""
		if disable {
			want = KindStaleHRO
		}
		if v == nil || v.Invariant != NoHole || v.Kind != want {
			t.Errorf("disable %v: got %+v, want no-hole of kind %q", disable, v, want)
		}
	}
}
