#!/usr/bin/env bash
# t0110-doctor: `kubectl dra doctor` on a real control plane of its own
# (the e2e demo cluster has pending pods and no quota for every class,
# so it is never clean): tests/cluster/up with DRA_CLUSTER_DIR=
# $DRA_E2E_WORK/doctor-cluster and DRA_PORT_BASE=26600, stopped by a
# cleanup hook.
#   - a clean cluster (a node, its pool, two classes, a quota covering
#     both, a claim in use by a pod the real scheduler binds) passes:
#     exit 0, every check Ready, the feature probes all on, "Ready";
#   - then one problem at a time, cumulatively, and the check it
#     concerns turns Warning or Failed naming the object: a device
#     plugin advertising nvidia.com/gpu on a node whose GPUs a DRA
#     driver publishes, a slice of a node that does not exist, an
#     incomplete pool, a pending claim with its why (--pending-threshold
#     0s), a leaked claim (allocated through the status subresource,
#     reserved for no pod: the resourceclaim controller leaves it), a
#     class matching no device, a namespace using a class without quota,
#     a class at 100% through claims the scheduler allocates, a
#     DeviceTaintRule;
#   - the limited user (limited.kubeconfig) gets Warnings, never a
#     crash or an error.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

# Real ages: the objects are created during the test.
unset KUBECTL_DRA_NOW

DC=$DRA_E2E_WORK/doctor-cluster
DP=26600
mkdir -p "$DRA_E2E_WORK"
doctor_down() {
	DRA_CLUSTER_DIR=$DC DRA_PORT_BASE=$DP "$DRA_SRC/tests/cluster/down" \
		>"$T/down.out" 2>&1
}
e2e_cleanup_hooks="$e2e_cleanup_hooks doctor_down"
if ! DRA_CLUSTER_DIR=$DC DRA_PORT_BASE=$DP "$DRA_SRC/tests/cluster/up" \
	>"$T/up.out" 2>"$T/up.err"; then
	fail "tests/cluster/up of the doctor cluster failed:"
	tail -n 20 "$T/up.err"
	finish
fi
KUBECONFIG=$DC/admin.kubeconfig
LOGS=$DC/logs
export KUBECONFIG

k() { kubectl --request-timeout=30s "$@"; }

# wait_for WHAT CMD...: poll CMD until it succeeds (a generous cap).
wait_for() {
	local what=$1 i
	shift
	for i in $(seq 1 240); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	fail "waited 120 s for $what"
	return 1
}

# doctor NAME [ARGS]: run the plugin; its table in $T/NAME.out, its
# JSON flattened into $T/NAME.flat ("verdict CHECK V" and "finding CHECK
# OBJECT MESSAGE", tab-separated), its exit status in $T/NAME.rc.
doctor() {
	local name=$1 rc=0
	shift
	kubectl dra doctor "$@" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	echo "$rc" >"$T/$name.rc"
	kubectl dra doctor -o json "$@" 2>/dev/null | awk '
	function val(l) { sub(/^[^:]*: "/, "", l); sub(/",?$/, "", l); return l }
	/^            "name": / { name = val($0) }
	/^            "verdict": / { print "verdict\t" name "\t" val($0) }
	/^                    "object": / { obj = val($0) }
	/^                    "message": / { print "finding\t" name "\t" obj "\t" val($0) }
	' >"$T/$name.flat"
}

# verdict NAME CHECK: the check's verdict in run NAME.
verdict() {
	awk -F '\t' -v c="$2" '$1 == "verdict" && $2 == c { print $3 }' "$T/$1.flat"
}

# expect NAME CHECK VERDICT [OBJECT [WORDS]]: the check has VERDICT and
# a finding about OBJECT whose message contains WORDS.
expect() {
	local name=$1 check=$2 want=$3 obj=${4:-} words=${5:-} got
	got=$(verdict "$name" "$check")
	[ "$got" = "$want" ] ||
		fail "$name: $check is '$got', want $want: $(grep -A3 "^$check " "$T/$name.out" | head -n 4)"
	[ -n "$obj" ] || return 0
	awk -F '\t' -v c="$check" -v o="$obj" -v w="$words" '
	$1 == "finding" && $2 == c && $3 == o && index($4, w) { f = 1 }
	END { exit !f }' "$T/$name.flat" ||
		fail "$name: $check names no $obj with '$words': $(awk -F '\t' -v c="$check" '$2 == c' "$T/$name.flat" | head -n 3)"
}

# ---- a clean cluster ------------------------------------------------
now=$(date -u +%FT%TZ)
k apply -f - >/dev/null <<EOF || fail "creating the clean cluster"
apiVersion: v1
kind: Node
metadata:
  name: dn1
  labels: {kubernetes.io/hostname: dn1, kubernetes.io/os: linux}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: util.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'util.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: dn1-gpu}
spec:
  driver: gpu.example.com
  nodeName: dn1
  pool: {name: dn1, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}, {name: gpu-3}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: dn1-util}
spec:
  driver: util.example.com
  nodeName: dn1
  pool: {name: dn1, generation: 1, resourceSliceCount: 1}
  devices: [{name: u-0}, {name: u-1}]
---
apiVersion: v1
kind: Namespace
metadata: {name: doc-a}
EOF
k patch node dn1 --subresource=status --type=merge -p "{\"status\":{
 \"capacity\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"},
 \"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"},
 \"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"KubeletReady\",
  \"message\":\"simulated\",\"lastHeartbeatTime\":\"$now\",\"lastTransitionTime\":\"$now\"}]}}" \
	>/dev/null || fail "node status"
wait_for "ServiceAccount doc-a/default" k get serviceaccount default -n doc-a

# claim_pod NS CLAIM POD CLASS: a claim and a pod using it.
claim_pod() {
	k apply -f - >/dev/null <<EOF
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: $2, namespace: $1}
spec:
  devices:
    requests:
    - name: dev
      exactly: {deviceClassName: $4}
---
apiVersion: v1
kind: Pod
metadata: {name: $3, namespace: $1}
spec:
  automountServiceAccountToken: false
  containers:
  - name: main
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 10m, memory: 16Mi}
      claims: [{name: dev}]
  resourceClaims:
  - {name: dev, resourceClaimName: $2}
EOF
}
bound() { [ -n "$(k get pod "$2" -n "$1" -o jsonpath='{.spec.nodeName}')" ]; }

k apply -f - >/dev/null <<EOF || fail "quota"
apiVersion: v1
kind: ResourceQuota
metadata: {name: devices, namespace: doc-a}
spec:
  hard:
    gpu.example.com.deviceclass.resource.k8s.io/devices: "20"
    util.example.com.deviceclass.resource.k8s.io/devices: "20"
EOF
claim_pod doc-a c-ok p-ok gpu.example.com || fail "claim c-ok"
wait_for "the scheduler to bind doc-a/p-ok" bound doc-a p-ok

doctor clean
[ "$(cat "$T/clean.rc")" = 0 ] ||
	fail "clean cluster: exit $(cat "$T/clean.rc"), want 0:$(echo; cat "$T/clean.out" "$T/clean.err")"
[ "$(tail -n 1 "$T/clean.out")" = Ready ] ||
	fail "clean cluster: last line '$(tail -n 1 "$T/clean.out")', want Ready"
for c in server-version dra-api feature-gates device-plugin pools \
	orphan-slices pending-claims leaked-claims class-selectors \
	quota-coverage utilization taint-rules; do
	expect clean "$c" Ready
done
grep -q '^server-version    Ready     v1.37.2' "$T/clean.out" ||
	fail "clean: server-version does not show v1.37.2: $(grep server-version "$T/clean.out")"
# The feature probes: every gate of the cluster's --feature-gates is on.
tr '\n' ' ' <"$T/clean.out" | tr -s ' ' >"$T/clean.one"
for g in DRAPrioritizedList DRADeviceTaints DRAConsumableCapacity \
	DRAPartitionableDevices DRADeviceBindingConditions \
	DRAExtendedResource DRADeviceTaintRules; do
	grep -q "$g" "$T/clean.one" || fail "clean: feature-gates does not name $g as on"
done
# No claim pending beyond the threshold: neither Pods nor Namespaces
# are listed (only pending-claims needs them).
kubectl dra doctor -v 6 >/dev/null 2>"$T/clean.v6" || true
if grep -E 'GET [^ ]*/api/v1/(namespaces(/[^/ ]*/pods)?|pods)([? ]|$)' "$T/clean.v6"; then
	fail "clean: doctor listed pods or namespaces with no claim pending"
fi
grep -q 'GET [^ ]*/resourceclaims' "$T/clean.v6" ||
	fail "clean: the -v 6 log shows no request (format changed?): $(head -n 3 "$T/clean.v6")"
# Dry runs store nothing.
[ -z "$(k get resourceclaims -A -o name | grep doctor)$(k get resourceslices -o name | grep doctor)$(k get deviceclasses -o name | grep doctor)" ] ||
	fail "the feature probes left objects behind"

# ---- 1. a device plugin on a node whose GPUs a DRA driver publishes --
k apply -f - >/dev/null <<EOF || fail "stage 1"
apiVersion: v1
kind: Node
metadata:
  name: dn2
  labels: {kubernetes.io/hostname: dn2}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: dn2-nvidia}
spec:
  driver: gpu.nvidia.com
  nodeName: dn2
  pool: {name: dn2, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}]
EOF
k patch node dn2 --subresource=status --type=merge -p '{"status":{
 "capacity":{"cpu":"8","memory":"32Gi","pods":"110","nvidia.com/gpu":"2"},
 "allocatable":{"cpu":"8","memory":"32Gi","pods":"110","nvidia.com/gpu":"2"}}}' \
	>/dev/null || fail "node dn2 status"
doctor s1
expect s1 device-plugin Failed node/dn2 "nvidia.com/gpu=2 (a device plugin) while DRA driver gpu.nvidia.com publishes 2 devices"
grep -q '^ *kubectl label node dn2 nvidia.com/gpu.deploy.device-plugin=false$' "$T/s1.out" ||
	fail "s1: the fix does not say how to turn the device plugin off"
[ "$(cat "$T/s1.rc")" = 3 ] || fail "s1: exit $(cat "$T/s1.rc"), want 3"
tail -n 1 "$T/s1.out" | grep -q '^Not ready: 1 failed$' ||
	fail "s1: last line '$(tail -n 1 "$T/s1.out")'"

# ---- 2. a slice of a node that does not exist ------------------------
k apply -f - >/dev/null <<EOF || fail "stage 2"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: ghost-gpu}
spec:
  driver: gpu.example.com
  nodeName: ghost
  pool: {name: ghost, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
EOF
doctor s2
expect s2 orphan-slices Warning resourceslice/ghost-gpu "names node ghost, which does not exist"
expect s2 device-plugin Failed node/dn2

# ---- 3. an incomplete pool -------------------------------------------
k apply -f - >/dev/null <<EOF || fail "stage 3"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: dn1-split-a}
spec:
  driver: gpu.example.com
  nodeName: dn1
  pool: {name: dn1-split, generation: 1, resourceSliceCount: 2}
  devices: [{name: s-0}]
EOF
doctor s3
expect s3 pools Warning pool/gpu.example.com/dn1-split "incomplete: 1 of 2 slices at generation 1"

# ---- 4. a pending claim, with its why ------------------------------------
k apply -f - >/dev/null <<EOF || fail "stage 4"
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c-wait, namespace: doc-a}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: "device.driver == 'nobody.example.com'"}
EOF
doctor s4d
expect s4d pending-claims Ready
doctor s4 --pending-threshold 0s
expect s4 pending-claims Failed resourceclaim/doc-a/c-wait "never:"
expect s4 pending-claims Failed resourceclaim/doc-a/c-wait "no pod uses it"
# The reason is the request's selector, and the fix says so.
expect s4 pending-claims Failed resourceclaim/doc-a/c-wait "request selector #0 is false: device.driver == 'nobody.example.com'"
grep -A30 '^pending-claims' "$T/s4.out" | tr '\n' ' ' | tr -s ' ' |
	grep -q "Fix: correct the claim's request selectors" ||
	fail "s4: the fix does not point at the request's selectors: $(grep -A30 '^pending-claims' "$T/s4.out")"
# Pods are listed in doc-a only, where the pending claim is.
kubectl dra doctor --pending-threshold 0s -v 6 >/dev/null 2>"$T/s4.v6" || true
grep -q 'GET [^ ]*/api/v1/namespaces/doc-a/pods' "$T/s4.v6" ||
	fail "s4: doctor did not list the pods of doc-a: $(grep pods "$T/s4.v6")"
if grep -E 'GET [^ ]*/api/v1/pods' "$T/s4.v6"; then
	fail "s4: doctor listed the pods of every namespace"
fi

# ---- 5. a leaked claim: allocated, reserved for no pod --------------------
k apply -f - >/dev/null <<EOF || fail "stage 5"
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c-leak, namespace: doc-a}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
EOF
free=$(k get resourceclaim c-ok -n doc-a -o jsonpath='{.status.allocation.devices.results[0].device}')
[ "$free" = gpu-0 ] && leak=gpu-1 || leak=gpu-0
k patch resourceclaim c-leak -n doc-a --subresource=status --type=merge -p "{\"status\":{\"allocation\":{
 \"devices\":{\"results\":[{\"request\":\"gpu\",\"driver\":\"gpu.example.com\",\"pool\":\"dn1\",\"device\":\"$leak\"}]},
 \"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"dn1\"]}]}]}}}}" \
	>/dev/null || fail "allocating c-leak through the status subresource"
# The resourceclaim controller deallocates a claim when it drops the last
# reservation; one written without any stays allocated.
sleep 3
[ -n "$(k get resourceclaim c-leak -n doc-a -o jsonpath='{.status.allocation}')" ] ||
	fail "the resourceclaim controller deallocated c-leak: the leak cannot be staged this way"
doctor s5
expect s5 leaked-claims Warning resourceclaim/doc-a/c-leak "allocated gpu.example.com/dn1/$leak, reserved for no pod"

# ---- 6. a class that matches no device -------------------------------
k apply -f - >/dev/null <<EOF || fail "stage 6"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: tpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'tpu.example.com'"}
EOF
doctor s6
expect s6 class-selectors Warning deviceclass/tpu.example.com "matches none of the"

# ---- 7. a namespace using a class without a quota ---------------------
k apply -f - >/dev/null <<EOF || fail "stage 7"
apiVersion: v1
kind: Namespace
metadata: {name: doc-b}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t-b, namespace: doc-b}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
EOF
doctor s7
expect s7 quota-coverage Warning namespace/doc-b "uses class gpu.example.com (template t-b) and no ResourceQuota limits it"

# ---- 8. a class at 100% through the scheduler -----------------------
expect s7 utilization Ready
claim_pod doc-a c-u0 p-u0 util.example.com || fail "claim c-u0"
claim_pod doc-a c-u1 p-u1 util.example.com || fail "claim c-u1"
wait_for "the scheduler to bind doc-a/p-u0" bound doc-a p-u0
wait_for "the scheduler to bind doc-a/p-u1" bound doc-a p-u1
doctor s8
expect s8 utilization Failed deviceclass/util.example.com "2 of 2 devices in use (100%), above the 95% ceiling"

# ---- 9. a DeviceTaintRule --------------------------------------------
k apply -f - >/dev/null <<EOF || fail "stage 9"
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: maint}
spec:
  deviceSelector: {driver: gpu.example.com, pool: dn1}
  taint: {key: example.com/maintenance, value: "true", effect: NoSchedule}
EOF
doctor s9
expect s9 taint-rules Warning devicetaintrule/maint "example.com/maintenance=true:NoSchedule taints 4 devices"
# Everything staged is still reported, and nothing else broke.
for c in server-version dra-api feature-gates; do expect s9 "$c" Ready; done
expect s9 device-plugin Failed node/dn2
expect s9 orphan-slices Warning resourceslice/ghost-gpu
expect s9 pools Warning pool/gpu.example.com/dn1-split
expect s9 leaked-claims Warning resourceclaim/doc-a/c-leak
expect s9 class-selectors Warning deviceclass/tpu.example.com
expect s9 quota-coverage Warning namespace/doc-b
expect s9 utilization Failed deviceclass/util.example.com
[ "$(cat "$T/s9.rc")" = 3 ] || fail "s9: exit $(cat "$T/s9.rc"), want 3"
# pending-claims is Failed with the default threshold only once c-wait
# is 5 minutes old; the overall line counts what the table shows.
nf=$(awk -F '\t' '$1 == "verdict" && $3 == "Failed"' "$T/s9.flat" | wc -l)
nw=$(awk -F '\t' '$1 == "verdict" && $3 == "Warning"' "$T/s9.flat" | wc -l)
tail -n 1 "$T/s9.out" | grep -q "^Not ready: $nf failed, $nw warnings$" ||
	fail "s9: last line '$(tail -n 1 "$T/s9.out")', want $nf failed, $nw warnings"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$T/s9.out" ||
	fail "s9: the table has lines longer than 80 columns"

# ---- the limited user -------------------------------------------------
lk=$DC/limited.kubeconfig
rc=0
kubectl dra doctor --kubeconfig="$lk" -n team-a >"$T/lim.out" 2>"$T/lim.err" || rc=$?
[ "$rc" = 3 ] || fail "limited user: exit $rc, want 3 (warnings, not an error or a crash): $(head -n 5 "$T/lim.err")"
grep -q '^pools             Warning   cannot read resourceslices: forbidden' "$T/lim.out" ||
	fail "limited user: pools is not 'cannot read resourceslices: forbidden': $(grep '^pools' "$T/lim.out")"
grep -A3 '^feature-gates' "$T/lim.out" | tr '\n' ' ' | tr -s ' ' |
	grep -q '^feature-gates Warning cannot probe .*: forbidden' ||
	fail "limited user: feature-gates does not say the probes were forbidden: $(grep -A2 '^feature-gates' "$T/lim.out")"
grep -q '^server-version    Ready' "$T/lim.out" ||
	fail "limited user: /version should be readable: $(grep '^server-version' "$T/lim.out")"
# Claims of team-a were read: the check runs and says what it did not see.
grep -A2 '^leaked-claims' "$T/lim.out" | tr '\n' ' ' | tr -s ' ' |
	grep -q 'namespace team-a only: cannot read resourceclaims outside it' ||
	fail "limited user: leaked-claims does not say it saw team-a only: $(grep -A2 '^leaked-claims' "$T/lim.out")"
if grep -q 'kubectl-dra: error' "$T/lim.err"; then
	fail "limited user: an error instead of warnings: $(cat "$T/lim.err")"
fi

finish
