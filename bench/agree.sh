#!/usr/bin/env bash
# bench/agree.sh: the full agreement run between `kubectl dra why` and
# the real kube-scheduler v1.37.2 (tests/agree/run) on many random
# scenarios, with the figures for docs/BENCHMARKS.md.
#
#   bench/agree.sh [--count N] [--seed S] [--start I] [--build DIR]
#
#   --count N    scenarios (default 200): dra-gen-scenario --seed S
#                --index I for I = START .. START+N-1
#   --seed S     (default 1)
#   --start I    first index (default 0)
#   --build DIR  an existing build tree with kubectl-dra/kubectl-dra and
#                tests/agree/dra-gen-scenario (default: build-agree of
#                this checkout, configured and built here when missing
#                pieces)
#
# Its own cluster, as tests/agree/run: DRA_CLUSTER_DIR (default
# /tmp/dra-agree), DRA_PORT_BASE (default 26800); stopped at the end.
# Output in DRA_AGREE_OUT (default /tmp/dra-agree-bench): results.txt,
# summary.txt, and a directory per scenario with a disagreement.  The
# summary (scenarios, claims, agreements, disagreements with their
# scenario and files, time) is printed at the end.  About 10 s per
# scenario on the project's 2-core machine: some 35 minutes for 200.
# Exit status: that of tests/agree/run (1 on any disagreement).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$root/bench/lib.sh"

count=200 seed=1 start=0 build=$root/build-agree
while [ $# -gt 0 ]; do
	case $1 in
	--count) count=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--start) start=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) bench_die "unknown argument '$1' (see --help)" ;;
	esac
done
bench_need cmake awk

if [ ! -x "$build/kubectl-dra/kubectl-dra" ] || [ ! -x "$build/tests/agree/dra-gen-scenario" ]; then
	bench_log "building kubectl-dra and dra-gen-scenario in $build"
	cmake -S "$root" -B "$build" >"$build.cmake.log" 2>&1 ||
		{ cat "$build.cmake.log" >&2; bench_die "cmake failed"; }
	cmake --build "$build" -j 2 --target kubectl-dra dra-gen-scenario >"$build.build.log" 2>&1 ||
		{ tail -n 40 "$build.build.log" >&2; bench_die "build failed"; }
fi

export DRA_PLUGIN=$build/kubectl-dra/kubectl-dra
export DRA_GEN_SCENARIO=$build/tests/agree/dra-gen-scenario
export DRA_AGREE_OUT=${DRA_AGREE_OUT:-/tmp/dra-agree-bench}
bench_log "commit $(git -C "$root" rev-parse --short HEAD), $count scenarios from seed $seed index $start, output in $DRA_AGREE_OUT"
exec "$root/tests/agree/run" --seed "$seed" --count "$count" --start "$start" --down
