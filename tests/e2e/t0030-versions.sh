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

echo "views compared: $views; versions: v1 v1beta2 v1beta1"
finish
