#!/usr/bin/env bash
# Mutation testing of the packages that hold the protocol and its checks:
# gremlins (github.com/go-gremlins/gremlins v0.6.0) mutates one line at a
# time (boundaries, negated conditions, arithmetic, increments) and runs the
# package's own tests against each mutant. A mutant the tests do not notice
# "lived": a change nothing guards. docs/contributing/TESTING.md records the scores.
#
#   scripts/mutation.sh                      # sim, model and invariants (tens of minutes)
#   scripts/mutation.sh model                # one package
#   DIFF=main scripts/mutation.sh model      # only lines changed since main: the fast loop
#   WORKERS=2 scripts/mutation.sh invariants # mutants in parallel (default 1: shared machines)
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

pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
	pkgs=(sim model invariants)
fi
for p in "${pkgs[@]}"; do
	case $p in
	sim | model | invariants) ;;
	*)
		echo "mutation.sh: unknown package $p (want sim, model or invariants)" >&2
		exit 2
		;;
	esac
done

out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
workers=${WORKERS:-1}
# A mutant that loops forever is killed by a timeout of this many times the
# package's test time (the tests run in well under a second; compiling a
# mutant dominates).
coefficient=${TIMEOUT_COEFFICIENT:-10}
diff=()
if [ -n "${DIFF:-}" ]; then
	diff=(--diff "$DIFF")
fi

status=0
summary=()
for p in "${pkgs[@]}"; do
	echo "mutation.sh: $p (workers $workers)" >&2
	start=$(date +%s)
	if ! "$gremlins" unleash --workers "$workers" --timeout-coefficient "$coefficient" "${diff[@]}" \
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
