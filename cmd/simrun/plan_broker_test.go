package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlanBrokerBadInput: simrun plan --broker refuses what it cannot use
// with exit 2 and one message naming the flag or the file, writes nothing,
// and never panics.
func TestPlanBrokerBadInput(t *testing.T) {
	dir := filepath.Join("..", "..", "plan", "testdata", "broker")
	ld, tp, cf := filepath.Join(dir, "log-dirs.txt"), filepath.Join(dir, "topics.txt"), filepath.Join(dir, "configs.txt")
	broken := writeTemp(t, "log-dirs.txt", "Querying brokers for log directories information\n{\"version\": 1, \"brokers\": [{\"broker\": 1, \"logDirs\": [{\"partitions\": [{\"partition\": \"orders-0\"}]}]}]}\n")
	save := filepath.Join(t.TempDir(), "replace.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--broker", "2", "--log-dirs", ld}, "--topics: simrun plan --broker needs kafka-topics.sh --describe output"},
		{[]string{"--broker", "2", "--topics", tp}, "--log-dirs: simrun plan --broker needs kafka-log-dirs.sh --describe output"},
		{[]string{"--broker", "7", "--log-dirs", ld, "--topics", tp}, "--broker: broker 7 holds no replica"},
		{[]string{"--broker", "two", "--log-dirs", ld, "--topics", tp}, "--broker"},
		{[]string{"--broker", "2", "--log-dirs", ld, "--topics", tp, "--offsets", "latest=" + ld}, "--offsets is not read with --broker"},
		{[]string{"--broker", "2", "--log-dirs", broken, "--topics", tp, "--configs", cf}, "expected \"partition\" and \"size\""},
		{[]string{"--broker", "2", "--log-dirs", ld, "--topics", tp, "--profile", "kafka-9"}, "kafka-9"},
		{[]string{"--broker", "2", "--log-dirs", ld, "--topics", tp, "--seeds", "3..1"}, "--seeds"},
	} {
		code, stdout, stderr := simrun(t, append(append([]string{"plan"}, c.args...), "--save", save)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("plan %v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, stdout, stderr, c.want)
		}
		if _, err := os.Stat(save); err == nil {
			t.Errorf("plan %v: %s written", c.args, save)
		}
	}
}

// TestREADMEBrokerPlanExample: the README's "Replace a broker" output is
// what its simrun plan --broker command prints.
func TestREADMEBrokerPlanExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a broker plan: 14 runs of 300 partitions")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(data))
	i := slices.IndexFunc(blocks, func(b docBlock) bool {
		return strings.HasPrefix(b.lang, "sh") && strings.Contains(strings.Join(b.body, "\n"), "simrun plan --broker 2")
	})
	if i < 0 || i+1 >= len(blocks) || blocks[i+1].lang != "" {
		t.Fatal("README.md: no broker plan example (a sh block with 'simrun plan --broker 2', then its output in a plain fenced block)")
	}
	words, err := shellWords(blocks[i].body[0])
	if err != nil {
		t.Fatal(err)
	}
	args, ok := simrunArgs(words)
	if !ok {
		t.Fatalf("README.md: the block's first line is not a simrun command: %q", blocks[i].body[0])
	}
	planExampleIsCurrent(t, "README.md's broker plan example", args, strings.Join(blocks[i+1].body, "\n")+"\n")
}

// TestPlanBrokerTruncatedTopics: kafka-topics.sh output cut at a line (a
// truncated copy) is refused, exit 2 naming the file, the topic and the
// partitions missing, rather than planned for the partitions before the cut;
// so is a partition past its topic's PartitionCount.
func TestPlanBrokerTruncatedTopics(t *testing.T) {
	dir := filepath.Join("..", "..", "plan", "testdata", "broker")
	ld, tp := filepath.Join(dir, "log-dirs.txt"), filepath.Join(dir, "topics.txt")
	data, err := os.ReadFile(tp)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cut := writeTemp(t, "topics.txt", strings.Join(lines[:31], "")) // orders' line and its partitions 0..29 of 240
	past := writeTemp(t, "topics.txt", strings.Replace(string(data), "\tTopic: orders\tPartition: 0\t", "\tTopic: orders\tPartition: 240\t", 1))
	save := filepath.Join(t.TempDir(), "replace.json")
	for file, want := range map[string]string{
		cut:  "topics.txt:1: topic orders has PartitionCount: 240 but 30 partition lines (none for partition 30,31,32,33,...)",
		past: "partition 240 of topic orders, whose topic line (line 1) says PartitionCount: 240",
	} {
		code, stdout, stderr := simrun(t, "plan", "--broker", "2", "--log-dirs", ld, "--topics", file, "--profile", "kip", "--save", save)
		if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
			t.Errorf("plan --topics %s: exit %d, stdout %q, stderr %q; want exit 2 saying %q", file, code, stdout, stderr, want)
		}
		if _, err := os.Stat(save); err == nil {
			t.Errorf("plan --topics %s: %s written", file, save)
		}
	}
}

// TestPlanBrokerRepeatedReplica: a partition line listing a broker twice is
// bad input naming the file and line, not "the scenario built from the
// tools' output is not valid (a bug, please report it)".
func TestPlanBrokerRepeatedReplica(t *testing.T) {
	dir := filepath.Join("..", "..", "plan", "testdata", "broker")
	data, err := os.ReadFile(filepath.Join(dir, "topics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tp := writeTemp(t, "topics.txt", strings.Replace(string(data), "Replicas: 2,3,4\tIsr", "Replicas: 2,2,4\tIsr", 1))
	code, stdout, stderr := simrun(t, "plan", "--broker", "2", "--log-dirs", filepath.Join(dir, "log-dirs.txt"), "--topics", tp, "--profile", "kip")
	if want := `topics.txt:2: broker 2 twice after "Replicas:"`; code != exitBadInput || !strings.Contains(stderr, want) || strings.Contains(stderr, "a bug") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 saying %q", code, stdout, stderr, want)
	}
}
