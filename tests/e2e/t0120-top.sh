#!/usr/bin/env bash
# t0120-top: `kubectl dra top` against the real control plane's demo
# cluster, every figure derived a second way from what kubectl itself
# returns (go-templates over ResourceSlices and ResourceClaims, added
# up in awk).
#
# 1. Per node and per pool: devices of each pool's newest generation,
#    those held by a claim without adminAccess, GPU memory published
#    (shared counter sets' "memory" counters plus the "memory" capacity
#    of devices that consume no counters) and allocated (a device's
#    consumed "memory" counter, else its capacity); per namespace:
#    devices and memory its claims hold, claims allocated and pending.
#    per class: devices held through requests that name it.  Compared
#    with `top -o prometheus`, and the table's "*" row with the sums.
# 2. A claim for one whole GPU in team-b and a Pod that uses it: once
#    the real scheduler has bound the Pod, top must count one more
#    device and one more GPU's memory on the node it chose, for team-b
#    and for gpu.nvidia.com, and agree with kubectl again.
# 3. The Pod and the claim deleted: top is back to the first figures.
# 4. The namespace-limited user (tests/cluster/up's limited.kubeconfig):
#    top namespaces shows team-a's claims as kubectl counts them; top
#    nodes names the cluster-scoped resourceslices it may not list.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

# shellcheck disable=SC2016
slices_tmpl='{{range .items}}{{$d := .spec.driver}}{{$p := .spec.pool.name}}{{$g := .spec.pool.generation}}{{$n := or .spec.nodeName "<none>"}}{{range .spec.devices}}D {{$d}} {{$p}} {{$g}} {{$n}} {{.name}} {{if .consumesCounters}}1{{else}}0{{end}} {{$m := "-"}}{{with .capacity}}{{with .memory}}{{$m = .value}}{{end}}{{end}}{{$m}} {{$cm := "-"}}{{range .consumesCounters}}{{with .counters.memory}}{{$cm = .value}}{{end}}{{end}}{{$cm}}{{"\n"}}{{end}}{{range .spec.sharedCounters}}C {{$d}} {{$p}} {{$g}} {{$n}} {{.name}} {{$m := "-"}}{{with .counters.memory}}{{$m = .value}}{{end}}{{$m}}{{"\n"}}{{end}}{{end}}'
# shellcheck disable=SC2016
claims_tmpl='{{range .items}}{{$ns := .metadata.namespace}}{{if not .metadata.deletionTimestamp}}K {{$ns}} {{$a := "pending"}}{{with .status}}{{with .allocation}}{{$a = "allocated"}}{{end}}{{end}}{{$a}}{{"\n"}}{{with .status}}{{with .allocation}}{{range .devices.results}}R {{$ns}} {{.driver}} {{.pool}} {{.device}} {{if .adminAccess}}1{{else}}0{{end}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}{{end}}'

# shellcheck disable=SC2016
requests_tmpl='{{range .items}}{{$c := printf "%s/%s" .metadata.namespace .metadata.name}}{{range .spec.devices.requests}}Q {{$c}} {{.name}} {{with .exactly}}{{.deviceClassName}}{{else}}-{{end}}{{"\n"}}{{end}}{{with .status}}{{with .allocation}}{{range .devices.results}}X {{$c}} {{.request}} {{.driver}}/{{.pool}}/{{.device}} {{if .adminAccess}}1{{else}}0{{end}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}'

# derive BY: from $T/slices.txt and $T/claims.txt, one line per row
# (BY node, pool or namespace): "KEY TOTAL ALLOCATED MEM-ALLOCATED
# MEM-TOTAL" (namespaces: "KEY ALLOCATED MEM-ALLOCATED CLAIMS PENDING"),
# sorted.
derive() {
	awk -v by="$1" '
	function q(s,   n, u, m) {
		if (s == "-" || s == "") return 0
		n = s; u = s
		sub(/[A-Za-z]+$/, "", n); sub(/^[0-9.]+/, "", u)
		m = 1
		if (u == "Ki") m = 1024; else if (u == "Mi") m = 1048576
		else if (u == "Gi") m = 1073741824
		else if (u == "Ti") m = 1099511627776
		else if (u == "k") m = 1e3; else if (u == "M") m = 1e6
		else if (u == "G") m = 1e9; else if (u == "T") m = 1e12
		return n * m
	}
	FNR == 1 { pass++ }
	pass == 1 && ($1 == "D" || $1 == "C") {
		if (!(($2 "/" $3) in gen) || $4 > gen[$2 "/" $3]) gen[$2 "/" $3] = $4
		next
	}
	pass == 2 && $1 == "D" && $4 == gen[$2 "/" $3] {
		dev = $2 "/" $3 "/" $6
		k = by == "pool" ? $2 "/" $3 : $5
		key[dev] = k; rows[k] = 1; tot[k]++
		mem[dev] = $7 == "1" ? q($9) : q($8)
		if ($7 == "0") mt[k] += q($8)
		next
	}
	pass == 2 && $1 == "C" && $4 == gen[$2 "/" $3] {
		k = by == "pool" ? $2 "/" $3 : $5
		rows[k] = 1; mt[k] += q($7)
		next
	}
	pass == 3 && $1 == "K" {
		nsrow[$2] = 1
		if ($3 == "allocated") nclaims[$2]++; else npend[$2]++
		next
	}
	pass == 3 && $1 == "R" && $6 == "0" {
		dev = $3 "/" $4 "/" $5
		if (!(dev in key)) next
		if (!(dev in held)) {
			held[dev] = 1; al[key[dev]]++; ma[key[dev]] += mem[dev]
		}
		if (!(($2 " " dev) in nsheld)) {
			nsheld[$2 " " dev] = 1; nsal[$2]++; nsma[$2] += mem[dev]
		}
	}
	END {
		if (by == "namespace") {
			for (k in nsrow)
				printf "%s %d %.0f %d %d\n", k, nsal[k], nsma[k],
				    nclaims[k], npend[k]
		} else {
			for (k in rows)
				printf "%s %d %d %.0f %.0f\n", k, tot[k], al[k],
				    ma[k], mt[k]
		}
	}' "$T/slices.txt" "$T/slices.txt" "$T/claims.txt" | sort
}

# prom BY < TEXT: the same lines from `top BY -o prometheus`.
prom() {
	awk -v by="$1" '
	function lab(s, name) {
		if (!match(s, name "=\"[^\"]*\"")) return ""
		return substr(s, RSTART + length(name) + 2,
		    RLENGTH - length(name) - 3)
	}
	function key(s,   k) {
		if (by == "pool")
			return lab(s, "driver") "/" lab(s, "pool")
		k = lab(s, by)
		return k == "" && by == "node" ? "<none>" : k
	}
	# The families of the kind: kubectl_dra_node_..., _pool_, _namespace_.
	/^#/ { next }
	{ f = $0; sub(/\{.*/, "", f); sub("^kubectl_dra_" by "_", "", f) }
	f == "devices_total" { k = key($0); rows[k] = 1; tot[k] = $NF }
	f == "devices" && /state="allocated"/ { k = key($0); rows[k] = 1; al[k] = $NF }
	f == "gpu_memory_bytes" { ma[key($0)] = $NF }
	f == "gpu_memory_bytes_total" { mt[key($0)] = $NF }
	f == "claims" && /state="allocated"/ { nc[key($0)] = $NF }
	f == "claims" && /state="pending"/ { np[key($0)] = $NF }
	END {
		for (k in rows) {
			if (by == "namespace")
				printf "%s %d %.0f %d %d\n", k, al[k], ma[k],
				    nc[k], np[k]
			else
				printf "%s %d %d %.0f %.0f\n", k, tot[k], al[k],
				    ma[k], mt[k]
		}
	}' | sort
}

# snapshot_kubectl: the slices and claims as kubectl returns them.
snapshot_kubectl() {
	run slices kubectl get resourceslices -o go-template="$slices_tmpl" &&
	    cp "$T/slices.out" "$T/slices.txt" &&
	    run claims kubectl get resourceclaims -A -o go-template="$claims_tmpl" &&
	    cp "$T/claims.out" "$T/claims.txt"
}

# agree TAG: top by node, pool and namespace agrees with kubectl; the
# figures are left in $T/TAG-{node,pool,namespace}.
agree() {
	local tag=$1 by kind
	snapshot_kubectl || finish
	for by in node pool namespace; do
		case $by in
		node) kind=nodes ;;
		pool) kind=pools ;;
		namespace) kind=namespaces ;;
		esac
		derive "$by" >"$T/$tag-$by.want"
		run "top-$by" kubectl dra top "$kind" -o prometheus || continue
		prom "$by" <"$T/top-$by.out" >"$T/$tag-$by"
		[ -s "$T/$tag-$by.want" ] || fail "$tag: kubectl shows no $by"
		check_same "$tag: top $kind vs kubectl" "$T/$tag-$by.want" \
		    "$T/$tag-$by"
	done
	# Classes: devices held through requests that name each class.  A
	# class's allocated devices are those it matches that any claim
	# holds; on the demo cluster no class matches a device allocated
	# through another, so they are the devices held through it.
	run reqs kubectl get resourceclaims -A -o go-template="$requests_tmpl" ||
	    return
	awk '$1 == "Q" { cls[$2 " " $3] = $4; next }
	$1 == "X" && $5 == "0" && (($2 " " $3) in cls) {
		c = cls[$2 " " $3]
		if (!((c " " $4) in seen)) { seen[c " " $4] = 1; n[c]++ }
	}
	END { for (c in n) print c, n[c] }' "$T/reqs.out" | sort >"$T/$tag-class.want"
	run top-class kubectl dra top classes -o prometheus || return
	awk '/^kubectl_dra_class_devices\{.*state="allocated"/ && $NF > 0 {
		s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print s, $NF
	}' "$T/top-class.out" | sort >"$T/$tag-class"
	[ -s "$T/$tag-class.want" ] || fail "$tag: kubectl shows no allocation"
	check_same "$tag: top classes (allocated) vs kubectl" \
	    "$T/$tag-class.want" "$T/$tag-class"
	# The table's totals row: the sums of the rows, DEVICES in use
	# (allocated + blocked) of usable (all but unusable).
	run "top-table" kubectl dra top nodes || return
	want=$(awk '/^kubectl_dra_node_devices\{/ {
		if ($0 ~ /state="(allocated|blocked)"/) u += $NF
		if ($0 !~ /state="unusable"/) t += $NF
	} END { printf "%d/%d", u, t }' "$T/top-node.out")
	got=$(awk '$1 == "*" { sub(/ .*/, "", $2); print $2 }' \
	    "$T/top-table.out")
	[ "$want" = "$got" ] ||
		fail "$tag: top's * row says $got devices, the nodes add up to $want"
}

# ---- 1. the demo cluster as loaded -----------------------------------
agree before
echo "--- top (before)"
kubectl dra top 2>&1 | sed -n '1,12p'
n=$(wc -l <"$T/before-node")
[ "$n" -ge 2 ] || fail "top nodes: $n rows; was the example loaded?"
grep -q '^team-b ' "$T/before-namespace" || fail "no team-b row"

# ---- 2. a claim for one GPU, allocated by the scheduler ------------------
claim=top-e2e-gpu
cleanup_claim() {
	kubectl delete pod "$claim" -n team-b --force --grace-period=0 \
	    --ignore-not-found >/dev/null 2>&1
	kubectl delete resourceclaim "$claim" -n team-b --ignore-not-found \
	    --wait=true >/dev/null 2>&1
}
e2e_cleanup_hooks="$e2e_cleanup_hooks cleanup_claim"
cat >"$T/claim.yaml" <<EOF
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: $claim, namespace: team-b}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.nvidia.com}
---
apiVersion: v1
kind: Pod
metadata: {name: $claim, namespace: team-b}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources: {claims: [{name: gpu}]}
  resourceClaims:
  - {name: gpu, resourceClaimName: $claim}
EOF
run create kubectl create -f "$T/claim.yaml" || finish
node="" sched=""
for _ in $(seq 1 1200); do
	node=$(kubectl get pod "$claim" -n team-b -o go-template='{{.spec.nodeName}}' 2>/dev/null)
	sched=$(kubectl get pod "$claim" -n team-b -o go-template='{{range .status.conditions}}{{if eq .type "PodScheduled"}}{{.status}}{{end}}{{end}}' 2>/dev/null)
	case "$node" in "" | "<no value>") node="" ;; *) break ;; esac
	[ "$sched" = False ] && break
	sleep 0.5
done
[ -n "$node" ] || { fail "the scheduler did not bind pod $claim (PodScheduled '${sched:-?}')"; finish; }
dev=$(kubectl get resourceclaim "$claim" -n team-b -o go-template='{{range .status.allocation.devices.results}}{{.driver}}/{{.pool}}/{{.device}}{{end}}')
echo "scheduler: pod $claim on $node, device $dev"
agree after
echo "--- top (after)"
kubectl dra top 2>&1 | sed -n '1,12p'

# The differences: one device and one GPU's memory, on $node and for
# team-b, nowhere else.
gpu_mem=$(awk -v d="$dev" '$1 == "D" && $2 "/" $3 "/" $6 == d { print $8 }' \
    "$T/slices.txt" | head -n 1)
case $gpu_mem in "" | -) fail "$dev has no memory capacity" ;; esac
delta() {
	join "$T/before-$1" "$T/after-$1" | awk -v c="$2" -v m="$3" '{
		h = (NF - 1) / 2
		da = $(1 + c + h) - $(1 + c); dm = $(1 + m + h) - $(1 + m)
		if (da != 0 || dm != 0) printf "%s %d %.0f\n", $1, da, dm
	}'
}
want_bytes=$(echo "$gpu_mem" | awk '{ n = $0; sub(/Mi$/, "", n); printf "%.0f", n * 1048576 }')
printf '%s 1 %s\n' "$node" "$want_bytes" >"$T/delta-node.want"
delta node 2 3 >"$T/delta-node"
check_same "after the claim: what changed per node" "$T/delta-node.want" "$T/delta-node"
printf 'team-b 1 %s\n' "$want_bytes" >"$T/delta-ns.want"
delta namespace 1 2 >"$T/delta-ns"
check_same "after the claim: what changed per namespace" "$T/delta-ns.want" "$T/delta-ns"
grep -q '^gpu.nvidia.com ' "$T/before-class" ||
	fail "top classes: no gpu.nvidia.com row"
join "$T/before-class" "$T/after-class" |
    awk '$1 == "gpu.nvidia.com" && $3 != $2 + 1 {
	print "FAIL: gpu.nvidia.com: " $2 " then " $3 " devices allocated"; exit 1 }' ||
	failures=$((failures + 1))

# ---- 3. delete: back to the first figures ------------------------------
cleanup_claim
for _ in $(seq 1 600); do
	kubectl get resourceclaim "$claim" -n team-b >/dev/null 2>&1 || break
	sleep 0.5
done
agree final
for by in node pool namespace; do
	check_same "after deleting the claim: top by $by as at first" \
	    "$T/before-$by" "$T/final-$by"
done

# ---- 4. the namespace-limited user -------------------------------------
lk=$W/limited.kubeconfig
if [ -s "$lk" ]; then
	L=--kubeconfig=$lk
	run lim-claims kubectl get resourceclaims -n team-a "$L" \
	    -o go-template='{{range .items}}{{if .status}}{{if .status.allocation}}A{{else}}P{{end}}{{else}}P{{end}}{{"\n"}}{{end}}' || finish
	want=$(awk '$1 == "A" { a++ } $1 == "P" { p++ } END { printf "team-a %d %d", a, p }' "$T/lim-claims.out")
	if run lim-ns kubectl dra top namespaces -n team-a "$L"; then
		got=$(awk '$1 == "team-a" { print $1, $2, $3 }' "$T/lim-ns.out")
		[ "$want" = "$got" ] ||
			fail "limited top namespaces: '$got', kubectl counts '$want' (NAMESPACE CLAIMS PENDING)"
		grep -q resourceslices "$T/lim-ns.err" ||
			fail "limited top namespaces: no warning naming resourceslices: $(head -n 2 "$T/lim-ns.err")"
	else
		fail "limited top namespaces failed: $(head -n 3 "$T/lim-ns.err")"
	fi
	kubectl dra top nodes "$L" >"$T/lim-nodes.out" 2>"$T/lim-nodes.err"
	rc=$?
	[ "$rc" = 1 ] || fail "limited top nodes: exit $rc, want 1"
	grep -q 'resourceslices (cluster-scoped)' "$T/lim-nodes.err" ||
		fail "limited top nodes: the error does not name the cluster-scoped resourceslices: $(cat "$T/lim-nodes.err")"
else
	fail "no $lk (tests/cluster/up writes it)"
fi
finish
