// Command simrun runs tierfetch scenarios: a deterministic simulation of one
// Kafka partition whose new followers bootstrap with the local-log-start-offset
// protocol (KIP-405) or the last-tiered-offset protocol (KIP-1023).
//
// It is the only place that touches flags, files, the terminal and the wall
// clock. Exit codes: 0 every invariant held, 1 safety violation, 3 liveness
// violation, 4 work budget reached, 2 bad input or an output that could not
// be written, 130 and 143 stopped by SIGINT or SIGTERM.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit codes.
const (
	exitOK       = 0
	exitSafety   = 1
	exitBadInput = 2
	exitLiveness = 3
	// exitBudget: a run reached its work budget (--max-steps), or a
	// scenario was predicted to, and no invariant broke.
	exitBudget = 4
	// exitSIGINT and exitSIGTERM: stopped by a signal (128 + its number),
	// after saving what was done and printing how to resume.
	exitSIGINT  = 130
	exitSIGTERM = 143
)

// parseArgs parses a subcommand's flags, which take no positional
// arguments. help is true when the user asked for --help (exit 0); err is
// bad input naming the command.
func parseArgs(fs *flag.FlagSet, args []string) (help bool, err error) {
	name := strings.TrimPrefix(fs.Name(), "simrun ")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, badInput("%s: %v", name, err)
	}
	if fs.NArg() > 0 {
		return false, badInput("%s: unexpected argument %q", name, fs.Arg(0))
	}
	return false, nil
}

// exitCodeOf is exit 2 for bad input, 0 otherwise.
func exitCodeOf(err error) int {
	if err != nil {
		return exitBadInput
	}
	return exitOK
}

// usageError is bad input: exit code 2 with its message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badInput(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

const topUsage = `simrun: deterministic simulator of Kafka's tiered-storage follower fetch

Usage:
  simrun run --scenario NAME|FILE [--seed N] [--strategy local-log-start|last-tiered|both]
             [--profile kip|kafka-4.3|kafka-trunk] [--trace] [--json] [--timeline FILE.svg]
             [--chrome-trace FILE.json] [--mutant NAME] [--max-steps N] [--max-input-bytes N]
  simrun run --all [--seed N] [--strategy ...] [--profile ...]
  simrun scenarios
  simrun gen --seed N [--out FILE]
  simrun sweep [--seeds A..B] [--strategy ...] [--profile ...] [--workers N] [--out DIR]
               [--check-determinism] [--shrink N] [--mutant NAME] [--shard K/N] [--jsonl FILE]
               [--resume-from SEED] [--max-steps N]
  simrun merge [--out DIR] [--shrink N] [--max-input-bytes N] FILE...
  simrun replay FILE [--strategy ...] [--mutant NAME]
  simrun mutants [--seeds A..B] [--shrink N] [--profile ...] [--max-steps N]
  simrun compare [--scenario NAME|FILE | --generated] [--seeds A..B] [--out DIR]
                 [--vary KEY=V1,V2,...] [--profiles P1,P2] [--workers N] [--shard K/N] [--jsonl FILE]
                 [--resume-from JOB] [--max-steps N] [--max-input-bytes N]
  simrun explore --scenario NAME|FILE [--depth N] [--max-states N] [--faults LIST] [--lost]
                 [--strategy S] [--profile P] [--mutant M] [--out FILE] [--shard K/N] [--jsonl FILE]
  simrun plan --offsets TIME=FILE... [--configs FILE] [--log-dirs FILE] [--topics FILE]
              [--topic T] [--partition P] [--seeds A..B] [--profile P1,P2] [--save FILE] [--json]

Commands:
  run        run a scenario under one or both follower protocols, checking invariants after every step
  scenarios  list the named scenarios, one a line: name, then what it shows
  gen        write the random scenario a seed generates, as a scenario file
  sweep      run generated scenarios for a range of seeds; summary, failures saved (and shrunk) for replay
  merge      fold the --jsonl files of a sharded sweep or comparison into the whole one's summary or report
  replay     rerun a saved scenario file and show its violation with the full trace
  mutants    hunt each deliberate bug with generated seeds; a table of which invariant caught it
  compare    both protocols on the same seeds: report.md, runs.csv and charts of catch-up time and its costs
  explore    every state of a small scenario within a depth bound, breadth first; counterexamples as replayable files
  plan       from Kafka's tools' saved output for one partition: should the flag be on? (README, "Plan from your cluster")

Run 'simrun COMMAND --help' for a command's flags.
Exit codes: 0 all invariants held, 1 safety violation, 3 liveness violation, 4 work budget
reached (--max-steps), 2 bad input or an output that could not be written, 130/143 stopped
by SIGINT/SIGTERM (sweep and compare save what was done and print how to resume).
`

// memoryLimit is the Go runtime's soft memory limit (unless GOMEMLIMIT says
// otherwise): the work budget keeps a run's live heap to a few hundred MiB,
// and the limit keeps the collector from letting garbage double that, so a
// process stays under 1 GiB.
const memoryLimit = 768 << 20

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	out := &errWriter{w: stdout}
	code := runCommand(args, out, stderr)
	if out.err != nil {
		fmt.Fprintf(stderr, "simrun: writing standard output: %v\n", out.err)
		if code == exitOK {
			code = exitBadInput
		}
	}
	return code
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, topUsage)
		return exitBadInput
	}
	var code int
	var err error
	switch args[0] {
	case "run":
		code, err = cmdRun(args[1:], stdout, stderr)
	case "scenarios":
		code, err = cmdScenarios(args[1:], stdout, stderr)
	case "gen":
		code, err = cmdGen(args[1:], stdout, stderr)
	case "sweep":
		code, err = cmdSweep(args[1:], stdout, stderr)
	case "merge":
		code, err = cmdMerge(args[1:], stdout, stderr)
	case "mutants":
		code, err = cmdMutants(args[1:], stdout, stderr)
	case "replay":
		code, err = cmdReplay(args[1:], stdout, stderr)
	case "compare":
		code, err = cmdCompare(args[1:], stdout, stderr)
	case "plan":
		code, err = cmdPlan(args[1:], stdout, stderr)
	case "explore":
		code, err = cmdExplore(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, topUsage)
		return exitOK
	default:
		err = badInput("unknown command %q (want run, scenarios, gen, sweep, merge, replay, mutants, compare, plan or explore; see simrun --help)", args[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "simrun: %v\n", err)
		if code == exitOK {
			code = exitBadInput
		}
	}
	return code
}
