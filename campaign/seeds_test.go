package campaign

import "testing"

// TestParseSeeds: a seed range is A..B with A <= B, both ends included (a
// one-seed range A..A and a lone seed N too), in decimal digits up to
// 2^64-1; anything else names what it wants.
func TestParseSeeds(t *testing.T) {
	for _, c := range []struct {
		in       string
		from, to uint64
	}{
		{"1..10", 1, 10}, {"3..3", 3, 3}, {"7", 7, 7}, {"0..0", 0, 0},
		{"18446744073709551615..18446744073709551615", 1<<64 - 1, 1<<64 - 1},
	} {
		from, to, err := ParseSeeds(c.in)
		if err != nil || from != c.from || to != c.to {
			t.Errorf("ParseSeeds(%q) = %d, %d, %v; want %d..%d", c.in, from, to, err, c.from, c.to)
		}
		n := 0
		for range SeedRange(from, to) {
			n++
		}
		if want := int(c.to - c.from + 1); c.to-c.from < 100 && n != want {
			t.Errorf("SeedRange(%s): %d seeds, want %d", c.in, n, want)
		}
	}
	for _, bad := range []string{"5..4", "", "1..", "..2", "-1", "+1", "1..2..3", "1e3", "0x10", "18446744073709551616"} {
		if _, _, err := ParseSeeds(bad); err == nil {
			t.Errorf("ParseSeeds(%q) accepted", bad)
		}
	}
}
