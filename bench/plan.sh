#!/usr/bin/env bash
# bench/plan.sh: the `plan` benchmark.  How long the planner's integer
# program takes to prove a layout optimal as the fleet grows, and how
# many GPUs the plan saves against the scheduler's first fit on the same
# demand, side by side in one run.
#
#   bench/plan.sh [--runs N] [--build DIR] [--dir DIR] [--keep]
#
#   --runs N     timed rounds (default 5); every round runs every command
#                once, in an order that rotates, plus one untimed warm-up
#   --build DIR  use an existing build tree instead of building one
#   --dir DIR    scratch directory (default: a new one under $TMPDIR)
#   --keep       keep the scratch directory
#
# Solver at scale (bench/plan/plan-scale: the fleet and demand built in
# memory, plan_solve() timed; the issue's setting: 10 namespaces of mixed
# demand, 30% of the GPUs holding one running instance at a random
# placement, demand about 0.92 GPU per GPU, min 70% of max):
#   s.h1k     1,000 H100-80GB
#   s.h10k    10,000 H100-80GB
#   s.mix100k 100,000 GPUs of six models (H100-80GB, A100-80GB,
#             A100-40GB, H200, B200, A30-24GB), one model per node
# Each is also placed once by the first-fit baseline (random arrival
# order) on the same fleet, for the GPUs it needs.
#
# Against first fit, end to end (`kubectl dra plan --fleet 1100xH100-80GB
# -o json`, four baseline orders, the replay through the allocator):
#   f.notes   the mixed demand of PLANNER-NOTES.md (1,400 x 1g.10gb,
#             300 x 1g.20gb, 700 x 2g.20gb, 600 x 3g.40gb, 150 x 4g.40gb,
#             120 x 7g.80gb; optimum 920 GPUs)
#   f.frag    a fragmentation-prone demand: 1,500 x 1g.10gb listed
#             before 500 x 4g.40gb (a 4g fits only at slice 0, which an
#             early 1g takes; optimum 500 GPUs)
#
# Targets of the issue: 1,000 H100 proven optimal in under 1 s; 100,000
# GPUs of mixed models proven optimal in under 10 s; on a
# fragmentation-prone demand at least 15% fewer GPUs than the first-fit
# baseline.  Reported, never enforced: the script fails only when a
# command fails or a plan is not optimal.
#
# Prints a markdown report on stdout (progress on stderr).  Needs cmake,
# GNU time (/usr/bin/time) and awk.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

bench_args "$@"

bench_workdir plan
if [ "$keep" = 0 ]; then
	trap 'rm -rf "$dir"' EXIT
fi
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

bench_binaries "$root"
cmake --build "$build" -j "$(nproc)" --target plan-scale \
	>"$dir/plan-scale.build.log" 2>&1 ||
	{ tail -n 40 "$dir/plan-scale.build.log" >&2; bench_die "build failed"; }
scale=$build/bench/plan/plan-scale
[ -x "$scale" ] || bench_die "no $scale"

cat >"$dir/notes.yaml" <<'EOF'
apiVersion: dra.kubectl.io/v1alpha1
kind: Demand
policy: {utilization: {target: 100%, ceiling: 100%}, price: {perGPUMonth: 15000, currency: RUB}}
teams:
- namespace: mix
  workloads:
  - {name: a, replicas: 1400, needs: {profile: 1g.10gb}}
  - {name: b, replicas: 300, needs: {profile: 1g.20gb}}
  - {name: c, replicas: 700, needs: {profile: 2g.20gb}}
  - {name: d, replicas: 600, needs: {profile: 3g.40gb}}
  - {name: e, replicas: 150, needs: {profile: 4g.40gb}}
  - {name: f, replicas: 120, needs: {profile: 7g.80gb}}
EOF
cat >"$dir/frag.yaml" <<'EOF'
apiVersion: dra.kubectl.io/v1alpha1
kind: Demand
policy: {utilization: {target: 100%, ceiling: 100%}, price: {perGPUMonth: 15000, currency: RUB}}
teams:
- namespace: small
  workloads:
  - {name: one-slice, replicas: 1500, needs: {profile: 1g.10gb}}
- namespace: big
  workloads:
  - {name: four-slice, replicas: 500, needs: {profile: 4g.40gb}}
EOF

mixed=H100-80GB,A100-80GB,A100-40GB,H200,B200,A30-24GB
scale_args() {
	case $1 in
	s.h1k) echo "--gpus 1000 --models H100-80GB" ;;
	s.h10k) echo "--gpus 10000 --models H100-80GB" ;;
	s.mix100k) echo "--gpus 100000 --models $mixed" ;;
	esac
}

labels="s.h1k s.h10k s.mix100k f.notes f.frag"

# Every run keeps its output: the solver's own seconds are in it.
run_label() {
	local label=$1 round=$2 out
	out=$dir/out.$label.$round
	case $label in
	s.*)
		# shellcheck disable=SC2046
		bench_time "$dir/results" "$label" "$round" "$out" -- \
			"$scale" $(scale_args "$label") --pinned 0.3 --teams 10 \
			--load 0.92 --seed 1 ;;
	f.*)
		bench_time "$dir/results" "$label" "$round" "$out" -- \
			"$dra" plan --demand "$dir/${label#f.}.yaml" \
			--fleet 1100xH100-80GB -o json \
			--baseline as-given,small-first,large-first,random ;;
	esac
}

# json_num FILE KEY: the first number after "KEY": in FILE.
json_num() {
	awk -v k="\"$2\":" '{ for (i = 1; i < NF; i++) if ($i == k) { v = $(i + 1); gsub(/[^0-9.e+-]/, "", v); print v; exit } }' "$1"
}
json_str() {
	awk -v k="\"$2\":" '{ for (i = 1; i < NF; i++) if ($i == k) { v = $(i + 1); gsub(/[",]/, "", v); print v; exit } }' "$1"
}

: >"$dir/results"
for l in $labels; do
	bench_log "warm-up: $l"
	run_label "$l" 0
done
for l in s.h1k s.h10k s.mix100k; do
	[ "$(json_str "$dir/out.$l.0" status)" = optimal ] ||
		bench_die "$l: not optimal: $(cat "$dir/out.$l.0")"
	bench_log "baseline: $l"
	# shellcheck disable=SC2046
	"$scale" $(scale_args "$l") --pinned 0.3 --teams 10 --load 0.92 \
		--seed 1 --baseline random >"$dir/base.$l"
done
for l in f.notes f.frag; do
	grep -q '"status": *"optimal"' "$dir/out.$l.0" ||
		bench_die "$l: not optimal"
done
: >"$dir/results"
# shellcheck disable=SC2086
bench_rounds "$runs" $labels
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
bench_stats "$dir/results" >"$dir/stats"

t() { bench_t "$dir/stats" "$1"; }
m() { bench_m "$dir/stats" "$1"; }
# solver L: median (min-max) of the solver's own seconds over the rounds.
solver() {
	local r
	for ((r = 1; r <= runs; r++)); do
		json_num "$dir/out.$1.$r" seconds
	done | sort -g | awk '{ a[++n] = $1 } END {
		m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		printf "%.3f (%.3f–%.3f)", m, a[1], a[n] }'
}
proven() {
	local r n=0
	for ((r = 1; r <= runs; r++)); do
		[ "$(json_str "$dir/out.$1.$r" status)" = optimal ] && n=$((n + 1))
	done
	echo "$n/$runs"
}
f() { json_num "$1" "$2"; }
# baseline FILE ORDER: the GPUs of one baseline order in a Plan document.
baseline() {
	awk -v o="$2" '$0 ~ "\"order\": \"" o "\"" { on = 1; next }
		on && /"gpus":/ { v = $2; gsub(/[^0-9]/, "", v); print v; exit }' "$1"
}
fewer() { awk -v p="$1" -v b="$2" 'BEGIN { printf "%.1f%%", (b - p) * 100 / b }'; }

cat <<EOF
## plan: the integer program at scale, and against first fit ($(date -u +%Y-%m-%d))

$(bench_machine)
- load average at the end: $load_end (start: $load_start)
- build: $(bench_build_type "$build")
- rounds: $runs (medians; min–max in brackets)
- rerun: \`bench/plan.sh --runs $runs\`

### Solver at scale (10 namespaces, 30% of GPUs holding a running instance)

| fleet | classes | patterns | columns x rows | proven optimal | solver s | wall s | peak MB | plan GPUs | first fit (random order) |
|---|---|---|---|---|---|---|---|---|---|
EOF
for l in s.h1k s.h10k s.mix100k; do
	o=$dir/out.$l.1
	case $l in
	s.h1k) name="1,000 H100-80GB" ;;
	s.h10k) name="10,000 H100-80GB" ;;
	s.mix100k) name="100,000 of 6 models" ;;
	esac
	bg=$(awk -F'"gpus": ' '{ split($3, a, ","); print a[1] }' "$dir/base.$l")
	bu=$(awk -F'"unplaced": ' '{ split($2, a, ","); print a[1] }' "$dir/base.$l")
	bs=$(awk -F'"seconds": ' '{ split($3, a, "}"); print a[1] }' "$dir/base.$l")
	echo "| $name | $(f "$o" classes) | $(f "$o" patterns) | $(f "$o" columns) x $(f "$o" rows) | $(proven "$l") | $(solver "$l") | $(t "$l") | $(m "$l") | $(f "$o" used) | $bg GPUs, $bu devices unplaced (${bs} s) |"
done
cat <<EOF

"solver s" is plan_solve()'s own time (building the classes and
patterns, the GLPK levels, the layout); "wall s" adds building the
fleet and demand in memory.  First fit places the plan's devices on the
same fleet (running instances held) one claim at a time with the
structured allocator; "unplaced" devices found no GPU.

### Against first fit (\`kubectl dra plan --fleet 1100xH100-80GB\`)

| demand | plan GPUs | first fit: as-given | small-first | large-first | random | fewer than as-given | wall s | peak MB |
|---|---|---|---|---|---|---|---|---|
EOF
for l in f.notes f.frag; do
	o=$dir/out.$l.0
	case $l in
	f.notes) name="PLANNER-NOTES mix (3,270 instances)" ;;
	f.frag) name="fragmentation-prone (1g.10gb before 4g.40gb)" ;;
	esac
	used=$(f "$o" used)
	ag=$(baseline "$o" as-given)
	echo "| $name | $used | $ag | $(baseline "$o" small-first) | $(baseline "$o" large-first) | $(baseline "$o" random) | $(fewer "$used" "$ag") | $(t "$l") | $(m "$l") |"
done
cat <<EOF

Wall time is the whole command: the fleet, the integer program, four
first-fit baselines of every device through the allocator, and the
replay of the plan through the allocator.
EOF
