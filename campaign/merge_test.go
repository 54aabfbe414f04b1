package campaign

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// line is a job line of the test files.
type line struct {
	J uint64 `json:"j"`
	V string `json:"v"`
}

var testSpan = Span{From: 10, To: 21, Unit: "job", Units: "jobs", Whole: "test",
	ResumeField: "from", StopField: "stopped"}

// part is a file of shard sh holding the jobs js (each line's v is "jN").
func part(name string, sh Shard, js ...uint64) *Part[line] {
	var b strings.Builder
	for _, j := range js {
		fmt.Fprintf(&b, "{\"j\": %d, \"v\": \"j%d\"}\n", j, j)
	}
	return &Part[line]{Lines: NewLines(name, strings.NewReader(b.String())), Shard: sh, Lo: testSpan.From,
		Job: func(l *line) uint64 { return l.J }}
}

// shardJobs are the jobs of sh within the test span.
func shardJobs(sh Shard) []uint64 {
	var js []uint64
	for j := range SeedRange(testSpan.From, testSpan.To) {
		if sh.Holds(testSpan.From, j) {
			js = append(js, j)
		}
	}
	return js
}

// TestMergeFoldsInJobOrder: whatever the split and the order of the files,
// fold sees every job once, in job order, with its own line.
func TestMergeFoldsInJobOrder(t *testing.T) {
	for _, parts := range [][]*Part[line]{
		{part("a", Whole, shardJobs(Whole)...)},
		{part("b", Shard{1, 3}, shardJobs(Shard{1, 3})...), part("a", Shard{0, 3}, shardJobs(Shard{0, 3})...), part("c", Shard{2, 3}, shardJobs(Shard{2, 3})...)},
		// a sweep's shards may split differently: 0/2 holds what 0/4 and 2/4 would
		{part("a", Shard{0, 2}, shardJobs(Shard{0, 2})...), part("b", Shard{1, 4}, shardJobs(Shard{1, 4})...), part("c", Shard{3, 4}, shardJobs(Shard{3, 4})...)},
	} {
		var got []uint64
		err := Merge(testSpan, parts, func(j uint64, l *line) {
			if l.V != fmt.Sprintf("j%d", j) {
				t.Errorf("job %d folded with line %+v", j, *l)
			}
			got = append(got, j)
		})
		if want := shardJobs(Whole); err != nil || !slices.Equal(got, want) {
			t.Errorf("%d files: folded %v, %v; want %v", len(parts), got, err, want)
		}
	}
}

// TestMergeRefuses: each way a set of files fails to be every job once is
// an error naming the job, the file and line, or the missing shard.
func TestMergeRefuses(t *testing.T) {
	stopped := uint64(16)
	interrupted := part("i", Shard{0, 2}, 10, 12, 14)
	interrupted.StoppedAt = &stopped
	resumed := part("r", Shard{0, 2}, 14)
	resumed.Lo = 16
	checked := part("k", Whole, shardJobs(Whole)...)
	checked.Check = func(l *line) error {
		if l.J == 13 {
			return fmt.Errorf("job 13: bad")
		}
		return nil
	}
	odd := func() *Part[line] { return part("odd", Shard{1, 2}, shardJobs(Shard{1, 2})...) }
	for _, c := range []struct {
		name  string
		parts []*Part[line]
		want  string
	}{
		{"a shard missing", []*Part[line]{odd()}, "6 of the test's jobs 10..21 are in no file (first: [10 12 14 16 18]): shard 0/2 is absent or incomplete"},
		{"an interrupted shard", []*Part[line]{interrupted, odd()},
			"3 of the test's jobs 10..21 are in no file (first: [16 18 20]): shard 0/2 is absent or incomplete; i stopped at job 16 (interrupted: resume it with ResumeFrom 16)"},
		{"a job twice", []*Part[line]{part("a", Shard{0, 2}, shardJobs(Shard{0, 2})...), odd(), part("b", Whole, 13)}, "job 13 is in both odd (shard 1/2) and b (shard 0/1): overlapping shards"},
		{"another shard's job", []*Part[line]{part("a", Shard{0, 2}, 10, 11)}, "a:2: job 11 is not shard 0/2's"},
		{"falling jobs", []*Part[line]{part("a", Whole, 12, 11)}, "a:2: job 11 after job 12: jobs must rise"},
		{"a job again", []*Part[line]{part("a", Whole, 12, 12)}, "a:2: job 12 after job 12: jobs must rise"},
		{"past the end", []*Part[line]{part("a", Whole, 10, 22)}, "a:2: job 22 outside the test's jobs 10..21"},
		{"before the start", []*Part[line]{part("a", Whole, 9)}, "a:1: job 9 outside the test's jobs 10..21"},
		{"below the part's first", []*Part[line]{resumed}, "r:1: job 14 outside the jobs the header says the file holds (from 16, stopped none)"},
		{"at the part's stop", []*Part[line]{func() *Part[line] { p := part("s", Whole, 10, 16); p.StoppedAt = &stopped; return p }()},
			"s:2: job 16 outside the jobs the header says the file holds (from 10, stopped 16)"},
		{"the caller's check", []*Part[line]{checked}, "k:4: job 13: bad"},
		{"a bad line", []*Part[line]{{Lines: NewLines("x", strings.NewReader("{\"j\": 10, \"w\": 1}\n")), Shard: Whole, Lo: 10,
			Job: func(l *line) uint64 { return l.J }}}, "x:1: "},
	} {
		err := Merge(testSpan, c.parts, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestCheckSplit: a search's shards are every shard of one split, once.
func TestCheckSplit(t *testing.T) {
	if err := CheckSplit([]Shard{{1, 3}, {0, 3}, {2, 3}}); err != nil {
		t.Errorf("every shard of 3: %v", err)
	}
	for _, c := range []struct {
		shards []Shard
		want   string
	}{
		{nil, "no shards"},
		{[]Shard{{0, 2}, {1, 3}}, "shards of different splits: 0/2 and 1/3"},
		{[]Shard{{0, 2}, {0, 2}}, "shard 0/2 given twice"},
		{[]Shard{{0, 3}, {2, 3}}, "shard 1/3 missing"},
	} {
		if err := CheckSplit(c.shards); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.shards, err, c.want)
		}
	}
	given, missing := MissingShards([]Shard{{0, 9}, {0, 9}, {4, 9}}, 9)
	if given != 2 || fmt.Sprint(missing) != "[1/9 2/9 3/9 5/9 6/9]" {
		t.Errorf("MissingShards: %d given, %v missing", given, missing)
	}
}

// TestJobs: a part's jobs are its shard's from its start on, counted.
func TestJobs(t *testing.T) {
	j := Jobs{From: 5, To: 40, Start: 20, Shard: Shard{1, 3}}
	var got []uint64
	for x, ok := j.First(); ok; x, ok = j.Next(x) {
		if !j.Holds(x) {
			t.Errorf("%d visited, not held", x)
		}
		got = append(got, x)
	}
	if fmt.Sprint(got) != "[21 24 27 30 33 36 39]" || j.Count() != uint64(len(got)) || j.Holds(18) || j.Holds(22) {
		t.Errorf("jobs %v, count %d", got, j.Count())
	}
	if (Jobs{From: 5, To: 40, Start: 41, Shard: Whole}).Count() != 0 {
		t.Error("a part resumed past the end holds jobs")
	}
	if got := PartFile("out/s.from-40.jsonl", 60); got != "out/s.from-60.jsonl" {
		t.Errorf("PartFile: %q", got)
	}
}
