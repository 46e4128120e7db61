# shellcheck shell=bash disable=SC2034
# Common settings for tests/cluster/{up,down,smoke}.  Sourced, not run.
#
#   DRA_CACHE        binary cache root (default $HOME/.cache/kubectl-dra)
#   DRA_CLUSTER_DIR  state dir: certs, pids, logs, kubeconfigs, etcd data
#                    (default $DRA_CACHE/cluster)
#   DRA_PORT_BASE    first of 5 loopback ports (default 26400):
#                    +0 etcd client, +1 etcd peer, +2 kube-apiserver,
#                    +3 kube-controller-manager, +4 kube-scheduler

K8S_VERSION=1.37.2
DRA_CACHE=${DRA_CACHE:-${HOME:?HOME is not set}/.cache/kubectl-dra}
DRA_BIN=$DRA_CACHE/k8s-v$K8S_VERSION/bin
DRA_CLUSTER_DIR=${DRA_CLUSTER_DIR:-$DRA_CACHE/cluster}
DRA_PORT_BASE=${DRA_PORT_BASE:-26400}

ETCD_PORT=$((DRA_PORT_BASE + 0))
ETCD_PEER_PORT=$((DRA_PORT_BASE + 1))
API_PORT=$((DRA_PORT_BASE + 2))
KCM_PORT=$((DRA_PORT_BASE + 3))
SCHED_PORT=$((DRA_PORT_BASE + 4))

W=$DRA_CLUSTER_DIR
PKI=$W/pki
PIDS=$W/pids
LOGS=$W/logs

# Components in start order; down stops them in reverse.
COMPONENTS="etcd kube-apiserver kube-controller-manager kube-scheduler"

log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# pid_of NAME: print the recorded pid of NAME if that process is alive and
# is still our binary (guards against pid reuse); fail otherwise.
pid_of() {
	local f=$PIDS/$1.pid pid exe
	[ -s "$f" ] || return 1
	pid=$(cat "$f")
	case $pid in '' | *[!0-9]*) return 1 ;; esac
	kill -0 "$pid" 2>/dev/null || return 1
	exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || return 1
	case $exe in
	"$DRA_BIN/$1" | "$DRA_BIN/$1 (deleted)") ;;
	*) return 1 ;;
	esac
	printf '%s\n' "$pid"
}

# port_busy PORT: true when something listens on 127.0.0.1:PORT.
port_busy() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
