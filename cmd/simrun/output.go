package main

import (
	"tierfetch/outfile"
)

// writeFileAtomic writes an output file whole (outfile.WriteAtomic).
func writeFileAtomic(path string, data []byte) error { return outfile.WriteAtomic(path, data) }

// ensureOutDir makes the output directory dir and checks that files can be
// created in it, so a sweep finds an unwritable --out before it runs.
func ensureOutDir(flagName, dir string) error {
	if err := outfile.EnsureDir(dir); err != nil {
		return badInput("%s: %v", flagName, err)
	}
	return nil
}
