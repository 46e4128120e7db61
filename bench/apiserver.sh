#!/usr/bin/env bash
# bench/apiserver.sh: the "control plane" benchmark.  kubectl-dra against
# kubectl on the same objects of a real Kubernetes 1.37.2 API server
# (tests/cluster), loaded with a fleet of 1,000 nodes x 8 GPUs and 8,000
# claims.
#
#   bench/apiserver.sh [--runs N] [--build DIR] [--dir DIR] [--keep]
#                      [--port-base P] [--perf]
#
#   --runs N        timed rounds (default 5); every round runs every
#                   command once, interleaved, plus one warm-up round
#   --build DIR     use an existing build tree instead of building one
#   --dir DIR       scratch directory (default: a new one under $TMPDIR);
#                   it holds the cluster's state dir (DRA_CLUSTER_DIR)
#   --keep          keep the scratch directory (the cluster is stopped
#                   all the same)
#   --port-base P   DRA_PORT_BASE of the benchmark's own cluster (default
#                   27400: P..P+4 on 127.0.0.1), away from the tests' 26400
#   --perf          after the rounds, profile the two direct kubectl-dra
#                   runs once with perf (DWARF call graphs); summaries in
#                   DIR/perf.LABEL.txt (implies --keep)
#
# Steps:
#   1. build kubectl-dra and dra-gen-fleet (unless --build)
#   2. tests/cluster/up with DRA_CLUSTER_DIR=DIR/cluster and
#      DRA_PORT_BASE=P, so it never touches a test cluster; a trap runs
#      tests/cluster/down on any exit
#   3. dra-gen-fleet --apply --nodes 1000 --layout full --claims 8000,
#      loaded by tests/cluster/load: Nodes, ResourceSlices, claims and
#      Pods are created as a user would, and the real kube-scheduler
#      allocates the claims and binds the Pods (nothing is faked)
#   4. interleaved rounds of
#        kubectl get resourceslices,resourceclaims -A -o wide
#        kubectl dra get devices -A     (the plugin found on PATH by kubectl)
#        kubectl dra get claims -A
#        kubectl-dra get devices -A     (the plugin binary run directly)
#        kubectl-dra get claims -A
#        kubectl dra version --client   (kubectl's own cost of running a plugin)
#      each under /usr/bin/time (wall time, peak RSS), output to /dev/null.
#
# kubectl runs a plugin with execve(2), in the same process, and the
# kernel keeps the larger of the two high-water marks: the peak RSS of
# `kubectl dra ...` is max(kubectl before the exec, kubectl-dra).  The
# plugin's own peak is the one of the direct run; `kubectl dra version
# --client` shows kubectl's part (its plugin lookup and exec).
#
# Goal of the issue: `kubectl dra` in at most half of kubectl's time and
# a quarter of its memory.  Reported, never enforced.  Prints a markdown
# report on stdout (progress on stderr).
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

runs=5 build="" dir="" keep=0 perf=0 port_base=27400
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
	--port-base) [ $# -ge 2 ] || usage; port_base=$2; shift 2 ;;
	--port-base=*) port_base=${1#*=}; shift ;;
	-h | --help) usage ;;
	*) usage ;;
	esac
done
case $runs in '' | *[!0-9]* | 0) bench_die "--runs wants a positive number" ;; esac
case $port_base in '' | *[!0-9]*) bench_die "--port-base wants a port number" ;; esac
[ -x /usr/bin/time ] || bench_die "/usr/bin/time (GNU time) is missing"
bench_need awk

cluster=$root/tests/cluster
[ -x "$cluster/up" ] || bench_die "no $cluster/up"
[ -x "$cluster/load" ] || bench_die "no $cluster/load (tests/cluster/load loads a dra-gen-fleet --apply file)"

bench_workdir apiserver

export DRA_CLUSTER_DIR=$dir/cluster
export DRA_PORT_BASE=$port_base
# The load of 8,000 Pods takes minutes on 2 shared cores; each of its
# waits gets 30 min.
export DRA_LOAD_TIMEOUT=${DRA_LOAD_TIMEOUT:-1800}
cluster_started=0
cleanup() {
	local rc=$?
	if [ "$cluster_started" = 1 ]; then
		bench_log "stopping the benchmark cluster ($DRA_CLUSTER_DIR)"
		"$cluster/down" >&2 || bench_log "warning: $cluster/down failed"
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
# up refuses ports that another process holds (then choose another
# --port-base), and leaves a cluster already running in DIR alone.
bench_log "starting the cluster: DRA_CLUSTER_DIR=$DRA_CLUSTER_DIR DRA_PORT_BASE=$DRA_PORT_BASE"
cluster_started=1
kubeconfig=$("$cluster/up" | tail -n 1)
[ -s "$kubeconfig" ] || bench_die "tests/cluster/up gave no kubeconfig"
export KUBECONFIG=$kubeconfig

fleet="--nodes 1000 --layout full --claims 8000"
# shellcheck disable=SC2086
"$gen" --apply $fleet -o "$dir/fleet-apply.yaml"
bench_log "loading dra-gen-fleet --apply $fleet (the scheduler allocates every claim)"
t0=$(date +%s)
summary=$("$cluster/load" "$dir/fleet-apply.yaml")
load_s=$(($(date +%s) - t0))
bench_log "$summary (${load_s}s)"

# ------------------------------------------------------------- commands --
# kubectl: the cached 1.37.2 one; the plugin: kubectl-dra on PATH, as a
# user installs it.
bench_plugin_path "$root" "$dir" "$dra"

# What the cluster holds, counted by kubectl.
count() { kubectl get "$@" -A --no-headers 2>/dev/null | wc -l; }
n_slices=$(count resourceslices)
n_claims=$(count resourceclaims)
n_pods=$(count pods)
n_nodes=$(kubectl get nodes --no-headers | wc -l)
n_alloc=$(kubectl get resourceclaims -A -o jsonpath='{range .items[*]}{.status.allocation.devices.results[0].device}{"\n"}{end}' | grep -c . || true)

labels="kubectl.get plugin.devices plugin.claims direct.devices direct.claims plugin.version"
run_label() {
	case $1 in
	kubectl.get) bench_time "$dir/results" "$1" "$2" "$3" -- kubectl get resourceslices,resourceclaims -A -o wide ;;
	plugin.devices) bench_time "$dir/results" "$1" "$2" "$3" -- kubectl dra get devices -A ;;
	plugin.claims) bench_time "$dir/results" "$1" "$2" "$3" -- kubectl dra get claims -A ;;
	direct.devices) bench_time "$dir/results" "$1" "$2" "$3" -- kubectl-dra get devices -A ;;
	direct.claims) bench_time "$dir/results" "$1" "$2" "$3" -- kubectl-dra get claims -A ;;
	plugin.version) bench_time "$dir/results" "$1" "$2" "$3" -- kubectl dra version --client ;;
	esac
}

# The load of the machine while the commands run (the cluster load
# before is heavy).
load_start=$(cut -d" " -f1-3 /proc/loadavg)
# Warm-up: the apiserver's caches, and a check of the rows printed.
: >"$dir/results"
for l in $labels; do
	bench_log "warm-up: $l"
	run_label "$l" 0 "$dir/out.$l"
done
rows() { echo $(($(wc -l <"$dir/out.$1") - 1)); }
# kubectl prints one header per kind: slices and claims.
rows_kubectl=$(($(grep -cv '^NAME\|^NAMESPACE\|^$' "$dir/out.kubectl.get")))
rows_devices=$(rows plugin.devices)
rows_claims=$(rows plugin.claims)
[ "$rows_kubectl" = $((n_slices + n_claims)) ] ||
	bench_die "kubectl printed $rows_kubectl rows, expected $((n_slices + n_claims))"
if [ "$rows_devices" != "$(rows direct.devices)" ] || [ "$rows_claims" != "$(rows direct.claims)" ]; then
	bench_die "kubectl dra and kubectl-dra printed different tables"
fi
[ "$rows_claims" = "$n_claims" ] ||
	bench_die "kubectl dra get claims printed $rows_claims rows, expected $n_claims"
# stderr of the warm-up round: warnings are part of what a user sees.
err_kubectl=$(bench_stderr_of "$dir/out.kubectl.get.err")
err_devices=$(bench_stderr_of "$dir/out.plugin.devices.err")
err_claims=$(bench_stderr_of "$dir/out.plugin.claims.err")
: >"$dir/results"

# shellcheck disable=SC2086 # labels are plain words
bench_rounds "$runs" $labels
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
bench_stats "$dir/results" >"$dir/stats"

# Where the plugin's wall time goes: one more run of each view with
# --v=6 (bench_http_time: the requests' count and summed time).
http_devices=$(bench_http_time kubectl-dra get devices -A)
http_claims=$(bench_http_time kubectl-dra get claims -A)
if [ "$perf" = 1 ]; then
	bench_need perf
	for what in devices claims; do
		bench_log "perf: direct.$what"
		bench_perf "$dir" "direct.$what" 2000 -- kubectl-dra get "$what" -A
	done
fi

# -------------------------------------------------------------- report --
t() { bench_t "$dir/stats" "$1"; }
m() { bench_m "$dir/stats" "$1"; }
ratio() { bench_ratio "$dir/results" "$1" "$2" "$3"; }
# goal RATIO LIMIT
goal() { awk -v r="$1" -v g="$2" 'BEGIN { if (r == "n/a") print "n/a"; else if (r + 0 <= g) print "met"; else print "**missed**" }'; }

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes)"
fi
kver=$(kubectl version --client 2>/dev/null | awk '/^Client Version/ { print $3 }')

cat <<EOF
## bench/apiserver.sh

- command: \`bench/apiserver.sh --runs $runs\`
- kubectl-dra $commit, build type $(bench_build_type "$build"); kubectl $kver and the control plane of tests/cluster (Kubernetes 1.37.2, loopback, TLS with client certificates)
$(bench_machine | sed "s/^- load average at start: .*/- load average (1, 5, 15 min): $load_start at start, $load_end at end/")
- cluster: \`dra-gen-fleet --apply $fleet\` loaded with \`tests/cluster/load\` in ${load_s} s ($summary);
  the real scheduler allocated the claims. Counted by kubectl: $n_nodes nodes, $n_slices ResourceSlices
  ($((n_nodes * 8)) devices), $n_claims ResourceClaims ($n_alloc allocated), $n_pods pods
- rows printed: kubectl $rows_kubectl (slices and claims), \`kubectl dra get devices -A\` $rows_devices, \`kubectl dra get claims -A\` $rows_claims
- stderr (warm-up round): kubectl: $err_kubectl; \`kubectl dra get devices -A\`: $err_devices; \`kubectl dra get claims -A\`: $err_claims
- $runs timed rounds after one warm-up round; in each round every command
  ran once, in an order rotated every round; output to /dev/null
- cells: median (min–max) over the rounds; ratios are the median of the
  per-round ratios of two commands of the same round

| command | wall time, s | time / kubectl | peak RSS, MB | memory / kubectl | client CPU (user+sys), s | CPU / kubectl |
|---|---|---|---|---|---|---|
EOF
row() { # LABEL TEXT
	local c
	c=$(bench_cpu "$dir/stats" "$1")
	if [ "$1" = kubectl.get ]; then
		printf '| %s | %s | 1 | %s | 1 | %s | 1 |\n' "$2" "$(t "$1")" "$(m "$1")" "$c"
	else
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$2" "$(t "$1")" \
			"$(ratio "$1" kubectl.get 3)" "$(m "$1")" "$(ratio "$1" kubectl.get 4)" \
			"$c" "$(ratio "$1" kubectl.get cpu)"
	fi
}
row kubectl.get '`kubectl get resourceslices,resourceclaims -A -o wide`'
row plugin.devices '`kubectl dra get devices -A`'
row plugin.claims '`kubectl dra get claims -A`'
row direct.devices '`kubectl-dra get devices -A` (direct)'
row direct.claims '`kubectl-dra get claims -A` (direct)'
row plugin.version '`kubectl dra version --client` (kubectl running a plugin)'

cat <<EOF

The peak RSS of a \`kubectl dra\` row is max(kubectl before its exec,
kubectl-dra); the plugin's own is the direct row.  Wall time minus client
CPU is mostly waiting for the API server (the lists are paginated,
limit=500, one page after the other, for kubectl and kubectl-dra alike).
One more run of the plugin with --v=6, summing the logged request times
(request sent to last byte of the body): \`get devices -A\` $http_devices,
\`get claims -A\` $http_claims.

Goal (time through \`kubectl dra\` at most 0.5 of kubectl's; the plugin's
own peak RSS, direct row, at most 0.25 of kubectl's):

| view | time | memory |
|---|---|---|
| devices | $(goal "$(ratio plugin.devices kubectl.get 3)" 0.5) ($(ratio plugin.devices kubectl.get 3)) | $(goal "$(ratio direct.devices kubectl.get 4)" 0.25) ($(ratio direct.devices kubectl.get 4)) |
| claims | $(goal "$(ratio plugin.claims kubectl.get 3)" 0.5) ($(ratio plugin.claims kubectl.get 3)) | $(goal "$(ratio direct.claims kubectl.get 4)" 0.25) ($(ratio direct.claims kubectl.get 4)) |
EOF
if [ "$keep" = 1 ]; then
	echo
	echo "Raw results (LABEL ROUND WALL_S PEAK_RSS_KIB USER_S SYS_S): $dir/results"
	if [ "$perf" = 1 ]; then
		echo "perf summaries: $dir/perf.*.txt"
	fi
fi
