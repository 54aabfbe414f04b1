package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The documents' commands. TestDocCommands runs every simrun command of a
// fenced sh block in README.md and docs/**/*.md, so that no document tells
// a user to type something that no longer works. A block's info string says
// how to treat it:
//
//	```sh               run every simrun command in it
//	```sh slow          run them, except under -short
//	```sh illustrative  skip them, visibly (a cluster's files, hours of work, a committed output)
//	```json file=NAME   write the block to NAME first, for the commands after it
//
// Lines that are not simrun commands (go test, kafka-*.sh, kubectl) are
// left alone; a simrun command the test cannot run (inside a loop, a pipe)
// fails it: write it plainly or mark the block illustrative.

// docBlock is one fenced block of a document.
type docBlock struct {
	line int      // of the opening fence, from 1
	lang string   // the info string's first word
	tags []string // its other words
	body []string
}

func (b docBlock) has(tag string) bool { return slices.Contains(b.tags, tag) }

// tag returns the value of a key=value word of the info string.
func (b docBlock) tag(key string) (string, bool) {
	for _, t := range b.tags {
		if v, ok := strings.CutPrefix(t, key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// fencedBlocks returns the fenced blocks of a markdown text, in order.
func fencedBlocks(text string) []docBlock {
	var out []docBlock
	var cur *docBlock
	for i, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			words := strings.Fields(strings.TrimPrefix(trimmed, "```"))
			b := docBlock{line: i + 1}
			if len(words) > 0 {
				b.lang, b.tags = words[0], words[1:]
			}
			cur = &b
		case cur != nil && strings.TrimSpace(l) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body = append(cur.body, l)
		}
	}
	return out
}

// docFiles lists README.md and every document under docs/, relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// shellWords splits one command line into words as a shell would for the
// simple lines documents hold: quotes, a trailing comment, and the
// operators &&, ; and > as words of their own.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quote := false, byte(0)
	flush := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '#' && !inWord:
			flush()
			return words, nil
		case c == ' ' || c == '\t':
			flush()
		case c == ';' || c == '|' || c == '<' || c == '(' || c == ')' || c == '`':
			flush()
			words = append(words, string(c))
		case c == '&' && i+1 < len(line) && line[i+1] == '&':
			flush()
			words = append(words, "&&")
			i++
		case c == '&':
			flush()
			words = append(words, "&")
		case c == '>':
			flush()
			words = append(words, ">")
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote")
	}
	flush()
	return words, nil
}

// logicalLines joins lines continued with a trailing backslash and drops a
// shell prompt ("$ ").
func logicalLines(body []string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range body {
		if s, ok := strings.CutSuffix(l, `\`); ok {
			cur.WriteString(s + " ")
			continue
		}
		cur.WriteString(l)
		out = append(out, strings.TrimPrefix(strings.TrimSpace(cur.String()), "$ "))
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, strings.TrimSpace(cur.String()))
	}
	return out
}

var (
	assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	variable   = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)
)

// simrunArgs returns the arguments of a simrun command (simrun ..., go run
// [flags] ./cmd/simrun ...), ok false for any other command.
func simrunArgs(words []string) ([]string, bool) {
	switch {
	case len(words) > 0 && words[0] == "simrun":
		return words[1:], true
	case len(words) > 2 && words[0] == "go" && words[1] == "run":
		for i := 2; i < len(words); i++ {
			if words[i] == "./cmd/simrun" {
				return words[i+1:], true
			}
			if !strings.HasPrefix(words[i], "-") {
				break
			}
		}
	}
	return nil, false
}

// mentionsSimrun reports whether a command that is not a simrun command
// still holds one (a loop, a pipe, a subshell), which the test cannot run.
func mentionsSimrun(words []string) bool {
	return slices.Contains(words, "simrun") || slices.Contains(words, "./cmd/simrun")
}

// docRunner runs a document's commands in a scratch directory, carrying
// files and shell variables from one command to the next as a reader's
// shell would.
type docRunner struct {
	root string // the repository
	dir  string // the scratch directory, the working directory
	vars map[string]string
	ran  int
}

// provide copies a repository path an argument names (a fixture, a tool
// output: a word with a slash, or a flag's value after '=') into the
// scratch directory, so that a command written to run from the repository
// root finds it there and writes nothing into the repository.
func (r *docRunner) provide(t *testing.T, arg string) {
	for _, p := range strings.Split(arg, "=") {
		if !strings.Contains(p, "/") || filepath.IsAbs(p) || strings.Contains(p, "..") {
			continue
		}
		src, dst := filepath.Join(r.root, p), filepath.Join(r.dir, p)
		info, err := os.Stat(src)
		if _, derr := os.Stat(dst); err != nil || derr == nil {
			continue // not in the repository, or already here
		}
		if info.IsDir() {
			err = os.CopyFS(dst, os.DirFS(src))
		} else if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
			var data []byte
			if data, err = os.ReadFile(src); err == nil {
				err = os.WriteFile(dst, data, 0o644)
			}
		}
		if err != nil {
			t.Fatalf("copying %s into the scratch directory: %v", p, err)
		}
	}
}

// expand replaces $VAR and ${VAR} with the variables set so far and
// expands globs in the scratch directory.
func (r *docRunner) expand(words []string) ([]string, error) {
	var out []string
	for _, w := range words {
		var missing string
		w = variable.ReplaceAllStringFunc(w, func(m string) string {
			name := variable.FindStringSubmatch(m)[1]
			v, ok := r.vars[name]
			if !ok {
				missing = name
			}
			return v
		})
		if missing != "" {
			return nil, fmt.Errorf("$%s is not set by an earlier line of the document", missing)
		}
		if strings.ContainsAny(w, "*?[") && !strings.Contains(w, "=") {
			matches, err := filepath.Glob(w)
			if err != nil || len(matches) == 0 {
				return nil, fmt.Errorf("%s matches no file", w)
			}
			out = append(out, matches...)
			continue
		}
		out = append(out, w)
	}
	return out, nil
}

// runLine runs the simrun commands of one logical line.
func (r *docRunner) runLine(t *testing.T, where, line string) {
	words, err := shellWords(line)
	if err != nil {
		t.Errorf("%s: %q: %v", where, line, err)
		return
	}
	for len(words) > 0 {
		cmd := words
		rest := []string(nil)
		if i := slices.IndexFunc(words, func(w string) bool { return w == "&&" || w == ";" }); i >= 0 {
			cmd, rest = words[:i], words[i+1:]
		}
		words = rest
		if len(cmd) == 0 {
			continue
		}
		if !slices.ContainsFunc(cmd, func(w string) bool { return !assignment.MatchString(w) }) {
			for _, a := range cmd {
				k, v, _ := strings.Cut(a, "=")
				r.vars[k] = v
			}
			continue
		}
		args, ok := simrunArgs(cmd)
		if !ok {
			if mentionsSimrun(cmd) {
				t.Errorf("%s: %q holds a simrun command this test cannot run: write it plainly, or mark the block illustrative", where, line)
			}
			continue
		}
		stdoutFile := ""
		if i := slices.Index(args, ">"); i >= 0 {
			if i != len(args)-2 {
				t.Errorf("%s: %q: only '> FILE' at the end is understood", where, line)
				return
			}
			stdoutFile, args = args[i+1], args[:i]
		}
		if slices.ContainsFunc(args, func(w string) bool { return strings.ContainsAny(w, "|<()`&") && len(w) == 1 }) {
			t.Errorf("%s: %q: a pipe, a subshell or a background job: mark the block illustrative", where, line)
			return
		}
		if args, err = r.expand(args); err != nil {
			t.Errorf("%s: %q: %v", where, line, err)
			return
		}
		for _, a := range args {
			r.provide(t, a)
		}
		code, stdout, stderr := simrun(t, args...)
		r.ran++
		t.Logf("%s: simrun %s: exit %d", where, strings.Join(args, " "), code)
		if stdoutFile != "" {
			if err := os.WriteFile(stdoutFile, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// 1, 3 and 4 are answers (a violation, a stall, a budget); 2 is a
		// document that no longer matches the command line, 5 a bug.
		if code == exitBadInput || code >= 5 {
			t.Errorf("%s: simrun %s: exit %d\nstderr:\n%s", where, strings.Join(args, " "), code, stderr)
		}
	}
}

// TestDocCommands: every simrun command in a fenced sh block of README.md
// and docs/**/*.md runs (exit 0, 1, 3 or 4: never bad input), in a scratch
// directory per document, in the document's order.
func TestDocCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	total, skipped := 0, 0
	for _, file := range docFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		blocks := fencedBlocks(string(data))
		if !slices.ContainsFunc(blocks, func(b docBlock) bool { return b.lang == "sh" || b.lang == "bash" }) {
			continue
		}
		t.Run(file, func(t *testing.T) {
			r := &docRunner{root: root, dir: t.TempDir(), vars: map[string]string{}}
			t.Chdir(r.dir)
			for _, b := range blocks {
				where := fmt.Sprintf("%s:%d", file, b.line)
				if name, ok := b.tag("file"); ok {
					if err := os.WriteFile(name, []byte(strings.Join(b.body, "\n")+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if b.lang != "sh" && b.lang != "bash" {
					continue
				}
				// A subtest a block, so that go test -v lists each,
				// skipped ones with why; files and variables carry over.
				t.Run(fmt.Sprintf("line-%d", b.line), func(t *testing.T) {
					switch {
					case b.has("illustrative"):
						skipped++
						t.Skipf("%s: marked illustrative", where)
					case b.has("slow") && testing.Short():
						skipped++
						t.Skipf("%s: marked slow, and -short", where)
					}
					for _, line := range logicalLines(b.body) {
						if line != "" {
							r.runLine(t, where, line)
						}
					}
				})
			}
			total += r.ran
		})
	}
	t.Logf("%d documented commands run, %d blocks skipped (illustrative, or slow under -short)", total, skipped)
	if min := 30; total < min && !testing.Short() {
		t.Errorf("ran %d documented commands, fewer than %d: did the documents' fences change?", total, min)
	}
}

// TestShellWords: the splitting TestDocCommands relies on.
func TestShellWords(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{`simrun run --scenario x   # a comment`, []string{"simrun", "run", "--scenario", "x"}},
		{`simrun gen --seed 8 --out s.json && simrun run --scenario s.json`, []string{"simrun", "gen", "--seed", "8", "--out", "s.json", "&&", "simrun", "run", "--scenario", "s.json"}},
		{`simrun plan --topic 'my topic' --x="a b"`, []string{"simrun", "plan", "--topic", "my topic", "--x=a b"}},
		{`for k in 0 1; do simrun sweep & done; wait`, []string{"for", "k", "in", "0", "1", ";", "do", "simrun", "sweep", "&", "done", ";", "wait"}},
		{`simrun run --json > r.json`, []string{"simrun", "run", "--json", ">", "r.json"}},
	}
	for _, c := range cases {
		got, err := shellWords(c.line)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
	if args, ok := simrunArgs([]string{"go", "run", "-buildvcs=false", "./cmd/simrun", "run", "--all"}); !ok || !slices.Equal(args, []string{"run", "--all"}) {
		t.Errorf("simrunArgs of go run: %q, %v", args, ok)
	}
	if _, ok := simrunArgs([]string{"go", "test", "./..."}); ok {
		t.Error("go test taken for a simrun command")
	}
}
