//go:build !unix

package cliutil

import "os"

// ttyColumns is 0 where the terminal's width is not asked for.
func ttyColumns(*os.File) int { return 0 }
