#!/usr/bin/env bash
# e2e/cluster-up (ctest fixture setup of e2e_cluster): start the control
# plane of tests/cluster/up in the e2e state dir (building the upstream
# binaries first if they are not cached), clear what an earlier load
# left, then load the README demo cluster as a user would create it
# (`dra-gen-fleet --example --apply`) and let the real scheduler place it.
set -euo pipefail
: "${DRA_SRC:?run through ctest}" "${DRA_CLUSTER_DIR:?}" "${DRA_GEN:?}" "${DRA_E2E_WORK:?}"
cluster=$DRA_SRC/tests/cluster
mkdir -p "$DRA_CLUSTER_DIR" "$DRA_E2E_WORK"
rm -f "$DRA_CLUSTER_DIR/e2e-failed"

fail() {
	echo "e2e/cluster-up: $*"
	echo "cluster-up" >>"$DRA_CLUSTER_DIR/e2e-failed"
	echo "cluster logs: $DRA_CLUSTER_DIR/logs"
	exit 1
}

t0=$(date +%s)
"$cluster/up" >/dev/null || fail "tests/cluster/up failed"
t1=$(date +%s)
"$cluster/load" --clear || fail "tests/cluster/load --clear failed"
"$DRA_GEN" --example --apply -o "$DRA_E2E_WORK/example-apply.yaml" ||
	fail "dra-gen-fleet --example --apply failed"
"$cluster/load" "$DRA_E2E_WORK/example-apply.yaml" || fail "tests/cluster/load failed"
t2=$(date +%s)
echo "e2e/cluster-up: up $((t1 - t0))s, clear + load $((t2 - t1))s; state in $DRA_CLUSTER_DIR"
