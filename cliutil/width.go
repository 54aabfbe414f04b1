package cliutil

import (
	"os"
	"strconv"
)

// TerminalWidth is the width in columns of w when it is a terminal (from
// the terminal itself, or from COLUMNS when the terminal does not say),
// and 0 when it is not one: output to a file or a pipe keeps its fixed
// width, as kubectl's does. It looks through filters (a writer with a
// Target method, such as outfile.TerminalSafe) to the file under them.
func TerminalWidth(w any) int {
	for range 8 {
		t, ok := w.(interface{ Target() any })
		if !ok {
			break
		}
		w = t.Target()
	}
	if !IsTerminal(w) {
		return 0
	}
	if n := ttyColumns(w.(*os.File)); n > 0 {
		return n
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 0
}
