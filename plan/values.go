package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseBytes reads a byte count: an integer, optionally with a binary unit
// (KiB, MiB, GiB, TiB; "1MiB", "1.5 GiB").
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for i, unit := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if rest, ok := strings.CutSuffix(t, unit); ok {
			t, mult = strings.TrimSpace(rest), int64(1)<<(10*(i+1))
			break
		}
	}
	if mult == 1 {
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("want a byte count (e.g. 1048576 or 1MiB), got %q", s)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("want a byte count (e.g. 1048576 or 1MiB), got %q", s)
	}
	return int64(f * float64(mult)), nil
}

// ParseRangeMs reads "MIN,MAX" (or one value for both) in milliseconds.
func ParseRangeMs(s string) ([2]int64, error) {
	a, b, pair := strings.Cut(s, ",")
	lo, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	hi := lo
	var err2 error
	if pair {
		hi, err2 = strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	}
	if err1 != nil || err2 != nil || lo < 0 || lo > hi {
		return [2]int64{}, fmt.Errorf("want MIN,MAX in ms with 0 <= MIN <= MAX, got %q", s)
	}
	return [2]int64{lo, hi}, nil
}

// ParseOffsetsArg reads a --offsets value, TIME=FILE.
func ParseOffsetsArg(s string) (Time, string, error) {
	t, file, ok := strings.Cut(s, "=")
	if !ok || file == "" {
		return 0, "", fmt.Errorf("want TIME=FILE (e.g. earliest-local=local.txt or -4=local.txt), got %q", s)
	}
	tm, err := ParseTime(t)
	if err != nil {
		return 0, "", fmt.Errorf("%q: TIME: %v", s, err)
	}
	return tm, file, nil
}
