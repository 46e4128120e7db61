#!/usr/bin/env bash
# e2e/cluster-down (ctest fixture cleanup of e2e_cluster): stop the e2e
# control plane.  tests/cluster/down keeps the logs; when a test failed,
# say where they are.
set -euo pipefail
: "${DRA_SRC:?run through ctest}" "${DRA_CLUSTER_DIR:?}"
"$DRA_SRC/tests/cluster/down"
if [ -s "$DRA_CLUSTER_DIR/e2e-failed" ]; then
	echo "e2e/cluster-down: failed: $(sort -u "$DRA_CLUSTER_DIR/e2e-failed" | tr '\n' ' ')"
	echo "e2e/cluster-down: the cluster's logs are kept in $DRA_CLUSTER_DIR/logs"
	rm -f "$DRA_CLUSTER_DIR/e2e-failed"
fi
