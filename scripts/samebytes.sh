#!/usr/bin/env bash
# Shows that two simrun binaries print the same bytes: runs both on the same
# commands and diffs every output (standard output, standard error and the
# files written), for a refactoring that must change nothing a user sees.
#
#   go build -buildvcs=false -o /tmp/old ./cmd/simrun   # at the old commit
#   go build -buildvcs=false -o /tmp/new ./cmd/simrun   # at the new one
#   scripts/samebytes.sh /tmp/old /tmp/new [DIR]        # outputs in DIR/<hash of each binary>
#
# Covers: sweep --jsonl over seeds 1..$SEEDS (default 2000) under every
# profile, with its saved and shrunk failures; run --all (text, --json,
# --verbose, --trace under every profile); generated seeds run with --trace
# --json; Chrome traces and timelines of named scenarios; replays of saved
# failures; compare (the default report, a named scenario, generated
# scenarios, --vary); plan (the README's example, text and --json); explore
# (tiny fixtures with every fault, reduced and not, to the scenario's end,
# the bug zoo, known findings, --reexecute);
# mutants. Lines that read the wall clock (explore's "s, N states/s", its
# progress on standard error) and simrun_version are masked. Prints
# "IDENTICAL" and exits 0, or the differences and exits 1. Each binary's
# outputs are kept in DIR under its hash and reused by later comparisons
# (the base's are made once for a series of commits); one binary's take
# about ten minutes of one core.
# The golden digests and TestDefaultReportIsCurrent are go tests: run them in
# the new tree (go test ./harness ./cmd/simrun -run 'Golden|DefaultReport').
set -euo pipefail
repo=${REPO:-$(cd "$(dirname "$0")/.." && pwd)} # where the plan and explore testdata are
old=$(realpath "$1")
new=$(realpath "$2")
dir=$(realpath -m "${3:-${TMPDIR:-/tmp}/samebytes}")
seeds=${SEEDS:-2000}
profiles="kip kafka-4.3 kafka-trunk"

# outputs BIN WORKDIR: every command's outputs, written under WORKDIR with the
# same relative paths for both binaries so that printed paths agree.
outputs() {
	local bin=$1 work=$2
	rm -rf "$work"
	mkdir -p "$work"
	cd "$work"
	ln -s "$repo/plan" plan
	ln -s "$repo/explore/testdata" td
	# x NAME ARGS...: one command, its stdout, stderr and exit code kept.
	x() {
		local name=$1
		shift
		local rc=0
		nice "$bin" "$@" >"$name.out" 2>"$name.err" || rc=$?
		echo "$name exit $rc" >>exits.txt
	}
	local p s sc f
	for p in $profiles; do
		x "sweep-$p" sweep --seeds "1..$seeds" --profile "$p" --jsonl "sweep-$p.jsonl" --out "sweep-$p" --max-shrunk 5
	done
	x runall run --all
	x runall-json run --all --json
	x runall-verbose run --all --verbose
	for p in $profiles; do
		x "runall-trace-$p" run --all --trace --profile "$p"
	done
	mkdir gen
	for s in 1 2 3 4 5 6 7 8 9 10 52 66 561 607 3753 8963; do
		x "gen/gen-$s" gen --seed "$s" --out "gen/$s.json"
		x "gen/run-$s" run --scenario "gen/$s.json" --trace --json
		x "gen/run-$s-trunk" run --scenario "gen/$s.json" --profile kafka-trunk --strategy last-tiered
	done
	mkdir views
	for sc in election-mid-bootstrap tiered-follower-becomes-leader finding-stale-log-start-unfinished-segment \
		local-retention-sweep tiering-toggle-epuo-below-lso finding-reenable-stale-hro-restart; do
		x "views/$sc" run --scenario "$sc" --chrome-trace "views/$sc.chrome.json" --timeline "views/$sc.svg"
	done
	for f in $(ls sweep-kip/*.json 2>/dev/null | head -4); do
		x "replay-$(basename "$f" .json)" replay "$f"
	done
	x compare-default compare --seeds 1..10 --out compare-default
	x compare-emb compare --scenario election-mid-bootstrap --seeds 1..20 --out compare-emb
	x compare-gen compare --generated --seeds 1..20 --out compare-gen
	x compare-vary compare --scenario local-retention-sweep --vary local_retention_bytes=1MiB,5MiB,20MiB \
		--seeds 1..3 --profiles kip,kafka-4.3 --out compare-vary
	local D=plan/testdata/cluster
	local planargs=(--offsets "earliest=$D/earliest.txt" --offsets "earliest-local=$D/earliest-local.txt"
		--offsets "latest-tiered=$D/latest-tiered.txt" --offsets "earliest-pending-upload=$D/earliest-pending-upload.txt"
		--offsets "latest=$D/latest.txt" --configs "$D/configs.txt" --log-dirs "$D/log-dirs.txt" --topics "$D/topics.txt"
		--topic orders --partition 2 --produce-bytes-per-sec 5MiB)
	x plan plan "${planargs[@]}" --save plan.json
	x plan-json plan "${planargs[@]}" --json --seeds 1..3
	mkdir ex
	x ex/tiny-join explore --scenario td/tiny-join.json --depth 6 --faults crash,restart,elect,partition,remote-outage \
		--lost --jsonl ex/tiny-join.jsonl --out ex/tiny-join.json
	x ex/tiny-three explore --scenario td/tiny-three.json --depth 5 --faults crash,elect,partition \
		--jsonl ex/tiny-three.jsonl --out ex/tiny-three.json
	x ex/tiny-join-full explore --scenario td/tiny-join.json --depth 5 --faults crash,restart,elect,partition,remote-outage \
		--no-reduction
	x ex/tiny-join-end explore --scenario td/tiny-join.json --faults crash,elect --max-states 20000
	x ex/tiny-three-re explore --scenario td/tiny-three.json --depth 4 --faults crash,restart --reexecute --strategy local-log-start
	x ex/empty-again explore --scenario td/zoo/empty-again.json --mutant empty-again --profile kafka-4.3 --from-ms 15000 \
		--depth 6 --max-states 50000 --out ex/empty-again.json
	x ex/retention explore --scenario td/zoo/retention-before-upload.json --mutant retention-before-upload \
		--strategy local-log-start --depth 40 --max-states 50000 --out ex/retention.json
	x ex/stale-hro explore --scenario finding-reenable-stale-hro --depth 80 --max-states 100000 --out ex/stale-hro.json
	x ex/gap explore --scenario finding-follower-gap-after-disable --depth 80 --max-states 100000 --out ex/gap.json
	x mutants mutants --seeds 1..300 --shrink 300 --out mutants-out
	# Mask the wall clock and the build's version.
	find . -type f ! -name '*.svg' -print0 | xargs -0 sed -i -E \
		-e 's/"simrun_version": *"[^"]*"/"simrun_version":"X"/g' \
		-e 's/^  [0-9.]+ s, [0-9]+ states\/s/  TIME/' \
		-e 's/^(explore: depth [0-9]+, [0-9]+ states, [0-9]+ in the last level), [0-9.]+ s$/\1, TIME/'
	cd - >/dev/null
}

# out BIN: the outputs of BIN, kept under DIR by the binary's hash and made
# only once (a later comparison with another binary reuses them).
out() {
	local d
	d="$dir/$(sha256sum "$1" | cut -c1-12)"
	if [ ! -e "$d/.complete" ]; then
		echo "running $1 -> $d" >&2
		outputs "$1" "$d"
		touch "$d/.complete"
	fi
	echo "$d"
}
a=$(out "$old")
b=$(out "$new")
files=$(cd "$a" && find . -type f | wc -l)
if diff -r "$a" "$b" >"$dir/diff.txt"; then
	echo "IDENTICAL: $files files, $(wc -l <"$a/exits.txt") commands ($a, $b)"
else
	echo "DIFFERENT: $(grep -c '^diff\|^Only' "$dir/diff.txt" || true) of $files files differ; $dir/diff.txt:"
	head -40 "$dir/diff.txt"
	exit 1
fi
