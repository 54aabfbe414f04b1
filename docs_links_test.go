package tierfetch_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// A fresh clone is all a reader has: the documents, the help texts and the
// code's comments must point at nothing outside the repository.

// outsidePointers are strings that only point outside the repository: the
// directory of notes the project was written from, and absolute paths of
// the machine it was written on. Built from pieces so that this file does
// not name them itself.
var outsidePointers = []string{"../" + "shared", "/" + "work/"}

// textFiles lists the repository's files a reader or a reviewer reads:
// documents, help texts, Go sources, manifests and scripts.
func textFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" {
			return filepath.SkipDir
		}
		switch ext := filepath.Ext(path); {
		case d.IsDir():
		case ext == ".md", ext == ".go", ext == ".yaml", ext == ".sh", ext == ".txt" && strings.HasPrefix(path, filepath.Join("cmd", "simrun", "help")),
			path == filepath.Join(".ci", "run"):
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// mdMention matches a markdown file name as text mentions it (submatch 1).
var mdMention = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])([A-Za-z0-9_.][A-Za-z0-9_./-]*\.md)\b`)

// TestDocsStayInTheRepository: no document, help text, comment, manifest or
// script points outside the repository; every *.md file one names (a path,
// or a name in capitals such as FINDINGS.md) exists in it; and every
// relative link of a document resolves, its #anchor to a heading.
func TestDocsStayInTheRepository(t *testing.T) {
	files := textFiles(t)
	if !slices.Contains(files, "README.md") || !slices.Contains(files, "docs/README.md") {
		t.Fatalf("README.md or docs/README.md missing from %d files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, p := range outsidePointers {
			if i := strings.Index(text, p); i >= 0 {
				t.Errorf("%s:%d points outside the repository (%q)", f, lineOf(text, i), p)
			}
		}
		for _, loc := range mdMention.FindAllStringSubmatchIndex(text, -1) {
			m := text[loc[2]:loc[3]]
			if !namesRepoFile(m) || !strings.HasSuffix(f, ".md") && strings.HasPrefix(m, "../") {
				continue // a link a program writes is relative to where it writes it
			}
			if !existsFrom(".", m) && !existsFrom(filepath.Dir(f), m) {
				t.Errorf("%s:%d names %s, which the repository does not have", f, lineOf(text, loc[2]), m)
			}
		}
		if strings.HasSuffix(f, ".md") {
			checkLinks(t, f, text)
		}
	}
}

// namesRepoFile reports whether a mention of a .md file means a file of the
// repository: a path or a name in capitals (FINDINGS.md); a lower-case bare
// name is an output's (report.md), and a URL is not checked.
func namesRepoFile(m string) bool {
	if strings.Contains(m, "//") {
		return false
	}
	return strings.Contains(m, "/") || unicode.IsUpper(rune(filepath.Base(m)[0]))
}

func existsFrom(dir, p string) bool {
	full := filepath.Clean(filepath.Join(dir, p))
	if full == ".." || strings.HasPrefix(full, "../") || filepath.IsAbs(full) {
		return false // outside the repository
	}
	_, err := os.Stat(full)
	return err == nil
}

func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

var (
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	fenceStart = regexp.MustCompile("(?m)^ {0,3}```")
)

// proseOf blanks fenced blocks and code spans (keeping line numbers), so
// that only the prose's links are checked.
func proseOf(text string) string {
	lines := strings.Split(text, "\n")
	in := false
	for i, l := range lines {
		if fenceStart.MatchString(l) {
			in = !in
			lines[i] = ""
			continue
		}
		if in {
			lines[i] = ""
		}
	}
	return codeSpan.ReplaceAllStringFunc(strings.Join(lines, "\n"), func(s string) string { return strings.Repeat(" ", len(s)) })
}

// checkLinks checks the relative links of markdown file f.
func checkLinks(t *testing.T, f, text string) {
	t.Helper()
	prose := proseOf(text)
	for _, m := range mdLink.FindAllStringSubmatchIndex(prose, -1) {
		target := prose[m[2]:m[3]]
		line := lineOf(prose, m[0])
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		path, anchor, _ := strings.Cut(target, "#")
		dest := f
		if path != "" {
			dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(f), path)))
			if !existsFrom(".", dest) {
				t.Errorf("%s:%d links to %s, which is not a file of the repository", f, line, target)
				continue
			}
		}
		if anchor == "" || !strings.HasSuffix(dest, ".md") {
			continue
		}
		data, err := os.ReadFile(dest)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(headingAnchors(string(data)), anchor) {
			t.Errorf("%s:%d links to %s: %s has no heading with the anchor #%s", f, line, target, dest, anchor)
		}
	}
}

// headingAnchors returns the anchors GitHub gives a document's headings:
// lower case, punctuation other than '-' and '_' dropped, spaces to '-', a
// repeated anchor suffixed -1, -2, ...
func headingAnchors(text string) []string {
	var out []string
	seen := map[string]int{}
	in := false
	for _, l := range strings.Split(text, "\n") {
		if fenceStart.MatchString(l) {
			in = !in
		}
		if in || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+strconv.Itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// TestHeadingAnchors: the anchors the link check compares with.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# A title\n## The first screen of `run --all`\n```\n# not a heading\n```\n## Sweeps, pinned: findings\n## A title\n")
	want := []string{"a-title", "the-first-screen-of-run---all", "sweeps-pinned-findings", "a-title-1"}
	if !slices.Equal(got, want) {
		t.Errorf("headingAnchors = %q, want %q", got, want)
	}
}

// TestReadmeStartsWithItsCommands: the README opens (after its title) with
// the two commands that work on a fresh machine with only Go, the main job
// then the tests, and CI runs both.
func TestReadmeStartsWithItsCommands(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "# ") {
			lines = append(lines, l)
		}
		if len(lines) == 4 {
			break
		}
	}
	cmd := func(l string) string { c, _, _ := strings.Cut(l, "#"); return strings.TrimSpace(c) }
	if len(lines) < 4 || lines[0] != "```sh" || lines[3] != "```" ||
		cmd(lines[1]) != "go run ./cmd/simrun run --all" || cmd(lines[2]) != "go test ./..." {
		t.Fatalf("README.md must open with a sh block of the main job and the test command, got %q", lines)
	}
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{cmd(lines[1]), cmd(lines[2])} {
		if !slices.ContainsFunc(strings.Split(string(ci), "\n"), func(l string) bool { return strings.HasPrefix(l, c) }) {
			t.Errorf(".ci/run does not run the README's %q", c)
		}
	}
}
