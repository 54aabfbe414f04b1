package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// unknownFieldMsg is the message of an unknown key: "unknown field", with
// the closest field name suggested when one is near.
func unknownFieldMsg(key string, fields map[string]int) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names) // ties go to the first name, whatever the map's order
	if s := Closest(key, names); s != "" {
		return fmt.Sprintf("unknown field (did you mean %q?)", s)
	}
	return "unknown field"
}

// Closest is the name of names nearest to name (at most two edits, or
// one when name is a prefix of three or more bytes), "" when none is
// near.
func Closest(name string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		d := editDistance(strings.ToLower(name), n)
		if strings.HasPrefix(n, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// withPosition adds to an unknown or duplicate field's error where the
// key is in data ("at line L, column C"), so a user finds it in a long
// file.
func withPosition(err error, data []byte) error {
	var fe *FieldError
	if !errors.As(err, &fe) || !(strings.HasPrefix(fe.Msg, "unknown field") || strings.HasPrefix(fe.Msg, "duplicate field")) {
		return err
	}
	off, ok := memberOffset(data, fe.Field, strings.HasPrefix(fe.Msg, "duplicate"))
	if !ok {
		return err
	}
	what, rest, _ := strings.Cut(fe.Msg, " (")
	msg := what + " at " + position(data, off)
	if rest != "" {
		msg += " (" + rest
	}
	return &FieldError{Field: fe.Field, Msg: msg}
}

// memberOffset is the byte offset in data of the key the field path names
// ("config.segment_bytes", "events[3].broker", a quoted key for an odd
// name); with second, of that key's second occurrence (a duplicate).
func memberOffset(data []byte, path string, second bool) (int64, bool) {
	segs, ok := splitPath(path)
	if !ok || len(segs) == 0 {
		return 0, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	return walkTo(dec, data, segs, second)
}

// pathSeg is one step of a field path: a key, or an index when key is "".
type pathSeg struct {
	key   string
	index int
}

func splitPath(path string) ([]pathSeg, bool) {
	var segs []pathSeg
	for path != "" {
		switch {
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			n, err := strconv.Atoi(path[1:max(1, end)])
			if end < 0 || err != nil {
				return nil, false
			}
			segs, path = append(segs, pathSeg{index: n}), path[end+1:]
		case path[0] == '"':
			q, err := strconv.QuotedPrefix(path)
			if err != nil {
				return nil, false
			}
			key, _ := strconv.Unquote(q)
			segs, path = append(segs, pathSeg{key: key}), path[len(q):]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			segs, path = append(segs, pathSeg{key: path[:end]}), path[end:]
		}
		path = strings.TrimPrefix(path, ".")
	}
	return segs, true
}

// walkTo reads the value dec is at down the path segs and returns where
// the last segment's key (or element) starts.
func walkTo(dec *json.Decoder, data []byte, segs []pathSeg, second bool) (int64, bool) {
	tok, err := dec.Token()
	if err != nil {
		return 0, false
	}
	delim, _ := tok.(json.Delim)
	seg := segs[0]
	found := false
	for i := 0; dec.More(); i++ {
		start := skipSeparators(data, dec.InputOffset())
		match := false
		switch {
		case delim == '{':
			k, err := dec.Token()
			if err != nil {
				return 0, false
			}
			match = seg.key != "" && k == seg.key
		case delim == '[':
			match = seg.key == "" && i == seg.index
		default:
			return 0, false
		}
		if match && len(segs) == 1 && (!second || found) {
			return start, true
		}
		found = found || match
		if match && len(segs) > 1 {
			return walkTo(dec, data, segs[1:], second)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0, false
		}
	}
	return 0, false
}

// skipSeparators is the offset of the first byte at or after off that is not
// white space, a comma or a colon.
func skipSeparators(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}
