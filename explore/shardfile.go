package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"tierfetch/campaign"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// MaxShardFileBytes bounds one shard file (its violations embed scenario
// files).
const MaxShardFileBytes = 64 << 20

// ShardFile is what simrun explore --jsonl writes: the header naming the
// search, then its report, one JSON object a line.
func ShardFile(h Header, r Report) ([]byte, error) {
	a, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(append(append(a, '\n'), b...), '\n'), nil
}

// ParseShardFile reads a ShardFile's bytes, data, from the file name
// (named in errors); unknown fields are errors.
func ParseShardFile(name string, data []byte) (Header, Report, error) {
	var h Header
	var r Report
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the last line's newline
	}
	for i := range lines {
		lines[i] = bytes.TrimSuffix(lines[i], []byte("\r"))
	}
	if len(lines) != 2 {
		return h, r, fmt.Errorf("%s: want 2 lines (header, result), got %d", name, len(lines))
	}
	var version struct {
		Explore int `json:"tierfetch_explore"`
	}
	if err := json.Unmarshal(lines[0], &version); err == nil && version.Explore > 0 && version.Explore != HeaderVersion {
		return h, r, fmt.Errorf("%s: line 1: explore header version %d, want %d (written by another simrun: run the shard again)",
			name, version.Explore, HeaderVersion)
	}
	if err := strictUnmarshal(lines[0], &h); err != nil || h.Explore != HeaderVersion {
		return h, r, fmt.Errorf("%s: line 1: not an explore header (%v)", name, err)
	}
	if err := strictUnmarshal(lines[1], &r); err != nil {
		return h, r, fmt.Errorf("%s: line 2: %v", name, err)
	}
	return h, r, nil
}

// sameOptions reports whether h and o differ at most in their shard and
// content digest.
func sameOptions(h, o Header) bool {
	h.ContentDigest, o.ContentDigest = "", ""
	return h.Same(o)
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// WriteShardFile writes ShardFile(h, r) to path, whole or not at all.
func WriteShardFile(path string, h Header, r Report) error {
	data, err := ShardFile(h, r)
	if err != nil {
		return err
	}
	return outfile.WriteAtomic(path, data)
}

// MergeFiles reads the shard files of one search (at most MaxShardFileBytes
// each) and folds them: the header of the whole search (shard 0/1) and the
// merged report (Merge). An error names the file.
func MergeFiles(files []string) (Header, Report, error) {
	var first Header
	var reports []Report
	var shards []campaign.Shard
	for i, name := range files {
		data, err := scenarios.ReadLimited(name, MaxShardFileBytes)
		if err != nil {
			return first, Report{}, err
		}
		h, r, err := ParseShardFile(name, data)
		if err != nil {
			return first, Report{}, err
		}
		switch {
		case i == 0:
			first = h
		case h.Scenario == first.Scenario && h.ContentDigest != first.ContentDigest && sameOptions(h, first):
			return first, Report{}, fmt.Errorf("%s is a shard of another search than %s: scenario %q, but its content differs "+
				"(content_digest %s, not %s)", name, files[0], h.Scenario, h.ContentDigest, first.ContentDigest)
		case !h.Same(first):
			return first, Report{}, fmt.Errorf("%s is a shard of another search than %s", name, files[0])
		}
		s, err := campaign.ParseShard(h.Shard)
		if err != nil {
			return first, Report{}, fmt.Errorf("%s: shard: %v", name, err)
		}
		reports, shards = append(reports, r), append(shards, s)
	}
	m, err := Merge(reports, shards)
	first.Shard = campaign.Whole.String()
	return first, m, err
}
