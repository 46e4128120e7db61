#!/usr/bin/env bash
# bench/snapshot.sh: the "foundation" benchmark.  How fast and how small
# kubectl-dra reads a whole fleet from a snapshot file (--from), in YAML
# and in JSON, next to the bare cost of parsing the same YAML with
# libyaml.
#
#   bench/snapshot.sh [--runs N] [--build DIR] [--dir DIR] [--keep] [--perf]
#
#   --runs N     timed rounds (default 5); every round runs every command
#                once, interleaved, so noise on a shared machine hits all
#                of them alike; plus one untimed warm-up round
#   --build DIR  use an existing build tree (kubectl-dra/kubectl-dra and
#                bench/gen/dra-gen-fleet in it) instead of building one
#   --dir DIR    scratch directory (default: a new one under $TMPDIR);
#                the snapshots take about 1.2 GB
#   --keep       keep the scratch directory (default: removed at exit)
#   --perf       after the rounds, profile each kubectl-dra command once
#                with perf (DWARF call graphs); summaries in
#                DIR/perf.LABEL.txt (implies --keep)
#
# Snapshots (dra-gen-fleet, seed 1):
#   (a) --nodes 1000 --layout full --claims 8000
#       1,000 slices, 8,000 devices, 8,000 claims and pods
#   (b) --nodes 1000 --layout dynamic-mig --claims 20000
#       9,000 slices, 208,000 devices, 20,000 claims and pods
# each written as YAML and as JSON.
#
# Commands, per snapshot and format:
#   kubectl-dra get devices -A --from FILE
#   kubectl-dra get claims -A --from FILE
#   yaml-events FILE   (bench/yaml-events.c: libyaml's event loop alone,
#                       YAML only, built here with cc)
# Output goes to /dev/null in timed runs; the warm-up round writes it to
# a file and checks the number of rows.
#
# Targets of the issue: (a) under 1 s and under 200 MB peak RSS;
# (b) under 10 s and under 1 GB.  They are reported, never enforced: the
# script fails only when a command fails.
#
# Prints a markdown report on stdout (progress on stderr).  Needs cmake,
# cc, pkg-config, libyaml-dev, GNU time (/usr/bin/time) and awk.
# Backquotes in single quotes are markdown code spans in the report.
# shellcheck disable=SC2016
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

usage() {
	awk '/^#   bench\// { p = 1 } /^# [A-Z]/ { p = 0 } p { sub(/^# ?/, ""); print }' "$0" >&2
	exit 2
}

runs=5 build="" dir="" keep=0 perf=0
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
	--runs=*) runs=${1#*=}; shift ;;
	--build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
	--build=*) build=${1#*=}; shift ;;
	--dir) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
	--dir=*) dir=${1#*=}; shift ;;
	--keep) keep=1; shift ;;
	--perf) perf=1 keep=1; shift ;;
	-h | --help) usage ;;
	*) usage ;;
	esac
done
case $runs in '' | *[!0-9]* | 0) bench_die "--runs wants a positive number" ;; esac
[ -x /usr/bin/time ] || bench_die "/usr/bin/time (GNU time) is missing"
bench_need cc pkg-config awk

bench_workdir snapshot
if [ "$keep" = 0 ]; then
	trap 'rm -rf "$dir"' EXIT
fi

load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# --------------------------------------------------------------- build --
bench_binaries "$root"
# shellcheck disable=SC2046
cc -std=c11 -O2 -o "$dir/yaml-events" "$here/yaml-events.c" \
	$(pkg-config --cflags --libs yaml-0.1) || bench_die "cannot build yaml-events"

# ------------------------------------------------------------ snapshots --
snap_a="--nodes 1000 --layout full --claims 8000"
snap_b="--nodes 1000 --layout dynamic-mig --claims 20000"
for s in a b; do
	case $s in a) opts=$snap_a ;; b) opts=$snap_b ;; esac
	for fmt in yaml json; do
		bench_log "generating ($s) $fmt: dra-gen-fleet $opts --format $fmt"
		# shellcheck disable=SC2086
		"$gen" $opts --format "$fmt" -o "$dir/$s.$fmt"
	done
done

# ------------------------------------------------------------- commands --
# One label per command: SNAPSHOT.FORMAT.WHAT
labels=""
for s in a b; do
	for fmt in yaml json; do
		labels="$labels $s.$fmt.devices $s.$fmt.claims"
	done
	labels="$labels $s.yaml.libyaml"
done

# run_label LABEL RUN OUT
run_label() {
	local s f what
	IFS=. read -r s f what <<<"$1"
	case $what in
	libyaml) bench_time "$dir/results" "$1" "$2" "$3" -- "$dir/yaml-events" "$dir/$s.$f" ;;
	*) bench_time "$dir/results" "$1" "$2" "$3" -- "$dra" get "$what" -A --from "$dir/$s.$f" ;;
	esac
}

# Warm-up: page cache, and a check that each command prints every row.
: >"$dir/results"
for l in $labels; do
	bench_log "warm-up: $l"
	run_label "$l" 0 "$dir/out"
	IFS=. read -r s f what <<<"$l"
	rows=$(($(wc -l <"$dir/out") - 1))
	case $s.$what in
	a.devices) want=8000 ;;
	b.devices) want=208000 ;;
	a.claims) want=8000 ;;
	b.claims) want=20000 ;;
	*) want="" ;;
	esac
	if [ -n "$want" ] && [ "$rows" != "$want" ]; then
		bench_die "$l printed $rows rows, expected $want"
	fi
done
: >"$dir/results"

# Timed rounds.  The order rotates every round so that no command always
# follows the same one.
# shellcheck disable=SC2086 # labels are plain words
bench_rounds "$runs" $labels
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
bench_stats "$dir/results" >"$dir/stats"

if [ "$perf" = 1 ]; then
	bench_need perf
	for l in $labels; do
		IFS=. read -r s f what <<<"$l"
		[ "$what" != libyaml ] || continue
		bench_log "perf: $l"
		bench_perf "$dir" "$l" 250 -- "$dra" get "$what" -A --from "$dir/$s.$f"
	done
fi

# -------------------------------------------------------------- report --
t() { bench_t "$dir/stats" "$1"; }
m() { bench_m "$dir/stats" "$1"; }
cpu() { bench_cpu "$dir/stats" "$1"; }
ratio() { bench_ratio "$dir/results" "$1" "$2" "$3"; }
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f", b / 1e6 }'; }
# own LABEL: median over rounds of CPU(LABEL) - CPU(libyaml alone), the
# part of kubectl-dra's CPU time that is not libyaml's event loop.
own() {
	local s=${1%%.*}
	awk -v a="$1" -v b="$s.yaml.libyaml" '
	$1 == a { x[$2] = $5 + $6 } $1 == b { y[$2] = $5 + $6 }
	END {
		for (i in x) if (i in y) q[++n] = x[i] - y[i]
		for (i = 2; i <= n; i++) { t = q[i]; for (j = i - 1; j >= 1 && q[j] > t; j--) q[j + 1] = q[j]; q[j + 1] = t }
		if (n == 0) print "n/a"
		else printf "%.2f", n % 2 ? q[(n + 1) / 2] : (q[n / 2] + q[n / 2 + 1]) / 2
	}' "$dir/results"
}
# verdict LABEL SECONDS MB
verdict() {
	awk -v l="$1" -v ts="$2" -v tm="$3" '$1 == l {
		mb = $6 * 1.024 / 1000
		s = sprintf("%.2f s", $3) (($3 < ts) ? "" : " **missed**")
		s = s sprintf(" (CPU %.2f s)", $9)
		s = s sprintf(", %.0f MB", mb) ((mb < tm) ? "" : " **missed**")
		print s }' "$dir/stats"
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes)"
fi

cat <<EOF
## bench/snapshot.sh

- command: \`bench/snapshot.sh --runs $runs\`
- kubectl-dra $commit, build type $(bench_build_type "$build"), $(cc --version | head -n 1), libyaml $(pkg-config --modversion yaml-0.1)
$(bench_machine | sed "s/^- load average at start: .*/- load average (1, 5, 15 min): $load_start at start, $load_end at end/")
- $runs timed rounds after one warm-up round; in each round every command
  ran once, in an order rotated every round; output to /dev/null
- cells: median (min–max) over the rounds; ratios are the median of the
  per-round ratios of two commands of the same round
- every command is single-threaded, so its CPU time (user + system) is
  what its wall time would be on an idle core; wall time also counts
  waiting for a core on a shared machine

Snapshots (dra-gen-fleet, seed 1):

| snapshot | dra-gen-fleet options | YAML | JSON |
|---|---|---|---|
| (a) | \`$snap_a\` | $(size_mb "$dir/a.yaml") MB | $(size_mb "$dir/a.json") MB |
| (b) | \`$snap_b\` | $(size_mb "$dir/b.yaml") MB | $(size_mb "$dir/b.json") MB |

Wall time, seconds:

| snapshot | command | YAML | JSON | YAML / JSON | libyaml events alone (YAML) | libyaml / YAML |
|---|---|---|---|---|---|---|
EOF
for s in a b; do
	for what in devices claims; do
		printf '| (%s) | `get %s -A --from FILE` | %s | %s | %s | %s | %s |\n' "$s" "$what" \
			"$(t "$s.yaml.$what")" "$(t "$s.json.$what")" \
			"$(ratio "$s.yaml.$what" "$s.json.$what" 3)" \
			"$(t "$s.yaml.libyaml")" \
			"$(ratio "$s.yaml.libyaml" "$s.yaml.$what" 3)"
	done
done

cat <<EOF

CPU time (user + system), seconds, medians; "rest" is the YAML run's CPU
time minus libyaml's alone in the same round (typing scalars, building a
cJSON tree per item, decoding, joins, output):

| snapshot | command | YAML | JSON | YAML / JSON | libyaml events alone | libyaml / YAML | rest of YAML |
|---|---|---|---|---|---|---|---|
EOF
for s in a b; do
	for what in devices claims; do
		printf '| (%s) | `get %s -A --from FILE` | %s | %s | %s | %s | %s | %s |\n' "$s" "$what" \
			"$(cpu "$s.yaml.$what")" "$(cpu "$s.json.$what")" \
			"$(ratio "$s.yaml.$what" "$s.json.$what" cpu)" \
			"$(cpu "$s.yaml.libyaml")" \
			"$(ratio "$s.yaml.libyaml" "$s.yaml.$what" cpu)" \
			"$(own "$s.yaml.$what")"
	done
done

cat <<EOF

Peak RSS, MB (10^6 bytes):

| snapshot | command | YAML | JSON | YAML / JSON | libyaml events alone (YAML) |
|---|---|---|---|---|---|
EOF
for s in a b; do
	for what in devices claims; do
		printf '| (%s) | `get %s -A --from FILE` | %s | %s | %s | %s |\n' "$s" "$what" \
			"$(m "$s.yaml.$what")" "$(m "$s.json.$what")" \
			"$(ratio "$s.yaml.$what" "$s.json.$what" 4)" \
			"$(m "$s.yaml.libyaml")"
	done
done

cat <<EOF

Targets of the issue ((a) under 1 s and 200 MB, (b) under 10 s and 1 GB),
judged on the median wall time and peak RSS:

| snapshot | command | YAML | JSON |
|---|---|---|---|
EOF
for s in a b; do
	if [ "$s" = a ]; then ts=1 tm=200; else ts=10 tm=1000; fi
	for what in devices claims; do
		printf '| (%s) | `get %s` | %s | %s |\n' "$s" "$what" \
			"$(verdict "$s.yaml.$what" $ts $tm)" "$(verdict "$s.json.$what" $ts $tm)"
	done
done

if [ "$keep" = 1 ]; then
	echo
	echo "Raw results (LABEL ROUND WALL_S PEAK_RSS_KIB USER_S SYS_S): $dir/results"
	if [ "$perf" = 1 ]; then
		echo "perf summaries: $dir/perf.*.txt"
	fi
fi
