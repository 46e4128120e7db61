#!/bin/sh
# On the real control plane (tests/cluster, the e2e fixture): the UI
# lists, then watches; a claim created while it runs appears, one
# deleted disappears, within seconds; the header says LIVE and names
# the context; :ns narrows the views.  Label e2e.
. "$(dirname "$0")/lib.sh"

: "${DRA_CLUSTER_DIR:?DRA_CLUSTER_DIR must name the e2e cluster's state dir}"
. "$SRC/tests/cluster/lib.sh"
export KUBECONFIG=$DRA_CLUSTER_DIR/admin.kubeconfig
unset KUBECTL_DRA_NOW
PATH=$DRA_BIN:$PATH
# "Within a few seconds": watches, not a relist timer.
TUI_WAIT=10
ns=ui-live-$$
name=ui-live-claim

kubectl create namespace "$ns" >/dev/null || fail "cannot create $ns"
trap 'kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1;
    $TMUX_CMD kill-server 2>/dev/null; rm -rf "$T"' EXIT INT TERM

start -e "KUBECONFIG=$KUBECONFIG" ui claims
wait_for "claims(all)["
wait_for "LIVE"
expect "context "
expect_not "$name"

kubectl apply -f - >/dev/null <<YAML || fail "cannot create the claim"
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: $name
  namespace: $ns
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
YAML
wait_for "$ns"
screen | grep -q "^$ns  *$name  " || fail "the new claim's row"
# The namespace as a filter of the views.
type_text ":ns $ns"
send Enter
wait_for "claims($ns)[1]"
kubectl delete resourceclaim -n "$ns" "$name" --wait=false >/dev/null ||
    fail "cannot delete the claim"
wait_for "claims($ns)[0]"
expect_not "$name"
type_text ":ns"
send Enter
wait_for "claims(all)["
quit
