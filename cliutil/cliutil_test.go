package cliutil

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"seed", "seeds", 1}, {"strateg", "strategy", 1}, {"kitten", "sitting", 3}, {"abc", "", 3}} {
		if got := Levenshtein(c.a, c.b); got != c.d {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func testFlags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.Bool("all", false, "")
	fs.String("seed", "", "")
	fs.String("strategy", "", "")
	fs.String("secret", "", "")
	fs.Lookup("secret").Hidden = true
	return fs
}

func TestSuggestFlag(t *testing.T) {
	fs := testFlags()
	for name, want := range map[string]string{"seeed": "seed", "strat": "strategy", "al": "all", "secret": "", "zzzzzz": ""} {
		if got := SuggestFlag(fs, name); got != want {
			t.Errorf("SuggestFlag(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestFlagErrorMessage(t *testing.T) {
	fs := testFlags()
	for msg, want := range map[string]string{
		"unknown flag: --seeed":                 "unknown flag: --seeed (did you mean --seed?)",
		"unknown shorthand flag: 'a' in -all":   "unknown shorthand flag: 'a' in -all (long flags take two dashes: did you mean --all?)",
		"unknown flag: --nothing-like-it":       "unknown flag: --nothing-like-it",
		"invalid argument \"x\" for \"--seed\"": "invalid argument \"x\" for \"--seed\"",
	} {
		if got := FlagErrorMessage(fs, msg); got != want {
			t.Errorf("FlagErrorMessage(%q) = %q, want %q", msg, got, want)
		}
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v == "" {
		t.Error("Version is empty")
	}
}

func TestSignalExit(t *testing.T) {
	for _, c := range []struct {
		sig  os.Signal
		code int
		name string
	}{{os.Interrupt, ExitSIGINT, "SIGINT"}, {syscall.SIGTERM, ExitSIGTERM, "SIGTERM"}} {
		if SignalExit(c.sig) != c.code || SignalName(c.sig) != c.name {
			t.Errorf("%v: exit %d %s, want %d %s", c.sig, SignalExit(c.sig), SignalName(c.sig), c.code, c.name)
		}
	}
}

// TestProgress: a line at most every interval, a final one always, and
// the pace from the clock it is given.
func TestProgress(t *testing.T) {
	now := time.Unix(0, 0)
	p := NewProgress(func() time.Time { return now }, time.Second, true)
	if p.Due(false) {
		t.Error("a line is due before the first interval")
	}
	if _, left := p.Pace(0, 10); left != "?" {
		t.Errorf("time left before any item: %q, want ?", left)
	}
	now = now.Add(2 * time.Second)
	if !p.Due(false) || p.Due(false) || !p.Due(true) {
		t.Error("want one line due after the interval, none right after it, a final one always")
	}
	if rate, left := p.Pace(4, 10); rate != 2 || left != "3s" {
		t.Errorf("Pace(4, 10) after 2 s = %v, %q; want 2, 3s", rate, left)
	}
	if got := p.Line("seeds", 4, 10, "failures 0  "); got != "\rseeds 4/10  2/s  failures 0  time left 3s   " {
		t.Errorf("Line: %q", got)
	}
	if NewProgress(func() time.Time { return now }, 0, false).Due(true) {
		t.Error("a line is due on what is not a terminal")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a/b.jsonl": "a/b.jsonl", "a b": "'a b'", "it's": `'it'\''s'`, "": "''"} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	if got := CommandLine("simrun", []string{"run", "--scenario", "a b.json"}); got != "simrun run --scenario 'a b.json'" {
		t.Errorf("CommandLine: %s", got)
	}
}
