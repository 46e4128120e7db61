#!/usr/bin/env bash
# t0030-versions: the views are the same whichever resource.k8s.io
# version the objects were read through: v1, v1beta2 or v1beta1.
#
# Two ways: live, with `kubectl dra --dra-api-version VERSION` reading
# the cluster through that version; and from files, reading the objects
# with kubectl in each version (`kubectl get
# resourceslices.v1beta1.resource.k8s.io ... -o yaml`) and feeding each
# to `kubectl dra get ... --from FILE`.  Every table must equal the
# default live view (which reads v1).
#
# Then two things an older version cannot carry:
#   - a DeviceTaintRule (resource.k8s.io/v1; v1beta1 never had the
#     kind): read through --dra-api-version v1beta1 the rule still
#     taints its devices, as discovery finds it in v1;
#   - a ResourceSlice whose quantities are beyond int64 thousandths
#     (16Pi, 1E, 1Ei, 9e18; the API server stores them): every view
#     reads it, through every version.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

if run version kubectl dra version; then
	grep -q 'reading v1)' "$T/version.out" ||
		fail "kubectl dra version does not say it reads v1 from this 1.37 server: $(cat "$T/version.out")"
fi

views="claims:-A:-o:wide devices:-A:-o:wide pools:-o:wide slices classes templates:-A:-o:wide nodes:-o:wide"

# view SPEC [ARGS...]: run one view; SPEC is KIND:FLAG:... as in $views.
# shellcheck disable=SC2317 # called through run
view() {
	local spec=$1
	shift
	# shellcheck disable=SC2046
	kubectl dra get $(echo "$spec" | tr ':' ' ') "$@"
}

for spec in $views; do
	name=$(echo "$spec" | cut -d: -f1)
	run "live-$name" view "$spec" || continue
	[ -s "$T/live-$name.out" ] || fail "get $spec (live) printed nothing"
done

for v in v1 v1beta2 v1beta1; do
	kinds="deviceclasses resourceslices resourceclaims resourceclaimtemplates"
	[ "$v" = v1beta1 ] || kinds="$kinds devicetaintrules"
	list=""
	for kd in $kinds; do list="$list,$kd.$v.resource.k8s.io"; done
	run "get-$v" kubectl get "pods,nodes,namespaces,resourcequotas$list" -A -o yaml || continue
	mv "$T/get-$v.out" "$T/$v.yaml"
	# The objects really are in that version.
	got=$(grep -c "^- apiVersion: resource.k8s.io/$v\$" "$T/$v.yaml" || true)
	[ "$got" -gt 0 ] || fail "kubectl get ... $v returned no resource.k8s.io/$v object"
	other=$(grep '^- apiVersion: resource.k8s.io/' "$T/$v.yaml" | grep -vc "/$v\$" || true)
	[ "$other" = 0 ] || fail "the $v file holds $other objects of another resource.k8s.io version"

	for spec in $views; do
		name=$(echo "$spec" | cut -d: -f1)
		[ -f "$T/live-$name.out" ] || continue
		if run "live-$v-$name" view "$spec" --dra-api-version "$v"; then
			check_same "get $(echo "$spec" | tr ':' ' ') --dra-api-version $v vs live (read as v1)" \
				"$T/live-$name.out" "$T/live-$v-$name.out"
		fi
		run "$v-$name" view "$spec" --from "$T/$v.yaml" || continue
		check_same "get $(echo "$spec" | tr ':' ' ') --from <objects read as $v> vs live (read as v1)" \
			"$T/live-$name.out" "$T/$v-$name.out"
		if [ -s "$T/$v-$name.err" ]; then
			fail "get $spec --from the $v file wrote to stderr:"
			sed -n '1,10p' "$T/$v-$name.err"
		fi
	done
done

# ---- a DeviceTaintRule, read through every version --------------------
drop_extra() {
	kubectl delete devicetaintrule e2e-versions-maint --ignore-not-found >/dev/null 2>&1
	kubectl delete resourceslice e2e-versions-big e2e-versions-big-counters --ignore-not-found >/dev/null 2>&1
}
e2e_cleanup_hooks="$e2e_cleanup_hooks drop_extra"
if ! kubectl apply -f - >"$T/rule.out" 2>"$T/rule.err" <<EOF; then
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: e2e-versions-maint}
spec:
  deviceSelector: {driver: gpu.nvidia.com, pool: gpu-node-4}
  taint: {key: example.com/e2e-maintenance, value: "true", effect: NoSchedule}
EOF
	fail "cannot create the DeviceTaintRule: $(cat "$T/rule.err")"
fi
ntaint=$(kubectl get resourceslices -o jsonpath='{range .items[?(@.spec.pool.name=="gpu-node-4")]}{.spec.driver}{" "}{range .spec.devices[*]}{.name}{" "}{end}{"\n"}{end}' |
	awk '$1 == "gpu.nvidia.com" { n += NF - 1 } END { print n + 0 }')
[ "$ntaint" -gt 0 ] || fail "pool gpu-node-4 of gpu.nvidia.com has no devices: the premise is gone"
for v in v1 v1beta2 v1beta1; do
	run "taint-$v" kubectl dra get devices -A -o wide --dra-api-version "$v" || continue
	got=$(grep -c 'example.com/e2e-maintenance' "$T/taint-$v.out" || true)
	[ "$got" = "$ntaint" ] ||
		fail "get devices -o wide --dra-api-version $v: $got devices show the DeviceTaintRule's taint, want $ntaint"
	[ "$v" = v1 ] && continue
	check_same "get devices -A -o wide with a DeviceTaintRule: --dra-api-version $v vs v1" \
		"$T/taint-v1.out" "$T/taint-$v.out"
done
# The describe of a tainted device names the rule, in v1beta1 too.
dev=$(awk '$3 == "gpu-node-4" { print $2 "/" $3 "/" $4; exit }' "$T/taint-v1.out")
if run taint-describe kubectl dra describe device "$dev" --dra-api-version v1beta1; then
	grep -q 'e2e-versions-maint' "$T/taint-describe.out" ||
		fail "describe device $dev --dra-api-version v1beta1 does not name the DeviceTaintRule: $(grep -A3 '^Taints' "$T/taint-describe.out")"
fi
kubectl delete devicetaintrule e2e-versions-maint >/dev/null ||
	fail "cannot delete the DeviceTaintRule"

# ---- quantities beyond int64 thousandths ------------------------------
if ! kubectl apply -f - >"$T/big.out" 2>"$T/big.err" <<EOF; then
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: e2e-versions-big-counters}
spec:
  driver: mem.example.com
  allNodes: true
  pool: {name: big-pool, generation: 1, resourceSliceCount: 2}
  sharedCounters:
  - name: fabric
    counters: {memory: {value: 1Ei}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: e2e-versions-big}
spec:
  driver: mem.example.com
  allNodes: true
  pool: {name: big-pool, generation: 1, resourceSliceCount: 2}
  devices:
  - name: big-mem
    capacity:
      memory: {value: 16Pi}
      bandwidth: {value: 1E}
      lanes: {value: 9e18}
  - name: part-0
    consumesCounters:
    - counterSet: fabric
      counters: {memory: {value: 16Pi}}
EOF
	fail "cannot create the ResourceSlice with big quantities: $(cat "$T/big.err")"
fi
# What the server stored (it may canonicalize the text).
kubectl get resourceslice e2e-versions-big -o jsonpath='{range .spec.devices[0].capacity.*}{.value}{"\n"}{end}' >"$T/big-stored.txt"
[ "$(wc -l <"$T/big-stored.txt")" = 3 ] ||
	fail "the big slice's stored capacities: $(cat "$T/big-stored.txt")"
for v in v1 v1beta2 v1beta1; do
	for what in devices pools slices; do
		args="$what"
		[ "$what" = devices ] && args="devices -A -o wide"
		[ "$what" = pools ] && args="pools -o wide"
		# shellcheck disable=SC2086
		run "big-$v-$what" kubectl dra get $args --dra-api-version "$v" || continue
		grep -q 'big-pool\|e2e-versions-big' "$T/big-$v-$what.out" ||
			fail "get $args --dra-api-version $v does not show the big slice"
	done
	# The CAPACITY column shows the first capacity as the server has it.
	grep 'big-mem' "$T/big-$v-devices.out" | grep -qE -- '(16Pi|1E|9e18)' ||
		fail "get devices --dra-api-version $v: big-mem's capacity is not shown: $(grep big-mem "$T/big-$v-devices.out")"
done
if run big-describe kubectl dra describe device big-mem; then
	while read -r q; do
		grep -qF -- "$q" "$T/big-describe.out" ||
			fail "describe device big-mem does not show $q: $(grep -A5 '^Capacity' "$T/big-describe.out")"
	done <"$T/big-stored.txt"
fi
kubectl delete resourceslice e2e-versions-big e2e-versions-big-counters >/dev/null ||
	fail "cannot delete the ResourceSlice with big quantities"

echo "views compared: $views; versions: v1 v1beta2 v1beta1"
finish
