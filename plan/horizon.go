package plan

import (
	"fmt"
	"math"
	"strings"

	"tierfetch/config"
	"tierfetch/scenarios"
)

// retention sets the scenario's retention so that the log keeps the size it
// has now. A scenario's initial segments carry no timestamps (they are all
// written at time 0), so a time limit would expire them all at once when it
// passes; a partition under a time limit keeps about the size it has, so
// the limit becomes a size limit: min(the configured size limit, the size
// now), at least one segment.
func (b *builder) retention() error {
	st := &b.st
	c := &b.cfg
	rb := st.RecordBytes
	if n := st.HighWatermark - st.LogStartOffset; n > math.MaxInt64/rb {
		return config.Errorf(FieldRecordBytes, "%s: %d records of %d bytes overflow the simulator's byte counts", b.recordFrom, n, rb)
	}
	st.sizes()
	total, local := st.LogBytes, st.LocalBytes
	retBytes, retMs := c.RetentionBytes, c.RetentionMs
	c.RetentionBytes, c.RetentionMs = b.sizeLimit("retention", retBytes, retMs, total), -1
	if !st.RemoteStorageEnable || c.RemoteLogCopyDisable {
		c.LocalRetentionBytes, c.LocalRetentionMs = -2, -2 // retention.* applies locally
		return nil
	}
	locBytes, locMs := c.LocalRetentionBytes, c.LocalRetentionMs
	if locBytes == -2 {
		locBytes = retBytes
	}
	if locMs == -2 {
		locMs = retMs
	}
	c.LocalRetentionBytes, c.LocalRetentionMs = b.sizeLimit("local.retention", locBytes, locMs, local), -1
	if locBytes >= 0 && local > locBytes+c.SegmentBytes {
		b.notef("the leader holds %s locally but local.retention.bytes is %s: the offsets and the configs disagree (saved at different times, or retention has not run yet); the simulated leader deletes down to the limit at its first retention check", formatBytes(local), formatBytes(locBytes))
	}
	return nil
}

// waitsForUpload reports whether nothing is tiered at or above the log
// start offset while the leader holds no offset 0: a profile whose
// auxiliary-state build needs the remote segment holding start-1 then waits
// for a segment to fill and be uploaded.
func (b *builder) waitsForUpload() bool {
	st := &b.st
	return st.RemoteStorageEnable && st.LocalLogStartOffset > 0 && st.HighestRemoteOffset < st.LogStartOffset &&
		(st.HighestRemoteOffset >= 0 || st.LocalLogStartOffset == st.LogStartOffset)
}

// sizeLimit is the size limit a retention of bytes and ms becomes, with its
// reason noted.
func (b *builder) sizeLimit(name string, bytes, ms, now int64) int64 {
	if ms < 0 {
		return bytes
	}
	limit := max(now, b.cfg.SegmentBytes)
	if bytes >= 0 {
		limit = min(limit, bytes)
	}
	b.notef("%s.ms=%d is modelled as %s.bytes=%d (%s, the size now): the scenario's segments carry no timestamps, so the partition keeps its size as records arrive", name, ms, name, limit, formatBytes(limit))
	return limit
}

// environment applies what the tools cannot tell and sets the horizon: long
// enough for the flag-off replica to copy the leader's local log at the
// replication rate left after producing, plus the waits a flag-on replica
// may meet (remote metadata, the copy task's first run, a segment rolling
// and being uploaded).
func (b *builder) environment() error {
	env := &b.in.Env
	c := &b.cfg
	c.ReplicationBytesPerSec = env.ReplicationBytesPerSec
	c.NetworkLatencyMs, c.RemoteFetchMs, c.RemoteUploadMs = env.NetworkLatencyMs, env.RemoteFetchMs, env.RemoteUploadMs
	c.RemoteMetadataReadyMs = env.RemoteMetadataReadyMs
	st := &b.st
	if st.RemoteStorageEnable && st.HighestRemoteOffset < 0 && st.RemoteEndOffset >= 0 && !c.RemoteLogCopyDisable && !env.Given[FieldMetadataReady] {
		// A leader with tiered data that still reports no highest uploaded
		// offset has not had a copy-task run with its remote metadata ready
		// (the task runs at once on a new leader, then every interval).
		c.RemoteMetadataReadyMs = c.RemoteLogManagerTaskIntervalMs
		b.metadataAssumed = true
		b.assumef("the leader reports no highest uploaded offset although data is tiered: its remote log metadata is taken as not ready yet, ready %d ms from now (one copy-task interval; {RemoteMetadataReadyMs})",
			c.RemoteMetadataReadyMs)
	}
	b.environmentAssumptions()
	fetch := float64(c.ReplicaFetchMaxBytes)
	meanLatencySec := float64(c.NetworkLatencyMs[0]+c.NetworkLatencyMs[1]) / 2 / 1000
	rate := fetch / (fetch/float64(c.ReplicationBytesPerSec) + 2*meanLatencySec) // bytes a second one follower copies
	net := rate - float64(env.ProduceBytesPerSec)
	interval := c.RemoteLogManagerTaskIntervalMs
	waitMs := c.RemoteMetadataReadyMs + 2*interval + 10*c.ReplicaFetchBackoffMs
	b.reasons = []string{fmt.Sprintf("%s of waits (remote metadata, two copy-task runs, ten fetch backoffs) and a minute to spare", formatMs(waitMs))}
	copyMs := int64(0)
	if net < rate/20 {
		// No copy time would be enough: the runs show the waits and a
		// minute of the replica falling behind, and the verdict says so.
		b.neverCatchesUp = true
		b.notef("the produce rate (%s/s) leaves less than 5%% of the replication rate a follower gets (about %s/s at %s/s of bandwidth, %s fetches and %d-%d ms latency): no replica can catch up",
			formatBytes(env.ProduceBytesPerSec), formatBytes(int64(rate)), formatBytes(c.ReplicationBytesPerSec), formatBytes(c.ReplicaFetchMaxBytes), c.NetworkLatencyMs[0], c.NetworkLatencyMs[1])
	} else {
		copyMs = int64(1.1 * float64(b.st.LocalBytes) / net * 1000)
		b.reasons = append(b.reasons, fmt.Sprintf("%s to copy the leader's local log (%s at about %s/s net of produce, 10%% to spare)",
			formatMs(copyMs), formatBytes(b.st.LocalBytes), formatBytes(int64(net))))
	}
	b.copyRate = net
	rollMs := int64(0)
	if b.waitsForUpload() && env.ProduceBytesPerSec > 0 {
		rollMs = min(c.SegmentBytes*1000/env.ProduceBytesPerSec, 6*3_600_000) + interval + c.RemoteUploadMs[1]
		b.reasons = append(b.reasons, fmt.Sprintf("%s for a segment to fill at the produce rate and be uploaded (nothing is tiered at or above the log start)", formatMs(rollMs)))
	}
	h := waitMs + max(copyMs, rollMs) + 60_000
	b.horizonMs = min(max(h, 120_000), horizonMaxMs)
	if records := float64(env.ProduceBytesPerSec) / float64(b.st.RecordBytes) * float64(b.horizonMs) / 1000; records > produceEventsMax*produceRecordsMax {
		format := "{ProduceBytesPerSec}: "
		if !env.Given[FieldProduce] {
			format = "the default {ProduceBytesPerSec}: "
		}
		return config.Errorf(FieldProduce, format+"%s/s of %d-byte records (record size from %s) over the %s the scenario needs is more than scenario files can produce (%d events of %d records)",
			formatBytes(env.ProduceBytesPerSec), b.st.RecordBytes, b.recordFrom, formatMs(b.horizonMs), produceEventsMax, produceRecordsMax)
	}
	b.horizonMs = (b.horizonMs + 999) / 1000 * 1000
	return nil
}

func (b *builder) environmentAssumptions() {
	env := &b.in.Env
	var d []string
	add := func(field, text string) {
		if !env.Given[field] {
			d = append(d, fmt.Sprintf("%s (%s)", text, b.in.Names.Of(field)))
		}
	}
	add(FieldProduce, fmt.Sprintf("%s/s produced, evenly, for the whole run", formatBytes(env.ProduceBytesPerSec)))
	add(FieldReplication, fmt.Sprintf("%s/s of replication bandwidth out of the leader, shared by its followers", formatBytes(env.ReplicationBytesPerSec)))
	add(FieldNetworkLatency, fmt.Sprintf("%d-%d ms of network latency", env.NetworkLatencyMs[0], env.NetworkLatencyMs[1]))
	add(FieldRemoteFetch, fmt.Sprintf("%d-%d ms a remote storage read", env.RemoteFetchMs[0], env.RemoteFetchMs[1]))
	add(FieldRemoteUpload, fmt.Sprintf("%d-%d ms a segment upload", env.RemoteUploadMs[0], env.RemoteUploadMs[1]))
	if !b.metadataAssumed {
		add(FieldMetadataReady, fmt.Sprintf("remote log metadata ready %d ms after a broker starts, leads or is assigned the partition", env.RemoteMetadataReadyMs))
	}
	if len(d) > 0 {
		b.assumef("not in the tools' output, defaults: %s", strings.Join(d, "; "))
	}
	b.assumef("one leader epoch (0) over the whole log: the tools do not show epochs")
	b.assumef("the leader's log end offset is its high watermark (latest), and its in-sync followers hold the same log")
}

// scenario assembles the scenario, saves it as text and parses it back, so
// the plan runs exactly what --save writes.
func (b *builder) scenario() (*scenarios.Scenario, []byte, error) {
	in, err := b.segments()
	if err != nil {
		return nil, nil, err
	}
	st := &b.st
	n := len(st.InSync)
	sc := &scenarios.Scenario{
		Name: fmt.Sprintf("plan-%s", b.f.TP),
		Description: fmt.Sprintf("simrun plan: partition %s as Kafka's tools showed it (log [%d, %d), local from %d, highest uploaded %d), %s/s produced, an empty replica b%d added at 0",
			b.f.TP, st.LogStartOffset, st.HighWatermark, st.LocalLogStartOffset, st.HighestRemoteOffset, formatBytes(b.in.Env.ProduceBytesPerSec), n),
		Seed: b.in.SeedFrom, Brokers: n + 1, Config: b.cfg, Initial: in, DurationMs: b.horizonMs, HealMs: 0,
	}
	for i := range n {
		sc.Replicas = append(sc.Replicas, i)
	}
	sc.Events = b.produceEvents()
	newBroker := n
	sc.Events = append(sc.Events, scenarios.Event{AtMs: 0, Type: scenarios.EventAddReplica, Broker: &newBroker})
	data, err := sc.Marshal()
	if err != nil {
		return nil, nil, fmt.Errorf("plan: marshal the scenario: %w", err)
	}
	parsed, err := scenarios.Parse(data)
	if err != nil && st.HighestRemoteOffset >= 0 && st.HighestRemoteOffset < st.LogStartOffset {
		// Scenario files of this build cannot hold an HRO below the log
		// start offset: the nearest state they hold is an unknown one.
		b.notef("this build's scenario files cannot hold a highest uploaded offset (%d) below the log start offset (%d): it is modelled as unknown", st.HighestRemoteOffset, st.LogStartOffset)
		st.HighestRemoteOffset = -1
		return b.scenario()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("plan: the scenario built from the tools' output is invalid (a bug in simrun plan, please report it with the files): %w", err)
	}
	return parsed, data, nil
}

// produceEvents spreads the produce rate over the horizon, in as many
// consecutive events as the scenario's per-event record limit needs.
func (b *builder) produceEvents() []scenarios.Event {
	rate := b.in.Env.ProduceBytesPerSec
	if rate == 0 {
		return nil
	}
	total := int64(float64(rate) / float64(b.st.RecordBytes) * float64(b.horizonMs) / 1000)
	if total == 0 {
		return nil
	}
	parts := (total + produceRecordsMax - 1) / produceRecordsMax
	var out []scenarios.Event
	for i := int64(0); i < parts; i++ {
		at, end := b.horizonMs*i/parts, b.horizonMs*(i+1)/parts
		records := total*(i+1)/parts - total*i/parts
		out = append(out, scenarios.Event{AtMs: at, Type: scenarios.EventProduce, Records: records, OverMs: end - at})
	}
	return out
}

// formatBytes prints n in binary units, two decimals.
func formatBytes(n int64) string {
	switch a := math.Abs(float64(n)); {
	case a >= 1<<40:
		return fmt.Sprintf("%.2f TiB", float64(n)/(1<<40))
	case a >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case a >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case a >= 1<<10:
		return fmt.Sprintf("%.2f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// formatMs prints a duration: ms below 1 s, then s, min or h.
func formatMs(ms int64) string {
	switch {
	case ms < 1_000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 600_000:
		return fmt.Sprintf("%.1f s", float64(ms)/1000)
	case ms < 36_000_000:
		return fmt.Sprintf("%.1f min", float64(ms)/60_000)
	}
	return fmt.Sprintf("%.1f h", float64(ms)/3_600_000)
}
