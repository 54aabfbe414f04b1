#!/usr/bin/env bash
# Regenerates the exploration section of docs/contributing/BENCHMARKS.md (between its
# "explore:begin" and "explore:end" lines; scripts/bench.sh carries the
# section over when it rewrites the file):
#
#   - BenchmarkExplore of this commit and of BASE (the commit before the
#     search went to the scenario's end), alternating, one core;
#   - this commit's omts-local-deleted to depth 40, with and without
#     liveness, with and without the reduction (BenchmarkExplore), and
#     simrun explore of it at both commits, one core, alternating;
#   - tiny-join exhausted to the end of the scenario, with and without the
#     reduction, one core;
#   - tiny-join with every fault and lost messages for LONG seconds of CPU
#     on one core (SIGINT then: the part searched is printed), with and
#     without the reduction;
#   - local-retention-sweep with every fault and lost messages from 60 s
#     to 90,000 states, and tiny-join with every fault and lost messages
#     to 200,000 states: peak resident memory at two --max-memory budgets
#     (the process's bound: max RSS must stay within it).
#
# The long and to-the-end searches take --max-memory $MEM (default 2048:
# the machine is shared; both long searches run at once).
#
#   scripts/bench-explore.sh              # into docs/contributing/BENCHMARKS.md
#   COUNT=5 LONG=600 BASE=22fbfbd scripts/bench-explore.sh
#
# Speed is reported, never asserted. Runs are niced; the load average
# before and after each part is printed with it (2 cores: above 2, other
# processes took CPU, and only the ratios measured side by side mean much).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/contributing/BENCHMARKS.md}
count=${COUNT:-3}
long=${LONG:-600}
base=${BASE:-22fbfbd}
# SMOKE=1 checks the script itself in a minute: every bound made tiny.
omts_depth=40 end_states=20000000 mem_states=90000 tj_mem_states=200000 bench_time=3s omts_bench=omts-local-deleted
mem=${MEM:-2048}
if [ -n "${SMOKE:-}" ]; then
	omts_depth=3 end_states=2000 mem_states=300 tj_mem_states=3000 bench_time=1x long=3 omts_bench=tiny-three
fi
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" 2>/dev/null; rm -rf "$tmp"' EXIT

echo "building this commit's and $base's explore test binaries and simrun" >&2
go test -c -o "$tmp/new.test" ./explore
go build -o "$tmp/simrun" ./cmd/simrun
git worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1
if ! grep -q cpuSeconds "$tmp/base/explore/bench_test.go"; then
	# The base's benchmark reports wall-clock rates only: give it this
	# commit's CPU-time metric (the same getrusage) beside them.
	sed -n '/^\/\/ cpuSeconds is/,/^}/p' explore/bench_test.go |
		{ printf 'package explore\n\nimport "syscall"\n\n'; cat; } >"$tmp/base/explore/cpu_bench_test.go"
	sed -i -e 's|^\(\t*\)var states int64$|&\n\1cpu0 := cpuSeconds()|' \
		-e 's|^\(\t*\)b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")$|&\n\1b.ReportMetric(float64(states)/(cpuSeconds()-cpu0), "states/cpu-s")|' \
		"$tmp/base/explore/bench_test.go"
fi
(cd "$tmp/base" && go test -c -o "$tmp/base.test" ./explore && go build -o "$tmp/simrun-base" ./cmd/simrun)

load() { cut -d' ' -f1-3 /proc/loadavg; }
tiny=explore/testdata/tiny-join.json
all=crash,restart,elect,partition,remote-outage

# bench BINARY NAME PATTERN BENCHTIME: one run, lines prefixed with NAME.
bench() {
	echo "  $2 $3" >&2
	(cd explore && nice "$1" -test.run '^$' -test.bench "$3" -test.cpu 1 -test.benchtime "$4") |
		grep -E '^Benchmark' | sed "s/^Benchmark/$2 Benchmark/"
}

S=$tmp/side.txt O=$tmp/omts.txt C=$tmp/cli.txt E=$tmp/end.txt L=$tmp/long.txt M=$tmp/mem.txt
# cpu_limit PID SECONDS: SIGINT to PID once it has used SECONDS of CPU
# (user and system, from /proc: a shared machine's load does not shorten
# it). The caller waits for PID.
cpu_limit() {
	local pid=$1 limit=$(($2 * $(getconf CLK_TCK)))
	while kill -0 "$pid" 2>/dev/null; do
		local ticks
		ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
		if [ "$ticks" -ge "$limit" ]; then
			kill -INT "$pid"
			return
		fi
		sleep 2
	done
}

# The long searches are limited by CPU time, so they run beside the rest
# (each on one core: GOMAXPROCS=1), started first and waited for last.
load_long_before=$(load)
long_pids=()
for r in on off; do
	flag=()
	[ "$r" = off ] && flag=(--no-reduction)
	echo "  tiny-join, every fault and lost messages, $long s of CPU, reduction $r (in the background)" >&2
	GOMAXPROCS=1 nice "$tmp/simrun" explore --scenario "$tiny" --faults "$all" --lost \
		--max-states 100000000 --max-memory "$mem" "${flag[@]}" --out "$tmp/cx-$r.json" >"$tmp/long-$r.txt" 2>/dev/null &
	pid=$!
	cpu_limit "$pid" "$long" &
	long_pids+=("$pid" $!)
done

load_side_before=$(load)
for _ in $(seq "$count"); do
	for v in base new; do
		for p in '^tiny-join$/^depth-24$/^clone$' '^tiny-join$/^all-faults-lost$/^depth-5$/^clone$' '^tiny-three$/^depth-16$/^clone$'; do
			bench "$tmp/$v.test" "$v" "Explore/$p" "$bench_time" >>"$S"
		done
	done
done
load_side_after=$(load)

load_omts_before=$(load)
for _ in $(seq "$count"); do
	for p in '^tiny-join$/^depth-24$/^full$' '^tiny-join$/^all-faults-lost$/^depth-5$/^full$' "^$omts_bench\$/"; do
		bench "$tmp/new.test" new "Explore/$p" 1x >>"$O"
	done
done
load_omts_after=$(load)

# cli NAME BINARY ARGS...: simrun explore on one core: "NAME: STATES
# states, CPU s, STATES/CPU states/cpu-s (wall s)".
cli() {
	local name=$1 bin=$2
	shift 2
	echo "  $name simrun explore $*" >&2
	GOMAXPROCS=1 nice /usr/bin/time -f '%U %S %e' -o "$tmp/cli-time" "$bin" explore "$@" --out "$tmp/cx.json" \
		>"$tmp/cli-out" 2>/dev/null || true
	local states
	states=$(sed -nE 's/^ *states ([0-9]+) .*/\1/p' "$tmp/cli-out")
	awk -v n="$name" -v s="$states" '{ cpu = $1 + $2; printf "%s: %d states, %.2f CPU s, %.0f states/cpu-s (%.2f s wall)\n", n, s, cpu, s / cpu, $3 }' "$tmp/cli-time"
}
load_cli_before=$(load)
for _ in $(seq "$count"); do
	cli base "$tmp/simrun-base" --scenario omts-local-deleted --depth "$omts_depth" >>"$C"
	cli new "$tmp/simrun" --scenario omts-local-deleted --depth "$omts_depth" >>"$C"
done
load_cli_after=$(load)

# summary NAME FILE: the lines of a search's output that say what it did.
summary() { grep -E '^  (states|liveness|[0-9.]+ s,|exhausted|NOT|stopped)' "$2" | sed "s/^ */$1: /"; }
load_end_before=$(load)
for r in on off; do
	flag=()
	[ "$r" = off ] && flag=(--no-reduction)
	echo "  tiny-join to the end, reduction $r" >&2
	GOMAXPROCS=1 nice /usr/bin/time -f '%e s wall, %U s user, %S s system, %M KiB max RSS' "$tmp/simrun" explore --scenario "$tiny" --max-states "$end_states" \
		--max-memory "$mem" "${flag[@]}" --out "$tmp/cx.json" >"$tmp/end-$r.txt" 2>"$tmp/end-$r.err" || true
	{ summary "reduction $r" "$tmp/end-$r.txt"; echo "reduction $r: $(tail -1 "$tmp/end-$r.err")"; } >>"$E"
done
load_end_after=$(load)

load_mem_before=$(load)
for mm in 1024 512; do
	echo "  local-retention-sweep, --max-memory $mm" >&2
	nice /usr/bin/time -f '%e s wall, %U s user, %M KiB max RSS' "$tmp/simrun" explore --scenario local-retention-sweep \
		--faults "$all" --lost --max-states "$mem_states" --from-ms 60000 --max-memory "$mm" --out "$tmp/cx.json" \
		>"$tmp/mem-$mm.txt" 2>"$tmp/mem-$mm.err" || true
	{ summary "local-retention-sweep --max-memory $mm" "$tmp/mem-$mm.txt"
		echo "local-retention-sweep --max-memory $mm: $(tail -1 "$tmp/mem-$mm.err")"; } >>"$M"
	echo "  tiny-join, every fault and lost messages, --max-memory $mm" >&2
	nice /usr/bin/time -f '%e s wall, %U s user, %M KiB max RSS' "$tmp/simrun" explore --scenario "$tiny" \
		--faults "$all" --lost --max-states "$tj_mem_states" --max-memory "$mm" --out "$tmp/cx.json" \
		>"$tmp/tjmem-$mm.txt" 2>"$tmp/tjmem-$mm.err" || true
	{ summary "tiny-join --max-memory $mm" "$tmp/tjmem-$mm.txt"
		echo "tiny-join --max-memory $mm: $(tail -1 "$tmp/tjmem-$mm.err")"; } >>"$M"
done
load_mem_after=$(load)

wait "${long_pids[@]}" || true
for r in on off; do
	summary "reduction $r" "$tmp/long-$r.txt" >>"$L"
done
load_long_after=$(load)

# median NAME VARIANT: the median states/s of a benchmark's runs.
median() {
	awk -v v="$2" -v name="$1" '$1 == v && $2 == name { for (i = 3; i < NF; i++) if ($(i+1) == "states/cpu-s") print $i }' "$S" "$O" |
		sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "n/a"; else printf "%.0f", a[int((NR + 1) / 2)] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "n/a" || b == "n/a" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }
cli_median() {
	grep "^$1:" "$C" | sed -E 's/.* ([0-9]+) states\/cpu-s.*/\1/' | sort -n |
		awk '{ a[NR] = $1 } END { if (NR == 0) print "n/a"; else printf "%.0f", a[int((NR + 1) / 2)] }'
}

section=$(
	echo "<!-- explore:begin (scripts/bench-explore.sh writes this section; scripts/bench.sh keeps it) -->"
	cat <<EOF
## Exploration (issue 24)

Generated by \`scripts/bench-explore.sh\` on $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD), base $base, $count rounds
(medians), one core (\`-cpu 1\`, \`GOMAXPROCS=1\`), niced. Rates are states per CPU second of
the process (getrusage, /usr/bin/time): on a shared 2-core machine the wall clock measures the
other load as much as the search (the load average before / after each part is given; the
raw output has the wall-clock rates too); the ratios of runs alternated in one part are what
to read. The base's benchmark is given the same CPU-time metric for the run.

| search, states per CPU second (median) | $base | this commit | ratio |
| --- | --- | --- | --- |
| tiny-join, depth 24 (goal >= 100,000) | $(median BenchmarkExplore/tiny-join/depth-24/clone base) | $(median BenchmarkExplore/tiny-join/depth-24/clone new) | $(ratio "$(median BenchmarkExplore/tiny-join/depth-24/clone new)" "$(median BenchmarkExplore/tiny-join/depth-24/clone base)") |
| tiny-join, every fault and lost messages, depth 5 | $(median BenchmarkExplore/tiny-join/all-faults-lost/depth-5/clone base) | $(median BenchmarkExplore/tiny-join/all-faults-lost/depth-5/clone new) | $(ratio "$(median BenchmarkExplore/tiny-join/all-faults-lost/depth-5/clone new)" "$(median BenchmarkExplore/tiny-join/all-faults-lost/depth-5/clone base)") |
| tiny-three, depth 16 | $(median BenchmarkExplore/tiny-three/depth-16/clone base) | $(median BenchmarkExplore/tiny-three/depth-16/clone new) | $(ratio "$(median BenchmarkExplore/tiny-three/depth-16/clone new)" "$(median BenchmarkExplore/tiny-three/depth-16/clone base)") |
| \`simrun explore --scenario omts-local-deleted --depth 40\` (liveness on; goal >= 30,000) | $(cli_median base) | $(cli_median new) | $(ratio "$(cli_median new)" "$(cli_median base)") |

Load: benchmarks $load_side_before / $load_side_after; simrun $load_cli_before / $load_cli_after.

This commit alone (BenchmarkExplore, $count runs, load $load_omts_before / $load_omts_after):

| search | states per CPU second (median) | with the reduction off (-full) |
| --- | --- | --- |
| tiny-join, depth 24 | $(median BenchmarkExplore/tiny-join/depth-24/clone new) | $(median BenchmarkExplore/tiny-join/depth-24/full new) |
| tiny-join, every fault and lost messages, depth 5 | $(median BenchmarkExplore/tiny-join/all-faults-lost/depth-5/clone new) | $(median BenchmarkExplore/tiny-join/all-faults-lost/depth-5/full new) |
| omts-local-deleted, depth 40, no liveness | $(median BenchmarkExplore/omts-local-deleted/depth-40/clone new) | - |
| omts-local-deleted, depth 40, liveness (goal >= 30,000) | $(median BenchmarkExplore/omts-local-deleted/depth-40/liveness/clone new) | $(median BenchmarkExplore/omts-local-deleted/depth-40/liveness/full new) |

tiny-join to the end of the scenario (no faults; \`--max-states $end_states --max-memory $mem\`,
one core; load $load_end_before / $load_end_after):

\`\`\`
$(cat "$E")
\`\`\`

tiny-join with every fault kind and lost messages (\`--faults $all --lost --max-memory $mem\`), $long s of CPU on
one core each (from /proc, so the other load does not shorten it), then SIGINT (load
$load_long_before / $load_long_after):

\`\`\`
$(cat "$L")
\`\`\`

Memory (\`--max-memory\` bounds the process: max RSS must stay within it): local-retention-sweep
with every fault and lost messages, \`--from-ms 60000 --max-states $mem_states\` (before any
memory bound: 4.9 GB max RSS and 530 s), and tiny-join with every fault and lost messages,
\`--max-states $tj_mem_states\`; load $load_mem_before / $load_mem_after:

\`\`\`
$(cat "$M")
\`\`\`

Raw output:

\`\`\`
$(cat "$S" "$O" "$C")
\`\`\`
EOF
	echo "<!-- explore:end -->"
)

printf '%s\n' "$section" >"$tmp/section.txt"
if grep -q '^<!-- explore:begin' "$out"; then
	awk -v secfile="$tmp/section.txt" '
		/^<!-- explore:begin/ { while ((getline line < secfile) > 0) print line; skip = 1; next }
		/^<!-- explore:end/ { skip = 0; next }
		!skip' "$out" >"$tmp/out.new"
else
	awk -v secfile="$tmp/section.txt" '
		/^## Raw output/ && !done { while ((getline line < secfile) > 0) print line; print ""; done = 1 }
		{ print }' "$out" >"$tmp/out.new"
fi
cp "$tmp/out.new" "$out"
echo "wrote the exploration section of $out" >&2
