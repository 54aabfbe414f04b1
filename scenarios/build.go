package scenarios

import (
	"slices"
	"sort"

	"tierfetch/model"
	"tierfetch/sim"
)

// ModelConfig converts a scenario's config to the model's.
func (c Config) ModelConfig() model.Config {
	return model.Config{
		SegmentBytes:                c.SegmentBytes,
		RecordBytes:                 c.RecordBytes,
		ReplicaFetchMaxBytes:        c.ReplicaFetchMaxBytes,
		ReplicaFetchBackoff:         sim.Ms(c.ReplicaFetchBackoffMs),
		ReplicaFetchWaitMax:         sim.Ms(c.ReplicaFetchWaitMaxMs),
		ReplicaLagTimeMax:           sim.Ms(c.ReplicaLagTimeMaxMs),
		RLMTaskInterval:             sim.Ms(c.RemoteLogManagerTaskIntervalMs),
		ReplicaSocketTimeout:        sim.Ms(c.ReplicaSocketTimeoutMs),
		RetentionCheckInterval:      sim.Ms(c.LogRetentionCheckIntervalMs),
		RemoteMetadataReady:         sim.Ms(c.RemoteMetadataReadyMs),
		RemoteMetadataLag:           sim.Ms(c.RemoteMetadataLagMs),
		RemoteStorageEnable:         c.RemoteStorageEnable,
		RemoteLogCopyDisable:        c.RemoteLogCopyDisable,
		RemoteLogDeleteOnDisable:    c.RemoteLogDeleteOnDisable,
		UncleanLeaderElectionEnable: c.UncleanLeaderElectionEnable,
		LocalRetentionBytes:         c.LocalRetentionBytes,
		LocalRetentionMs:            c.LocalRetentionMs,
		RetentionBytes:              c.RetentionBytes,
		RetentionMs:                 c.RetentionMs,
		RemoteCopyLagMs:             c.RemoteCopyLagMs,
		RemoteCopyLagBytes:          c.copyLagBytes(),
		MinInsyncReplicas:           int(c.minInsyncReplicas()),
	}
}

// ModelInitial builds the leader's log and remote storage at time 0 from the
// fixture. Remote and local copies of the same offsets are cut from one
// list of batches, so they are the same records.
func (s *Scenario) ModelInitial() model.Initial {
	return ModelInitialOf(s.Initial, s.Config.RecordBytes)
}

// ModelInitialOf builds the model's initial log from in (nil: an empty
// log) with records of recordBytes: ModelInitial, for a partitions entry.
func ModelInitialOf(in *Initial, recordBytes int64) model.Initial {
	if in == nil {
		return model.Initial{Log: model.NewLog(0), HighestRemote: -1}
	}
	pieces := fixtureBatches(in, recordBytes)
	// cut returns the pieces inside spec: pieces are sorted and cut at every
	// segment boundary, so they form one run (a binary search finds it).
	cut := func(spec SegmentSpec) []model.Batch {
		i := sort.Search(len(pieces), func(i int) bool { return pieces[i].Base >= spec.BaseOffset })
		j := i
		for j < len(pieces) && pieces[j].Last() <= spec.EndOffset {
			j++
		}
		return pieces[i:j:j]
	}
	epochs := fixtureEpochs(in)
	var lg model.Log
	lg.LogStart = in.LogStartOffset
	lg.LocalLogStart = in.LocalSegments[0].BaseOffset
	last := in.LocalSegments[len(in.LocalSegments)-1]
	lg.LogEnd = last.EndOffset + 1
	lg.HighWatermark = in.HighWatermark
	for i, spec := range in.LocalSegments {
		seg := model.Segment{Base: spec.BaseOffset, End: spec.EndOffset, Batches: cut(spec)}
		seg.Bytes = (spec.EndOffset - spec.BaseOffset + 1) * recordBytes
		if i < len(in.LocalSegments)-1 {
			seg.Snapshot = []model.ProducerEntry{}
		}
		lg.Segments = append(lg.Segments, seg)
	}
	for _, e := range epochs {
		lg.Epochs = append(lg.Epochs, e)
	}
	init := model.Initial{Log: lg, LeaderEpoch: in.LeaderEpoch, HighestRemote: in.HighestRemoteOffset}
	init.RemoteSegments = make([]model.RemoteSegment, 0, len(in.RemoteSegments))
	// Each segment's own epochs: one entry, cut from one array (one
	// allocation, not one per segment).
	firstEpochs := make([]model.EpochEntry, len(in.RemoteSegments))
	noSnapshot := []model.ProducerEntry{}
	for i, spec := range in.RemoteSegments {
		segEpochs := firstEpochs[i : i : i+1]
		// The epochs up to the segment's end: a prefix of epochs (sorted by
		// start offset), shared, not copied, so that a fixture of n remote
		// segments with n epochs takes O(n) memory, not O(n^2).
		k := sort.Search(len(epochs), func(i int) bool { return epochs[i].StartOffset > spec.EndOffset })
		checkpt := epochs[:k:k]
		segEpochs = append(segEpochs, model.EpochEntry{Epoch: spec.Epoch, StartOffset: spec.BaseOffset})
		if len(checkpt) == 0 { // a segment wholly below the log start offset
			checkpt = segEpochs
		}
		state := model.CopyFinished
		if spec.State != "" {
			state, _ = model.RemoteStateByName(spec.State) // validated
		}
		init.RemoteSegments = append(init.RemoteSegments, model.RemoteSegment{
			Base: spec.BaseOffset, End: spec.EndOffset, Bytes: (spec.EndOffset - spec.BaseOffset + 1) * recordBytes,
			Epochs: segEpochs, Batches: cut(spec), Checkpt: checkpt, Snapshot: noSnapshot, State: state,
		})
	}
	return init
}

// fixtureBatches cuts [first offset, LEO) at every segment boundary, remote
// and local, into batches with distinct origins.
func fixtureBatches(in *Initial, recordBytes int64) []model.Batch {
	bounds := make([]int64, 0, 2*(len(in.RemoteSegments)+len(in.LocalSegments)))
	for _, segs := range [][]SegmentSpec{in.RemoteSegments, in.LocalSegments} {
		for _, s := range segs {
			if s.EndOffset >= s.BaseOffset {
				bounds = append(bounds, s.BaseOffset, s.EndOffset+1)
			}
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	out := make([]model.Batch, 0, max(len(bounds)-1, 0))
	ri, li := 0, 0 // the remote and local segments holding lo, or the next ones
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		for ri < len(in.RemoteSegments) && in.RemoteSegments[ri].EndOffset < lo {
			ri++
		}
		for li < len(in.LocalSegments) && in.LocalSegments[li].EndOffset < lo {
			li++
		}
		epoch := int32(-1) // a local segment's epoch wins over a remote one's
		if ri < len(in.RemoteSegments) && in.RemoteSegments[ri].BaseOffset <= lo {
			epoch = in.RemoteSegments[ri].Epoch
		}
		if li < len(in.LocalSegments) && in.LocalSegments[li].BaseOffset <= lo {
			epoch = in.LocalSegments[li].Epoch
		}
		if epoch < 0 {
			continue // a gap no fixture holds (validation rejects holes)
		}
		out = append(out, model.Batch{Base: lo, Count: hi - lo, Bytes: (hi - lo) * recordBytes, Epoch: epoch,
			Origin: uint64(len(out) + 1)})
	}
	return out
}

// fixtureEpochs derives the leader-epoch cache from the segments' epochs,
// from the log start offset on.
func fixtureEpochs(in *Initial) []model.EpochEntry {
	var out []model.EpochEntry
	add := func(s SegmentSpec) {
		if s.EndOffset < s.BaseOffset || s.EndOffset < in.LogStartOffset {
			return
		}
		start := max(s.BaseOffset, in.LogStartOffset)
		if n := len(out); n == 0 || out[n-1].Epoch < s.Epoch {
			out = append(out, model.EpochEntry{Epoch: s.Epoch, StartOffset: start})
		}
	}
	for _, s := range in.RemoteSegments {
		if s.BaseOffset < in.LocalSegments[0].BaseOffset {
			add(s)
		}
	}
	for _, s := range in.LocalSegments {
		add(s)
	}
	return out
}
