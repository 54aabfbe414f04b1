package main

import (
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// checkOutputs checks, before any work, the output files a command will
// write: none is an input or another output (outfile.CheckDistinct, by
// file identity), and each can be written (outfile.CheckFile: its
// directory exists, it is not read-only, a named pipe has a reader). An
// error is bad input naming the flags.
func checkOutputs(outputs, inputs []outfile.Named) error {
	if err := outfile.CheckDistinct(outputs, inputs); err != nil {
		return badInput("%v", err)
	}
	for _, out := range outputs {
		if out.Path == "" {
			continue
		}
		if err := outfile.CheckFile(out.Path); err != nil {
			return badInput("%s: %v", out.Flag, err)
		}
	}
	return nil
}

// scenarioInput is the file a --scenario argument reads ("" for a
// built-in scenario), as an input to keep outputs from.
func scenarioInput(flag, arg string) outfile.Named {
	if arg == "" {
		return outfile.Named{}
	}
	if scenarios.IsNamed(arg) {
		return outfile.Named{}
	}
	return outfile.Named{Flag: flag, Path: arg}
}
