package plan

import (
	"math"
	"strings"
	"testing"
)

// TestBrokerSizesOutOfReach: replica sizes kafka-log-dirs.sh may print but
// no scenario holds (a log past 8 PiB, more segments than a scenario's
// initial logs hold) are bad input naming log-dirs.txt, never "the scenario
// built from the tools' output is not valid (a bug, please report it)"; a
// size near the int64 limit does not overflow the horizon either.
func TestBrokerSizesOutOfReach(t *testing.T) {
	for _, c := range []struct {
		name  string
		sizes map[int32]int64
		seg   string
		want  string
	}{
		{"int64 max", map[int32]int64{1: math.MaxInt64, 2: math.MaxInt64}, "1073741824",
			"log-dirs.txt: t-0: its leader's replica of 9223372036854775807 bytes makes a log of more than 9007199254740992 bytes"},
		{"too many segments", map[int32]int64{1: 1 << 40, 2: 1 << 40}, "1024",
			"log-dirs.txt: the leaders' replicas make 1073741825 segments"},
	} {
		in := handBrokerInput(2, []handPart{{1, []int32{1, 2}, c.sizes}},
			configBlock("topic", "t", "segment.bytes", c.seg, "remote.storage.enable", "false"))
		_, _, _, err := buildBroker(&in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "a bug") {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	// 1 PiB at 1 GiB segments (1 Mi segments, 2 Mi copies) fits.
	in := handBrokerInput(2, []handPart{{1, []int32{1, 2}, map[int32]int64{1: 1 << 50, 2: 1 << 50}}},
		configBlock("topic", "t", "segment.bytes", "1073741824", "remote.storage.enable", "false"))
	if _, _, _, err := buildBroker(&in); err != nil {
		t.Errorf("1 PiB at 1 GiB segments: %v", err)
	}
}

// TestBrokerConfigsAboveTheModel: a broker config Kafka takes but the
// scenario format does not (65 fetcher threads, a fetch size past 2^31-1, a
// time past 10^12 ms) is refused naming the configs file, the line and the
// key, not called a bug of simrun; the bound itself is taken.
func TestBrokerConfigsAboveTheModel(t *testing.T) {
	for _, c := range []struct{ key, v, want string }{
		{"num.replica.fetchers", "64", ""},
		{"num.replica.fetchers", "65", `configs.txt:1: num.replica.fetchers: expected an integer in 1..64 (the most the simulator models), got "65"`},
		{"replica.fetch.max.bytes", "3000000000", "replica.fetch.max.bytes: expected an integer in 1..2147483647"},
		{"replica.fetch.response.max.bytes", "2147483648", "replica.fetch.response.max.bytes: expected an integer in 1..2147483647"},
		{"replica.fetch.min.bytes", "2147483647", ""},
		{"replica.lag.time.max.ms", "1000000000001", "replica.lag.time.max.ms: expected an integer in 1..1000000000000"},
	} {
		in := handBrokerInput(1, []handPart{{2, []int32{2, 1}, map[int32]int64{1: 5000, 2: 5000}}}, configBlock("broker", "1", c.key, c.v))
		_, _, _, err := buildBroker(&in)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "a bug")) {
			t.Errorf("%s=%s: %v, want %q", c.key, c.v, err, c.want)
		}
	}
}
