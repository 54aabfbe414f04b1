//go:build unix

package cliutil

import (
	"os"

	"golang.org/x/sys/unix"
)

// ttyColumns asks the terminal f for its width (0 if it does not say).
func ttyColumns(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
