package outfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWriteAtomic: a new file and a regular file are written whole; a link
// stays a link and its target gets the bytes; a directory is refused.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	for _, data := range []string{"first", "second"} {
		if err := WriteAtomic(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("read %q, want %q", got, data)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(link, []byte("through")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(path); string(got) != "through" {
		t.Errorf("target holds %q, want the bytes written through the link", got)
	}
	if err := WriteAtomic(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writing over a directory: %v, want refused", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestEnsureDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := EnsureDir(file); err == nil {
		t.Error("a file accepted as an output directory")
	}
}

// TestCheckFile: a directory, or a file in a directory that does not
// exist, is refused before any work.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	if err := CheckFile(filepath.Join(dir, "t.svg")); err != nil {
		t.Errorf("a new file in a directory: %v", err)
	}
	if err := CheckFile(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	if err := CheckFile(filepath.Join(dir, "no", "t.svg")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing directory: %v", err)
	}
}

// TestModeKeptReadOnlyRefused: a replaced file keeps its mode; a new one
// gets 0644; a read-only one is refused and left alone.
func TestModeKeptReadOnlyRefused(t *testing.T) {
	dir := t.TempDir()
	private, ro, fresh := filepath.Join(dir, "p"), filepath.Join(dir, "ro"), filepath.Join(dir, "new")
	os.WriteFile(private, []byte("old"), 0o600)
	os.WriteFile(ro, []byte("old"), 0o444)
	for _, p := range []string{private, fresh} {
		if err := WriteAtomic(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
	}
	if fi, _ := os.Stat(private); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced with mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o644 {
		t.Errorf("created with mode %v, want 0644", fi.Mode().Perm())
	}
	for _, f := range []func() error{func() error { return WriteAtomic(ro, []byte("new")) }, func() error { return CheckFile(ro) },
		func() error { return WriteSet(dir, map[string][]byte{"ro": []byte("new")}, nil) }} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "is read-only") {
			t.Errorf("%v, want read-only refused", err)
		}
	}
	if got, _ := os.ReadFile(ro); string(got) != "old" {
		t.Errorf("read-only file holds %q", got)
	}
}

// TestPipes: a named pipe with no reader is refused at once, by CheckFile
// and WriteAtomic (opening it blocked); one with a reader is held open by
// CheckFile and written by WriteAtomic.
func TestPipes(t *testing.T) {
	defer func(d time.Duration) { PipeWait = d }(PipeWait)
	PipeWait = 50 * time.Millisecond
	pipe := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{CheckFile(pipe), WriteAtomic(pipe, []byte("x"))} {
		if err == nil || !strings.Contains(err.Error(), "is a named pipe with no reader") {
			t.Errorf("%v, want no reader", err)
		}
	}
	r, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := CheckFile(pipe); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(pipe, []byte("through")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, _ := r.Read(buf); string(buf[:n]) != "through" {
		t.Errorf("read %q", buf[:n])
	}
	Reset()
}

// TestWriteSetAllOrNothing: a set with one file that cannot be written
// replaces none; a whole set replaces every file and removes the stale
// ones it does not hold.
func TestWriteSetAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b", "stale"} {
		os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "c"), 0o755) // cannot become a file
	err := WriteSet(dir, map[string][]byte{"a": []byte("new"), "b": []byte("new"), "c": []byte("new")}, []string{"stale"})
	if err == nil {
		t.Fatal("a set with a directory in the way was written")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if got, _ := os.ReadFile(filepath.Join(dir, e.Name())); !e.IsDir() && string(got) != "old" {
			t.Errorf("%s holds %q after a failed set", e.Name(), got)
		}
	}
	if len(entries) != 4 {
		t.Errorf("%d entries after a failed set, want 4 (no temporary file left)", len(entries))
	}
	if err := WriteSet(dir, map[string][]byte{"a": []byte("new"), "b": []byte("new")}, []string{"stale", "a"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "new", "b": "new"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != want {
			t.Errorf("%s holds %q", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "stale")); err == nil {
		t.Error("the stale file is still there")
	}
}

// TestClaim: a new or empty file is claimed and locked; one that holds data
// (ErrNotEmpty) or that another holder locked (ErrBusy) is refused, and not
// truncated.
func TestClaim(t *testing.T) {
	dir := t.TempDir()
	f, err := Claim(filepath.Join(dir, "new"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Claim(filepath.Join(dir, "new")); !errors.Is(err, ErrBusy) {
		t.Errorf("a claimed file claimed again: %v", err)
	}
	f.WriteString("data")
	f.Close()
	if _, err := Claim(filepath.Join(dir, "new")); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("a file with data: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "new")); string(got) != "data" {
		t.Errorf("holds %q", got)
	}
}

// TestCheckDistinct: an output that is an input by another name, or
// another output, is refused naming both flags.
func TestCheckDistinct(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.WriteFile(in, []byte("x"), 0o644)
	os.Symlink(in, filepath.Join(dir, "link"))
	for _, c := range []struct {
		outs []Named
		want string
	}{
		{[]Named{{"--out", filepath.Join(dir, "link")}}, "--out " + filepath.Join(dir, "link") + " is the same file as --in " + in + ": refusing to overwrite an input"},
		{[]Named{{"--a", filepath.Join(dir, "n")}, {"--b", filepath.Join(dir, ".", "n")}}, "is the same file as --a " + filepath.Join(dir, "n") + ": refusing to overwrite another output"},
		{[]Named{{"--a", filepath.Join(dir, "n")}, {"--b", os.DevNull}, {"--c", os.DevNull}}, ""},
	} {
		err := CheckDistinct(c.outs, []Named{{"--in", in}})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: %v, want %q", c.outs, err, c.want)
		}
	}
}

// TestTerminalSafe: control characters, bytes that are not UTF-8 and the
// bidirectional formatting characters are escaped; printable text, other
// Unicode, newlines, tabs and a leading carriage return pass unchanged; a
// rune split across writes stays whole; JSON stays valid and equal.
func TestTerminalSafe(t *testing.T) {
	var buf strings.Builder
	w := &TerminalSafe{W: &buf}
	for _, s := range []string{"\rprogress 1/2\n", "scenario evil\x1b[2J\u202eexe.pdf", " ok \x7f\u009b\xff\tend\n", "caf\xc3", "\xa9 \u2192 done\r\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	w.Flush()
	want := "\rprogress 1/2\nscenario evil\\x1b[2J\\u202eexe.pdf ok \\x7f\\u009b\\xff\tend\ncafé \u2192 done\\x0d\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
	buf.Reset()
	fmt.Fprint(w, `{"name": "a`+"\u202e"+`b"}`)
	var v struct{ Name string }
	if err := json.Unmarshal([]byte(buf.String()), &v); err != nil || v.Name != "a\u202eb" {
		t.Errorf("JSON through it: %q: %v, %q", buf.String(), err, v.Name)
	}
}
