package main

import (
	"flag"
	"fmt"
	"io"
	"tierfetch/fuzz"
)

func cmdGen(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("simrun gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := &seedFlag{n: 1}
	fs.Var(seed, "seed", "the seed to generate a scenario from, 0..18446744073709551615")
	out := fs.String("out", "", "write the scenario file here (default: standard output)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: simrun gen --seed N [--out FILE]\n\nWrites the random scenario a seed generates, as a scenario file that simrun run replays.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if help, err := parseArgs(fs, args); help || err != nil {
		return exitCodeOf(err), err
	}
	data, err := fuzz.Generate(seed.n).Marshal()
	if err != nil {
		panic(err) // a generated scenario always marshals
	}
	if *out == "" {
		_, err = stdout.Write(data)
		return exitOK, err
	}
	if err := writeFileAtomic(*out, data); err != nil {
		return exitBadInput, badInput("gen: --out: %v", err)
	}
	return exitOK, nil
}
