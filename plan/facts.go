package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Offset is one offset the tools reported, with where it came from.
type Offset struct {
	Value int64  // -1: the tool gave no offset (unknown to the broker)
	Known bool   // the file held an answer for the partition
	Error string // the tool skipped the partition with this error
	From  string // "FILE:LINE", or "" when no file was given
}

// Facts is what the tools' output says about one partition.
type Facts struct {
	TP TopicPartition
	// Offsets by --time value; a time with no file is absent.
	Offsets map[Time]Offset
	// Configs are the topic's effective configs (name → entry); Broker the
	// leader's broker configs, when the configs file holds them.
	Configs      map[string]ConfigEntry
	ConfigsAll   bool // the topic block was --all (every config listed)
	ConfigsFrom  string
	Broker       map[string]ConfigEntry
	BrokerID     string
	BrokerFrom   string
	HasConfigs   bool
	HasTopicInfo bool
	Leader       int32 // -1: unknown
	Replicas     []int32
	ISR          []int32
	TopicsFrom   string
	// Replicas' local sizes from kafka-log-dirs.sh (future replicas left out).
	LocalSizes  []Replica
	LogDirsFrom string
}

// gather selects the partition the input names and collects what every file
// says about it.
func gather(in *Input) (*Facts, error) {
	for i, of := range in.Offsets {
		for _, prev := range in.Offsets[:i] {
			if prev.Time == of.Time {
				return nil, inputErr("Offsets", "%s given twice (%s and %s)", of.Time, prev.Name, of.Name)
			}
		}
	}
	for _, t := range []Time{TimeEarliest, TimeLatest} {
		if !slices.ContainsFunc(in.Offsets, func(of *OffsetsFile) bool { return of.Time == t }) {
			return nil, inputErr("Offsets", "%s=FILE is required (kafka-get-offsets.sh --time %s)", t, t)
		}
	}
	tp, err := choosePartition(in)
	if err != nil {
		return nil, err
	}
	f := &Facts{TP: tp, Offsets: map[Time]Offset{}, Leader: -1}
	for _, of := range in.Offsets {
		f.Offsets[of.Time] = offsetOf(of, tp)
	}
	for _, t := range []Time{TimeEarliest, TimeLatest} {
		if err := requireOffset(in, f, t); err != nil {
			return nil, err
		}
	}
	if err := gatherConfigs(in.Configs, f); err != nil {
		return nil, err
	}
	if err := gatherTopics(in.Topics, f); err != nil {
		return nil, err
	}
	if in.Configs != nil && f.Leader >= 0 {
		if b := in.Configs.Block("broker", strconv.Itoa(int(f.Leader))); b != nil {
			f.Broker, f.BrokerID, f.BrokerFrom = b.Entries, b.Entity, fmt.Sprintf("%s:%d", in.Configs.Name, b.Line)
		}
	}
	if in.Configs != nil && f.Broker == nil {
		for _, b := range in.Configs.Blocks {
			if b.EntityType == "broker" && b.Entity != "" {
				f.Broker, f.BrokerID, f.BrokerFrom = b.Entries, b.Entity, fmt.Sprintf("%s:%d", in.Configs.Name, b.Line)
				break
			}
		}
	}
	if in.LogDirs != nil {
		f.LogDirsFrom = in.LogDirs.Name
		for _, r := range in.LogDirs.Replicas[tp] {
			if !r.IsFuture {
				f.LocalSizes = append(f.LocalSizes, r)
			}
		}
		if len(f.LocalSizes) == 0 {
			return nil, toolErr(in.LogDirs.Name, 0, "no replica of partition %s (the file has %s): run kafka-log-dirs.sh --describe --topic-list %s",
				tp, listTPs(partitionsOf(in.LogDirs.Replicas)), tp.Topic)
		}
	}
	return f, nil
}

func offsetOf(of *OffsetsFile, tp TopicPartition) Offset {
	a, ok := of.Answers[tp]
	if !ok {
		return Offset{Value: -1}
	}
	return Offset{Value: a.Offset, Known: a.Error == "" && a.Offset >= 0, Error: a.Error, From: fmt.Sprintf("%s:%d", of.Name, a.Line)}
}

// requireOffset checks that the file for t answers for the partition: the
// log start and end are what every plan needs.
func requireOffset(in *Input, f *Facts, t Time) error {
	var file *OffsetsFile
	for _, of := range in.Offsets {
		if of.Time == t {
			file = of
		}
	}
	o := f.Offsets[t]
	switch {
	case o.Error != "":
		return toolErr(file.Name, 0, "the tool skipped partition %s (%s, %s): the plan needs its %s offset", f.TP, o.From, o.Error, t)
	case !o.Known:
		return toolErr(file.Name, 0, "no %s offset for partition %s (the file has %s)", t, f.TP, listTPs(partitionsOf(file.Answers)))
	}
	return nil
}

// choosePartition picks the partition named by --topic and --partition, or
// the only one the files hold.
func choosePartition(in *Input) (TopicPartition, error) {
	seen := map[TopicPartition]bool{}
	for _, of := range in.Offsets {
		for tp := range of.Answers {
			seen[tp] = true
		}
	}
	all := partitionsOf(seen)
	var match []TopicPartition
	for _, tp := range all {
		if (in.Topic == "" || tp.Topic == in.Topic) && (in.Partition < 0 || tp.Partition == in.Partition) {
			match = append(match, tp)
		}
	}
	switch {
	case len(all) == 0:
		return TopicPartition{}, inputErr("Offsets", "the offsets files hold no partition")
	case len(match) == 1:
		return match[0], nil
	case len(match) == 0:
		return TopicPartition{}, inputErr(wanted(in), "no such partition in the offsets files (they hold %s)", listTPs(all))
	}
	field := "Partition"
	if in.Topic == "" && len(topicsOf(match)) > 1 {
		field = "Topic"
	}
	return TopicPartition{}, inputErr(field, "the offsets files hold %s: choose one with {Topic} and {Partition}", listTPs(match))
}

// wanted names the field that chose nothing: Topic when no partition of
// the topic is in the files.
func wanted(in *Input) string {
	for _, of := range in.Offsets {
		for tp := range of.Answers {
			if tp.Topic == in.Topic {
				return "Partition"
			}
		}
	}
	return "Topic"
}

func topicsOf(tps []TopicPartition) []string {
	var out []string
	for _, tp := range tps {
		if !slices.Contains(out, tp.Topic) {
			out = append(out, tp.Topic)
		}
	}
	return out
}

// listTPs names up to 8 partitions.
func listTPs(tps []TopicPartition) string {
	if len(tps) == 0 {
		return "no partition"
	}
	var names []string
	for i, tp := range tps {
		if i == 8 {
			names = append(names, fmt.Sprintf("and %d more", len(tps)-8))
			break
		}
		names = append(names, tp.String())
	}
	return strings.Join(names, ", ")
}

func gatherConfigs(cf *ConfigsFile, f *Facts) error {
	if cf == nil {
		return nil
	}
	b := cf.Block("topic", f.TP.Topic)
	if b == nil {
		return toolErr(cf.Name, 0, "no \"All configs for topic %s are:\" block (the file has %s): run kafka-configs.sh --describe --all --entity-type topics --entity-name %s",
			f.TP.Topic, cf.entities(), f.TP.Topic)
	}
	f.Configs, f.ConfigsAll, f.HasConfigs = b.Entries, b.All, true
	f.ConfigsFrom = fmt.Sprintf("%s:%d", cf.Name, b.Line)
	return nil
}

func gatherTopics(tf *TopicsFile, f *Facts) error {
	if tf == nil {
		return nil
	}
	t, ok := tf.Topics[f.TP.Topic]
	if !ok {
		return toolErr(tf.Name, 0, "no topic %s (the file describes %s): run kafka-topics.sh --describe --topic %s",
			f.TP.Topic, strings.Join(sortedKeys(tf.Topics), ", "), f.TP.Topic)
	}
	p, ok := t.Partitions[f.TP.Partition]
	if !ok {
		return toolErr(tf.Name, t.Line, "no partition line for %s under topic %s", f.TP, f.TP.Topic)
	}
	f.HasTopicInfo, f.Leader, f.Replicas, f.ISR = true, p.Leader, p.Replicas, p.ISR
	f.TopicsFrom = fmt.Sprintf("%s:%d", tf.Name, p.Line)
	if f.Configs == nil && len(t.Configs) > 0 {
		// The topic line's Configs: only the non-default ones.
		f.Configs = map[string]ConfigEntry{}
		for k, v := range t.Configs {
			f.Configs[k] = ConfigEntry{Line: t.Line, Name: k, Value: v, Source: "DYNAMIC_TOPIC_CONFIG"}
		}
		f.ConfigsFrom = fmt.Sprintf("%s:%d", tf.Name, t.Line)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Unsupported reports whether the tool skipped the partition because the
// broker does not support the request (an older broker asked -6).
func (o Offset) Unsupported() bool { return OffsetAnswer{Error: o.Error}.Unsupported() }
