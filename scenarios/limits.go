package scenarios

import (
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"

	"tierfetch/sim"
)

// Ranges beyond those of file.go: every number of a scenario file has one (docs/reference/scenario-format.md,
// "Ranges"), chosen so that no sum or product the simulator forms can overflow.
const (
	// kafkaIntMax bounds the byte sizes Kafka itself keeps in an int:
	// segment.bytes, replica.fetch.max.bytes, max.message.bytes. A fetch
	// answer is at most max(replica_fetch_max_bytes, record_bytes) bytes, so a
	// byte counter grows by at most 2^31 a step.
	kafkaIntMax = math.MaxInt32
	// logBytesMax bounds the bytes a log can ever hold (8 PiB, eight times a
	// million 1 GiB segments): its offsets times record_bytes, so that sums of
	// segment sizes, local and remote, stay far from overflow.
	logBytesMax = 1 << 53
	// nameBytesMax and descriptionBytesMax bound the scenario's strings.
	nameBytesMax        = 256
	descriptionBytesMax = 64 << 10
	// numReplicaFetchersMax bounds num.replica.fetchers (Kafka sets no
	// bound; 0 would divide by zero in getFetcherId): a follower runs at
	// most this many threads per leader.
	numReplicaFetchersMax = 64
)

// checkText checks a string of the file: valid UTF-8 (no U+FFFD, which is what
// invalid bytes and lone surrogate escapes decode to), at most maxBytes, and no
// control characters other than newline and tab when multiline.
func checkText(field, v string, maxBytes int, multiline bool) error {
	if len(v) > maxBytes {
		return fieldErr(field, "at most %d bytes, got %d", maxBytes, len(v))
	}
	for i, r := range v {
		switch {
		case r == utf8.RuneError:
			return fieldErr(field, "invalid UTF-8 (or a lone surrogate escape) at byte %d", i)
		case unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t')):
			return fieldErr(field, "control character %U at byte %d", r, i)
		}
	}
	return nil
}

// validateLimits checks what no single field shows: the strings, the room left
// for leader epochs and the bytes the log can reach.
func (s *Scenario) validateLimits() error {
	if err := checkText("name", s.Name, nameBytesMax, false); err != nil {
		return err
	}
	if err := checkText("description", s.Description, descriptionBytesMax, true); err != nil {
		return err
	}
	if s.BrokerScale() {
		return s.checkPartitionLimits()
	}
	if in := s.Initial; in != nil {
		if err := s.checkEpochRoom("initial.leader_epoch", in.LeaderEpoch, s.replaceBrokers()); err != nil {
			return err
		}
		if err := s.checkSegmentCopies(); err != nil {
			return err
		}
	}
	return s.checkLogBytes()
}

// replaceBrokers returns the number of replace_broker events.
func (s *Scenario) replaceBrokers() int {
	n := 0
	for _, e := range s.Events {
		switch e.Type {
		case EventReplaceBroker:
			n++
		case EventRollingRestart:
			n += 2*len(e.Brokers) - 1 // a crash and a restart a broker, one event
		}
	}
	return n
}

// checkEpochRoom checks that a partition's initial leader epoch leaves room
// for every election. Every election is made by an event (elect_leader,
// crash, restart, reassign; each of the replaces replace_broker events makes
// two, its crash and its restart, and a rolling_restart two a broker) or by
// the heal restarting a broker, so the
// epoch rises at most that often: it must not wrap past int32.
func (s *Scenario) checkEpochRoom(field string, epoch int32, replaces int) error {
	room := int64(math.MaxInt32) - int64(len(s.Events)) - int64(replaces) - int64(s.Brokers)
	if int64(epoch) <= room {
		return nil
	}
	if replaces > 0 {
		return fieldErr(field, "must be at most %d (2^31-1 less one election for each of the %d events, %d more for the replace_broker and rolling_restart events, and one for each of the %d brokers), got %d",
			room, len(s.Events), replaces, s.Brokers, epoch)
	}
	return fieldErr(field, "must be at most %d (2^31-1 less one election for each of the %d events and %d brokers), got %d",
		room, len(s.Events), s.Brokers, epoch)
}

// checkSegmentCopies checks that the segments a run holds at its start stay
// within MaxFixtureSegments: every initial replica holds its own copy of the
// local segments (the model writes them in place), remote storage one of
// the remote ones. Without it 64 replicas of 2^21 local segments took 11 GiB.
func (s *Scenario) checkSegmentCopies() error {
	in := s.Initial
	local, remote, replicas := int64(len(in.LocalSegments)), int64(len(in.RemoteSegments)), int64(max(len(s.Replicas), 1))
	if copies := local*replicas + remote; copies > MaxFixtureSegments {
		return fieldErr("initial.local_segments", "%d local segments on each of the %d replicas and %d remote ones make %d segments in memory, more than %d: use fewer, larger segments (config.segment_bytes) or fewer replicas",
			local, replicas, remote, copies, MaxFixtureSegments)
	}
	return nil
}

// checkLogBytes checks that the highest offset the log can reach (its end plus
// every produced record) stays within offsetMax and that the records from the
// first offset any segment holds to there fit in logBytesMax bytes.
func (s *Scenario) checkLogBytes() error {
	produced := int64(0)
	for _, e := range s.Events {
		if e.Type == EventProduce {
			produced = sim.AddSat(produced, e.Records)
		}
	}
	return checkLogSpan(s.Initial, produced, s.Config.RecordBytes, "events", "config.record_bytes", "")
}

// checkLogSpan checks the log of one partition, whose fixture is in and to
// which produced records are appended: the offsets it reaches (an error on
// offsetField) and its bytes (on bytesField). whose, if not empty, says
// which partitions the log is.
func checkLogSpan(in *Initial, produced, recordBytes int64, offsetField, bytesField, whose string) error {
	first, end := int64(0), int64(0)
	if in != nil && len(in.LocalSegments) > 0 {
		first = in.LogStartOffset
		for _, sg := range in.RemoteSegments {
			first = min(first, sg.BaseOffset)
		}
		for _, sg := range in.LocalSegments {
			first = min(first, sg.BaseOffset)
		}
		end = in.LocalSegments[len(in.LocalSegments)-1].EndOffset + 1
	}
	if top := sim.AddSat(end, produced); top > offsetMax {
		return fieldErr(offsetField, "the log%s would reach offset %d (log end %d + %d produced records), more than %d",
			whose, top, end, produced, int64(offsetMax))
	}
	span := end + produced - first
	if bytes := sim.MulSat(span, recordBytes); bytes > logBytesMax {
		return fieldErr(bytesField, "%d records of %d bytes (offsets %d..%d, the fixture and every produce%s) make %s, more than %d bytes (8 PiB)",
			span, recordBytes, first, end+produced-1, whose, bytesText(bytes), int64(logBytesMax))
	}
	return nil
}

func bytesText(n int64) string {
	if n == math.MaxInt64 {
		return "more than 2^63 bytes"
	}
	return fmt.Sprintf("%d bytes", n)
}

// checkRange returns a check that v is in lo..hi (its messages keep the
// documented wording below lo: "must be > 0, got -5").
func checkRange(lo, hi int64) func(int64) string {
	return func(v int64) string {
		switch {
		case v < lo && lo == 1:
			return fmt.Sprintf("must be > 0, got %d", v)
		case v < lo && lo == 0:
			return fmt.Sprintf("must be >= 0, got %d", v)
		case v < lo || v > hi:
			return fmt.Sprintf("must be in %d..%d, got %d", lo, hi, v)
		}
		return ""
	}
}

// checkUTF8 returns an error naming the line and column of the first byte of
// data that is not UTF-8: JSON text must be UTF-8, and encoding/json would
// silently replace such bytes.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return fmt.Errorf("%s: invalid UTF-8 (byte 0x%02x): a scenario file must be UTF-8", position(data, int64(off)), data[off])
}

// checkLimit returns a check that v is -1 (unlimited) or in lo..hi.
func checkLimit(lo, hi int64) func(int64) string {
	return func(v int64) string {
		switch {
		case v == -1 || lo <= v && v <= hi:
			return ""
		case hi == math.MaxInt64:
			return fmt.Sprintf("must be -1 (unlimited) or >= %d, got %d", lo, v)
		}
		return fmt.Sprintf("must be -1 (unlimited) or in %d..%d, got %d", lo, hi, v)
	}
}

// ConfigRanges is the documented range, [min, max], of every integer config
// field (docs/reference/scenario-format.md): validation refuses a value outside it, and
// TestConfigRangesCoverEveryField keeps the table complete.
var ConfigRanges = map[string][2]int64{
	"segment_bytes":                       {1, math.MaxInt32},
	"record_bytes":                        {1, math.MaxInt32},
	"replica_fetch_max_bytes":             {1, math.MaxInt32},
	"replica_fetch_backoff_ms":            {1, 1e12},
	"replica_fetch_wait_max_ms":           {1, 1e12},
	"replica_lag_time_max_ms":             {1, 1e12},
	"remote_log_manager_task_interval_ms": {1, 1e12},
	"local_retention_bytes":               {-2, math.MaxInt64},
	"local_retention_ms":                  {-2, math.MaxInt64},
	"retention_bytes":                     {-1, math.MaxInt64},
	"retention_ms":                        {-1, math.MaxInt64},
	"replication_bytes_per_sec":           {1, math.MaxInt64},
	"remote_metadata_ready_ms":            {0, 1e12},
	"remote_metadata_lag_ms":              {0, 1e12},
	"remote_copy_lag_ms":                  {-1, math.MaxInt64},
	"remote_copy_lag_bytes":               {-1, math.MaxInt64},
	"min_insync_replicas":                 {1, math.MaxInt32},
	"replica_socket_timeout_ms":           {1, 1e12},
	"log_retention_check_interval_ms":     {1, 1e12},
	// Broker scale: -1 is unlimited; 0 is refused for the last three.
	"num_replica_fetchers":                {1, numReplicaFetchersMax},
	"replica_fetch_response_max_bytes":    {1, math.MaxInt32},
	"replica_fetch_min_bytes":             {1, math.MaxInt32},
	"leader_replication_throttled_rate":   {-1, math.MaxInt64},
	"follower_replication_throttled_rate": {-1, math.MaxInt64},
	"remote_fetch_concurrency":            {-1, math.MaxInt32},
	"broker_network_bytes_per_sec":        {-1, math.MaxInt64},
	"broker_disk_bytes_per_sec":           {-1, math.MaxInt64},
}
