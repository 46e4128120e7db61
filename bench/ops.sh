#!/usr/bin/env bash
# bench/ops.sh: the "doctor, top" benchmark (issue 7).  `kubectl dra
# doctor` and `kubectl dra top` on a real Kubernetes 1.37.2 API server
# (tests/cluster) holding the 1,000-node fleet of bench/apiserver.sh,
# beside `kubectl dra get devices -A` and kubectl's own list of the same
# objects.
#
#   bench/ops.sh [--runs N] [--build DIR] [--dir DIR] [--keep]
#                [--port-base P] [--cluster-dir DIR] [--keep-cluster]
#                [--reuse-cluster DIR] [--layout L]
#
#   --runs N             timed rounds (default 5); every round runs every
#                        command once, interleaved, plus one warm-up round
#   --build DIR          use an existing build tree instead of building one
#   --dir DIR            scratch directory (default: a new one under $TMPDIR)
#   --keep               keep the scratch directory (raw results)
#   --port-base P        DRA_PORT_BASE of the benchmark's own cluster
#                        (default 27500: P..P+4 on 127.0.0.1)
#   --cluster-dir DIR    its state dir, DRA_CLUSTER_DIR (default DIR/cluster
#                        of the scratch directory)
#   --keep-cluster       leave the loaded cluster running at exit, for
#                        --reuse-cluster (implies --keep when the cluster
#                        dir is in the scratch directory); stop it later
#                        with DRA_CLUSTER_DIR=DIR tests/cluster/down
#   --reuse-cluster DIR  skip the start and the load: time against the
#                        loaded cluster already running in DIR (started by
#                        an earlier --keep-cluster run); it is left running
#   --layout L           dra-gen-fleet --layout of the fleet (default full,
#                        the fleet of bench/apiserver.sh; mixed adds counter
#                        sets and MIG devices, 94,590 devices in 3,664 slices)
#
# Steps:
#   1. build kubectl-dra and dra-gen-fleet (unless --build)
#   2. unless --reuse-cluster: tests/cluster/up (a trap runs
#      tests/cluster/down on any exit unless --keep-cluster), then
#      dra-gen-fleet --apply --nodes 1000 --layout L --claims 8000 loaded
#      by tests/cluster/load: the real kube-scheduler allocates the claims
#      and binds the Pods (12-16 min here for the full layout)
#   3. interleaved rounds of
#        kubectl dra doctor                (exit 0 or 3, both answers)
#        kubectl dra top nodes | classes | namespaces | pools
#        kubectl dra top nodes -o prometheus
#        kubectl-dra doctor, kubectl-dra top nodes (the plugin run
#                                          directly: its own peak RSS)
#        kubectl dra get devices -A        (reference: a kubectl-dra list)
#        kubectl get resourceslices,resourceclaims -A -o wide
#                                          (reference: kubectl itself)
#      each under /usr/bin/time (wall time, peak RSS, CPU), output to
#      /dev/null.  A command the tree does not build yet (hidden from
#      `kubectl-dra help`) is left out and named in the report.
#   4. each kubectl-dra command once more with --v=6: its requests and
#      their summed time, against its client CPU.
#
# Target of the issue: doctor and top in under 2 s each on this cluster,
# judged on the median wall time through `kubectl dra`.  Reported, never
# enforced.  Prints a markdown report on stdout (progress on stderr).
# Backquotes in single quotes are markdown code spans in the report.
# shellcheck disable=SC2016
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

runs=5 build="" dir="" keep=0 port_base=27500 cdir="" keep_cluster=0
reuse="" layout=full
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || bench_usage; runs=$2; shift 2 ;;
	--runs=*) runs=${1#*=}; shift ;;
	--build) [ $# -ge 2 ] || bench_usage; build=$2; shift 2 ;;
	--build=*) build=${1#*=}; shift ;;
	--dir) [ $# -ge 2 ] || bench_usage; dir=$2; shift 2 ;;
	--dir=*) dir=${1#*=}; shift ;;
	--keep) keep=1; shift ;;
	--port-base) [ $# -ge 2 ] || bench_usage; port_base=$2; shift 2 ;;
	--port-base=*) port_base=${1#*=}; shift ;;
	--cluster-dir) [ $# -ge 2 ] || bench_usage; cdir=$2; shift 2 ;;
	--cluster-dir=*) cdir=${1#*=}; shift ;;
	--keep-cluster) keep_cluster=1; shift ;;
	--reuse-cluster) [ $# -ge 2 ] || bench_usage; reuse=$2; shift 2 ;;
	--reuse-cluster=*) reuse=${1#*=}; shift ;;
	--layout) [ $# -ge 2 ] || bench_usage; layout=$2; shift 2 ;;
	--layout=*) layout=${1#*=}; shift ;;
	*) bench_usage ;;
	esac
done
case $runs in '' | *[!0-9]* | 0) bench_die "--runs wants a positive number" ;; esac
case $port_base in '' | *[!0-9]*) bench_die "--port-base wants a port number" ;; esac
case $layout in full | dynamic-mig | static-mig | mixed) ;;
*) bench_die "--layout wants full, dynamic-mig, static-mig or mixed" ;; esac
[ -x /usr/bin/time ] || bench_die "/usr/bin/time (GNU time) is missing"
bench_need awk

cluster=$root/tests/cluster
[ -x "$cluster/up" ] || bench_die "no $cluster/up"
[ -x "$cluster/load" ] || bench_die "no $cluster/load"

bench_workdir ops
if [ -n "$reuse" ]; then
	[ -d "$reuse" ] || bench_die "--reuse-cluster: no directory $reuse"
	cdir=$(cd "$reuse" && pwd)
elif [ -z "$cdir" ]; then
	cdir=$dir/cluster
	[ "$keep_cluster" = 0 ] || keep=1
else
	mkdir -p "$cdir"
	cdir=$(cd "$cdir" && pwd)
fi
export DRA_CLUSTER_DIR=$cdir
export DRA_PORT_BASE=$port_base
# The load of 8,000 Pods takes minutes on 2 shared cores; each of its
# waits gets 30 min.
export DRA_LOAD_TIMEOUT=${DRA_LOAD_TIMEOUT:-1800}
cluster_started=0
cleanup() {
	local rc=$?
	if [ "$cluster_started" = 1 ] && [ "$keep_cluster" = 0 ]; then
		bench_log "stopping the benchmark cluster ($DRA_CLUSTER_DIR)"
		"$cluster/down" >&2 || bench_log "warning: $cluster/down failed"
	elif [ "$cluster_started" = 1 ]; then
		bench_log "the cluster keeps running: rerun with --reuse-cluster $DRA_CLUSTER_DIR;" \
			"stop it with DRA_CLUSTER_DIR=$DRA_CLUSTER_DIR tests/cluster/down"
	fi
	if [ "$keep" = 0 ]; then
		rm -rf "$dir"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --------------------------------------------------------------- build --
bench_binaries "$root"

# ------------------------------------------------------------- cluster --
# What was loaded, and how long it took, is kept in the cluster dir for
# the reruns with --reuse-cluster.
fleet="--nodes 1000 --layout $layout --claims 8000"
info=$DRA_CLUSTER_DIR/bench-ops.fleet
if [ -n "$reuse" ]; then
	export KUBECONFIG=$DRA_CLUSTER_DIR/admin.kubeconfig
	[ -s "$KUBECONFIG" ] || bench_die "--reuse-cluster: no $KUBECONFIG"
	[ -s "$info" ] || bench_die "--reuse-cluster: $DRA_CLUSTER_DIR was not loaded by bench/ops.sh (no $info)"
	fleet=$(sed -n 1p "$info")
	load_s=$(sed -n 2p "$info")
	summary=$(sed -n 3p "$info")
	bench_log "reusing the cluster in $DRA_CLUSTER_DIR (dra-gen-fleet --apply $fleet)"
else
	# up refuses ports that another process holds (then choose another
	# --port-base), and leaves a cluster already running in DIR alone.
	bench_log "starting the cluster: DRA_CLUSTER_DIR=$DRA_CLUSTER_DIR DRA_PORT_BASE=$DRA_PORT_BASE"
	cluster_started=1
	rm -f "$info"
	kubeconfig=$("$cluster/up" | tail -n 1)
	[ -s "$kubeconfig" ] || bench_die "tests/cluster/up gave no kubeconfig"
	export KUBECONFIG=$kubeconfig
	# shellcheck disable=SC2086
	"$gen" --apply $fleet -o "$dir/fleet-apply.yaml"
	bench_log "loading dra-gen-fleet --apply $fleet (the scheduler allocates every claim)"
	t0=$(date +%s)
	summary=$("$cluster/load" "$dir/fleet-apply.yaml")
	load_s=$(($(date +%s) - t0))
	rm -f "$dir/fleet-apply.yaml"
	bench_log "$summary (${load_s}s)"
	printf '%s\n%s\n%s\n' "$fleet" "$load_s" "$summary" >"$info"
fi

# ------------------------------------------------------------- commands --
bench_plugin_path "$root" "$dir" "$dra"
kubectl get --raw /readyz >/dev/null 2>&1 || bench_die "the API server of $DRA_CLUSTER_DIR does not answer"

count() { kubectl get "$@" -A --no-headers 2>/dev/null | wc -l; }
n_slices=$(count resourceslices)
n_claims=$(count resourceclaims)
n_pods=$(count pods)
n_nodes=$(kubectl get nodes --no-headers | wc -l)
n_devices=$(kubectl get resourceslices -o jsonpath='{range .items[*]}{range .spec.devices[*]}{.name}{"\n"}{end}{end}' | grep -c . || true)
n_alloc=$(kubectl get resourceclaims -A -o jsonpath='{range .items[*]}{.status.allocation.devices.results[0].device}{"\n"}{end}' | grep -c . || true)
[ "$n_nodes" -gt 0 ] || bench_die "the cluster in $DRA_CLUSTER_DIR holds no nodes"

# The commands the tree builds: a placeholder is hidden from help.
built() { kubectl-dra help 2>&1 | grep -Eq "^ +$1( |$)"; }
skipped=""
labels=""
if built doctor; then
	labels="$labels doctor direct.doctor"
else
	skipped="$skipped doctor"
fi
if built top; then
	labels="$labels top.nodes top.classes top.namespaces top.pools top.prom direct.top"
else
	skipped="$skipped top"
fi
labels="$labels ref.devices ref.kubectl"
[ -z "$skipped" ] || bench_log "not built in this tree, left out:$skipped"

# cmd_of LABEL: the command line of LABEL.
cmd_of() {
	case $1 in
	doctor) echo kubectl dra doctor ;;
	direct.doctor) echo kubectl-dra doctor ;;
	top.nodes) echo kubectl dra top nodes ;;
	top.classes) echo kubectl dra top classes ;;
	top.namespaces) echo kubectl dra top namespaces ;;
	top.pools) echo kubectl dra top pools ;;
	top.prom) echo kubectl dra top nodes -o prometheus ;;
	direct.top) echo kubectl-dra top nodes ;;
	ref.devices) echo kubectl dra get devices -A ;;
	ref.kubectl) echo kubectl get resourceslices,resourceclaims -A -o wide ;;
	esac
}
run_label() {
	local ok=0
	case $1 in
	# doctor's 3 is its answer "not all Ready", not a failure.
	doctor | direct.doctor) ok="0 3" ;;
	esac
	# shellcheck disable=SC2046 # the command line is plain words
	bench_ok_rc=$ok bench_time "$dir/results" "$1" "$2" "$3" -- $(cmd_of "$1")
}

# The commit measured (the tree may move on while the rounds run).
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no -- . ':(exclude)*.md' 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes in the tree)"
fi
# A build tree of --build may be older than the source tree.
[ "$build" = "$dir/build" ] || commit="$commit (the source tree; the binaries are those of --build $build)"
load_start=$(cut -d" " -f1-3 /proc/loadavg)
# Warm-up: the API server's caches, and what each command prints.
: >"$dir/results"
for l in $labels; do
	bench_log "warm-up: $l"
	run_label "$l" 0 "$dir/out.$l"
	[ -s "$dir/out.$l" ] || bench_die "$(cmd_of "$l") printed nothing"
done
if [ -s "$dir/out.ref.devices" ]; then
	rows=$(($(wc -l <"$dir/out.ref.devices") - 1))
	[ "$rows" = "$n_devices" ] ||
		bench_die "kubectl dra get devices -A printed $rows rows, expected $n_devices"
fi
: >"$dir/results"

# shellcheck disable=SC2086 # labels are plain words
bench_rounds "$runs" $labels
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
bench_stats "$dir/results" >"$dir/stats"

# Where the time goes: each kubectl-dra command once more with --v=6.
for l in $labels; do
	case $l in
	direct.* | ref.kubectl) continue ;;
	esac
	# shellcheck disable=SC2046 # the command line is plain words
	set -- $(cmd_of "$l")
	shift 2 # "kubectl dra": the plugin directly, for its own log
	bench_http_time kubectl-dra "$@" >"$dir/http.$l"
done

# -------------------------------------------------------------- report --
t() { bench_t "$dir/stats" "$1"; }
m() { bench_m "$dir/stats" "$1"; }
ratio() { bench_ratio "$dir/results" "$1" "$2" "$3"; }
# target LABEL: the 2 s target on the median wall time.
target() {
	awk -v l="$1" '$1 == l { print ($3 < 2 ? "met" : "**missed**") }' "$dir/stats"
}

kver=$(kubectl version --client 2>/dev/null | awk '/^Client Version/ { print $3 }')
if [ -n "$reuse" ]; then
	rerun="bench/ops.sh --reuse-cluster $DRA_CLUSTER_DIR --runs $runs"
else
	rerun="bench/ops.sh --runs $runs"
fi

cat <<EOF
## bench/ops.sh

- command: \`$rerun\`
- kubectl-dra $commit, build type $(bench_build_type "$build"); kubectl $kver and the control plane of tests/cluster (Kubernetes 1.37.2, loopback, TLS with client certificates)
$(bench_machine | sed "s/^- load average at start: .*/- load average (1, 5, 15 min): $load_start at start, $load_end at end/")
- cluster: \`dra-gen-fleet --apply $fleet\` loaded with \`tests/cluster/load\` in ${load_s} s ($summary);
  the real scheduler allocated the claims. Counted by kubectl: $n_nodes nodes, $n_slices ResourceSlices
  ($n_devices devices), $n_claims ResourceClaims ($n_alloc allocated), $n_pods pods
- $runs timed rounds after one warm-up round; in each round every command
  ran once, in an order rotated every round; output to /dev/null
- cells: median (min–max) over the rounds; ratios are the median of the
  per-round ratios of two commands of the same round
EOF
if [ -n "$skipped" ]; then
	echo "- not built in this tree (hidden from \`kubectl-dra help\`), so not measured:$skipped"
fi
echo
echo "Warm-up round, what each command printed (stdout lines, exit status, stderr):"
echo
for l in $labels; do
	printf -- '- `%s`: %s lines, exit %s, stderr: %s\n' "$(cmd_of "$l")" \
		"$(wc -l <"$dir/out.$l")" "$(cat "$dir/out.$l.rc")" \
		"$(bench_stderr_of "$dir/out.$l.err")"
done
if [ -s "$dir/out.doctor" ]; then
	printf -- '- the last line of `kubectl dra doctor`: "%s"\n' "$(tail -n 1 "$dir/out.doctor")"
fi

cat <<EOF

| command | wall time, s | time / kubectl | peak RSS, MB | memory / kubectl | client CPU (user+sys), s | CPU / kubectl | under 2 s |
|---|---|---|---|---|---|---|---|
EOF
for l in $labels; do
	c=$(bench_cpu "$dir/stats" "$l")
	case $l in
	ref.kubectl)
		printf '| `%s` | %s | 1 | %s | 1 | %s | 1 | |\n' "$(cmd_of "$l")" \
			"$(t "$l")" "$(m "$l")" "$c"
		;;
	*)
		g=""
		case $l in doctor | top.*) g=$(target "$l") ;; esac
		x=""
		case $l in direct.*) x=" (direct)" ;; esac
		printf '| `%s`%s | %s | %s | %s | %s | %s | %s | %s |\n' \
			"$(cmd_of "$l")" "$x" "$(t "$l")" "$(ratio "$l" ref.kubectl 3)" \
			"$(m "$l")" "$(ratio "$l" ref.kubectl 4)" "$c" \
			"$(ratio "$l" ref.kubectl cpu)" "$g"
		;;
	esac
done

cat <<EOF

The peak RSS of a \`kubectl dra\` row is max(kubectl before its exec,
kubectl-dra); the plugin's own is the direct row.  The 2 s target is
judged on the median wall time through \`kubectl dra\`.

Where the time goes: each command once more, run as \`kubectl-dra ...
--v=6\`, with its logged requests and their summed time (request sent to
the last byte of the body), beside its median client CPU from the rounds:

| command | requests, time in them | client CPU (user+sys), s |
|---|---|---|
EOF
for l in $labels; do
	[ -f "$dir/http.$l" ] || continue
	printf '| `%s` | %s | %s |\n' "$(cmd_of "$l")" "$(cat "$dir/http.$l")" \
		"$(bench_cpu "$dir/stats" "$l")"
done
if [ "$keep" = 1 ]; then
	echo
	echo "Raw results (LABEL ROUND WALL_S PEAK_RSS_KIB USER_S SYS_S): $dir/results"
fi
