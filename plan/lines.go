package plan

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// TopicPartition names one partition.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String returns "TOPIC-PARTITION", as Kafka's TopicPartition.toString does.
func (tp TopicPartition) String() string {
	return tp.Topic + "-" + strconv.FormatInt(int64(tp.Partition), 10)
}

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte("\ufeff")

// line is one line of a tool's output, numbered from 1, without its line
// ending.
type line struct {
	n    int
	off  int // byte offset of the line's start
	text string
}

// splitLines cuts data into lines, dropping "\r" before "\n" and a UTF-8
// byte order mark before the first line (a file saved by a Windows editor).
func splitLines(data []byte) []line {
	var out []line
	off := 0
	if rest, ok := bytes.CutPrefix(data, utf8BOM); ok {
		data, off = rest, len(utf8BOM)
	}
	for i, b := range bytes.Split(data, []byte("\n")) {
		out = append(out, line{n: i + 1, off: off, text: strings.TrimSuffix(string(b), "\r")})
		off += len(b) + 1
	}
	if n := len(out); n > 0 && out[n-1].text == "" {
		out = out[:n-1]
	}
	return out
}

// logLine matches what a tool's logger prints among its output when the
// user saved stderr with stdout: log4j lines ("[2024-08-12 15:42:57,462] WARN
// ..."), SLF4J notices and bare level prefixes.
var logLine = regexp.MustCompile(`^(\[\d{4}-\d\d-\d\d[ T][^\]]*\]\s|SLF4J[:(]|(WARN|WARNING|INFO|DEBUG|ERROR)\s)`)

// isNoise reports whether a line carries no data: blank, or a log line.
func isNoise(s string) bool {
	return strings.TrimSpace(s) == "" || logLine.MatchString(s)
}

// topicName matches a legal Kafka topic name (Topic.validate: ASCII
// alphanumerics, '.', '_' and '-', at most 249 characters).
var topicName = regexp.MustCompile(`^[a-zA-Z0-9._-]{1,249}$`)

// parsePartition reads a partition number: a non-negative 32-bit integer.
func parsePartition(s string) (int32, bool) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 || strings.HasPrefix(s, "+") {
		return 0, false
	}
	return int32(n), true
}

// splitTopicPartition reads "TOPIC-PARTITION" (Kafka's TopicPartition
// toString) or "TOPIC:PARTITION" (what the older Scala tools printed).
func splitTopicPartition(s string) (TopicPartition, bool) {
	i := strings.LastIndexAny(s, ":-")
	if i <= 0 {
		return TopicPartition{}, false
	}
	p, ok := parsePartition(s[i+1:])
	if !ok || !topicName.MatchString(s[:i]) {
		return TopicPartition{}, false
	}
	return TopicPartition{Topic: s[:i], Partition: p}, true
}

// quote shortens s for an error message.
func quote(s string) string {
	const limit = 80
	if len(s) > limit {
		s = s[:limit] + "..."
	}
	return strconv.Quote(s)
}
