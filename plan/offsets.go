package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Time is a kafka-get-offsets.sh --time value: one of ListOffsets' special
// timestamps (ListOffsetsRequest: -1 latest, -2 earliest, -3 max-timestamp,
// -4 earliest-local, -5 latest-tiered, -6 earliest-pending-upload).
type Time int64

// The --time values the plan reads.
const (
	TimeLatest                Time = -1 // the high watermark (the tool's isolation is read_uncommitted)
	TimeEarliest              Time = -2 // the log start offset
	TimeEarliestLocal         Time = -4 // the local log start offset (Kafka 3.9+ tool)
	TimeLatestTiered          Time = -5 // the highest offset in remote storage (Kafka 3.9+ tool)
	TimeEarliestPendingUpload Time = -6 // KIP-1023's EPUO (Kafka 4.2+ tool and broker)
)

// Times lists the --time values the plan reads, in the order it reports them.
var Times = []Time{TimeEarliest, TimeEarliestLocal, TimeLatestTiered, TimeEarliestPendingUpload, TimeLatest}

var timeNames = map[Time]string{
	TimeLatest: "latest", TimeEarliest: "earliest", TimeEarliestLocal: "earliest-local",
	TimeLatestTiered: "latest-tiered", TimeEarliestPendingUpload: "earliest-pending-upload",
}

// String returns the tool's name for the time, e.g. "earliest-local".
func (t Time) String() string { return timeNames[t] }

// ParseTime reads a --time value as the tool accepts it: a name
// ("earliest-local") or its number ("-4"). max-timestamp (-3) and real
// timestamps tell the plan nothing and are refused.
func ParseTime(s string) (Time, error) {
	for t, name := range timeNames {
		if s == name {
			return t, nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if _, ok := timeNames[Time(n)]; err == nil && ok {
		return Time(n), nil
	}
	var names []string
	for _, t := range Times {
		names = append(names, fmt.Sprintf("%s (%d)", t, int64(t)))
	}
	return 0, fmt.Errorf("want one of %s, got %q", strings.Join(names, ", "), s)
}

// OffsetAnswer is what a kafka-get-offsets.sh output says about one
// partition.
type OffsetAnswer struct {
	Line   int
	Offset int64  // -1: no offset (the broker answered UNKNOWN_OFFSET)
	Error  string // the error the tool skipped the partition with, if any
}

// Unsupported reports whether the tool skipped the partition because the
// broker does not support the request's version (an older broker asked -6).
func (a OffsetAnswer) Unsupported() bool {
	return strings.Contains(a.Error, "UnsupportedVersion") || strings.Contains(a.Error, "does not support")
}

// OffsetsFile is one saved output of kafka-get-offsets.sh.
type OffsetsFile struct {
	Name    string
	Time    Time
	Answers map[TopicPartition]OffsetAnswer
}

// The forms kafka-get-offsets.sh prints, read from Kafka's source:
//
//   - tools/src/main/java/org/apache/kafka/tools/GetOffsetShell.java (trunk,
//     commit 1208b168bc7ef4caa5b73fb50d6b3e3bb7a58641): one
//     "TOPIC:PARTITION:OFFSET" line a partition on stdout, sorted by
//     "TOPIC-PARTITION"; a partition whose answer is UNKNOWN_OFFSET (-1) is
//     left out (since commit 669a49063db, March 2022; Kafka 3.2's first
//     AdminClient version printed "-1"); a partition whose request failed is
//     reported on stderr as "Skip getting offsets for topic-partition
//     TOPIC-PARTITION due to error: ..." (an older broker asked -6 fails
//     with UnsupportedVersionException, see the admin client's
//     ListOffsetsHandler.handleUnsupportedVersionException); a failure of
//     the whole tool prints "Error occurred: ...".
//   - the Scala kafka.tools.GetOffsetShell before Kafka 3.7 (git history of
//     core/src/main/scala/kafka/tools/GetOffsetShell.scala): the same lines,
//     with an empty offset ("TOPIC:PARTITION:") for no answer, "Skip getting
//     offsets for topic-partition TOPIC:PARTITION due to error: ..." and
//     "Error: topic-partition TOPIC:PARTITION does not have a leader. Skip
//     getting offsets".
const (
	skipPrefix     = "Skip getting offsets for topic-partition "
	skipSep        = " due to error: "
	noLeaderPrefix = "Error: topic-partition "
	noLeaderSuffix = " does not have a leader. Skip getting offsets"
	toolFailed     = "Error occurred: "
)

// ParseOffsets reads the saved output (stdout, and stderr if it was saved
// with it) of kafka-get-offsets.sh --time t. name is the file's name for
// error messages.
func ParseOffsets(name string, t Time, data []byte) (*OffsetsFile, error) {
	f := &OffsetsFile{Name: name, Time: t, Answers: map[TopicPartition]OffsetAnswer{}}
	for _, l := range splitLines(data) {
		if isNoise(l.text) {
			continue
		}
		tp, ans, err := parseOffsetLine(name, l)
		if err != nil {
			return nil, err
		}
		if prev, dup := f.Answers[tp]; dup {
			return nil, toolErr(name, l.n, "partition %s again (first on line %d)", tp, prev.Line)
		}
		f.Answers[tp] = ans
	}
	return f, nil
}

func parseOffsetLine(name string, l line) (TopicPartition, OffsetAnswer, error) {
	s := strings.TrimSpace(l.text)
	switch {
	case strings.HasPrefix(s, toolFailed):
		hint := ""
		if strings.Contains(s, "Malformed time argument") {
			hint = " (a kafka-get-offsets.sh older than this --time: leave this file out, or use a newer tool)"
		}
		return TopicPartition{}, OffsetAnswer{}, toolErr(name, l.n, "kafka-get-offsets.sh failed: %s%s", quote(strings.TrimPrefix(s, toolFailed)), hint)
	case strings.HasPrefix(s, skipPrefix):
		tpText, msg, ok := strings.Cut(strings.TrimPrefix(s, skipPrefix), skipSep)
		tp, okTP := splitTopicPartition(tpText)
		if !ok || !okTP {
			return tp, OffsetAnswer{}, toolErr(name, l.n, "expected %q, got %s", skipPrefix+"TOPIC-PARTITION"+skipSep+"MESSAGE", quote(s))
		}
		return tp, OffsetAnswer{Line: l.n, Offset: -1, Error: msg}, nil
	case strings.HasPrefix(s, noLeaderPrefix) && strings.HasSuffix(s, noLeaderSuffix):
		tp, ok := splitTopicPartition(strings.TrimSuffix(strings.TrimPrefix(s, noLeaderPrefix), noLeaderSuffix))
		if !ok {
			return tp, OffsetAnswer{}, toolErr(name, l.n, "expected a topic-partition in %s", quote(s))
		}
		return tp, OffsetAnswer{Line: l.n, Offset: -1, Error: "no leader"}, nil
	}
	return parseOffsetTriple(name, l.n, s)
}

// parseOffsetTriple reads "TOPIC:PARTITION:OFFSET".
func parseOffsetTriple(name string, n int, s string) (TopicPartition, OffsetAnswer, error) {
	fields := strings.Split(s, ":")
	bad := func(format string, args ...any) (TopicPartition, OffsetAnswer, error) {
		return TopicPartition{}, OffsetAnswer{}, toolErr(name, n, format, args...)
	}
	if len(fields) != 3 {
		return bad("expected TOPIC:PARTITION:OFFSET (kafka-get-offsets.sh output), got %s", quote(s))
	}
	if !topicName.MatchString(fields[0]) {
		return bad("expected TOPIC:PARTITION:OFFSET with a topic name (letters, digits, '.', '_', '-') before the first ':', got %s", quote(s))
	}
	p, ok := parsePartition(fields[1])
	if !ok {
		return bad("expected TOPIC:PARTITION:OFFSET with a partition number between the ':'s, got %s", quote(s))
	}
	tp := TopicPartition{Topic: fields[0], Partition: p}
	if fields[2] == "" {
		return tp, OffsetAnswer{Line: n, Offset: -1}, nil
	}
	off, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || off < -1 {
		return bad("expected TOPIC:PARTITION:OFFSET with an offset (an integer >= -1) after the last ':', got %s", quote(s))
	}
	return tp, OffsetAnswer{Line: n, Offset: off}, nil
}

// partitions returns the partitions a file answers for, sorted.
func partitionsOf[V any](m map[TopicPartition]V) []TopicPartition {
	var out []TopicPartition
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, compareTP)
	return out
}

func compareTP(a, b TopicPartition) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return int(a.Partition) - int(b.Partition)
}
