package plan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The fixtures below are written by hand in the formats Kafka's tools print
// (see the comments on the parsers for the source files read).

func TestParseOffsetsCurrentTool(t *testing.T) {
	out := "orders:0:49807360\norders:1:48496640\norders:10:100\norders:2:47972352\n"
	f, err := ParseOffsets("earliest.txt", TimeEarliest, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[TopicPartition]int64{{"orders", 0}: 49807360, {"orders", 1}: 48496640, {"orders", 10}: 100, {"orders", 2}: 47972352}
	if len(f.Answers) != len(want) {
		t.Fatalf("answers %v, want %v", f.Answers, want)
	}
	for tp, off := range want {
		if a := f.Answers[tp]; a.Offset != off || a.Error != "" {
			t.Errorf("%s: %+v, want offset %d", tp, a, off)
		}
	}
	if a := f.Answers[TopicPartition{"orders", 2}]; a.Line != 4 {
		t.Errorf("orders-2 on line %d, want 4", a.Line)
	}
}

// TestParseOffsetsOlderAndOddAnswers: what older tools and brokers print
// for no answer (an empty offset, -1), a skipped partition (Java and Scala
// forms), a partition without a leader, and log lines saved with stderr.
func TestParseOffsetsOlderAndOddAnswers(t *testing.T) {
	out := strings.Join([]string{
		"[2026-11-30 10:01:02,345] WARN [AdminClient clientId=adminclient-1] Connection to node -1 could not be established. (org.apache.kafka.clients.NetworkClient)",
		"orders:0:",
		"orders:1:-1",
		"Skip getting offsets for topic-partition orders-2 due to error: org.apache.kafka.common.errors.UnsupportedVersionException: The broker does not support LIST_OFFSETS with version in range [11,11]. The supported range is [0,10].",
		"Skip getting offsets for topic-partition pay-ments:3 due to error: org.apache.kafka.common.errors.NotLeaderOrFollowerException: not leader",
		"Error: topic-partition audit:0 does not have a leader. Skip getting offsets",
		"",
	}, "\r\n")
	f, err := ParseOffsets("pending.txt", TimeEarliestPendingUpload, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	check := func(tp TopicPartition, offset int64, unsupported bool, errPart string) {
		t.Helper()
		a, ok := f.Answers[tp]
		if !ok || a.Offset != offset || a.Unsupported() != unsupported || !strings.Contains(a.Error, errPart) {
			t.Errorf("%s: %+v (ok %v), want offset %d unsupported %v error containing %q", tp, a, ok, offset, unsupported, errPart)
		}
	}
	check(TopicPartition{"orders", 0}, -1, false, "")
	check(TopicPartition{"orders", 1}, -1, false, "")
	check(TopicPartition{"orders", 2}, -1, true, "UnsupportedVersionException")
	check(TopicPartition{"pay-ments", 3}, -1, false, "not leader")
	check(TopicPartition{"audit", 0}, -1, false, "no leader")
}

func TestParseOffsetsBadOutput(t *testing.T) {
	cases := []struct{ out, want string }{
		{"orders:0:5\nTopic: orders\tPartition: 0\n", "x.txt:2: expected TOPIC:PARTITION:OFFSET"},
		{"orders:0:5\nAll configs for topic orders are:\n", "x.txt:2: expected TOPIC:PARTITION:OFFSET"},
		{"orders:zero:5\n", "x.txt:1: expected TOPIC:PARTITION:OFFSET with a partition number"},
		{"orders:0:five\n", "x.txt:1: expected TOPIC:PARTITION:OFFSET with an offset"},
		{"orders:0:-7\n", "x.txt:1: expected TOPIC:PARTITION:OFFSET with an offset (an integer >= -1)"},
		{"ord ers:0:5\n", "x.txt:1: expected TOPIC:PARTITION:OFFSET with a topic name"},
		{"orders:0:5\norders:0:6\n", "x.txt:2: partition orders-0 again (first on line 1)"},
		{"Error occurred: Could not match any topic-partitions with the specified filters\n", "x.txt:1: kafka-get-offsets.sh failed"},
		{"Error occurred: Malformed time argument earliest-pending-upload. Please use -1 or latest / -2 or earliest / -3 or max-timestamp, or a specified long format timestamp\n",
			"(a kafka-get-offsets.sh older than this --time: leave this file out, or use a newer tool)"},
		{"Skip getting offsets for topic-partition orders due to error: x\n", "x.txt:1: expected"},
	}
	for _, c := range cases {
		_, err := ParseOffsets("x.txt", TimeLatest, []byte(c.out))
		var te *ToolError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want a ToolError containing %q", c.out, err, c.want)
		}
	}
}

func TestParseTime(t *testing.T) {
	for in, want := range map[string]Time{"earliest": -2, "-2": -2, "earliest-local": -4, "-4": -4, "latest-tiered": -5, "-5": -5,
		"earliest-pending-upload": -6, "-6": -6, "latest": -1, "-1": -1} {
		if got, err := ParseTime(in); err != nil || got != want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"max-timestamp", "-3", "1700000000000", "", "earliest_local", "-7"} {
		if _, err := ParseTime(bad); err == nil || !strings.Contains(err.Error(), "earliest (-2)") {
			t.Errorf("ParseTime(%q): error %v, want one naming the accepted values", bad, err)
		}
	}
}

const topicConfigs = `All configs for topic orders are:
  cleanup.policy=delete sensitive=false synonyms={DEFAULT_CONFIG:log.cleanup.policy=delete}
  local.retention.ms=3600000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:local.retention.ms=3600000, DEFAULT_CONFIG:log.local.retention.ms=-2}
  remote.log.copy.disable=false sensitive=false synonyms={}
  remote.storage.enable=true sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:remote.storage.enable=true}
  segment.bytes=268435456 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:segment.bytes=268435456, DEFAULT_CONFIG:log.segment.bytes=1073741824}
All configs for broker 1 are:
  replica.fetch.max.bytes=1048576 sensitive=false synonyms={DEFAULT_CONFIG:replica.fetch.max.bytes=1048576}
  ssl.keystore.password=null sensitive=true synonyms={STATIC_BROKER_CONFIG:ssl.keystore.password=null}
Default configs for brokers in the cluster are:
  log.retention.check.interval.ms=300000 sensitive=false synonyms={}
`

func TestParseConfigsAllTopicAndBroker(t *testing.T) {
	f, err := ParseConfigs("configs.txt", []byte(topicConfigs))
	if err != nil {
		t.Fatal(err)
	}
	topic := f.Block("topic", "orders")
	if topic == nil || !topic.All || len(topic.Entries) != 5 {
		t.Fatalf("topic block %+v", topic)
	}
	e := topic.Entries["local.retention.ms"]
	if e.Value != "3600000" || e.Source != "DYNAMIC_TOPIC_CONFIG" || e.Sensitive || e.Line != 3 {
		t.Errorf("local.retention.ms: %+v", e)
	}
	if e := topic.Entries["remote.log.copy.disable"]; e.Value != "false" || e.Source != "" {
		t.Errorf("remote.log.copy.disable: %+v", e)
	}
	broker := f.Block("broker", "1")
	if broker == nil || broker.Entries["ssl.keystore.password"].Value != "null" || !broker.Entries["ssl.keystore.password"].Sensitive {
		t.Errorf("broker block %+v", broker)
	}
	if d := f.Block("broker", ""); d == nil || len(d.Entries) != 1 {
		t.Errorf("cluster default block %+v", d)
	}
}

func TestParseConfigsDynamicAndLegacy(t *testing.T) {
	f, err := ParseConfigs("c.txt", []byte("Dynamic configs for topic orders are:\n  remote.storage.enable=true sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:remote.storage.enable=true}\n"))
	if err != nil || f.Block("topic", "orders").All || len(f.Block("topic", "orders").Entries) != 1 {
		t.Fatalf("dynamic: %+v, %v", f, err)
	}
	f, err = ParseConfigs("c.txt", []byte("Configs for topic 'orders' are segment.bytes=268435456,retention.ms=86400000\n"))
	if err != nil || f.Block("topic", "orders").Entries["retention.ms"].Value != "86400000" {
		t.Fatalf("legacy: %+v, %v", f, err)
	}
}

func TestParseConfigsBadOutput(t *testing.T) {
	cases := []struct{ out, want string }{
		{"  segment.bytes=1 sensitive=false synonyms={}\n", "c.txt:1: expected a banner"},
		{"All configs for topic orders are:\n  segment.bytes=1 synonyms={}\n", "c.txt:2: expected \"  NAME=VALUE sensitive=BOOL"},
		{"All configs for topic orders are:\n  segment.bytes=1 sensitive=maybe synonyms={}\n", "c.txt:2:"},
		{"All configs for topic orders are:\n  segment.bytes=1 sensitive=false synonyms=DEFAULT\n", "c.txt:2:"},
		{"All configs for topic orders are:\n  a=1 sensitive=false synonyms={}\n  a=2 sensitive=false synonyms={}\n", "c.txt:3: config a again"},
		{"\n\n", "c.txt: no \"All configs for topic T are:\" banner"},
	}
	for _, c := range cases {
		_, err := ParseConfigs("c.txt", []byte(c.out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.out, err, c.want)
		}
	}
}

func TestParseLogDirs(t *testing.T) {
	out := "Querying brokers for log directories information\n" +
		"Received log directory information from brokers 1,2\n" +
		`{"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/data/a","error":null,"partitions":[{"partition":"orders-2","size":100,"offsetLag":0,"isFuture":false},{"partition":"orders-2","size":50,"offsetLag":0,"isFuture":true}]},` +
		`{"error":"org.apache.kafka.common.errors.KafkaStorageException","partitions":[],"logDir":"/data/b"}]},` +
		`{"logDirs":[{"partitions":[{"size":90,"isFuture":false,"offsetLag":3,"partition":"my-topic-10"}],"error":null,"logDir":"/data"}],"broker":2}]}` + "\n"
	f, err := ParseLogDirs("dirs.txt", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Replicas[TopicPartition{"orders", 2}]; len(r) != 2 || r[0].Size != 100 || r[0].Broker != 1 || !r[1].IsFuture {
		t.Errorf("orders-2: %+v", r)
	}
	if r := f.Replicas[TopicPartition{"my-topic", 10}]; len(r) != 1 || r[0].OffsetLag != 3 || r[0].Broker != 2 {
		t.Errorf("my-topic-10: %+v", r)
	}
}

// TestParseLogDirsPrettyPrinted: output piped through jq is read too.
func TestParseLogDirsPrettyPrinted(t *testing.T) {
	out := "Querying brokers for log directories information\nReceived log directory information from brokers 1\n{\n  \"brokers\": [\n    {\"broker\": 1, \"logDirs\": [{\"logDir\": \"/d\", \"error\": null,\n      \"partitions\": [{\"partition\": \"orders-0\", \"size\": 7, \"offsetLag\": 0, \"isFuture\": false}]}]}\n  ],\n  \"version\": 1\n}\n"
	f, err := ParseLogDirs("d.txt", []byte(out))
	if err != nil || f.Replicas[TopicPartition{"orders", 0}][0].Size != 7 {
		t.Fatalf("%+v, %v", f, err)
	}
}

// TestParseLogDirsIntraBrokerMove: a partition's replica and its future
// replica (an intra-broker move under way) on one broker are one describe's
// output, kept apart by isFuture.
func TestParseLogDirsIntraBrokerMove(t *testing.T) {
	out := "Querying brokers for log directories information\nReceived log directory information from brokers 1\n" +
		`{"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/a","partitions":[{"partition":"orders-0","size":5,"offsetLag":0,"isFuture":false}]},` +
		`{"logDir":"/b","partitions":[{"partition":"orders-0","size":3,"offsetLag":0,"isFuture":true}]}]}]}`
	f, err := ParseLogDirs("d.txt", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if rs := f.Replicas[TopicPartition{"orders", 0}]; len(rs) != 2 || rs[0].IsFuture || !rs[1].IsFuture {
		t.Errorf("orders-0: %+v, want the replica then the future one", rs)
	}
}

func TestParseLogDirsBadOutput(t *testing.T) {
	head := "Querying brokers for log directories information\nReceived log directory information from brokers 1\n"
	cases := []struct{ out, want string }{
		{head, "d.txt: no JSON line"},
		{"orders:0:5\n", "d.txt:1: expected \"Querying brokers"},
		{head + `{"version":2,"brokers":[]}` + "\n", "d.txt:3: expected \"version\": 1"},
		{head + `{"version":1,"brokers":[{"broker":1,"logDirs":[{"partitions":[{"partition":"orders-0","size":"big"}]}]}]}`, "d.txt:3: expected int64"},
		{head + `{"version":1,"brokers":[{"broker":1,"logDirs":[{"partitions":[{"partition":"orders","size":1}]}]}]}`, "TOPIC-PARTITION"},
		{head + "{\"version\":1,\n\"brokers\":[}\n", "d.txt:4: invalid JSON"},
		{head + `{"version":1,"brokers":[]}` + "\nextra\n", "d.txt:4: unexpected text after the JSON"},
		{head + `{"version":1,"brokers":[{"broker":-1,"logDirs":[]}]}`, "d.txt:3: brokers[0]: broker id -1: Kafka's broker ids are >= 0"},
		{head + `{"version":1,"brokers":[{"broker":1,"logDirs":[]},{"broker":2,"logDirs":[]},{"broker":1,"logDirs":[]}]}`,
			"d.txt:3: brokers[2]: broker 1 is listed already, at brokers[0]"},
		{head + `{"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/a","partitions":[{"partition":"orders-0","size":1}]},` +
			`{"logDir":"/b","partitions":[{"partition":"orders-0","size":2}]}]}]}`,
			"d.txt:3: brokers[0].logDirs[1].partitions[0]: broker 1's replica of orders-0 is listed already, at brokers[0].logDirs[0].partitions[0]"},
		{head + `{"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/a","partitions":[{"partition":"orders-0","size":1,"isFuture":true},` +
			`{"partition":"orders-0","size":2,"isFuture":true}]}]}]}`,
			"broker 1's future replica of orders-0 is listed already"},
	}
	for _, c := range cases {
		_, err := ParseLogDirs("d.txt", []byte(c.out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.out, err, c.want)
		}
	}
}

func TestParseTopics(t *testing.T) {
	out := "[2026-11-30 10:00:00,000] WARN [AdminClient clientId=adminclient-1] The DescribeTopicPartitions API is not supported, using Metadata API to describe topics. (org.apache.kafka.clients.admin.KafkaAdminClient)\n" +
		"Topic: orders\tTopicId: Xq3bV9kFQ8uYzL0p2mT4Aw\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: min.insync.replicas=2,remote.storage.enable=true\n" +
		"\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,3\tElr: N/A\tLastKnownElr: N/A\n" +
		"\tTopic: orders\tPartition: 1\tLeader: none\tReplicas: 3,1,2\tIsr: \tElr: \tLastKnownElr: 3\n" +
		// copied from a terminal: tabs became spaces; a reassignment in progress
		"        Topic: orders   Partition: 2    Leader: 1       Replicas: 1,2,3,4 Isr: 1,2,3  Adding Replicas: 4      Removing Replicas: 3    Elr: N/A        LastKnownElr: N/A\n" +
		// an older tool: no space after the colon on the topic line, no TopicId, no ELR columns
		"Topic:legacy\tPartitionCount:1\tReplicationFactor:1\tConfigs:\n\tTopic: legacy\tPartition: 0\tLeader: 5\tReplicas: 5\tIsr: 5\n"
	f, err := ParseTopics("topics.txt", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	o := f.Topics["orders"]
	if o == nil || o.PartitionCount != 3 || o.Configs["remote.storage.enable"] != "true" {
		t.Fatalf("orders: %+v", o)
	}
	if p := o.Partitions[0]; p.Leader != 2 || len(p.Replicas) != 3 || len(p.ISR) != 2 {
		t.Errorf("orders-0: %+v", p)
	}
	if p := o.Partitions[1]; p.Leader != -1 || len(p.ISR) != 0 {
		t.Errorf("orders-1: %+v", p)
	}
	if p := o.Partitions[2]; p.Leader != 1 || len(p.Replicas) != 4 || len(p.ISR) != 3 || p.Line != 5 {
		t.Errorf("orders-2: %+v", p)
	}
	if l := f.Topics["legacy"]; l == nil || l.Partitions[0].Leader != 5 {
		t.Errorf("legacy: %+v", l)
	}
}

func TestParseTopicsBadOutput(t *testing.T) {
	cases := []struct{ out, want string }{
		{"orders:0:5\n", "t.txt:1: expected a \"Topic: T ...\" line"},
		{"\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n", "t.txt:1: partition line of topic"},
		{"Topic: orders\tPartitionCount: x\tReplicationFactor: 3\tConfigs: \n", "t.txt:1: expected \"PartitionCount: N\""},
		{"Topic: orders\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n\tTopic: orders\tPartition: 0\tLeader: one\tReplicas: 1\tIsr: 1\n", "t.txt:2: expected a broker id"},
		{"Topic: orders\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1;2\tIsr: 1\n", "t.txt:2: expected broker ids after \"Replicas:\""},
		{"Error while executing topic command : Topic 'orders' does not exist as expected\n", "t.txt:1: expected a \"Topic: T ...\" line"},
	}
	for _, c := range cases {
		_, err := ParseTopics("t.txt", []byte(c.out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.out, err, c.want)
		}
	}
}

// TestTopicsCheckComplete: a topic whose partition lines are not exactly
// 0..PartitionCount-1 is refused (checkComplete) naming the file, the line
// and the topic.
func TestTopicsCheckComplete(t *testing.T) {
	head := "Topic: orders\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: \n"
	part := func(p int) string {
		return fmt.Sprintf("\tTopic: orders\tPartition: %d\tLeader: 1\tReplicas: 1\tIsr: 1\n", p)
	}
	for _, c := range []struct{ in, want string }{
		{head + part(0) + part(1) + part(2), ""},
		{head + part(0) + part(1), "t.txt:1: topic orders has PartitionCount: 3 but 2 partition lines (none for partition 2)"},
		{head, "t.txt:1: topic orders has PartitionCount: 3 but 0 partition lines (none for partition 0,1,2)"},
		{head + part(0) + part(1) + part(2) + part(3), "t.txt:5: partition 3 of topic orders, whose topic line (line 1) says PartitionCount: 3"},
	} {
		f, err := ParseTopics("t.txt", []byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		err = f.checkComplete()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// TestTopicsRepeatedBroker: a broker listed twice after "Replicas:" or
// "Isr:" is refused naming the file and line, not passed on to a scenario
// that refuses it as a bug of simrun.
func TestTopicsRepeatedBroker(t *testing.T) {
	head := "Topic: orders\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: \n"
	for in, want := range map[string]string{
		head + "\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,2,4\tIsr: 2,4\n":   `t.txt:2: broker 2 twice after "Replicas:" ("2,2,4")`,
		head + "\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,3,4\tIsr: 2,3,3\n": `t.txt:2: broker 3 twice after "Isr:" ("2,3,3")`,
	} {
		if _, err := ParseTopics("t.txt", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
