package outfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tierfetch/config"
)

// CheckFile checks, before any work, that path can become an output file
// (WriteAtomic), so that nothing is computed for an output that would be
// refused at the end: its directory exists and files can be created in it;
// what is there is not a directory nor a read-only file nor anything but a
// regular file, a character device or a named pipe; and a named pipe has a
// reader. The pipe is then held open for the write (a reader that saw its
// writer close would end), so WriteAtomic of path uses it.
func CheckFile(path string) error {
	target, fi, err := Target(path)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		if err := throughable(path, fi); err != nil {
			return err
		}
		if fi.Mode()&fs.ModeNamedPipe != 0 {
			return holdPipe(path, target)
		}
		return nil
	}
	if err := writable(path, fi); err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("directory %s does not exist", filepath.Dir(path))
	}
	f, err := os.CreateTemp(dir, ".simrun-check-*")
	if err != nil {
		return fmt.Errorf("cannot create files in %s: %v", filepath.Dir(path), err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// Named is a file a command reads or writes, with the flag that named it
// (for messages): a flag as the user spells it ("--out"), or a config field
// as {Field} (config.Error), which the command renames to its flag.
type Named struct{ Flag, Path string }

// CheckDistinct refuses an output that is one of the inputs, or another
// output: the same file (os.SameFile, so a link, a second name or a path
// spelt differently is caught; for a file not made yet, the same cleaned
// path), which the output would silently replace. Empty paths are skipped.
func CheckDistinct(outputs, inputs []Named) error {
	for i, out := range outputs {
		if out.Path == "" {
			continue
		}
		others := append(slices.Clone(outputs[:i]), inputs...)
		for _, in := range others {
			if in.Path != "" && sameFile(out.Path, in.Path) {
				what := "an input"
				if slices.Contains(outputs[:i], in) {
					what = "another output"
				}
				return config.Errorf(strings.Trim(out.Flag, "{}"), escape(out.Flag)+" %s is the same file as "+escape(in.Flag)+" %s: refusing to overwrite %s",
					out.Path, in.Path, what)
			}
		}
	}
	return nil
}

// escape is s in a format: its percent signs doubled.
func escape(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// sameFile reports whether paths a and b name one file an output would
// replace: by os.SameFile when both exist (a device or a pipe is written
// through, never replaced: never the same), by their cleaned absolute paths
// otherwise.
func sameFile(a, b string) bool {
	afi, aerr := os.Stat(a)
	bfi, berr := os.Stat(b)
	if aerr == nil && berr == nil {
		return afi.Mode().IsRegular() && os.SameFile(afi, bfi)
	}
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ba
}
