#!/usr/bin/env bash
# bench/plan-sweep.sh: the planner's integer program on a grid of random
# instances, for the slowest case rather than the typical one.
#
#   bench/plan-sweep.sh [--build DIR]
#
#   --build DIR  use an existing build tree instead of building one
#
# Grid (bench/plan/plan-scale, 3 namespaces, seeds 1 and 2): 200,
# 1,000 and 5,000 GPUs; demand 5%, 30%, 70%, 92% and 120% of the fleet;
# 0%, 30% and 80% of the GPUs holding a running instance; H100-80GB
# alone, or H100-80GB, A30-24GB and B200 mixed.  180 instances.
#
# Prints the five slowest solves and a count per status (optimal,
# infeasible, feasible, no-solution) as markdown on stdout.  Reported,
# never enforced.  Needs cmake and awk.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

build=""
while [ $# -gt 0 ]; do
	case $1 in
	--build) [ $# -ge 2 ] || bench_usage; build=$2; shift 2 ;;
	--build=*) build=${1#*=}; shift ;;
	*) bench_usage ;;
	esac
done
bench_need awk
dir=""
bench_workdir plan-sweep
trap 'rm -rf "$dir"' EXIT
if [ -z "$build" ]; then
	build=$dir/build
	bench_log "building $root in $build"
	cmake -S "$root" -B "$build" -DBUILD_TESTING=OFF >"$dir/cmake.log" 2>&1 ||
		{ cat "$dir/cmake.log" >&2; bench_die "cmake failed"; }
fi
cmake --build "$build" -j "$(nproc)" --target plan-scale >"$dir/build.log" 2>&1 ||
	{ tail -n 40 "$dir/build.log" >&2; bench_die "build failed"; }
scale=$build/bench/plan/plan-scale

: >"$dir/out"
for gpus in 200 1000 5000; do
for load in 0.05 0.3 0.7 0.92 1.2; do
for pinned in 0 0.3 0.8; do
for models in H100-80GB H100-80GB,A30-24GB,B200; do
for seed in 1 2; do
	line=$("$scale" --gpus "$gpus" --models "$models" --pinned "$pinned" \
		--load "$load" --seed "$seed" --teams 3 --time-limit 60) ||
		bench_die "plan-scale failed: $gpus $load $pinned $models $seed"
	echo "$gpus $load $pinned $models $seed $line" >>"$dir/out"
done; done; done; done; done

echo "## plan sweep ($(date -u +%Y-%m-%d))"
echo
bench_machine
echo "- rerun: \`bench/plan-sweep.sh\`"
echo
echo "| GPUs | demand | running | models | seed | status | solver s |"
echo "|---|---|---|---|---|---|---|"
awk '{ s = $0; sub(/.*"seconds": /, "", s); sub(/,.*/, "", s)
       st = $0; sub(/.*"status": "/, "", st); sub(/".*/, "", st)
       print s, $1, $2, $3, $4, $5, st }' "$dir/out" | sort -g -r | awk 'NR <= 5' |
	awk '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6, $7, $1 }'
echo
echo "Instances by status:"
awk '{ st = $0; sub(/.*"status": "/, "", st); sub(/".*/, "", st); n[st]++ }
     END { for (k in n) printf "- %s: %d\n", k, n[k] }' "$dir/out" | sort
