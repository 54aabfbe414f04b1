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
