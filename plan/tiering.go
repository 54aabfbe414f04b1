package plan

import (
	"fmt"
)

// tiering decides whether the topic is tiered, what the leader knows of its
// highest uploaded offset (HRO) and how far remote storage reaches, from
// latest-tiered (-5), earliest-pending-upload (-6) and the configs.
func (b *builder) tiering() error {
	st := &b.st
	o := b.f.Offsets
	lso, llso, hw := st.LogStartOffset, st.LocalLogStartOffset, st.HighWatermark
	b.segRecords = max(1, b.cfg.SegmentBytes/st.RecordBytes)
	lt, hasLT := o[TimeLatestTiered]
	ep, hasEP := o[TimeEarliestPendingUpload]
	if hasEP && ep.Known {
		v := ep.Value
		st.EarliestPendingUploadOffset = &v
	}
	if hasLT && lt.Known && lt.Value >= hw {
		return disagree(lt, "latest-tiered %d is at or above latest %d (%s): only committed records are tiered; save the offsets again, one right after the other", lt.Value, hw, o[TimeLatest].From)
	}
	if hasEP && ep.Known && (ep.Value < lso || ep.Value > hw) {
		return disagree(ep, "earliest-pending-upload %d is outside [earliest %d, latest %d]: save the offsets again, one right after the other", ep.Value, lso, hw)
	}
	evidence := ""
	switch {
	case llso > lso:
		evidence = fmt.Sprintf("earliest-local %d > earliest %d", llso, lso)
	case hasLT && lt.Known:
		evidence = fmt.Sprintf("latest-tiered is %d", lt.Value)
	}
	tiered := b.cfg.RemoteStorageEnable
	switch {
	case !tiered && evidence != "" && (b.f.HasConfigs || b.f.Configs != nil):
		b.notef("the configs say remote.storage.enable=false, but the offsets show tiered data (%s): they were saved at different times, or tiering was just disabled; the plan follows the offsets and models tiering on", evidence)
		tiered = true
	case !tiered && evidence != "":
		b.notef("remote.storage.enable is taken as true: the offsets show tiered data (%s)", evidence)
		tiered = true
	}
	b.cfg.RemoteStorageEnable = tiered
	st.RemoteStorageEnable, st.RemoteLogCopyDisable = tiered, b.cfg.RemoteLogCopyDisable
	if !tiered {
		st.HighestRemoteOffset, st.RemoteEndOffset = -1, -1
		if hasEP && ep.Unsupported() {
			b.noteUnsupported6(ep)
		}
		return nil
	}
	b.highestRemote(lt, hasLT, ep)
	if st.RemoteEndOffset < lso {
		st.RemoteEndOffset = -1
	}
	b.checkEPUO(lt, hasLT, ep, hasEP)
	return nil
}

// highestRemote sets what the leader knows of its highest uploaded offset
// (HRO) and how far remote storage reaches, from latest-tiered (-5), else
// earliest-pending-upload (-6), else the steady state of a running copy task.
func (b *builder) highestRemote(lt Offset, hasLT bool, ep Offset) {
	st := &b.st
	lso, llso := st.LogStartOffset, st.LocalLogStartOffset
	steady := b.steadyRemoteEnd()
	if hasLT && lt.Error != "" {
		b.notef("latest-tiered (-5): the tool skipped the partition (%s: %s); read as not given", lt.From, lt.Error)
		hasLT = false
	}
	switch {
	case hasLT && lt.Known:
		st.HighestRemoteOffset = lt.Value
		st.RemoteEndOffset = max(lt.Value, llso-1)
	case hasLT && lt.Error == "" && llso == lso:
		st.HighestRemoteOffset, st.RemoteEndOffset = -1, -1
		b.notef("latest-tiered (-5) gave no offset (%s) and the leader holds the whole log locally: nothing is uploaded yet (tiering was just enabled, or every record is in the active segment)", offsetFile(lt))
	case hasLT && lt.Error == "":
		st.HighestRemoteOffset, st.RemoteEndOffset = -1, steady
		b.notef("latest-tiered (-5) gave no offset (%s): the leader does not know its highest uploaded offset (it became leader or restarted recently); remote storage is assumed to hold every inactive local segment, as a running copy task leaves it", offsetFile(lt))
	case ep.Known && ep.Value > lso:
		st.HighestRemoteOffset = ep.Value - 1
		st.RemoteEndOffset = max(ep.Value-1, llso-1)
		b.notef("latest-tiered (-5) not given: the highest uploaded offset is earliest-pending-upload - 1 = %d", ep.Value-1)
	case ep.Known && llso > lso:
		st.HighestRemoteOffset, st.RemoteEndOffset = lso-1, llso-1
		b.notef("latest-tiered (-5) not given and earliest-pending-upload is the log start %d: the highest uploaded offset is taken to lie below it (%d)", lso, lso-1)
	case ep.Known:
		st.HighestRemoteOffset, st.RemoteEndOffset = -1, -1
		b.notef("latest-tiered (-5) not given and earliest-pending-upload is the log start %d with nothing only in remote storage: nothing is tiered yet", lso)
	default:
		st.HighestRemoteOffset, st.RemoteEndOffset = steady, steady
		b.assumef("latest-tiered (-5) not given: every inactive local segment is assumed uploaded, as a running copy task leaves it (highest uploaded offset %d)", steady)
	}
}

// steadyRemoteEnd is the end of the last inactive local segment (what a
// running copy task has uploaded), or the local log start - 1 when the
// leader holds only its active segment.
func (b *builder) steadyRemoteEnd() int64 {
	st := &b.st
	n := (st.HighWatermark - st.LocalLogStartOffset + b.segRecords - 1) / b.segRecords
	if n >= 2 {
		return st.LocalLogStartOffset + (n-1)*b.segRecords - 1
	}
	return st.LocalLogStartOffset - 1
}

// checkEPUO compares the -6 answer with what Kafka 4.3's broker answers for
// the other offsets (UnifiedLog.fetchEarliestPendingUploadOffset: max(HRO+1,
// LSO), and -1 when HRO is unknown with data tiered or when it is at or past
// the log end; docs/design/protocol.md, "Behaviour profiles").
func (b *builder) checkEPUO(lt Offset, hasLT bool, ep Offset, hasEP bool) {
	st := &b.st
	if !hasEP {
		return
	}
	if ep.Error != "" {
		if ep.Unsupported() {
			b.noteUnsupported6(ep)
		} else {
			b.notef("earliest-pending-upload (-6): the tool skipped the partition (%s: %s)", ep.From, ep.Error)
		}
		return
	}
	if !hasLT || !lt.Known && lt.Error != "" {
		return
	}
	lso, llso, hro := st.LogStartOffset, st.LocalLogStartOffset, st.HighestRemoteOffset
	want := int64(-1)
	switch {
	case hro < 0 && llso == lso:
		want = lso
	case hro >= 0:
		want = max(hro+1, lso)
	}
	if want >= st.HighWatermark {
		want = -1
	}
	got := int64(-1)
	if ep.Known {
		got = ep.Value
	}
	if got != want {
		b.notef("earliest-pending-upload says %s but Kafka 4.3's broker answers %s for these offsets (latest-tiered %d, earliest %d, earliest-local %d): the files were saved at different times, or the broker is not 4.3",
			offsetText(got), offsetText(want), hro, lso, llso)
	}
}

func (b *builder) noteUnsupported6(ep Offset) {
	b.unsupported6 = true
	b.notef("the broker does not support earliest-pending-upload (-6) (%s): it predates Kafka 4.2, so it has no follower.fetch.last.tiered.offset.enable either (added in 4.3.0); the plan shows what the flag would do after an upgrade", ep.From)
}

func offsetText(v int64) string {
	if v < 0 {
		return "no offset (-1)"
	}
	return fmt.Sprint(v)
}
