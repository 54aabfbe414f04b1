package fuzz

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tierfetch/harness"
)

// TestKnownNamesAreComplete: every string constant of package invariants is
// a known kind (Kind...) or a known invariant name, so merge accepts every
// name a run can report and nothing else.
func TestKnownNamesAreComplete(t *testing.T) {
	files, err := filepath.Glob("../invariants/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) || !name.IsExported() {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					list, what := harness.KnownInvariants, "KnownInvariants"
					if strings.HasPrefix(name.Name, "Kind") {
						list, what = harness.KnownKinds, "KnownKinds"
					}
					if !slices.Contains(list, v) {
						t.Errorf("invariants.%s = %q is not in %s (scenarios/names.go)", name.Name, v, what)
					}
					if !SafeName(v) {
						t.Errorf("invariants.%s = %q cannot be part of a file name", name.Name, v)
					}
				}
			}
		}
	}
}

func TestSafeName(t *testing.T) {
	for _, ok := range []string{"no-hole", "stale-hro", "kafka43-aux-state-stall", "a", "z", "0", "9", "a-z-0-9", strings.Repeat("a", 64)} {
		if !SafeName(ok) {
			t.Errorf("SafeName(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", "../x", "a/b", "a..b", ".", "-a", "a-", "a--b", "A", "a b", "a\x00", strings.Repeat("a", 65), "a`", "a{", "a/", "a:", "a.", "é"} {
		if SafeName(bad) {
			t.Errorf("SafeName(%q) = true", bad)
		}
	}
}
