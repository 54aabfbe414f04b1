package main

import (
	"flag"
	"fmt"
	"io"
	"sort"

	"tierfetch/scenarios"
)

func cmdScenarios(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("simrun scenarios", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: simrun scenarios\n\nLists the named scenarios, one a line: name, then what it shows.\n")
	}
	if help, err := parseArgs(fs, args); help || err != nil {
		return exitCodeOf(err), err
	}
	list := scenarios.Named()
	width := 0
	for _, sc := range list {
		width = max(width, len(sc.Name))
	}
	for _, sc := range list {
		fmt.Fprintf(stdout, "%-*s  %s\n", width, sc.Name, sc.Description)
	}
	return exitOK, nil
}

func sortStrings(s []string) []string {
	sort.Strings(s)
	return s
}
