#!/bin/sh
# The data's warnings: counted in the header, named by the file's note,
# listed by :warnings (a claim allocated a device no slice publishes);
# the example has none, and :warnings lists its tainted GPU for
# information.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
expect_not "warning"
type_text ":warnings"
send Enter
wait_for "No warnings about the data."
expect "gpu-node-4/gpu-3: taint nvidia.com/gpu-unhealthy=xid-79:NoSchedule"
quit "qq"

# The example and a claim holding a device nobody publishes.
sed '/^metadata:$/,$d' "$EXAMPLE" >"$T/odd.yaml"
cat >>"$T/odd.yaml" <<'YAML'
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata:
    name: ghost
    namespace: team-a
    uid: u-ghost
    creationTimestamp: "2026-11-29T16:31:19Z"
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
  status:
    allocation:
      devices:
        results:
        - request: gpu
          driver: gpu.nvidia.com
          pool: gpu-node-1
          device: gpu-9
YAML
start ui claims --from "$T/odd.yaml"
wait_for "claims(all)[14]"
line 0 | grep -q " 1 warning (:warnings)  OFFLINE file$" ||
    fail "no count in the header: \"$(line 0)\""
[ "$(line 39)" = "1 warning about the file's objects: :warnings lists it" ] ||
    fail "the note: \"$(line 39)\""
type_text ":warn"
send Tab
wait_for ":warnings"
send Enter
wait_for "1 warning about the data."
expect "Reading the objects:"
expect "   resourceclaim team-a/ghost: allocated device"
expect "     gpu.nvidia.com/gpu-node-1/gpu-9 is not published by any current"
# Back where it was.
send Escape
wait_for "claims(all)[14]"
quit
