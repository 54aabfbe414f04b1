package cliutil

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// FlagErrorMessage is pflag's error message msg for the flags fs, with the
// closest flag suggested for an unknown one: "(did you mean --seed?)", and
// for a long flag given with one dash (-all), its two-dash form.
func FlagErrorMessage(fs *pflag.FlagSet, msg string) string {
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if s := SuggestFlag(fs, name); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
	}
	if _, arg, ok := strings.Cut(msg, "' in -"); ok && strings.HasPrefix(msg, "unknown shorthand flag") {
		if s := SuggestFlag(fs, arg); s != "" {
			msg += fmt.Sprintf(" (long flags take two dashes: did you mean --%s?)", s)
		}
	}
	return msg
}

// SuggestFlag is the flag of fs closest to name (at most two edits, or a
// prefix of it), "" when none is.
func SuggestFlag(fs *pflag.FlagSet, name string) string {
	best, bestD := "", 3
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := Levenshtein(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// Levenshtein is the edit distance between a and b (bytes).
func Levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
