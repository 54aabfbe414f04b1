#!/usr/bin/env bash
# Mutation testing: gremlins (github.com/go-gremlins/gremlins v0.6.0)
# mutates one line at a time (boundaries, negated conditions, arithmetic,
# increments) and runs the package's own tests against each mutant. A
# mutant the tests do not notice "lived": a change nothing guards.
# docs/contributing/TESTING.md records the scores.
#
#   scripts/mutation.sh                      # every package below (hours)
#   scripts/mutation.sh core                 # sim, model and invariants (tens of minutes)
#   scripts/mutation.sh shell                # harness, explore, plan, fuzz, compare, reports
#   scripts/mutation.sh model                # one package
#   DIFF=main scripts/mutation.sh model      # only lines changed since main: the fast loop
#   WORKERS=2 scripts/mutation.sh invariants # mutants in parallel (default 1: shared machines)
#   EXCLUDE='^(render|hazards)\.go$' scripts/mutation.sh plan  # leave files out (gremlins -E)
#
# The core packages (the protocol and its checks) run their whole tests.
# The shell packages (what runs scenarios and what users run) run theirs
# with -short (docs/contributing/TESTING.md lists what it skips: the tests of seconds to a
# minute, whose time would be paid again for every mutant); SHORT=0 runs
# them whole, SHORT=1 runs the core with -short too.
#
# Each package must reach 80% mutator coverage (mutants some test executes)
# and 85% test efficacy (of those, the share a test kills); the script exits
# 1 if one does not. Per package it writes OUT/PKG.txt (every mutant and its
# fate) and OUT/PKG.json (gremlins' report); OUT defaults to a temporary
# directory, printed at the end. Install gremlins with
#   go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
set -euo pipefail
cd "$(dirname "$0")/.."

gremlins=$(command -v gremlins || true)
if [ -z "$gremlins" ] && [ -x "$(go env GOPATH)/bin/gremlins" ]; then
	gremlins=$(go env GOPATH)/bin/gremlins
fi
if [ -z "$gremlins" ]; then
	echo "mutation.sh: gremlins not found; install it with" >&2
	echo "  go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0" >&2
	exit 2
fi

core=(sim model invariants)
shell=(harness explore plan fuzz compare reports)
pkgs=()
if [ $# -eq 0 ]; then
	set -- core shell
fi
for a in "$@"; do
	case $a in
	core) pkgs+=("${core[@]}") ;;
	shell) pkgs+=("${shell[@]}") ;;
	sim | model | invariants | harness | explore | plan | fuzz | compare | reports) pkgs+=("$a") ;;
	*)
		echo "mutation.sh: unknown package $a (want core, shell, or one of ${core[*]} ${shell[*]})" >&2
		exit 2
		;;
	esac
done

out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
workers=${WORKERS:-1}
# A mutant that loops forever is killed by a timeout of this many times the
# package's test time (the core's tests run in well under a second;
# compiling a mutant dominates). The shell packages' test binaries link
# most of the tree: at 10 on a loaded two-core machine every mutant of
# harness timed out, so they get 30.
diff=()
if [ -n "${DIFF:-}" ]; then
	diff=(--diff "$DIFF")
fi
# EXCLUDE=REGEX leaves out the files it matches (gremlins -E; paths are
# relative to the package's directory: "render.go", not "plan/render.go"), to split a
# large package into runs.
if [ -n "${EXCLUDE:-}" ]; then
	diff+=(--exclude-files "$EXCLUDE")
fi

# A failing rapid property must not leave a fail file in the tree.
export RAPID_NOFAILFILE=1

status=0
summary=()
for p in "${pkgs[@]}"; do
	short=${SHORT:-}
	if [ -z "$short" ]; then
		short=0
		case " ${shell[*]} " in *" $p "*) short=1 ;; esac
	fi
	# -count=1: gremlins times each mutant out at the coefficient times its
	# coverage pass, which Go's test cache can serve in under a second (a
	# shell package's mutants were then cut at 21 s, below its tests' time).
	flags="${GOFLAGS:+$GOFLAGS }-count=1"
	if [ "$short" = 1 ]; then
		flags="${flags:+$flags }-short"
	fi
	coefficient=${TIMEOUT_COEFFICIENT:-10}
	case " ${shell[*]} " in *" $p "*) coefficient=${TIMEOUT_COEFFICIENT:-30} ;; esac
	echo "mutation.sh: $p (workers $workers, timeout coefficient $coefficient${flags:+, GOFLAGS=$flags})" >&2
	start=$(date +%s)
	if ! GOFLAGS=$flags "$gremlins" unleash --workers "$workers" --timeout-coefficient "$coefficient" "${diff[@]}" \
		--threshold-mcover 80 --threshold-efficacy 85 -o "$out/$p.json" "./$p" >"$out/$p.txt" 2>&1; then
		status=1
	fi
	secs=$(($(date +%s) - start))
	line=$(grep -E '^(Killed|Test efficacy|Mutator coverage)' "$out/$p.txt" | tr '\n' ' ' || true)
	summary+=("$p ($((secs / 60))m$((secs % 60))s): ${line:-see $out/$p.txt}")
	grep -E '^ +LIVED|^ NOT COVERED' "$out/$p.txt" | sed "s|^|  $p: |" >&2 || true
done

echo
for s in "${summary[@]}"; do
	echo "$s"
done
echo "reports in $out"
exit $status
