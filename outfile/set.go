package outfile

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// WriteSet writes the files of one output set (name to bytes) into dir,
// which it makes if missing, all or nothing: every file is first written
// whole to a temporary file beside its place, and only when all of them
// are (a full disk, a read-only file or a pipe with no reader fails here,
// and every temporary file is removed: nothing was replaced) are they
// renamed into place, under a lock a signal waits for (Abort). Each file is
// otherwise written as WriteAtomic writes it (links followed, modes kept, a
// device or a pipe written through after the renames). Then the regular
// files named in stale that the set does not hold are removed: outputs of
// an earlier set that this one does not make.
func WriteSet(dir string, files map[string][]byte, stale []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type placed struct{ path, target, tmp string }
	var done, through []placed
	fail := func(err error) error {
		for _, p := range done {
			os.Remove(p.tmp)
			forgetTemp(p.tmp)
		}
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(dir, name)
		target, fi, err := Target(path)
		if err != nil {
			return fail(err)
		}
		if fi != nil && !fi.Mode().IsRegular() {
			if err := CheckFile(path); err != nil {
				return fail(err)
			}
			through = append(through, placed{path: path})
			continue
		}
		if err := writable(path, fi); err != nil {
			return fail(err)
		}
		tmp, err := writeTemp(target, files[name], modeOf(fi))
		if tmp != "" {
			done = append(done, placed{path, target, tmp})
		}
		if err != nil {
			return fail(fmt.Errorf("writing %s: %w", path, err))
		}
	}
	renames.Lock()
	for i, p := range done {
		if err := os.Rename(p.tmp, p.target); err != nil {
			renames.Unlock()
			return fail(fmt.Errorf("writing %s: %w (%d of %d files of the set were already in place)", p.path, err, i, len(done)))
		}
		forgetTemp(p.tmp)
	}
	renames.Unlock()
	for _, p := range through {
		if err := WriteAtomic(p.path, files[filepath.Base(p.path)]); err != nil {
			return err
		}
	}
	for _, name := range stale {
		if _, ok := files[name]; ok {
			continue
		}
		path := filepath.Join(dir, name)
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
			os.Remove(path)
		}
	}
	return nil
}
