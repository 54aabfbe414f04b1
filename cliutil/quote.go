package cliutil

import "strings"

// ShellQuote quotes s for a POSIX shell when it holds anything but plain
// characters.
func ShellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=./,:@%+", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CommandLine is the command name with its arguments, each quoted for a
// POSIX shell (ShellQuote): a command line a person can paste.
func CommandLine(name string, args []string) string {
	parts := []string{name}
	for _, a := range args {
		parts = append(parts, ShellQuote(a))
	}
	return strings.Join(parts, " ")
}
