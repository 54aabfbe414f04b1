package tierfetch_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// simrunFlags returns the names of the flags cmd/simrun defines: the name
// argument of every pflag definition (fs.StringVar(&v, "name", ...),
// fs.Var(v, "name", ...), fs.Bool("name", ...), fs.Func("name", ...)) in its
// non-test files.
func simrunFlags(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, path := range goFiles(t, "cmd/simrun") {
		f := parseGo(t, path)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !isFlagDefinition(sel.Sel.Name) {
				return true
			}
			i := 0
			if strings.HasSuffix(sel.Sel.Name, "Var") || strings.HasSuffix(sel.Sel.Name, "VarP") {
				i = 1
			}
			if i < len(call.Args) {
				if lit, ok := call.Args[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					name, _ := strconv.Unquote(lit.Value)
					seen[name] = true
				}
			}
			return true
		})
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// isFlagDefinition reports whether a method of that name defines a pflag flag.
func isFlagDefinition(method string) bool {
	switch strings.TrimSuffix(strings.TrimSuffix(method, "P"), "Var") {
	case "", "String", "Bool", "Int", "Int64", "Uint64", "Float64", "Duration", "StringSlice", "Func", "BoolFunc":
		return true
	}
	return false
}

// kafkaTool is a command line of one of Kafka's tools ("kafka-configs.sh
// --describe --all --entity-type brokers"): its flags are Kafka's, even
// where one is spelled as a simrun flag is.
var kafkaTool = regexp.MustCompile(`kafka-[a-z-]+\.sh(?: --?[a-z][a-z-]*(?: [^-\s]\S*)?)*`)

// flagMentions returns, for each string literal in path that names one of
// the flags ("--" and the name, not followed by more of a flag name, and
// not in a command line of Kafka's tools), its position and the flag.
func flagMentions(t *testing.T, path string, flags *regexp.Regexp) []string {
	t.Helper()
	fset := token.NewFileSet()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, _ := strconv.Unquote(lit.Value)
		s = kafkaTool.ReplaceAllString(s, "")
		for _, m := range flags.FindAllStringSubmatch(s, -1) {
			found = append(found, fmt.Sprintf("%v: --%s", fset.Position(lit.Pos()), m[1]))
		}
		return true
	})
	return found
}

// TestFlagNamesStayInTheCommand holds issue 22's "flags live in the command":
// the flags are cmd/simrun's, so no string outside it names one ("--vary",
// "--seeds"). A domain package's error names its config field
// (config.Error) and its texts write a setting as {Field} (config.Names);
// cmd/simrun spells each field as its flag (fieldFlag).
func TestFlagNamesStayInTheCommand(t *testing.T) {
	names := simrunFlags(t)
	if len(names) < 20 {
		t.Fatalf("found only %d flag definitions in cmd/simrun: %v", len(names), names)
	}
	quoted := make([]string, len(names))
	for i, name := range names {
		quoted[i] = regexp.QuoteMeta(name)
	}
	flags := regexp.MustCompile(`--(` + strings.Join(quoted, "|") + `)(?:[^a-z0-9-]|$)`)
	var dirs []string
	for dir := range layers {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		var found []string
		for _, path := range goFiles(t, dir) {
			found = append(found, flagMentions(t, path, flags)...)
		}
		if dir == "cmd/simrun" {
			t.Logf("cmd/simrun: %d strings name its %d flags", len(found), len(names))
			continue
		}
		if len(found) > 0 {
			t.Errorf("%s: %d strings name a simrun flag: write the setting as {Field} (config.Errorf, config.Names) and let cmd/simrun spell it:\n%s",
				dir, len(found), strings.Join(found, "\n"))
		}
	}
}

func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var out []string
	for _, path := range files {
		if !strings.HasSuffix(path, "_test.go") {
			out = append(out, path)
		}
	}
	return out
}

func parseGo(t *testing.T, path string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
