#!/usr/bin/env bash
# bench/ui.sh: the `kubectl dra ui` benchmark (issue 6).  How long the
# interactive view takes from the data in hand to its first screen, how
# long a keystroke takes, and how much memory it holds, on generated
# fleets of 10,000 to 100,000 devices, side by side with reading the
# same file with `kubectl-dra get devices -A --from FILE`.
#
#   bench/ui.sh [--runs N] [--build DIR] [--dir DIR] [--keep] [--perf]
#               [--fleets LIST] [--live] [--port-base P]
#
#   --runs N        timed rounds (default 5); every round runs every
#                   command once, in an order that rotates, plus one
#                   untimed warm-up round
#   --build DIR     use an existing build tree instead of building one
#   --dir DIR       scratch directory (default: a new one under $TMPDIR);
#                   the fleets take about 0.6 GB
#   --keep          keep the scratch directory
#   --perf          after the rounds, profile ui-bench once per view on
#                   the first fleet (perf, DWARF call graphs); summaries
#                   in DIR/perf.LABEL.txt (implies --keep)
#   --fleets LIST   comma-separated, from full10k, mig10k, mig34k,
#                   mig100k (default: all four)
#   --live          also the live path: a real control plane
#                   (tests/cluster, its binaries built once by
#                   tests/cluster/build) on DRA_PORT_BASE P, the example
#                   cluster loaded, the UI watching it in tmux; each
#                   round creates a claim with kubectl and times until the
#                   UI shows it, then deletes it and times until it is
#                   gone
#   --port-base P   the live cluster's ports (default 27300: P..P+4 on
#                   127.0.0.1), away from the tests' 26400
#
# Fleets (dra-gen-fleet, seed 1, JSON, 10,000 claims with a pod each):
#   full10k   --nodes 1250 --layout full         10,000 whole GPUs
#   mig10k    --nodes 48 --layout dynamic-mig    9,984 devices (384 GPUs)
#   mig34k    --nodes 163 --layout dynamic-mig   33,904 devices
#   mig100k   --nodes 481 --layout dynamic-mig   100,048 devices
#
# Commands, per fleet:
#   F.gpus, F.claims, F.devices
#       bench/ui/ui-bench --file FILE --view VIEW: in one process, the
#       file read into memory, decoded (kube_snapshot_load_mem + finish),
#       the UI's model built (tui_new, tui_poll, tui_prepare), the first
#       tui_draw into a curses screen on /dev/null (TERM xterm-256color,
#       200x50), then a mix of 190 keystrokes (j, k, PgDn, G/g, two
#       filters typed a character at a time, sorting, Enter into describe
#       and Esc back, :devices and back), each timed as the UI's loop
#       handles it (tui_key, tui_prepare, tui_draw); the resident set and
#       the peak RSS
#   F.get
#       kubectl-dra get devices -A --from FILE (the baseline: the same
#       file read and printed)
#   F.tty
#       kubectl-dra ui --from FILE in a private tmux server (200x50,
#       TERM tmux-256color): the time from launch until capture-pane
#       shows the first GPU rows (polled), then ":claims" and ":devices"
#       typed with send-keys until each list shows, then q; the peak RSS
#       of the whole session (GNU time)
#
# Targets of the issue, with 10,000 devices and claims: first screen
# within 300 ms of the data arriving, a keystroke handled in under 5 ms
# (median), under 150 MB of memory.  Reported, never enforced: the script
# fails only when a command fails or a screen does not show its rows.
#
# Prints a markdown report on stdout (progress on stderr).  Needs cmake,
# GNU time (/usr/bin/time), awk, tmux, and perf for --perf.
# Backquotes in single quotes are markdown code spans in the report.
# shellcheck disable=SC2016
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

runs=5 build="" dir="" keep=0 perf=0 live=0 port_base=27300
fleets="full10k,mig10k,mig34k,mig100k"
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || bench_usage; runs=$2; shift 2 ;;
	--runs=*) runs=${1#*=}; shift ;;
	--build) [ $# -ge 2 ] || bench_usage; build=$2; shift 2 ;;
	--build=*) build=${1#*=}; shift ;;
	--dir) [ $# -ge 2 ] || bench_usage; dir=$2; shift 2 ;;
	--dir=*) dir=${1#*=}; shift ;;
	--keep) keep=1; shift ;;
	--perf) perf=1 keep=1; shift ;;
	--fleets) [ $# -ge 2 ] || bench_usage; fleets=$2; shift 2 ;;
	--fleets=*) fleets=${1#*=}; shift ;;
	--live) live=1; shift ;;
	--port-base) [ $# -ge 2 ] || bench_usage; port_base=$2; shift 2 ;;
	--port-base=*) port_base=${1#*=}; shift ;;
	*) bench_usage ;;
	esac
done
case $runs in '' | *[!0-9]* | 0) bench_die "--runs wants a positive number" ;; esac
case $port_base in '' | *[!0-9]*) bench_die "--port-base wants a number" ;; esac
[ -x /usr/bin/time ] || bench_die "/usr/bin/time (GNU time) is missing"
bench_need awk tmux
fleets=${fleets//,/ }
for f in $fleets; do
	case $f in full10k | mig10k | mig34k | mig100k) ;;
	*) bench_die "unknown fleet $f (full10k, mig10k, mig34k, mig100k)" ;;
	esac
done

bench_workdir ui
TMUX_CMD="tmux -L dra-bench-ui.$$ -f /dev/null"
cluster_up=0
cleanup() {
	$TMUX_CMD kill-server 2>/dev/null || true
	if [ "$cluster_up" = 1 ]; then
		DRA_CLUSTER_DIR=$dir/cluster DRA_PORT_BASE=$port_base \
			"$root/tests/cluster/down" >/dev/null 2>&1 || true
	fi
	if [ "$keep" = 0 ]; then
		rm -rf "$dir"
	fi
}
trap cleanup EXIT
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# --------------------------------------------------------------- build --
bench_binaries "$root"
cmake --build "$build" -j "$(nproc)" --target ui-bench \
	>"$dir/ui-bench.build.log" 2>&1 ||
	{ tail -n 40 "$dir/ui-bench.build.log" >&2; bench_die "build failed"; }
ui=$build/bench/ui/ui-bench
[ -x "$ui" ] || bench_die "no $ui"

# -------------------------------------------------------------- fleets --
fleet_opts() {
	case $1 in
	full10k) echo "--nodes 1250 --layout full --claims 10000" ;;
	mig10k) echo "--nodes 48 --layout dynamic-mig --claims 10000" ;;
	mig34k) echo "--nodes 163 --layout dynamic-mig --claims 10000" ;;
	mig100k) echo "--nodes 481 --layout dynamic-mig --claims 10000" ;;
	esac
}
for f in $fleets; do
	bench_log "generating $f: dra-gen-fleet $(fleet_opts "$f") --format json"
	# shellcheck disable=SC2046
	"$gen" $(fleet_opts "$f") --format json -o "$dir/$f.json"
done

# ------------------------------------------------------------ terminal --
# One private tmux server for the whole run: a 200x50 pane kept after
# its command exits, respawned for each launch.
$TMUX_CMD new-session -d -s ui -x 200 -y 50 "sleep 86400" ||
	bench_die "cannot start tmux"
$TMUX_CMD set-option -g remain-on-exit on >/dev/null

# now_ns: the time in nanoseconds (bash's clock, no fork).
now_ns() {
	local t=$EPOCHREALTIME
	echo $((${t%.*} * 1000000000 + 10#${t#*.} * 1000))
}

# screen_has NR REGEX: line NR of the pane (0: any line) matches REGEX.
screen_has() {
	$TMUX_CMD capture-pane -p -t ui:0 2>/dev/null |
		awk -v n="$1" -v re="$2" '(n == 0 || NR == n) && $0 ~ re { f = 1 } END { exit !f }'
}

# wait_screen NR REGEX WHAT: poll until line NR matches; prints the
# time in ns when it did.  Gives up after 10 minutes (a broken UI, not a
# slow one: the report would mean nothing).
wait_screen() {
	local start
	start=$(now_ns)
	until screen_has "$1" "$2"; do
		if [ $(($(now_ns) - start)) -gt 600000000000 ]; then
			$TMUX_CMD capture-pane -p -t ui:0 >&2 || true
			cat "$dir/tty.err" >&2 2>/dev/null || true
			bench_die "the UI never showed $3"
		fi
	done
	now_ns
}

# tty FLEET ROUND: one launch of kubectl-dra ui --from FILE; appends
# "FLEET.tty ROUND FIRST_MS CLAIMS_MS DEVICES_MS PEAK_RSS_KIB POLLS" to
# $dir/tty.
tty() {
	local f=$1 round=$2 t0 t1 t2 t3 t4 polls
	rm -f "$dir/tty.start" "$dir/tty.time" "$dir/tty.err"
	cat >"$dir/tty.sh" <<EOF
echo "\$EPOCHREALTIME" >'$dir/tty.start'
exec /usr/bin/time -f '%e %M %U %S' -o '$dir/tty.time' \\
	env TERM=tmux-256color LC_ALL=C.UTF-8 '$dra' ui --from '$dir/$f.json' \\
	2>'$dir/tty.err'
EOF
	$TMUX_CMD respawn-pane -k -t ui:0 "bash '$dir/tty.sh'"
	# The first GPU rows: a node line under the title.
	t1=$(wait_screen 4 '^gpu-node-[0-9]+ ' "the GPU view of $f")
	until [ -s "$dir/tty.start" ]; do :; done
	t0=$(awk '{ split($1, a, "."); printf "%d%06d000\n", a[1], a[2] }' "$dir/tty.start")
	# The poll's resolution: one capture-pane.
	polls=$(now_ns)
	screen_has 4 '^gpu-node-[0-9]+ ' || true
	polls=$(($(now_ns) - polls))
	$TMUX_CMD send-keys -t ui:0 :claims Enter
	t2=$(now_ns)
	t3=$(wait_screen 5 '^team-' "the claims of $f")
	$TMUX_CMD send-keys -t ui:0 :devices Enter
	t4=$(now_ns)
	t4=$(($(wait_screen 5 '^gpu-node-' "the devices of $f") - t4))
	$TMUX_CMD send-keys -t ui:0 q
	until [ -s "$dir/tty.time" ]; do sleep 0.05; done
	sleep 0.05
	if grep -q 'exited\|signal' "$dir/tty.time" || [ -s "$dir/tty.err" ]; then
		cat "$dir/tty.time" "$dir/tty.err" >&2
		bench_die "kubectl-dra ui --from $f.json failed"
	fi
	awk -v l="$f.tty" -v r="$round" -v a=$(((t1 - t0) / 1000)) \
		-v b=$(((t3 - t2) / 1000)) -v c=$((t4 / 1000)) -v p=$((polls / 1000)) \
		'END { printf "%s %s %.1f %.1f %.1f %s %.1f\n", l, r, a / 1000, b / 1000, c / 1000, $2, p / 1000 }' \
		"$dir/tty.time" >>"$dir/tty"
}

# ------------------------------------------------------------ commands --
labels=""
for f in $fleets; do
	labels="$labels $f.gpus $f.claims $f.devices $f.get $f.tty"
done

# run_label LABEL ROUND OUT: ui-bench keeps its output (its own figures)
# in DIR/out.LABEL.ROUND.
run_label() {
	local f=${1%%.*} what=${1#*.}
	case $what in
	gpus | claims | devices)
		LC_ALL=C.UTF-8 bench_time "$dir/results" "$1" "$2" \
			"$dir/out.$1.$2" -- "$ui" --file "$dir/$f.json" \
			--view "$what" ;;
	get)
		bench_time "$dir/results" "$1" "$2" "$3" -- \
			"$dra" get devices -A --from "$dir/$f.json" ;;
	tty) tty "$f" "$2" ;;
	esac
}

# Warm-up: page cache, and checks that every view shows its rows.
: >"$dir/results"
: >"$dir/tty"
for l in $labels; do
	bench_log "warm-up: $l"
	run_label "$l" 0 "$dir/out.$l.0"
	f=${l%%.*}
	case ${l#*.} in
	gpus) want='^line 3 gpu-node-1 ' ;;
	claims) want='^line 4 team-' ;;
	devices) want='^line 4 gpu-node-1 ' ;;
	get)
		want=$(awk '$1 == "devices" { print $2 }' "$dir/out.$f.gpus.0")
		rows=$(($(wc -l <"$dir/out.$l.0") - 1))
		[ "$rows" = "$want" ] ||
			bench_die "$l printed $rows rows, ui-bench decoded $want devices"
		continue ;;
	tty) continue ;;
	esac
	grep -Eq "$want" "$dir/out.$l.0" ||
		{ cat "$dir/out.$l.0" >&2; bench_die "$l: the first screen has no rows"; }
	grep -q '^keys_all ' "$dir/out.$l.0" || bench_die "$l: no keys"
done
: >"$dir/results"
: >"$dir/tty"

# shellcheck disable=SC2086 # labels are plain words
bench_rounds "$runs" $labels
bench_stats "$dir/results" >"$dir/stats"

# ---------------------------------------------------------------- live --
if [ "$live" = 1 ]; then
	bench_log "live: tests/cluster/up on port base $port_base"
	[ -x "$root/tests/cluster/up" ] || bench_die "no tests/cluster/up"
	export DRA_CLUSTER_DIR=$dir/cluster DRA_PORT_BASE=$port_base
	mkdir -p "$DRA_CLUSTER_DIR"
	cluster_up=1
	live_t0=$(now_ns)
	"$root/tests/cluster/up" >"$dir/live.up.log" 2>&1 ||
		{ tail -n 30 "$dir/live.up.log" >&2; bench_die "tests/cluster/up failed"; }
	live_up_s=$(awk -v d=$(($(now_ns) - live_t0)) 'BEGIN { printf "%.1f", d / 1e9 }')
	# shellcheck source=/dev/null
	. "$root/tests/cluster/env"
	"$gen" --example --apply >"$dir/example-apply.yaml"
	"$root/tests/cluster/load" "$dir/example-apply.yaml" >"$dir/live.load.log" 2>&1 ||
		{ tail -n 30 "$dir/live.load.log" >&2; bench_die "tests/cluster/load failed"; }
	cat >"$dir/live.sh" <<EOF
exec env TERM=tmux-256color LC_ALL=C.UTF-8 KUBECONFIG='$KUBECONFIG' \\
	'$dra' ui claims 2>'$dir/tty.err'
EOF
	rm -f "$dir/tty.err"
	$TMUX_CMD respawn-pane -k -t ui:0 "bash '$dir/live.sh'"
	wait_screen 5 '^team-' "the live claims" >/dev/null
	# A namespace of its own: the example's quotas stay untouched.
	kubectl create namespace bench-ui >/dev/null
	: >"$dir/live"
	for ((r = 0; r <= runs; r++)); do
		name=bench-ui-$$-$r
		cat >"$dir/claim.yaml" <<EOF
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: $name, namespace: bench-ui}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.nvidia.com, count: 1}
EOF
		bench_log "live round $r/$runs: create $name"
		t0=$(now_ns)
		kubectl create -f "$dir/claim.yaml" >/dev/null
		t1=$(now_ns)
		t2=$(wait_screen 0 "$name" "the new claim $name")
		t3=$(now_ns)
		kubectl delete resourceclaim -n bench-ui "$name" --wait=false >/dev/null
		t4=$(now_ns)
		until ! $TMUX_CMD capture-pane -p -t ui:0 | grep -q "$name"; do
			if [ $(($(now_ns) - t3)) -gt 600000000000 ]; then
				bench_die "the deleted claim $name never left the UI"
			fi
		done
		t5=$(now_ns)
		# Round 0 is the warm-up.
		[ "$r" = 0 ] || echo "live $r $(((t2 - t0) / 1000)) $(((t1 - t0) / 1000)) $(((t5 - t3) / 1000)) $(((t4 - t3) / 1000))" >>"$dir/live"
	done
	$TMUX_CMD send-keys -t ui:0 q
	if [ -s "$dir/tty.err" ]; then
		cat "$dir/tty.err" >&2
		bench_die "kubectl-dra ui (live) wrote to stderr"
	fi
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

if [ "$perf" = 1 ]; then
	bench_need perf
	f=${fleets%% *}
	for v in gpus claims devices; do
		bench_log "perf: $f.$v"
		LC_ALL=C.UTF-8 bench_perf "$dir" "$f.$v" 1000 -- "$ui" \
			--file "$dir/$f.json" --view "$v" --repeat 5
	done
fi

# -------------------------------------------------------------- report --
# o LABEL NAME [FIELD]: "median (min–max)" over the rounds of field
# FIELD (default 2) of ui-bench's line NAME.
o_vals() {
	local r
	for ((r = 1; r <= runs; r++)); do
		awk -v k="$2" -v f="${3:-2}" '$1 == k { print $f }' "$dir/out.$1.$r"
	done
}
o_fmt() {
	sort -g | awk -v d="${1:-0}" '{ a[++n] = $1 } END {
		if (n == 0) { print "n/a"; exit }
		m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		f = "%." d "f"
		printf f " (" f "–" f ")\n", m, a[1], a[n] }'
}
o_med() {
	sort -g | awk -v d="${1:-0}" '{ a[++n] = $1 } END {
		if (n == 0) { print "n/a"; exit }
		printf "%." d "f\n", n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }'
}
o() { o_vals "$1" "$2" "${3:-2}" | o_fmt "${4:-0}"; }
om() { o_vals "$1" "$2" "${3:-2}" | o_med "${4:-0}"; }
# ui_ms LABEL: model + draw, per round.
ui_ms() {
	local r
	for ((r = 1; r <= runs; r++)); do
		awk '$1 == "model_ms" { m = $2 } $1 == "draw_ms" { d = $2 } END { print m + d }' "$dir/out.$1.$r"
	done
}
# key LABEL KIND: median over rounds of the kind's median, and of its
# p95, "m (p95 p)".
key() {
	local m p r
	m=$(for ((r = 1; r <= runs; r++)); do
		awk -v k="$2" '$1 == "key" && $2 == k { print $4 }' "$dir/out.$1.$r"
	done | o_med 2)
	p=$(for ((r = 1; r <= runs; r++)); do
		awk -v k="$2" '$1 == "key" && $2 == k { print $5 }' "$dir/out.$1.$r"
	done | o_med 1)
	if [ "$m" = n/a ]; then echo "–"; else echo "$m ($p)"; fi
}
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k * 1.024 / 1000 }'; }
# tty_f FLEET FIELD [DIGITS]: "median (min–max)" of a field of $dir/tty.
tty_f() { awk -v l="$1.tty" -v f="$2" '$1 == l { print $f }' "$dir/tty" | o_fmt "${3:-0}"; }
tty_m() { awk -v l="$1.tty" -v f="$2" '$1 == l { print $f }' "$dir/tty" | o_med "${3:-0}"; }
# ratio of the medians of two numbers.
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# get_ms FLEET: the baseline's wall time, ms, median (min–max).
get_ms() { awk -v l="$1.get" '$1 == l { print $3 * 1000 }' "$dir/results" | o_fmt 0; }
get_med_ms() { awk -v l="$1.get" '$1 == l { print $3 * 1000 }' "$dir/results" | o_med 0; }
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f", b / 1e6 }'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v < t) ? "met" : "**missed**" }'; }

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no -- tui kube views kubectl-dra 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes)"
fi

cat <<EOF
## ui: \`kubectl dra ui\` at fleet scale ($(date -u +%Y-%m-%d))

- command: \`bench/ui.sh --runs $runs$([ "$fleets" = "full10k mig10k mig34k mig100k" ] || echo " --fleets ${fleets// /,}")$([ "$live" = 0 ] || echo " --live")\`
- kubectl-dra $commit, build type $(bench_build_type "$build"), ncursesw $(pkg-config --modversion ncursesw 2>/dev/null || echo unknown), tmux $(tmux -V | cut -d' ' -f2)
$(bench_machine | sed "s/^- load average at start: .*/- load average (1, 5, 15 min): $load_start at start, $load_end at end/")
- $runs timed rounds after one warm-up round; every round ran every
  command once, in an order rotated every round; cells are medians over
  the rounds, (min–max) in brackets

Fleets (dra-gen-fleet, seed 1, JSON):

| fleet | dra-gen-fleet options | JSON | devices | claims (pending) | GPUs on the map |
|---|---|---|---|---|---|
EOF
for f in $fleets; do
	gl=$(awk '$1 == "line" && $2 == 2' "$dir/out.$f.gpus.1" | sed 's/.*gpus\[\([0-9]*\)\].*/\1/')
	pend=$(awk '$1 == "line" && $2 == 1' "$dir/out.$f.gpus.1" | sed 's/.*Claims: [0-9]* (\([0-9]*\) pending).*/\1/')
	printf '| %s | `%s` | %s MB | %s | %s (%s) | %s |\n' "$f" "$(fleet_opts "$f")" \
		"$(size_mb "$dir/$f.json")" "$(om "$f.gpus" devices)" \
		"$(om "$f.gpus" claims)" "$pend" "$gl"
done

cat <<EOF

### Data to first screen (ui-bench, ms)

"decode" is the JSON in memory turned into a snapshot
(kube_snapshot_load_mem + kube_snapshot_finish); "UI" is the UI's model
(tui_new, tui_poll handing the snapshot over, tui_prepare) plus the first
tui_draw with its doupdate; "total" is decode + UI, also in CPU time
(user + system of the process: what the wall time would be on an idle
core).  Target: 300 ms.

| fleet | view | read file | decode | model | first draw | UI (model + draw) | total | total, CPU | UI target | total target |
|---|---|---|---|---|---|---|---|---|---|---|
EOF
for f in $fleets; do
	for v in gpus claims devices; do
		l=$f.$v
		u=$(ui_ms "$l" | o_med 1)
		tt=$(om "$l" first_ms 2 0)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$f" "$v" \
			"$(o "$l" read_ms)" "$(o "$l" decode_ms)" \
			"$(o "$l" model_ms 2 1)" "$(o "$l" draw_ms 2 1)" \
			"$(ui_ms "$l" | o_fmt 1)" "$(o "$l" first_ms)" \
			"$(o "$l" first_cpu_ms)" \
			"$(verdict "$u" 300)" "$(verdict "$tt" 300)"
	done
done

cat <<EOF

Opening the curses screen (newterm on /dev/null, before the data in a
live UI) took $(o "${fleets%% *}.gpus" screen_ms 2 1) ms.

### Keystrokes (ui-bench, ms: median over the rounds of each run's median, (p95))

Each key is timed as the UI's loop handles it: tui_key, tui_prepare and
tui_draw (which ends in doupdate), at 200x50; "CPU" is the same in CPU
time.  With 2 to 13 keys of a kind in a run, p95 is close to the
slowest.  Target: a median under 5 ms.

| fleet | view | keys | median, all keys | median, CPU | p95, all keys | max | target |
|---|---|---|---|---|---|---|---|
EOF
for f in $fleets; do
	for v in gpus claims devices; do
		l=$f.$v
		m=$(om "$l" keys_all 3 2)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$f" "$v" \
			"$(om "$l" keys_all 2)" "$(o "$l" keys_all 3 2)" \
			"$(o "$l" keys_all_cpu 3 2)" \
			"$(o "$l" keys_all 4 1)" "$(o "$l" keys_all 5 1)" \
			"$(verdict "$m" 5)"
	done
done

kinds="down up pgdn end_home partition filter_open filter_char filter_enter filter_clear sort describe back prompt_char switch_built switch_kept"
kind_label() {
	case $1 in
	down) echo 'j (down)' ;;
	up) echo 'k (up)' ;;
	pgdn) echo 'PgDn' ;;
	end_home) echo 'G / g (end, home)' ;;
	partition) echo 'l / h (next partition)' ;;
	filter_open) echo '`/` (filter prompt)' ;;
	filter_char) echo 'a filter character (rows refiltered)' ;;
	filter_enter) echo 'Enter (filter kept)' ;;
	filter_clear) echo 'Esc (filter cleared)' ;;
	sort) echo '`>`, `S`, `N` (sort)' ;;
	describe) echo 'Enter (describe)' ;;
	back) echo 'Esc (back)' ;;
	prompt_char) echo 'a `:` command character' ;;
	switch_built) echo '`:devices` Enter, the first time (view built)' ;;
	switch_kept) echo '`:VIEW` Enter, again (view kept)' ;;
	esac
}
for f in $fleets; do
	cat <<EOF

Per key, $f (median (p95)):

| key | gpus | claims | devices |
|---|---|---|---|
EOF
	for k in $kinds; do
		printf '| %s | %s | %s | %s |\n' "$(kind_label "$k")" \
			"$(key "$f.gpus" "$k")" "$(key "$f.claims" "$k")" \
			"$(key "$f.devices" "$k")"
	done
done

cat <<EOF

From the devices view the switches go to \`:claims\` and back.

### Memory (MB, 10^6 bytes)

"get devices" is \`kubectl-dra get devices -A --from FILE\`; "ui (tty)"
is the peak RSS of \`kubectl-dra ui --from FILE\` through the terminal
(first screen, then \`:claims\` and \`:devices\`, then q); "ui-bench" is
the peak RSS of the benchmark process (the GPU view and its whole key
mix), which also holds the whole file in memory while decoding; "after
decode" and "UI on top" are its resident sets (the snapshot, then what
the views added by the end of the mix).  Target: 150 MB.

| fleet | get devices | ui (tty) | ui (tty) / get | ui-bench peak | after decode | UI on top: gpus / claims / devices | target (ui tty) |
|---|---|---|---|---|---|---|---|
EOF
for f in $fleets; do
	tm=$(tty_m "$f" 6)
	gm=$(bench_field "$dir/stats" "$f.get" 6)
	up=""
	for v in gpus claims devices; do
		x=$(for ((r = 1; r <= runs; r++)); do
			awk '$1 == "rss_decoded_kb" { d = $2 } $1 == "rss_end_kb" { e = $2 } END { print e - d }' "$dir/out.$f.$v.$r"
		done | o_med 0)
		up="$up${up:+ / }$(mb "$x")"
	done
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$f" \
		"$(bench_m "$dir/stats" "$f.get")" "$(mb "$tm")" \
		"$(div "$tm" "$gm")" "$(bench_m "$dir/stats" "$f.gpus")" \
		"$(mb "$(om "$f.gpus" rss_decoded_kb)")" "$up" \
		"$(verdict "$(mb "$tm")" 150)"
done

cat <<EOF

### End to end through a terminal (tmux, ms)

\`kubectl-dra ui --from FILE\` launched in a private tmux server
(200x50); "first screen" runs from the launch until capture-pane shows
the first GPU row (so it includes reading and decoding the file);
the switches run from send-keys until the list's first row shows.  The
polling resolution is one capture-pane, about $(awk '{ print $7 }' "$dir/tty" | o_med 0) ms.
Beside it, the wall time of \`get devices -A --from FILE\` on the same
file.

| fleet | first screen | get devices | first screen / get | \`:claims\` | \`:devices\` |
|---|---|---|---|---|---|
EOF
for f in $fleets; do
	printf '| %s | %s | %s | %s | %s | %s |\n' "$f" "$(tty_f "$f" 3)" \
		"$(get_ms "$f")" "$(div "$(tty_m "$f" 3 1)" "$(get_med_ms "$f")")" \
		"$(tty_f "$f" 4)" "$(tty_f "$f" 5)"
done

if [ "$live" = 1 ]; then
	lf() { awk -v f="$1" '{ print $f / 1000 }' "$dir/live" | o_fmt 0; }
	cat <<EOF

### Live: a claim created while the UI runs (ms)

A real control plane (tests/cluster, Kubernetes 1.37.2, up in
${live_up_s} s) holding the example cluster; \`kubectl-dra ui claims\`
watching it in tmux.  Each round \`kubectl create\` makes a claim in
namespace bench-ui and the pane is polled until its name shows; then \`kubectl
delete --wait=false\` and polled until it is gone.  $runs rounds after
one warm-up.

| step | ms |
|---|---|
| \`kubectl create\` returns | $(lf 4) |
| created → shown by the UI (from the start of \`kubectl create\`) | $(lf 3) |
| \`kubectl delete\` returns | $(lf 6) |
| deleted → gone from the UI (from the start of \`kubectl delete\`) | $(lf 5) |
EOF
fi

if [ "$keep" = 1 ]; then
	echo
	echo "Raw results: $dir/results (LABEL ROUND WALL_S PEAK_RSS_KIB USER_S SYS_S), $dir/tty, ui-bench outputs $dir/out.LABEL.ROUND"
	if [ "$perf" = 1 ]; then
		echo "perf summaries: $dir/perf.*.txt"
	fi
fi
