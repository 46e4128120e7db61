#!/usr/bin/env bash
# t0080-plan: `kubectl dra plan` on the demo cluster, live, and its
# layout carried out on the real control plane (issue 5: the planner's
# layout must be accepted by the allocator of `why` and, on the real
# control plane, by kube-scheduler).
#
# 1. The plan of data/plan-demand.yaml, live (no --from): exit 0,
#    status optimal, and the allocator's replay accepts every instance
#    (status.verification.accepted == instances).
# 2. Its manifests (PriorityClasses, DeviceClasses, ResourceQuotas and
#    the mig-parted ConfigMap) go to the API server with `kubectl apply`
#    after their namespaces are created: every object must be accepted,
#    and each quota must read back as the plan's.
# 3. Every instance the plan adds on a dynamic MIG GPU, in the plan's
#    order and one at a time: a ResourceClaim of the plan's DeviceClass
#    for its profile, pinned to its GPU by PCI bus ID, and a Pod on its
#    node.  kube-scheduler must bind the Pod and allocate exactly the
#    device the plan names.  Then the same claims without the pin,
#    after the first ones are gone: the real scheduler's node-wide first
#    fit must place as many, and as many on the planned device, as the
#    plan predicts (status.verification.unpinned).  (On a load where
#    the demo's own claims hold every dynamic MIG GPU, there is nothing
#    to realise: the log says so.)
# 4. Quotas: the claims of the plan's other instances (static MIG and
#    whole GPUs: mig-parted would have to act before they can run) are
#    created without Pods.  Then each team's quota must be used exactly
#    up to the plan's numbers, and one more claim of any class must be
#    refused by quota admission naming that class.
# 5. data/plan-infeasible.yaml: exit 3, status infeasible, and the
#    binding constraint (min) named in words.
# 6. Everything created is deleted and the demo cluster must be as it
#    was before (namespaces, classes, quotas, claims, pods, nodes).
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

demand=$here/data/plan-demand.yaml
infeasible=$here/data/plan-infeasible.yaml
label=kubectl-dra.e2e/test=t0080-plan
# Polls of the scheduler and the controllers: every 0.5 s, at most
# this many times (10 minutes).
poll_max=1200

# json_paths, json_raw, jv: lib.sh.

# plan_instances < PATHS: one line per instance of status.layout:
#   order node gpu mode device profile ownerkind namespace workload bus
# (bus: the GPU's pciBusID; "-" for what is absent), in the plan's order.
plan_instances() {
	awk -F '\t' '
	function idx(   x) { x = p; sub(/\].*/, "", x); p = substr(p, length(x) + 3); return x }
	$1 ~ /^status\.layout\[/ {
		p = $1; sub(/^status\.layout\[/, "", p); l = idx()
		if (p == "node") { node[l] = $2; next }
		if (p !~ /^gpus\[/) next
		sub(/^gpus\[/, "", p); g = idx()
		if (p !~ /^instances\[/) { gpu[l "," g, p] = $2; next }
		sub(/^instances\[/, "", p); i = idx()
		k = l "," g "," i; at[k] = l "," g; f[k, p] = $2
	}
	function d(v) { return v == "" ? "-" : v }
	END {
		for (k in at) {
			split(k, a, ",")
			print f[k, "order"], node[a[1]], gpu[at[k], "name"], gpu[at[k], "mode"],
			    d(f[k, "device"]), f[k, "profile"], f[k, "owner.kind"],
			    d(f[k, "owner.namespace"]), d(f[k, "owner.workload"]),
			    d(gpu[at[k], "pciBusID"])
		}
	}' | sort -n
}

# plan_grants < PATHS: "namespace workload profile deviceClass
# priorityClass" per grant ("-" when the workload has no class).
plan_grants() {
	awk -F '\t' '
	$1 ~ /^status\.teams\[[0-9]+\]\.namespace$/ { t = $1; sub(/\.namespace$/, "", t); ns[t] = $2 }
	$1 ~ /^status\.teams\[[0-9]+\]\.workloads\[[0-9]+\]\.(name|priorityClass)$/ {
		w = $1; f = w; sub(/\.[a-zA-Z]+$/, "", w); sub(/.*\./, "", f); wl[w, f] = $2
	}
	$1 ~ /\.grants\[[0-9]+\]\.(profile|deviceClass)$/ {
		g = $1; f = g; sub(/\.[a-zA-Z]+$/, "", g); sub(/.*\./, "", f); gr[g, f] = $2; grant[g] = 1
	}
	END {
		for (g in grant) {
			w = g; sub(/\.grants\[[0-9]+\]$/, "", w)
			t = w; sub(/\.workloads\[[0-9]+\]$/, "", t)
			pc = wl[w, "priorityClass"]
			print ns[t], wl[w, "name"], gr[g, "profile"], gr[g, "deviceClass"], (pc == "" ? "-" : pc)
		}
	}' | sort -u
}

# plan_quota NS < PATHS: "key value" of the team's quota.hard, sorted.
plan_quota() {
	awk -F '\t' -v ns="$1" '
	$1 ~ /^status\.teams\[[0-9]+\]\.namespace$/ && $2 == ns { t = $1; sub(/namespace$/, "quota.hard.", t) }
	t != "" && index($1, t) == 1 { print substr($1, length(t) + 1), $2 }' | sort
}

# quota_of NS WHICH: "key value" of the live dra-plan quota's spec.hard
# or status.used or status.hard, sorted.
# shellcheck disable=SC2016
quota_of() {
	local tmpl
	case $2 in
	spec.hard) tmpl='{{range $k, $v := .spec.hard}}{{$k}} {{$v}}{{"\n"}}{{end}}' ;;
	status.hard) tmpl='{{with .status}}{{range $k, $v := .hard}}{{$k}} {{$v}}{{"\n"}}{{end}}{{end}}' ;;
	status.used) tmpl='{{with .status}}{{range $k, $v := .used}}{{$k}} {{$v}}{{"\n"}}{{end}}{{end}}' ;;
	esac
	kubectl get resourcequota dra-plan -n "$1" -o go-template="$tmpl" 2>&1 | sort
}

# cluster_state: what t0080 must leave as it found it.
cluster_state() {
	kubectl get namespaces -o go-template='{{range .items}}namespace {{.metadata.name}}{{"\n"}}{{end}}'
	kubectl get nodes -o go-template='{{range .items}}node {{.metadata.name}} labels={{.metadata.labels}} taints={{.spec.taints}}{{"\n"}}{{end}}'
	kubectl get resourceslices -o go-template='{{range .items}}slice {{.metadata.name}} generation={{.spec.pool.generation}}{{"\n"}}{{end}}'
	kubectl get deviceclasses -o go-template='{{range .items}}deviceclass {{.metadata.name}} labels={{.metadata.labels}} annotations={{.metadata.annotations}} spec={{.spec}}{{"\n"}}{{end}}'
	kubectl get priorityclasses -o go-template='{{range .items}}priorityclass {{.metadata.name}} {{.value}}{{"\n"}}{{end}}'
	kubectl get resourcequotas -A -o go-template='{{range .items}}quota {{.metadata.namespace}}/{{.metadata.name}} hard={{.spec.hard}} used={{with .status}}{{.used}}{{end}}{{"\n"}}{{end}}'
	kubectl get resourceclaims -A -o go-template='{{range .items}}claim {{.metadata.namespace}}/{{.metadata.name}}{{with .status}}{{with .allocation}}{{range .devices.results}} {{.driver}}/{{.pool}}/{{.device}}{{end}}{{end}}{{end}}{{"\n"}}{{end}}'
	kubectl get pods -A -o go-template='{{range .items}}pod {{.metadata.namespace}}/{{.metadata.name}} node={{.spec.nodeName}}{{"\n"}}{{end}}'
}

# ---- 0. the cluster before ---------------------------------------------
run before cluster_state || finish
cp "$T/before.out" "$T/state-before"

# ---- 1. the plan, live -------------------------------------------------
rc=0
kubectl dra plan --demand "$demand" -o json >"$T/plan.json" 2>"$T/plan.err" || rc=$?
if [ "$rc" != 0 ]; then
	fail "kubectl dra plan --demand $demand -o json: exit $rc (expected 0)"
	sed -n '1,20p' "$T/plan.err"
	finish
fi
json_paths <"$T/plan.json" >"$T/plan.tsv" || { fail "the plan is not JSON"; finish; }
solver=$(jv "$T/plan.tsv" status.solver.status)
vinst=$(jv "$T/plan.tsv" status.verification.instances)
vacc=$(jv "$T/plan.tsv" status.verification.accepted)
echo "plan: status $solver; allocator replay: $vacc of $vinst instances accepted"
[ "$solver" = optimal ] || fail "plan status '$solver', expected optimal"
[ -n "$vinst" ] && [ "$vinst" -gt 0 ] && [ "$vacc" = "$vinst" ] ||
	fail "status.verification: accepted '$vacc' of '$vinst' instances ($(jv "$T/plan.tsv" status.verification.firstFailure))"
[ -s "$T/plan.err" ] && { echo "plan's stderr:"; sed -n '1,20p' "$T/plan.err"; }
# The table, for whoever reads this log (its warnings are above).
kubectl dra plan --demand "$demand" >"$T/plan.txt" 2>/dev/null || true
sed -n '1,200p' "$T/plan.txt"

plan_instances <"$T/plan.tsv" >"$T/instances"
plan_grants <"$T/plan.tsv" >"$T/grants"
awk '$4 == "dynamic" && $7 == "workload"' "$T/instances" >"$T/dynamic"
awk '$4 != "dynamic" && $7 == "workload"' "$T/instances" >"$T/other"
ndyn=$(grep -c . "$T/dynamic")
nnear=$(awk 'NR == FNR { if ($4 == "dynamic" && $7 != "workload") busy[$2 " " $3] = 1; next }
	($2 " " $3) in busy' "$T/instances" "$T/dynamic" | grep -c .)
echo "plan: $(grep -c . "$T/instances") instances in the layout, $ndyn new on dynamic MIG GPUs ($nnear next to running claims), $(grep -c . "$T/other") new elsewhere"
# The dynamic MIG GPUs that hold no running claim: the demand fills the
# cluster, so each of them must get instances (17 to 30 instances in
# all over 20 loads of the demo).  Some loads give gpu-node-2's eight
# GPUs to the demo's own claims (llm-pretrain-0 takes all eight when it
# gets there first): then step 3 has nothing to check, and says so.
dynfree=$(awk -F '\t' '
	$1 ~ /^status\.layout\[[0-9]+\]\.gpus\[[0-9]+\]\.mode$/ && $2 == "dynamic" {
		g = $1; sub(/\.mode$/, "", g); dyn[g] = 1 }
	$1 ~ /\.instances\[[0-9]+\]\.owner\.kind$/ && ($2 == "running" || $2 == "moved") {
		g = $1; sub(/\.instances\[.*/, "", g); busy[g] = 1 }
	END { for (g in dyn) if (!(g in busy)) n++; print n + 0 }' "$T/plan.tsv")
echo "live: $dynfree dynamic MIG GPUs without running claims"
if [ "$dynfree" = 0 ]; then
	echo "NOTE: every dynamic MIG GPU holds running claims of the demo on this load: step 3 has nothing to realise"
elif [ "$ndyn" -lt "$dynfree" ]; then
	fail "the plan adds only $ndyn instances on dynamic MIG GPUs, $dynfree of which are free: data/plan-demand.yaml should make it fill them"
fi

# ---- 2. the manifests to the API server --------------------------------
teams=$(awk -F '\t' '$1 ~ /^status\.teams\[[0-9]+\]\.namespace$/ { print $2 }' "$T/plan.tsv")
mns=$(awk -F '\t' '$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.namespace$/ { print $2 }' "$T/plan.tsv")
# shellcheck disable=SC2086
namespaces=$(printf '%s\n' $teams $mns | awk 'NF && !seen[$0]++')
nmanifests=$(awk -F '\t' '$1 ~ /^status\.manifests\[[0-9]+\]\.kind$/' "$T/plan.tsv" | grep -c .)
{
	echo '{"apiVersion": "v1", "kind": "List", "items":'
	json_raw "$T/plan.json" status.manifests
	echo '}'
} >"$T/manifests.json"
echo "manifests: $nmanifests objects ($(awk -F '\t' '$1 ~ /^status\.manifests\[[0-9]+\]\.kind$/ { print $2 }' "$T/plan.tsv" | sort | uniq -c | awk '{ printf "%s%s %s", n++ ? ", " : "", $1, $2 }')) in namespaces $(echo "$namespaces" | tr '\n' ' ')"
[ "$nmanifests" -gt 0 ] || { fail "the plan has no manifests"; finish; }

for ns in $namespaces; do
	if kubectl get namespace "$ns" >/dev/null 2>&1; then
		fail "namespace $ns exists before t0080 (left over from an earlier run?): the test needs fresh ones"
		finish
	fi
done
# Cluster-scoped objects that already exist (the demo's gpu.nvidia.com
# class): saved, put back at the end; the rest is deleted then.
mkdir -p "$T/saved"
kubectl get -f "$T/manifests.json" -o name --ignore-not-found >"$T/existing" 2>"$T/existing.err" ||
	{ fail "kubectl get -f the plan's manifests: $(cat "$T/existing.err")"; finish; }
while read -r obj; do
	kubectl get "$obj" -o json >"$T/saved/${obj//\//_}.json" || fail "cannot save $obj"
done <"$T/existing"
# shellcheck disable=SC2016
spec_tmpl='spec={{.spec}}{{with .value}} value={{.}}{{end}}{{"\n"}}labels={{.metadata.labels}}{{"\n"}}'
if [ -s "$T/existing" ]; then
	echo "already in the cluster (put back at the end): $(tr '\n' ' ' <"$T/existing")"
	while read -r obj; do
		kubectl get "$obj" -o go-template="$spec_tmpl" >"$T/saved/${obj//\//_}.before"
	done <"$T/existing"
fi

plan_cleaned=0
plan_cleanup() {
	local ns obj f cur
	[ "$plan_cleaned" = 0 ] || return 0
	plan_cleaned=1
	for ns in $namespaces; do
		kubectl delete pods --all -n "$ns" --force --grace-period=0 --ignore-not-found >/dev/null 2>&1
	done
	# shellcheck disable=SC2086
	kubectl delete namespace $namespaces --ignore-not-found --wait=true --timeout=300s >/dev/null 2>&1
	awk -F '\t' '
	$1 ~ /^status\.manifests\[[0-9]+\]\.kind$/ { i = $1; sub(/\.kind$/, "", i); kind[i] = $2 }
	$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.name$/ { i = $1; sub(/\.metadata\.name$/, "", i); name[i] = $2 }
	$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.namespace$/ { i = $1; sub(/\.metadata\.namespace$/, "", i); nsd[i] = 1 }
	END { for (i in kind) if (!(i in nsd)) print kind[i] "/" name[i] }' "$T/plan.tsv" |
	while read -r obj; do
		cur=$(kubectl get "$obj" -o name 2>/dev/null) || continue
		if grep -qx "$cur" "$T/existing"; then
			# As saved, at today's resourceVersion.
			f=$T/saved/${cur//\//_}.json
			cur=$(kubectl get "$obj" -o go-template='{{.metadata.resourceVersion}}')
			sed "s/\"resourceVersion\": \"[0-9]*\"/\"resourceVersion\": \"$cur\"/" "$f" >"$f.now"
			kubectl replace -f "$f.now" >/dev/null || echo "t0080: cannot restore $obj"
		else
			kubectl delete "$obj" --ignore-not-found --wait=true >/dev/null
		fi
	done
}
e2e_cleanup_hooks="$e2e_cleanup_hooks plan_cleanup"

for ns in $namespaces; do
	run "ns-$ns" kubectl create namespace "$ns" || finish
	run "ns-$ns-label" kubectl label namespace "$ns" "$label" >/dev/null
done
if run apply kubectl apply -f "$T/manifests.json"; then
	sed 's/^/  /' "$T/apply.out"
	n=$(grep -c . "$T/apply.out")
	[ "$n" = "$nmanifests" ] || fail "kubectl apply reported $n objects, the plan has $nmanifests"
else
	finish
fi
run readback kubectl get -f "$T/manifests.json" -o name || finish
# An object the cluster already had (the driver's gpu.nvidia.com class)
# must keep its meaning: applying the plan may relabel it, not change it.
while read -r obj; do
	kubectl get "$obj" -o go-template="$spec_tmpl" >"$T/applied.now"
	echo "  $obj before: $(tr '\n' ' ' <"$T/saved/${obj//\//_}.before")"
	echo "  $obj after:  $(tr '\n' ' ' <"$T/applied.now")"
	sed -n 1p "$T/saved/${obj//\//_}.before" >"$T/applied.want"
	sed -n 1p "$T/applied.now" >"$T/applied.got"
	check_same "$obj: the plan's manifest changes what the cluster already had" "$T/applied.want" "$T/applied.got"
done <"$T/existing"
[ "$(grep -c . "$T/readback.out")" = "$nmanifests" ] ||
	fail "the API server holds $(grep -c . "$T/readback.out") of the plan's $nmanifests objects"
# Every quota as the plan says, and its status filled by the quota
# controller (quota admission refuses claims until then).
for ns in $teams; do
	plan_quota "$ns" <"$T/plan.tsv" >"$T/quota-$ns.plan"
	quota_of "$ns" spec.hard >"$T/quota-$ns.spec"
	check_same "quota dra-plan in $ns: spec.hard on the server vs the plan" "$T/quota-$ns.plan" "$T/quota-$ns.spec" || continue
	for _ in $(seq 1 $poll_max); do
		quota_of "$ns" status.hard >"$T/quota-$ns.status"
		cmp -s "$T/quota-$ns.spec" "$T/quota-$ns.status" && break
		sleep 0.5
	done
	check_same "quota dra-plan in $ns: status.hard (filled by the quota controller) vs spec.hard" "$T/quota-$ns.spec" "$T/quota-$ns.status"
done
# ServiceAccount admission refuses Pods until the default SA exists.
for ns in $teams; do
	for _ in $(seq 1 $poll_max); do
		kubectl get serviceaccount default -n "$ns" >/dev/null 2>&1 && break
		sleep 0.5
	done
	kubectl get serviceaccount default -n "$ns" >/dev/null 2>&1 ||
		{ fail "no default ServiceAccount in $ns"; finish; }
done

# ---- 3. the dynamic MIG instances, one at a time, by the scheduler ------
# The PCI bus ID of every GPU: "node device busID".
# shellcheck disable=SC2016
run buses kubectl get resourceslices -o go-template='{{range .items}}{{if eq .spec.driver "gpu.nvidia.com"}}{{$n := .spec.nodeName}}{{range .spec.devices}}{{$n}} {{.name}} {{with index .attributes "resource.kubernetes.io/pciBusID"}}{{.string}}{{end}}{{"\n"}}{{end}}{{end}}{{end}}' || finish

# class_of NS WORKLOAD PROFILE, prio_of NS WORKLOAD: from the plan's grants.
class_of() { awk -v n="$1" -v w="$2" -v p="$3" '$1 == n && $2 == w && $3 == p { print $4; exit }' "$T/grants"; }
prio_of() { awk -v n="$1" -v w="$2" '$1 == n && $2 == w && $5 != "-" { print $5; exit }' "$T/grants"; }

# claim_yaml NAME NS CLASS [BUS]
claim_yaml() {
	cat <<EOF
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: $1
  namespace: $2
  labels: {kubectl-dra.e2e/test: t0080-plan}
spec:
  devices:
    requests:
    - name: dev
      exactly:
        deviceClassName: $3
EOF
	[ -n "${4:-}" ] && cat <<EOF
        selectors:
        - cel:
            expression: "device.attributes['resource.kubernetes.io'].pciBusID == '$4'"
EOF
	return 0
}

# realise NAME NS CLASS BUS NODE PRIO: a claim of CLASS (pinned to the
# GPU at BUS unless BUS is empty) and a Pod on NODE that uses it; wait
# until the scheduler binds the Pod and allocates the claim.  Sets
# r_node (the Pod's node) and r_dev ("driver device" per allocated
# device); returns 1 when that did not happen, with the Pod's
# conditions in $T/NAME.why.
realise() {
	local name=$1 ns=$2 class=$3 bus=$4 node=$5 prio=$6 sched=""
	r_node="" r_dev=""
	claim_yaml "$name" "$ns" "$class" "$bus" >"$T/$name-claim.yaml"
	cat >"$T/$name-pod.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: $name
  namespace: $ns
  labels: {kubectl-dra.e2e/test: t0080-plan}
spec:
  nodeSelector: {kubernetes.io/hostname: $node}
  ${prio:+priorityClassName: $prio}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources: {claims: [{name: dev}]}
  resourceClaims:
  - {name: dev, resourceClaimName: $name}
EOF
	run "$name-claim" kubectl create -f "$T/$name-claim.yaml" || return 1
	run "$name-pod" kubectl create -f "$T/$name-pod.yaml" || return 1
	for _ in $(seq 1 $poll_max); do
		# "NODE sSTATUS": "-" before binding, "s" before any condition.
		read -r r_node sched < <(kubectl get pod "$name" -n "$ns" -o go-template='{{if .spec.nodeName}}{{.spec.nodeName}}{{else}}-{{end}} s{{range .status.conditions}}{{if eq .type "PodScheduled"}}{{.status}}{{end}}{{end}}{{"\n"}}' 2>/dev/null)
		[ "${r_node:--}" = - ] && r_node=""
		sched=${sched#s}
		[ "$sched" = False ] && break
		if [ -n "$r_node" ]; then
			r_dev=$(kubectl get resourceclaim "$name" -n "$ns" -o go-template='{{with .status}}{{with .allocation}}{{range .devices.results}}{{.driver}} {{.device}}{{"\n"}}{{end}}{{end}}{{end}}' 2>/dev/null)
			[ -n "$r_dev" ] && return 0
		fi
		sleep 0.5
	done
	{
		echo "node '${r_node:-none}', PodScheduled '${sched:-?}'; the Pod's conditions:"
		kubectl get pod "$name" -n "$ns" -o go-template='{{range .status.conditions}}  {{.type}}={{.status}} {{.reason}}: {{.message}}{{"\n"}}{{end}}'
	} >"$T/$name.why" 2>&1
	return 1
}

# 3a. Each claim names its GPU: the plan promises that first fit on
# that GPU, in the plan's order, gives exactly the planned device.
nchecked=0 nmatched=0
while read -r order node gpu _ device profile _ ns workload pbus; do
	class=$(class_of "$ns" "$workload" "$profile")
	bus=$(awk -v n="$node" -v g="$gpu" '$1 == n && $2 == g { print $3; exit }' "$T/buses.out")
	name=p$order-$workload
	nchecked=$((nchecked + 1))
	if [ -z "$class" ] || [ -z "$bus" ]; then
		fail "instance $order ($ns/$workload $profile on $node/$gpu): DeviceClass '$class', PCI bus '$bus'"
		continue
	fi
	[ "$pbus" = - ] || [ "$pbus" = "$bus" ] ||
		fail "instance $order: the plan gives $node/$gpu the pciBusID $pbus, its ResourceSlice $bus"
	if ! realise "$name" "$ns" "$class" "$bus" "$node" "$(prio_of "$ns" "$workload")"; then
		fail "instance $order ($ns/$name, $profile on $node/$gpu, plan device $device) was not bound and allocated: $(cat "$T/$name.why" 2>/dev/null)"
	elif [ "$r_node" = "$node" ] && [ "$r_dev" = "gpu.nvidia.com $device" ]; then
		nmatched=$((nmatched + 1))
		echo "  $order $ns/$name $profile on $node/$gpu ($bus): $device, as planned"
	else
		fail "instance $order ($ns/$name, $profile on $node/$gpu): the scheduler gave $r_node: $(echo "$r_dev" | tr '\n' ' ')- the plan says $node: gpu.nvidia.com $device"
	fi
done <"$T/dynamic"
echo "scheduler, claims naming their GPU: $nmatched of $nchecked dynamic MIG instances on the plan's device"

# 3b. The same claims naming only their profile (the Pod names its
# node), once 3a's are gone.  The plan predicts how many node-wide first
# fit places and how many land on the planned device
# (status.verification.unpinned): the real scheduler must agree.
uinst=$(jv "$T/plan.tsv" status.verification.unpinned.instances)
uplaced=$(jv "$T/plan.tsv" status.verification.unpinned.placed)
uas=$(jv "$T/plan.tsv" status.verification.unpinned.asPlanned)
if [ -n "$uinst" ]; then
	for ns in $teams; do
		kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1
		run "del-$ns" kubectl delete resourceclaims -n "$ns" --all --wait=true --timeout=300s
	done
	nplaced=0 nas=0 nchecked=0
	while read -r order node gpu _ device profile _ ns workload _; do
		class=$(class_of "$ns" "$workload" "$profile")
		[ -n "$class" ] || continue
		name=u$order-$workload
		nchecked=$((nchecked + 1))
		if ! realise "$name" "$ns" "$class" "" "$node" "$(prio_of "$ns" "$workload")"; then
			echo "  $order $ns/$name $profile: not placed ($(sed -n 1p "$T/$name.why" 2>/dev/null))"
			continue
		fi
		nplaced=$((nplaced + 1))
		if [ "$r_node" = "$node" ] && [ "$r_dev" = "gpu.nvidia.com $device" ]; then
			nas=$((nas + 1))
		else
			echo "  $order $ns/$name $profile: $r_node: $(echo "$r_dev" | tr '\n' ' ')(the plan: $device)"
		fi
	done <"$T/dynamic"
	echo "scheduler, claims naming only their profile: $nplaced of $nchecked placed, $nas on the plan's device; the plan predicts $uplaced of $uinst placed, $uas as planned"
	[ "$nchecked" = "$uinst" ] && [ "$nplaced" = "$uplaced" ] && [ "$nas" = "$uas" ] ||
		fail "claims naming only their profile: the real scheduler placed $nplaced of $nchecked, $nas on the plan's device; status.verification.unpinned predicts $uplaced of $uinst, $uas"
elif [ "$ndyn" -gt 0 ]; then
	fail "status.verification.unpinned is missing"
fi

# ---- 4. quotas -----------------------------------------------------------
# The plan's other instances, as claims nothing allocates yet: one
# file of claims per team.
while read -r order _ _ _ _ profile _ ns workload _; do
	class=$(class_of "$ns" "$workload" "$profile")
	[ -n "$class" ] || { fail "no DeviceClass in the plan for $ns/$workload $profile"; continue; }
	echo "---"
	claim_yaml "q$order-$workload" "$ns" "$class"
done <"$T/other" >"$T/other.yaml"
if [ -s "$T/other.yaml" ]; then
	run other kubectl create -f "$T/other.yaml"
	echo "claims without pods: $(grep -c . "$T/other.out") created for the plan's $(grep -c . "$T/other") other instances"
fi
for ns in $teams; do
	for _ in $(seq 1 120); do
		quota_of "$ns" status.used >"$T/quota-$ns.used"
		cmp -s "$T/quota-$ns.plan" "$T/quota-$ns.used" && break
		sleep 0.5
	done
	check_same "quota dra-plan in $ns: status.used with every claim of the plan vs the plan's hard" \
	    "$T/quota-$ns.plan" "$T/quota-$ns.used" &&
		echo "quota $ns: used = hard = the plan's ($(awk '$2 != 0 { printf "%s%s %s", n++ ? ", " : "", $1, $2 }' "$T/quota-$ns.plan"))"
	# One more claim of each class the quota names is refused.
	nrefused=0
	for class in $(sed -n 's/^\(.*\)\.deviceclass\.resource\.k8s\.io\/devices .*/\1/p' "$T/quota-$ns.plan"); do
		claim_yaml "over-${class//./-}" "$ns" "$class" >"$T/over.yaml"
		rc=0
		kubectl create -f "$T/over.yaml" >"$T/over.out" 2>"$T/over.err" || rc=$?
		if [ "$rc" = 0 ]; then
			fail "$ns: one more claim of $class was accepted (quota $(awk -v k="$class.deviceclass.resource.k8s.io/devices" '$1 == k { print $2 }' "$T/quota-$ns.plan"))"
		elif ! grep -q 'exceeded quota: dra-plan' "$T/over.err" ||
		    ! grep -qF "$class.deviceclass.resource.k8s.io/devices=" "$T/over.err"; then
			fail "$ns: one more claim of $class was refused, but not for its exhausted quota: $(cat "$T/over.err")"
		else
			nrefused=$((nrefused + 1))
		fi
	done
	echo "quota $ns: one more claim refused for each of its $nrefused classes"
done
echo "the last refusal: $(sed -n '1p' "$T/over.err" | sed 's/.*forbidden: //' | cut -c1-200)..."

# ---- 5. an infeasible demand ---------------------------------------------
rc=0
kubectl dra plan --demand "$infeasible" -o json >"$T/inf.json" 2>"$T/inf.err" || rc=$?
[ "$rc" = 3 ] || fail "plan --demand $infeasible -o json: exit $rc, expected 3: $(sed -n 1,5p "$T/inf.err")"
json_paths <"$T/inf.json" >"$T/inf.tsv" || fail "the infeasible plan is not JSON"
[ "$(jv "$T/inf.tsv" status.solver.status)" = infeasible ] ||
	fail "infeasible demand: status '$(jv "$T/inf.tsv" status.solver.status)'"
awk -F '\t' '$1 ~ /^status\.reasons\[[0-9]+\]\.(constraint|message)$/ { print $2 }' "$T/inf.tsv" |
	paste - - >"$T/inf.reasons"
echo "infeasible: $(tr '\t\n' ': ' <"$T/inf.reasons")"
grep -Eq '^min	plan-a/pretrain needs 40 x .+; the fleet holds at most [0-9]+$' "$T/inf.reasons" ||
	fail "infeasible demand: no reason 'min' saying plan-a/pretrain needs 40 x ...; the fleet holds at most N"
grep -Eq '^status\.(layout|manifests|teams\[[0-9]+\]\.quota)' "$T/inf.tsv" &&
	fail "the infeasible plan has a layout, manifests or quotas"
rc=0
kubectl dra plan --demand "$infeasible" >"$T/inf.txt" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "plan --demand $infeasible (table): exit $rc, expected 3"
grep -q '^REASONS  *plan-a/pretrain needs 40 x' "$T/inf.txt" && grep -q '\[min\]' "$T/inf.txt" ||
	fail "the infeasible plan's table does not name the binding constraint: $(cat "$T/inf.txt")"

# ---- 6. clean up: the demo cluster as it was -----------------------------
plan_cleanup
for _ in $(seq 1 $poll_max); do
	cluster_state >"$T/state-after" 2>&1
	cmp -s "$T/state-before" "$T/state-after" && break
	sleep 0.5
done
check_same "the cluster after t0080 vs before" "$T/state-before" "$T/state-after" &&
	echo "cleanup: the cluster is as it was ($(grep -c . "$T/state-before") lines of state)"
finish
