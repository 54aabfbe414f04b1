package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Replica is one replica's local log as kafka-log-dirs.sh --describe prints
// it: the broker, its log dir, the bytes on disk and how far it lags.
type Replica struct {
	Broker    int32
	LogDir    string
	Size      int64
	OffsetLag int64
	IsFuture  bool
}

// LogDirsFile is one saved output of kafka-log-dirs.sh --describe.
type LogDirsFile struct {
	Name     string
	Replicas map[TopicPartition][]Replica // by broker, then log dir, as printed
}

// The form kafka-log-dirs.sh --describe prints, read from Kafka's source,
// tools/src/main/java/org/apache/kafka/tools/LogDirsCommand.java (trunk,
// commit 09e52cef3f0ae13c2b13bec6a31f43e5330e1f2e; the Scala
// kafka.admin.LogDirsCommand printed the same): "Querying brokers for log
// directories information", "Received log directory information from brokers
// 1,2,3", then one line of JSON, {"version":1,"brokers":[{"broker":1,
// "logDirs":[{"logDir":"/data","error":null,"partitions":[{"partition":"T-0",
// "size":123,"offsetLag":0,"isFuture":false}]}]}]} (keys in any order: the
// tool prints Java HashMaps). "size" is the replica's local log on that
// broker; remote storage is not in it.
type logDirsJSON struct {
	Version *int `json:"version"`
	Brokers []struct {
		Broker  *int32 `json:"broker"`
		LogDirs []struct {
			LogDir     string  `json:"logDir"`
			Error      *string `json:"error"`
			Partitions []struct {
				Partition *string `json:"partition"`
				Size      *int64  `json:"size"`
				OffsetLag int64   `json:"offsetLag"`
				IsFuture  bool    `json:"isFuture"`
			} `json:"partitions"`
		} `json:"logDirs"`
	} `json:"brokers"`
}

var logDirsBanners = []string{"Querying brokers for log directories information", "Received log directory information from brokers"}

// ParseLogDirs reads the saved output of kafka-log-dirs.sh --describe.
func ParseLogDirs(name string, data []byte) (*LogDirsFile, error) {
	start, startLine := -1, 0
	for _, l := range splitLines(data) {
		s := strings.TrimSpace(l.text)
		if strings.HasPrefix(s, "{") {
			start, startLine = l.off, l.n
			break
		}
		if !isNoise(l.text) && !hasAnyPrefix(s, logDirsBanners) {
			return nil, toolErr(name, l.n, "expected %q, %q or the JSON line (kafka-log-dirs.sh --describe output), got %s",
				logDirsBanners[0], logDirsBanners[1]+" ...", quote(s))
		}
	}
	if start < 0 {
		return nil, toolErr(name, 0, "no JSON line: expected the line starting with '{' that kafka-log-dirs.sh --describe prints")
	}
	var doc logDirsJSON
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	if err := dec.Decode(&doc); err != nil {
		return nil, jsonErr(name, data, start, startLine, dec, err)
	}
	end := start + int(dec.InputOffset())
	if rest := bytes.TrimSpace(data[end:]); len(rest) > 0 {
		at := end + bytes.Index(data[end:], rest[:1])
		return nil, toolErr(name, lineAt(data, at), "unexpected text after the JSON: %s", quote(string(rest)))
	}
	return buildLogDirs(name, startLine, &doc)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// lineAt returns the line number (from 1) of byte offset off.
func lineAt(data []byte, off int) int {
	return bytes.Count(data[:min(off, len(data))], []byte("\n")) + 1
}

func jsonErr(name string, data []byte, start, startLine int, dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return toolErr(name, lineAt(data, start+int(se.Offset)), "invalid JSON: %v", err)
	case errors.As(err, &te):
		return toolErr(name, lineAt(data, start+int(te.Offset)), "expected %s for %q in the JSON, got %s", te.Type, te.Field, te.Value)
	}
	return toolErr(name, startLine, "invalid JSON: %v", err)
}

func buildLogDirs(name string, n int, doc *logDirsJSON) (*LogDirsFile, error) {
	if doc.Version == nil || *doc.Version != 1 {
		v := "none"
		if doc.Version != nil {
			v = fmt.Sprint(*doc.Version)
		}
		return nil, toolErr(name, n, "expected \"version\": 1 in the JSON (the only version kafka-log-dirs.sh prints), got %s", v)
	}
	f := &LogDirsFile{Name: name, Replicas: map[TopicPartition][]Replica{}}
	// A broker holds one replica of a partition, and one future replica
	// while an intra-broker move is under way: a broker or a replica
	// listed twice is not one describe's output (two concatenated?), and
	// summing or picking among them would be a guess.
	brokerAt := map[int32]int{}
	type replicaKey struct {
		tp     TopicPartition
		broker int32
		future bool
	}
	seen := map[replicaKey]string{}
	for i, b := range doc.Brokers {
		if b.Broker == nil {
			return nil, toolErr(name, n, "brokers[%d]: expected a \"broker\" id", i)
		}
		if *b.Broker < 0 {
			return nil, toolErr(name, n, "brokers[%d]: broker id %d: Kafka's broker ids are >= 0", i, *b.Broker)
		}
		if j, dup := brokerAt[*b.Broker]; dup {
			return nil, toolErr(name, n, "brokers[%d]: broker %d is listed already, at brokers[%d]: want one kafka-log-dirs.sh --describe output", i, *b.Broker, j)
		}
		brokerAt[*b.Broker] = i
		for j, d := range b.LogDirs {
			for k, p := range d.Partitions {
				path := fmt.Sprintf("brokers[%d].logDirs[%d].partitions[%d]", i, j, k)
				if p.Partition == nil || p.Size == nil {
					return nil, toolErr(name, n, "%s: expected \"partition\" and \"size\"", path)
				}
				tp, ok := splitTopicPartition(*p.Partition)
				if !ok || *p.Size < 0 {
					return nil, toolErr(name, n, "%s: expected \"partition\": \"TOPIC-PARTITION\" and a size >= 0, got %q and %d", path, *p.Partition, *p.Size)
				}
				k := replicaKey{tp, *b.Broker, p.IsFuture}
				if at, dup := seen[k]; dup {
					what := "replica"
					if p.IsFuture {
						what = "future replica"
					}
					return nil, toolErr(name, n, "%s: broker %d's %s of %s is listed already, at %s", path, *b.Broker, what, tp, at)
				}
				seen[k] = path
				f.Replicas[tp] = append(f.Replicas[tp], Replica{Broker: *b.Broker, LogDir: d.LogDir, Size: *p.Size,
					OffsetLag: p.OffsetLag, IsFuture: p.IsFuture})
			}
		}
	}
	return f, nil
}
