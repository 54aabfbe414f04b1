// Package tierfetch_test holds repository-wide rules that no single package
// can check for itself.
package tierfetch_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layers lists, for each package, the project packages it may import
// (docs/design/architecture.md: cmd/simrun -> reports -> scenarios -> invariants -> model -> sim,
// with the run harness, random exploration and the plan split out of the
// old scenarios package: scenarios is the format, harness runs one scenario,
// gen draws a scenario from a seed, fuzz searches many, plan answers for one real partition, compare runs
// both protocols on many seeds into a report; campaign, under all four and
// explore, runs many runs as one campaign: shards, the worker pool, the
// shard files and their merge; outfile, a leaf, writes
// output files whole (reports may not import it: it renders bytes and
// writes no files, as its doc says); cliutil, a leaf, computes what the
// command line prints beyond its flags; config, a leaf, is how a package
// says which field of its Config is wrong, the command naming the flag).
var layers = map[string][]string{
	"sim":        {},
	"config":     {},
	"outfile":    {"config"},
	"cliutil":    {},
	"model":      {"sim"},
	"invariants": {"model", "sim"},
	"scenarios":  {"config", "model", "sim"},
	"harness":    {"config", "scenarios", "invariants", "model", "sim"},
	"campaign":   {"config", "scenarios", "model", "sim"},
	"gen":        {"scenarios", "sim"},
	"fuzz":       {"config", "gen", "campaign", "outfile", "harness", "scenarios", "invariants", "model", "sim"},
	"explore":    {"config", "campaign", "outfile", "harness", "scenarios", "invariants", "model", "sim"},
	"plan":       {"config", "campaign", "outfile", "harness", "scenarios", "invariants", "model", "sim"},
	"reports":    {"config", "plan", "fuzz", "campaign", "harness", "scenarios", "invariants", "model", "sim"},
	"compare":    {"config", "cliutil", "reports", "plan", "gen", "campaign", "outfile", "harness", "scenarios", "invariants", "model", "sim"},
	"cmd/simrun": {"config", "explore", "cliutil", "compare", "plan", "reports", "fuzz", "gen", "campaign", "outfile", "harness", "scenarios", "invariants", "model", "sim"},
}

// forbidden lists imports that would let wall clocks, shared randomness,
// locks or I/O into a run.
var forbidden = map[string][]string{
	"cliutil":    {"io", "os/signal", "net", "math/rand", "math/rand/v2"},
	"harness":    {"time", "math/rand", "math/rand/v2", "sync", "sync/atomic", "os", "io", "net"},
	"sim":        {"time", "math/rand", "sync", "sync/atomic", "os", "io", "net"},
	"model":      {"time", "math/rand", "math/rand/v2", "sync", "sync/atomic", "os", "io", "net"},
	"invariants": {"time", "math/rand", "math/rand/v2", "sync", "sync/atomic", "os", "io", "net"},
	"explore":    {"time", "math/rand", "math/rand/v2", "sync", "sync/atomic", "os", "io", "net"},
}

func TestTidy(t *testing.T) {
	for dir, allowed := range layers {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(files) == 0 {
			t.Errorf("%s: no Go files", dir)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			checkFile(t, dir, path, allowed)
		}
	}
}

func checkFile(t *testing.T, dir, path string, allowed []string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		for _, bad := range forbidden[dir] {
			if p == bad {
				t.Errorf("%s imports %q: %s must stay free of clocks, shared randomness, locks and I/O", path, p, dir)
			}
		}
		if rest, ok := strings.CutPrefix(p, "tierfetch/"); ok && !contains(allowed, rest) {
			t.Errorf("%s imports %q: %s may import only %v", path, p, dir, allowed)
		}
	}
	if _, ok := forbidden[dir]; !ok {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			t.Errorf("%s: a go statement at %v: no goroutines inside a run", path, fset.Position(g.Pos()))
		}
		return true
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
