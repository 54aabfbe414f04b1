package model

import (
	"math"
	"math/big"
	"testing"
	"unicode/utf16"
)

// javaHashByDefinition is String.hashCode as Java's documentation writes it,
// s[0]*31^(n-1) + s[1]*31^(n-2) + ... + s[n-1] over UTF-16 code units,
// summed exactly and then reduced to a 32-bit two's-complement int: a
// different computation from JavaStringHash's wrapping Horner loop.
func javaHashByDefinition(s string) int32 {
	units := utf16.Encode([]rune(s))
	sum := new(big.Int)
	for i, u := range units {
		pow := new(big.Int).Exp(big.NewInt(31), big.NewInt(int64(len(units)-1-i)), nil)
		sum.Add(sum, pow.Mul(pow, big.NewInt(int64(u))))
	}
	sum.Mod(sum, new(big.Int).Lsh(big.NewInt(1), 32))
	return int32(uint32(sum.Uint64()))
}

// TestJavaStringHash: values worked by hand from the definition, each
// checked again against the exact sum.
func TestJavaStringHash(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int32
	}{
		{"", 0},
		{"t", 116},                 // 't' = 116
		{"ab", 97*31 + 98},         // 3105
		{"hello", 99162322},        // ((((104*31+101)*31+108)*31+108)*31+111), no overflow yet
		{"é", 0xE9},                // one code unit, not its two UTF-8 bytes
		{"日本", 0x65E5*31 + 0x672C}, // 835047: two BMP code units
		// U+1F600 is the surrogate pair D83D DE00: two code units, not the
		// rune 0x1F600 (which would give 128512).
		{"😀", 0xD83D*31 + 0xDE00},                   // 1772899
		{"a😀b", ((97*31+0xD83D)*31+0xDE00)*31 + 98}, // 57849694: 97*31^3 + ... fits in an int
		// Overflow: 31^5 * 'o' alone is 3177835761 > 2^31-1. The exact sum
		// of "orders" is 3286196965; minus 2^32 it is -1008770331.
		{"orders", -1008770331},
		// The exact sum is 2^31 mod 2^32, which Java reads as Integer.MIN_VALUE.
		{"polygenelubricants", math.MinInt32},
	} {
		if got := JavaStringHash(c.s); got != c.want {
			t.Errorf("JavaStringHash(%q) = %d, want %d", c.s, got, c.want)
		}
		if ref := javaHashByDefinition(c.s); ref != c.want {
			t.Errorf("the exact sum for %q is %d, the table says %d", c.s, ref, c.want)
		}
	}
	// Longer strings, mixed planes: the loop agrees with the exact sum.
	for _, s := range []string{"__consumer_offsets", "replace-b2.orders_v2", "ünïcödé-𝔘𝔫𝔦", "\U0010FFFF\u0000x", "a\xffb"} {
		if got, want := JavaStringHash(s), javaHashByDefinition(s); got != want {
			t.Errorf("JavaStringHash(%q) = %d, the exact sum gives %d", s, got, want)
		}
	}
}

// TestFetcherID: Kafka's getFetcherId, Utils.abs(31*hash + partition) % n,
// worked by hand.
func TestFetcherID(t *testing.T) {
	for _, c := range []struct {
		topic     string
		partition int32
		n         int
		want      int
	}{
		// "t": 31*116 = 3596, so partition p is on (3596+p) % n.
		{"t", 0, 1, 0}, {"t", 1, 1, 0},
		{"t", 0, 2, 0}, {"t", 1, 2, 1}, {"t", 2, 2, 0}, {"t", 3, 2, 1},
		{"t", 0, 3, 2}, {"t", 1, 3, 0}, {"t", 2, 3, 1},
		{"t", 0, 8, 4}, {"t", 7, 8, 3}, // 3596 = 449*8 + 4; 3603 = 450*8 + 3
		// "orders": 31 * -1008770331 wraps to -1207109189, so partition p
		// is on (1207109189 - p) % n while that stays positive.
		{"orders", 0, 2, 1}, {"orders", 1, 2, 0},
		{"orders", 0, 3, 2}, {"orders", 1, 3, 1}, {"orders", 2, 3, 0}, // digit sum of 1207109189 is 38
		{"orders", 0, 8, 5}, {"orders", 7, 8, 6}, // 1207109189 = 150888648*8 + 5; 1207109182 % 8 = 6
		// "polygenelubricants": 31 * MIN_VALUE wraps to MIN_VALUE (31 is odd),
		// so partition 0 hits Utils.abs's special case: thread 0. Math.abs
		// would leave MIN_VALUE, and MIN_VALUE % 3 is -2 in Java.
		{"polygenelubricants", 0, 3, 0}, {"polygenelubricants", 0, 8, 0},
		// Partition 1: abs(MIN_VALUE + 1) = 2^31 - 1 = 2147483647, digit
		// sum 46, so % 3 = 1; % 8 = 7.
		{"polygenelubricants", 1, 3, 1}, {"polygenelubricants", 1, 8, 7},
	} {
		if got := FetcherID(c.topic, c.partition, c.n); got != c.want {
			t.Errorf("FetcherID(%q, %d, %d) = %d, want %d", c.topic, c.partition, c.n, got, c.want)
		}
	}
	// With two fetchers, neighbouring partitions of one topic alternate
	// threads: 31h+p and 31h+p+1 differ in parity and abs keeps parity
	// (MIN_VALUE, even, maps to 0, also even).
	for _, topic := range []string{"t", "orders", "polygenelubricants", "payments-eu.v3"} {
		for p := int32(0); p < 64; p++ {
			if FetcherID(topic, p, 2) == FetcherID(topic, p+1, 2) {
				t.Errorf("%s-%d and %s-%d on the same of two threads", topic, p, topic, p+1)
			}
		}
	}
}

func TestFetcherIDRefusesNoFetchers(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("FetcherID with n = 0 did not panic")
		}
	}()
	FetcherID("t", 0, 0)
}
