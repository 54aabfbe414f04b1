// Command simrun runs tierfetch scenarios: a deterministic simulation of one
// Kafka partition whose new followers bootstrap with the local-log-start-offset
// protocol (KIP-405) or the last-tiered-offset protocol (KIP-1023).
//
// It is the only place that touches flags, files, the terminal and the wall
// clock. Exit codes: 0 every invariant held, 1 safety violation, 3 liveness
// violation, 4 work budget reached, 2 bad input or an output that could not
// be written, 5 explore found nondeterminism, 130 and 143 stopped by SIGINT
// or SIGTERM.
//
// The command line is spf13/cobra's: GNU-style flags anywhere on the line,
// help on standard output, suggestions for a mistyped command or flag,
// shell completions (simrun completion bash|zsh|fish) and --version.
package main

import (
	"embed"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"tierfetch/cliutil"
	"tierfetch/outfile"
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
	// exitNondeterminism: explore re-ran a path and did not get what the
	// search saw (a bug of tierfetch; no result can be trusted).
	exitNondeterminism = 5
)

// usageError is bad input: exit code 2 with its message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// badInput is bad input with the message of format and args; an error
// among args that names a config field names its flag (fieldFlags).
func badInput(format string, args ...any) error {
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = fieldFlags(err)
		}
	}
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// ensureOutDir makes the output directory dir and checks that files can be
// created in it, so a command finds an unwritable --out before it runs.
func ensureOutDir(flagName, dir string) error {
	if err := outfile.EnsureDir(dir); err != nil {
		return badInput("%s: %v", flagName, err)
	}
	return nil
}

// helpFiles are the commands' long help texts, help/COMMAND.txt.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help is the long help of a command.
func help(command string) string {
	data, err := helpFiles.ReadFile("help/" + command + ".txt")
	if err != nil {
		panic(err) // embedded at build time
	}
	return strings.TrimRight(string(data), "\n")
}

// memoryLimit is the Go runtime's soft memory limit (unless GOMEMLIMIT says
// otherwise): the work budget keeps a one-partition run's live heap to a
// few hundred MiB, and the limit keeps the collector from letting garbage
// double that, so a process stays under 1 GiB. A broker-scale file's live
// heap grows with its partitions, so the commands that run one raise the
// limit first (allowPartitions).
const memoryLimit = 768 << 20

// partitionHeap is what the runs of a broker-scale scenario, both
// strategies', keep in memory a partition, with the collector's room.
// `simrun run` of the 10,000-partition benchmark file (harness's
// brokerReplace) under a limit of 2 GiB took 34.4 s of CPU and 2.10 GB;
// without a limit 36.3 s and 2.71 GB; under 768 MiB, the collector
// running all the time to stay near it, 53.7 s (43.9 s wall against
// 35.6 s) and 1.07 GB.
const partitionHeap = 192 << 10

// allowPartitions raises the memory limit to memoryLimit and partitionHeap
// for each partition of inFlight runs at a time of a scenario of partitions
// partitions, up to three quarters of the memory the process can have
// (cliutil.RaiseMemoryLimit). One-partition runs leave it as it is.
func allowPartitions(partitions, inFlight int) {
	if partitions > 1 {
		cliutil.RaiseMemoryLimit(memoryLimit + int64(partitions)*int64(max(inFlight, 1))*partitionHeap)
	}
}

func main() { os.Exit(process(os.Args[1:])) }

// process is the simrun process but for its exit: the memory limit, a
// closed standard output refused (exit 2: what the command prints would be
// lost), the signal handler (signals.go), then the command.
func process(args []string) int {
	cliutil.LimitMemory(memoryLimit)
	if cliutil.StdoutClosed() {
		fmt.Fprintln(os.Stderr, "simrun: standard output is closed (>&-), or is /dev/null opened for reading and writing, which is how a closed one looks to a Go program:\n"+
			"  what simrun prints would be lost. To discard it, open /dev/null for writing only (>/dev/null; in Python open(os.devnull, \"w\"), not subprocess.DEVNULL)")
		return exitBadInput
	}
	installSignals()
	return run(args, os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	defer outfile.Reset() // no temporary file or held pipe outlives the command
	// Names from files and flags never reach the terminal raw: control and
	// bidirectional formatting characters are escaped (cliutil.TerminalSafe).
	safeOut, safeErr := &outfile.TerminalSafe{W: stdout}, &outfile.TerminalSafe{W: stderr}
	defer safeErr.Flush()
	out := &outfile.ErrWriter{W: safeOut}
	stderr = safeErr
	code := runCommand(args, out, stderr)
	safeOut.Flush()
	if out.Err != nil {
		fmt.Fprintf(stderr, "simrun: writing standard output: %v\n", out.Err)
		if code == exitOK {
			code = exitBadInput
		}
	}
	return code
}

// cli is one invocation: where output goes, and the exit code the command
// that ran chose (an error alone means exit 2).
type cli struct {
	stdout, stderr io.Writer
	code           int
	args           []string // the command line, for the claims a report records
}

// action adapts a command's body (exit code and error) to cobra's RunE.
func (c *cli) action(body func(cmd *cobra.Command, args []string) (int, error)) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		code, err := body(cmd, args)
		c.code = code
		return fieldFlags(err)
	}
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr, args: args}
	root := newRoot(c)
	if len(args) == 0 {
		root.SetOut(stderr)
		root.Usage()
		return exitBadInput
	}
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		msg := strings.TrimRight(err.Error(), "\n")
		if strings.HasPrefix(msg, "unknown command ") {
			msg += "\nRun 'simrun --help' for the commands."
		}
		fmt.Fprintf(stderr, "simrun: %s\n", msg)
		if c.code == exitOK {
			c.code = exitBadInput
		}
	}
	return c.code
}

func newRoot(c *cli) *cobra.Command {
	root := &cobra.Command{
		Use:                        "simrun",
		Short:                      "deterministic simulator of Kafka's tiered-storage follower fetch",
		Long:                       help("simrun"),
		Version:                    cliutil.Version(),
		SilenceErrors:              true,
		SilenceUsage:               true,
		SuggestionsMinimumDistance: 2,
	}
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	root.SetVersionTemplate("simrun {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newRunCmd(c), newScenariosCmd(c), newGenCmd(c), newSweepCmd(c), newMergeCmd(c),
		newReplayCmd(c), newShrinkCmd(c), newMutantsCmd(c), newCompareCmd(c), newPlanCmd(c), newExploreCmd(c), newFixesCmd(c))
	for _, cmd := range root.Commands() {
		cmd.Flags().SortFlags = true
	}
	cliutil.RefuseUnknownHelpTopics(root)
	return root
}

// commandLine is the command line as given, quoted for a POSIX shell.
func (c *cli) commandLine() string { return cliutil.CommandLine("simrun", c.args) }

// noArgs refuses positional arguments, naming the command and the first.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%s: unexpected argument %q", cmd.Name(), args[0])
	switch {
	case args[0] == "help":
		msg += fmt.Sprintf(": for help, simrun %s --help (or simrun help %s)", cmd.Name(), cmd.Name())
	case cmd.Flags().Lookup("scenario") != nil:
		msg += fmt.Sprintf(": a scenario is given with --scenario: simrun %s --scenario %s", cmd.Name(), cliutil.ShellQuote(args[0]))
	}
	return badInput("%s", msg)
}

// flagError makes a flag error bad input (exit 2) that names the command,
// and suggests the closest flag for an unknown one.
func flagError(cmd *cobra.Command, err error) error {
	msg := cliutil.FlagErrorMessage(cmd.Flags(), err.Error())
	return badInput("%s: %s (see 'simrun %s --help')", cmd.Name(), msg, cmd.Name())
}
