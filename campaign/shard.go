package campaign

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a campaign split across processes or machines:
// shard K of N holds the jobs j of from..to with (j-from) % N == K.
// Interleaving the jobs, rather than cutting the range into blocks, gives
// every shard the same mix of cheap and expensive jobs, so shards finish
// together. A search splits its states the same way, by hash.
//
// Invariant: K < N.
type Shard struct {
	K, N uint64
}

// Whole is the shard that holds every job.
var Whole = Shard{K: 0, N: 1}

// shardsMax bounds N: a million-seed sweep on a thousand pods is already
// a thousand seeds a pod.
const shardsMax = 1_000_000

// ParseShard reads "K/N" with 0 <= K < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.ParseUint(a, 10, 64)
	n, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || n == 0 || n > shardsMax || k >= n {
		return Shard{}, fmt.Errorf("want K/N with 0 <= K < N <= %d, got %q", shardsMax, s)
	}
	return Shard{K: k, N: n}, nil
}

// String prints the shard as ParseShard reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Holds reports whether job j, of a campaign whose first job is from, is
// the shard's.
func (s Shard) Holds(from, j uint64) bool { return j >= from && (j-from)%s.N == s.K }

// First returns the shard's first job of from..to; ok is false when it has
// none.
func (s Shard) First(from, to uint64) (j uint64, ok bool) {
	if to-from < s.K {
		return 0, false
	}
	return from + s.K, true
}

// FirstAt returns the shard's first job of from..to at or above start (a
// resumed part's first job); ok is false when it has none.
func (s Shard) FirstAt(from, start, to uint64) (uint64, bool) {
	first, ok := s.First(from, to)
	if !ok || first >= start {
		return first, ok
	}
	steps := (start - first + s.N - 1) / s.N // jobs of the shard below start
	if steps > (to-first)/s.N {
		return 0, false
	}
	return first + steps*s.N, true
}

// Next returns the shard's job after j, ok false past to.
func (s Shard) Next(j, to uint64) (uint64, bool) {
	if j >= to || to-j < s.N {
		return 0, false
	}
	return j + s.N, true
}

// Jobs are the jobs one process of a campaign runs: those of Shard among
// From..To (inclusive), from Start on (From unless the part was resumed).
// A sweep's jobs are its seeds; a comparison's and a plan's are numbered
// from 0.
type Jobs struct {
	From, To, Start uint64
	Shard           Shard
}

// JobsOf are the jobs 0..n-1 of shard sh from start on; n must be > 0.
func JobsOf(n int, sh Shard, start int) Jobs {
	if n <= 0 || start < 0 {
		panic(fmt.Sprintf("campaign: JobsOf(%d, %s, %d): want n > 0 and start >= 0", n, sh, start))
	}
	return Jobs{From: 0, To: uint64(n - 1), Start: uint64(start), Shard: sh}
}

// First is the first job; ok is false when there is none.
func (j Jobs) First() (uint64, bool) { return j.Shard.FirstAt(j.From, j.Start, j.To) }

// Next is the job after job; ok is false past the last.
func (j Jobs) Next(job uint64) (uint64, bool) { return j.Shard.Next(job, j.To) }

// Holds reports whether job is one of them.
func (j Jobs) Holds(job uint64) bool {
	return job >= j.Start && job <= j.To && j.Shard.Holds(j.From, job)
}

// Count is how many jobs there are.
func (j Jobs) Count() uint64 {
	first, ok := j.First()
	if !ok {
		return 0
	}
	return (j.To-first)/j.Shard.N + 1
}
