package harness_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// update rewrites the golden traces' outputs: go test ./harness -run
// TestGoldenTraces -update.
var update = flag.Bool("update", false, "rewrite the golden traces in testdata/traces with what the runs print now")

// goldenTraceDir holds the readable golden traces, beside the hex digests of
// goldenDigests: a reviewer sees in their diff what a change did to a run.
const goldenTraceDir = "testdata/traces"

// traceCase is one golden trace file: comment lines (# ...) saying what the
// run shows, the directive that makes it, "----", and what it prints.
//
// The directive is "run" followed by key=value words: scenario, seed,
// strategy, profile, and through="TEXT" (optionally through.count=N): the
// window ends at the N-th trace line containing TEXT (the 1st when count is
// absent). Without through, the whole trace is kept. The output is that
// window of the text trace followed by one "outcome" line.
type traceCase struct {
	file      string
	comments  []string
	directive string
	output    string
}

func readTraceCase(t *testing.T, path string) traceCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, out, ok := strings.Cut(string(data), "\n----\n")
	if !ok {
		t.Fatalf("%s: no ---- line between the directive and the output", path)
	}
	c := traceCase{file: path, output: out}
	for _, l := range strings.Split(head, "\n") {
		switch {
		case strings.HasPrefix(l, "#") || l == "":
			c.comments = append(c.comments, l)
		case c.directive == "":
			c.directive = l
		default:
			t.Fatalf("%s: a second directive %q", path, l)
		}
	}
	if c.directive == "" {
		t.Fatalf("%s: no directive", path)
	}
	return c
}

// directiveArgs splits "run k=v k=\"v w\"" into its command and arguments.
func directiveArgs(t *testing.T, file, d string) (string, map[string]string) {
	t.Helper()
	cmd, rest, _ := strings.Cut(d, " ")
	args := map[string]string{}
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		k, v, ok := strings.Cut(rest, "=")
		if !ok {
			t.Fatalf("%s: %q is not key=value", file, rest)
		}
		if strings.HasPrefix(v, `"`) {
			q, err := strconv.QuotedPrefix(v)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, k, err)
			}
			args[k], _ = strconv.Unquote(q)
			rest = v[len(q):]
			continue
		}
		v, rest, _ = strings.Cut(v, " ")
		args[k] = v
	}
	return cmd, args
}

// runTrace runs a directive and returns what the golden file holds after ----.
func runTrace(t *testing.T, c traceCase) string {
	t.Helper()
	cmd, args := directiveArgs(t, c.file, c.directive)
	if cmd != "run" {
		t.Fatalf("%s: unknown directive %q (want run)", c.file, cmd)
	}
	sc, ok := scenarios.Lookup(args["scenario"])
	if !ok {
		t.Fatalf("%s: no named scenario %q", c.file, args["scenario"])
	}
	seed, err := strconv.ParseUint(args["seed"], 10, 64)
	if err != nil {
		t.Fatalf("%s: seed: %v", c.file, err)
	}
	profile, ok := model.Profiles[args["profile"]]
	if !ok {
		t.Fatalf("%s: no profile %q", c.file, args["profile"])
	}
	through, count := args["through"], 1
	if s, ok := args["through.count"]; ok {
		if count, err = strconv.Atoi(s); err != nil || count < 1 {
			t.Fatalf("%s: through.count %q", c.file, s)
		}
	}
	var lines []string
	done := false
	sink := func(line string) {
		if done {
			return
		}
		lines = append(lines, line)
		if through != "" && strings.Contains(line, through) {
			if count--; count == 0 {
				done = true
			}
		}
	}
	res := harness.Execute(sc, harness.Options{Seed: seed, Strategy: harness.Strategy(args["strategy"]), Profile: profile, TraceSink: sink})
	if through != "" && !done {
		t.Errorf("%s: the trace has fewer lines containing %q than through.count asks", c.file, through)
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "outcome %s", res.Outcome)
	if v := res.Violation; v != nil {
		fmt.Fprintf(&b, " %s", v.Invariant)
		if v.Kind != "" {
			fmt.Fprintf(&b, " (known finding %s)", v.Kind)
		}
		fmt.Fprintf(&b, " at step %d", v.Step)
	}
	fmt.Fprintf(&b, " steps=%d digest=%s\n", res.Steps, res.Digest)
	return b.String()
}

// TestGoldenTraces: each file of testdata/traces is what its directive
// prints. A deliberate change to the model rewrites them with -update; the
// diff then shows, line by line, what it did to each run.
func TestGoldenTraces(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenTraceDir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("%s holds %d golden traces, want at least 3", goldenTraceDir, len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c := readTraceCase(t, f)
			if len(c.comments) == 0 || !strings.HasPrefix(c.comments[0], "# ") {
				t.Errorf("%s: open with a comment saying what the run shows", f)
			}
			got := runTrace(t, c)
			if *update {
				writeTraceCase(t, c, got)
				return
			}
			if got != c.output {
				t.Errorf("%s is not what %q prints now (go test ./harness -run TestGoldenTraces -update rewrites it); first difference:\n%s",
					f, c.directive, firstDifference(c.output, got))
			}
		})
	}
}

func writeTraceCase(t *testing.T, c traceCase, output string) {
	t.Helper()
	var b strings.Builder
	for _, l := range c.comments {
		b.WriteString(l + "\n")
	}
	b.WriteString(c.directive + "\n----\n" + output)
	if err := os.WriteFile(c.file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDifference names the first line where want and got part.
func firstDifference(want, got string) string {
	ws, gs := bufio.NewScanner(strings.NewReader(want)), bufio.NewScanner(strings.NewReader(got))
	for n := 1; ; n++ {
		w, g := ws.Scan(), gs.Scan()
		switch {
		case !w && !g:
			return "(none: a trailing newline differs)"
		case !w:
			return fmt.Sprintf("line %d: the file ends; the run prints %q", n, gs.Text())
		case !g:
			return fmt.Sprintf("line %d: the run ends; the file has %q", n, ws.Text())
		case ws.Text() != gs.Text():
			return fmt.Sprintf("line %d:\n  file: %s\n  run:  %s", n, ws.Text(), gs.Text())
		}
	}
}
