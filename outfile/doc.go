// Package outfile writes a command's output files so that a reader never
// sees a half-written file and nothing but a regular file is ever replaced,
// and passes its standard output and error through a filter that keeps
// names from acting on the terminal.
//
// It must never decide what is written or where: callers pass the path and
// the bytes, and it imports no other package of the project.
package outfile
