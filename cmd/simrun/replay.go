package main

import (
	"io"
)

// cmdReplay reruns a saved scenario file (a sweep's failure, a shrunk case)
// with its trace: simrun run --scenario FILE --trace, with the file given
// first.
func cmdReplay(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		io.WriteString(stderr, "Usage: simrun replay FILE [run flags]\n\nReruns a saved scenario file and shows every trace line and any violation\n(the same as simrun run --scenario FILE --trace). Run flags such as\n--strategy, --seed and --mutant apply.\n")
		if len(args) == 0 {
			return exitBadInput, badInput("replay: a scenario file is required")
		}
		return exitOK, nil
	}
	return cmdRun(append([]string{"--scenario", args[0], "--trace"}, args[1:]...), stdout, stderr)
}
