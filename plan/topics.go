package plan

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// PartitionInfo is one partition line of kafka-topics.sh --describe.
type PartitionInfo struct {
	Line     int
	Leader   int32 // -1: none
	Replicas []int32
	ISR      []int32
}

// TopicInfo is one topic of kafka-topics.sh --describe.
type TopicInfo struct {
	Line              int
	PartitionCount    int
	ReplicationFactor int
	Configs           map[string]string // the non-default configs of the topic line
	Partitions        map[int32]PartitionInfo
}

// TopicsFile is one saved output of kafka-topics.sh --describe.
type TopicsFile struct {
	Name   string
	Topics map[string]*TopicInfo
}

// PartitionCount is the number of partition lines of every topic: at most
// the partitions a broker plan's scenario holds.
func (f *TopicsFile) PartitionCount() int {
	n := 0
	for _, t := range f.Topics {
		n += len(t.Partitions)
	}
	return n
}

// The form kafka-topics.sh --describe prints, read from Kafka's source,
// tools/src/main/java/org/apache/kafka/tools/TopicCommand.java (trunk,
// commit 0096980326406af44566c8d571d0b4130986eb18, TopicDescription and
// PartitionDescription.printDescription): per topic a line "Topic: T\tTopicId:
// ID\tPartitionCount: N\tReplicationFactor: R\tConfigs: K=V,K=V" (no TopicId
// when it is zero), then per partition "\tTopic: T\tPartition: P\tLeader:
// L|none\tReplicas: A,B,C\tIsr: A,B" followed, during a reassignment, by
// "\tAdding Replicas: ..\tRemoving Replicas: .." and, since Kafka 3.7, by
// "\tElr: ..|N/A\tLastKnownElr: ..|N/A". Older versions printed the same
// keys, some without the space after the ':'. Terminals turn the tabs into
// spaces when output is copied, so fields are found by their keys.
var topicKeys = regexp.MustCompile(`(?:^|\s)(TopicId|Topic|PartitionCount|ReplicationFactor|Configs|Partition|Leader|Replicas|Isr|Adding Replicas|Removing Replicas|Elr|LastKnownElr|Offline|MarkedForDeletion):`)

// ParseTopics reads the saved output of kafka-topics.sh --describe.
func ParseTopics(name string, data []byte) (*TopicsFile, error) {
	f := &TopicsFile{Name: name, Topics: map[string]*TopicInfo{}}
	for _, l := range splitLines(data) {
		if isNoise(l.text) {
			continue
		}
		fields, ok := topicFields(l.text)
		if !ok {
			return nil, toolErr(name, l.n, "expected a \"Topic: T ...\" line (kafka-topics.sh --describe output), got %s", quote(strings.TrimSpace(l.text)))
		}
		var err error
		if _, isPartition := fields["Partition"]; isPartition {
			err = f.addPartition(name, l.n, fields)
		} else {
			err = f.addTopic(name, l.n, fields)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(f.Topics) == 0 {
		return nil, toolErr(name, 0, "no \"Topic: T ...\" line: is this kafka-topics.sh --describe output?")
	}
	return f, nil
}

// topicFields splits a line into its "Key: value" fields; ok is false when
// the line does not start with "Topic:". Configs is the last field of a
// topic line and takes the rest of it.
func topicFields(s string) (map[string]string, bool) {
	s = strings.TrimSpace(s)
	locs := topicKeys.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 || locs[0][0] != 0 || s[locs[0][2]:locs[0][3]] != "Topic" {
		return nil, false
	}
	fields := map[string]string{}
	for i, loc := range locs {
		key := s[loc[2]:loc[3]]
		end := len(s)
		if i+1 < len(locs) && key != "Configs" {
			end = locs[i+1][0]
		}
		if _, dup := fields[key]; !dup {
			fields[key] = strings.TrimSpace(s[loc[1]:end])
		}
		if key == "Configs" {
			break
		}
	}
	return fields, true
}

func (f *TopicsFile) addTopic(name string, n int, fields map[string]string) error {
	t := fields["Topic"]
	if !topicName.MatchString(t) {
		return toolErr(name, n, "expected a topic name after \"Topic:\", got %s", quote(t))
	}
	if prev, dup := f.Topics[t]; dup {
		return toolErr(name, n, "topic %s again (first on line %d)", t, prev.Line)
	}
	info := &TopicInfo{Line: n, Configs: map[string]string{}, Partitions: map[int32]PartitionInfo{}}
	var err1, err2 error
	info.PartitionCount, err1 = strconv.Atoi(fields["PartitionCount"])
	info.ReplicationFactor, err2 = strconv.Atoi(fields["ReplicationFactor"])
	if err1 != nil || err2 != nil || info.PartitionCount < 1 || info.ReplicationFactor < 1 {
		return toolErr(name, n, "expected \"PartitionCount: N\" and \"ReplicationFactor: R\" (positive integers) on the topic line")
	}
	for _, kv := range strings.Split(fields["Configs"], ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			info.Configs[k] = v
		}
	}
	f.Topics[t] = info
	return nil
}

func (f *TopicsFile) addPartition(name string, n int, fields map[string]string) error {
	t := fields["Topic"]
	info, ok := f.Topics[t]
	if !ok {
		return toolErr(name, n, "partition line of topic %s before its \"Topic: %s PartitionCount: ...\" line", quote(t), t)
	}
	p, ok := parsePartition(fields["Partition"])
	if !ok {
		return toolErr(name, n, "expected a partition number after \"Partition:\", got %s", quote(fields["Partition"]))
	}
	if prev, dup := info.Partitions[p]; dup {
		return toolErr(name, n, "partition %d of %s again (first on line %d)", p, t, prev.Line)
	}
	pi := PartitionInfo{Line: n, Leader: -1}
	if l := fields["Leader"]; l != "none" && l != "-1" {
		id, err := strconv.ParseInt(l, 10, 32)
		if err != nil || id < 0 {
			return toolErr(name, n, "expected a broker id or \"none\" after \"Leader:\", got %s", quote(l))
		}
		pi.Leader = int32(id)
	}
	var err error
	if pi.Replicas, err = brokerList(fields["Replicas"]); err != nil || len(pi.Replicas) == 0 {
		return toolErr(name, n, "expected broker ids after \"Replicas:\" (e.g. 1,2,3), got %s", quote(fields["Replicas"]))
	}
	if pi.ISR, err = brokerList(fields["Isr"]); err != nil {
		return toolErr(name, n, "expected broker ids after \"Isr:\" (e.g. 1,2), got %s", quote(fields["Isr"]))
	}
	// Kafka lists a broker once a partition; a repeated one is not its output
	// (and a scenario refuses it).
	for _, l := range []struct {
		key string
		ids []int32
	}{{"Replicas", pi.Replicas}, {"Isr", pi.ISR}} {
		for i, id := range l.ids {
			if slices.Contains(l.ids[:i], id) {
				return toolErr(name, n, "broker %d twice after \"%s:\" (%s)", id, l.key, quote(fields[l.key]))
			}
		}
	}
	info.Partitions[p] = pi
	return nil
}

// brokerList reads "1,2,3" (empty: none).
func brokerList(s string) ([]int32, error) {
	var out []int32
	if s == "" {
		return out, nil
	}
	for _, x := range strings.Split(s, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(x), 10, 32)
		if err != nil || id < 0 {
			return nil, strconv.ErrSyntax
		}
		out = append(out, int32(id))
	}
	return out, nil
}

// checkComplete refuses a file whose topics do not each list exactly the
// partitions 0..PartitionCount-1 their topic line announces: output cut short
// (a truncated copy, a file cut at a line) or pasted from several runs. The
// broker plan needs every partition of the cluster: one left out would be a
// replica of the broker left out of the plan without a word. (The
// one-partition plan reads only its own partition's line.)
func (f *TopicsFile) checkComplete() error {
	for _, name := range brokerSortedKeys(f.Topics) {
		t := f.Topics[name]
		var missing []int32
		for p := range int32(min(t.PartitionCount, 1<<31-1)) {
			if _, ok := t.Partitions[p]; !ok {
				if missing = append(missing, p); len(missing) == 4 {
					break
				}
			}
		}
		for _, p := range brokerSortedKeys(t.Partitions) {
			if int(p) >= t.PartitionCount {
				return toolErr(f.Name, t.Partitions[p].Line, "partition %d of topic %s, whose topic line (line %d) says PartitionCount: %d",
					p, name, t.Line, t.PartitionCount)
			}
		}
		if len(missing) > 0 {
			list := idList(missing)
			if len(missing) == 4 {
				list += ",..."
			}
			return toolErr(f.Name, t.Line, "topic %s has PartitionCount: %d but %d partition lines (none for partition %s): is the output cut short? The broker plan needs kafka-topics.sh --describe of every partition",
				name, t.PartitionCount, len(t.Partitions), list)
		}
	}
	return nil
}
