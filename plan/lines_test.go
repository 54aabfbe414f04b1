package plan

import (
	"strings"
	"testing"
)

// TestSplitLinesDropsOnlyTheFinalNewline: a file ending in a newline has no
// empty last line; an empty line inside stays, numbered; one line without
// a newline is one line.
func TestSplitLinesDropsOnlyTheFinalNewline(t *testing.T) {
	for data, want := range map[string][]string{
		"a\nb\n":   {"a", "b"},
		"a\n\nb":   {"a", "", "b"},
		"a":        {"a"},
		"a\n\n":    {"a", ""},
		"":         nil,
		"a\r\nb\n": {"a", "b"},
	} {
		var got []string
		for i, l := range splitLines([]byte(data)) {
			if l.n != i+1 {
				t.Errorf("%q: line %d numbered %d", data, i+1, l.n)
			}
			got = append(got, l.text)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("%q: lines %q, want %q", data, got, want)
		}
	}
}

// TestTopicPartitionNames: "topic-N" is the topic before the last '-' and
// the partition after it; a name with no topic or no number is not one.
func TestTopicPartitionNames(t *testing.T) {
	for s, want := range map[string]string{"orders-3": "orders-3", "a-b-0": "a-b-0", "-3": "", "orders": "", "orders-x": ""} {
		tp, ok := splitTopicPartition(s)
		if got := tp.String(); ok != (want != "") || ok && got != want {
			t.Errorf("%q: %v %v, want %q", s, got, ok, want)
		}
	}
}

// TestQuoteShortensPastEighty: an error message quotes up to 80
// characters whole and cuts longer text there.
func TestQuoteShortensPastEighty(t *testing.T) {
	s80 := strings.Repeat("x", 80)
	if got := quote(s80); got != `"`+s80+`"` {
		t.Errorf("80 characters: %s", got)
	}
	if got := quote(s80 + "y"); got != `"`+s80+`..."` {
		t.Errorf("81 characters: %s", got)
	}
}

// TestLogDirsEdges: a file that is only the JSON line is read; a replica
// of size 0 is taken, a negative one refused; the version is named when
// wrong and "none" when missing.
func TestLogDirsEdges(t *testing.T) {
	doc := func(version, size string) string {
		return `{` + version + `"brokers":[{"broker":1,"logDirs":[{"logDir":"/d","error":null,"partitions":[{"partition":"t-0","size":` + size + `,"offsetLag":0,"isFuture":false}]}]}]}`
	}
	f, err := ParseLogDirs("ld.txt", []byte(doc(`"version":1,`, "0")))
	if err != nil || len(f.Replicas[TopicPartition{"t", 0}]) != 1 {
		t.Errorf("the JSON line alone, size 0: %v, %+v", err, f)
	}
	for _, c := range []struct{ version, size, want string }{
		{`"version":1,`, "-1", "a size >= 0, got \"t-0\" and -1"},
		{`"version":2,`, "0", "got 2"},
		{``, "0", "got none"},
	} {
		if _, err := ParseLogDirs("ld.txt", []byte(doc(c.version, c.size))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s size %s: %v, want %q", c.version, c.size, err, c.want)
		}
	}
}
