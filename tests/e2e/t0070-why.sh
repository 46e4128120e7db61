#!/usr/bin/env bash
# t0070-why: `kubectl dra why` against what the real kube-scheduler did
# on the demo cluster, live.
#
# 1. Every Pod that uses claims: a Pod the scheduler bound has every
#    claim allocated, so `why pod/NAME` must say "allocated" (exit 0)
#    and list exactly the devices of its claims' status.allocation; a
#    Pod the scheduler left pending (PodScheduled=False) must get exit 3,
#    allocatable false, and at least one reason.
# 2. A new claim for one MIG 1g.10gb device: `why claim/NAME` before any
#    Pod uses it.  Then a Pod that uses it is created and the scheduler
#    decides: it must bind the Pod iff why said allocatable, on one of
#    the nodes why listed in fitNodes.
# 3. The same question offline (--from a snapshot taken at that moment)
#    gives the same JSON document as live.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

# json_val FILE KEY: a top-level scalar of why's JSON (4-space indent).
json_val() {
	awk -v key="$2" '$0 ~ "^    \"" key "\":" {
		s = $0; sub(/^[^:]*: */, "", s); sub(/,$/, "", s); gsub(/"/, "", s)
		print s; exit }' "$1"
}
# json_devices FILE: "driver/pool/device" per line, sorted.
json_devices() {
	awk '/^    "devices": \[/ { on = 1; next } on && /^    \]/ { on = 0 }
	on && /"driver":/ { d = v($0) } on && /"pool":/ { p = v($0) }
	on && /"device":/ { print d "/" p "/" v($0) }
	function v(s) { sub(/^[^:]*: *"/, "", s); sub(/",?$/, "", s); return s }' "$1" | sort
}
# json_fit FILE: the fitNodes, one per line.
json_fit() {
	awk '/^    "fitNodes": \[/ { on = 1; next } on && /^    \]/ { on = 0 }
	on { gsub(/[ ",]/, ""); if ($0 != "") print }' "$1"
}

# ---- 1. every Pod with claims ------------------------------------------
# shellcheck disable=SC2016
pods_tmpl='{{range .items}}{{if .spec.resourceClaims}}{{.metadata.namespace}} {{.metadata.name}} {{if .spec.nodeName}}bound{{else}}pending{{end}}{{"\n"}}{{end}}{{end}}'
# shellcheck disable=SC2016
alloc_tmpl='{{range .items}}{{$ns := .metadata.namespace}}{{with .status}}{{with .allocation}}{{range .devices.results}}{{$ns}} {{.driver}}/{{.pool}}/{{.device}}{{"\n"}}{{end}}{{end}}{{range .reservedFor}}{{end}}{{end}}{{end}}'
run pods kubectl get pods -A -o go-template="$pods_tmpl" || finish
[ -s "$T/pods.out" ] || fail "no Pod uses a claim: was the example loaded?"
nbound=0 npending=0
while read -r ns pod state; do
	rc=0
	kubectl dra why "pod/$pod" -n "$ns" -o json >"$T/why.json" 2>"$T/why.err" || rc=$?
	verdict=$(json_val "$T/why.json" verdict)
	if [ "$state" = bound ]; then
		nbound=$((nbound + 1))
		[ "$rc" = 0 ] && [ "$verdict" = allocated ] ||
			fail "why pod/$pod -n $ns (bound): exit $rc, verdict '$verdict': $(cat "$T/why.err")"
		# The devices of the Pod's claims, from the API server.
		: >"$T/want"
		for c in $(kubectl get pod "$pod" -n "$ns" -o go-template='{{range .status.resourceClaimStatuses}}{{.resourceClaimName}} {{end}}{{range .spec.resourceClaims}}{{if .resourceClaimName}}{{.resourceClaimName}} {{end}}{{end}}' | tr ' ' '\n' | sort -u); do
			kubectl get resourceclaim "$c" -n "$ns" -o go-template='{{range .status.allocation.devices.results}}{{.driver}}/{{.pool}}/{{.device}}{{"\n"}}{{end}}' >>"$T/want"
		done
		sort -o "$T/want" "$T/want"
		json_devices "$T/why.json" >"$T/got"
		check_same "why pod/$pod -n $ns: devices" "$T/want" "$T/got"
	else
		npending=$((npending + 1))
		[ "$rc" = 3 ] && [ "$(json_val "$T/why.json" allocatable)" = false ] ||
			fail "why pod/$pod -n $ns (pending): exit $rc, allocatable $(json_val "$T/why.json" allocatable): $(cat "$T/why.err")"
		grep -q '"code":' "$T/why.json" ||
			fail "why pod/$pod -n $ns (pending) gives no reason"
		kubectl dra why "pod/$pod" -n "$ns" >"$T/why.txt" 2>&1 || true
		echo "--- why pod/$pod -n $ns"
		sed -n '1,12p' "$T/why.txt"
	fi
done <"$T/pods.out"
echo "pods: $nbound bound, $npending pending"
[ "$nbound" -gt 0 ] && [ "$npending" -gt 0 ] ||
	fail "the example should have bound and pending pods ($nbound, $npending)"

# ---- 2. a new claim, then the scheduler --------------------------------
claim=why-e2e-1g
cleanup_claim() {
	kubectl delete pod "$claim" -n team-a --force --grace-period=0 --ignore-not-found >/dev/null 2>&1
	kubectl delete resourceclaim "$claim" -n team-a --ignore-not-found --wait=true >/dev/null 2>&1
}
e2e_cleanup_hooks="$e2e_cleanup_hooks cleanup_claim"
cat >"$T/claim.yaml" <<EOF
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: $claim, namespace: team-a}
spec:
  devices:
    requests:
    - name: mig
      exactly:
        deviceClassName: mig.nvidia.com
        selectors:
        - cel:
            expression: device.attributes["gpu.nvidia.com"].profile == "1g.10gb"
EOF
run create kubectl create -f "$T/claim.yaml" || finish
rc=0
kubectl dra why "claim/$claim" -n team-a -o json >"$T/new.json" 2>"$T/new.err" || rc=$?
allocatable=$(json_val "$T/new.json" allocatable)
json_fit "$T/new.json" >"$T/fit"
echo "why claim/$claim: exit $rc, allocatable $allocatable, fit: $(tr '\n' ' ' <"$T/fit")"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "why claim/$claim: exit $rc: $(cat "$T/new.err")"

# 3. Offline on a snapshot of the same moment: the same document.
run snap kubectl dra snapshot -o "$T/now.yaml" || finish
run offline kubectl dra why "claim/$claim" -n team-a -o json --from "$T/now.yaml"
check_same "why claim/$claim: --from a snapshot vs live" "$T/new.json" "$T/offline.out"

cat >"$T/pod.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata: {name: $claim, namespace: team-a}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources: {claims: [{name: mig}]}
  resourceClaims:
  - {name: mig, resourceClaimName: $claim}
EOF
run pod kubectl create -f "$T/pod.yaml" || finish
node="" sched=""
for _ in $(seq 1 1200); do
	node=$(kubectl get pod "$claim" -n team-a -o go-template='{{.spec.nodeName}}' 2>/dev/null)
	sched=$(kubectl get pod "$claim" -n team-a -o go-template='{{range .status.conditions}}{{if eq .type "PodScheduled"}}{{.status}}{{end}}{{end}}' 2>/dev/null)
	case "$node" in "" | "<no value>") node="" ;; *) break ;; esac
	[ "$sched" = False ] && break
	sleep 0.5
done
echo "scheduler: node '${node:-none}', PodScheduled '${sched:-?}'"
if [ -n "$node" ]; then
	[ "$allocatable" = true ] || fail "the scheduler bound $claim to $node, why said allocatable $allocatable"
	grep -qx "$node" "$T/fit" || fail "the scheduler chose $node, not among why's fitNodes: $(tr '\n' ' ' <"$T/fit")"
elif [ "$sched" = False ]; then
	[ "$allocatable" = false ] || fail "the scheduler left $claim pending, why said allocatable $allocatable"
else
	fail "the scheduler did not decide on pod $claim in 10 minutes"
fi
finish
