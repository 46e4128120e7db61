#!/usr/bin/env bash
# t0040-pagination: more objects than one list page (kubectl-dra asks
# for limit=500): 520 ResourceClaims in a scratch namespace must all be
# listed, by name, with -n and with -A, and the client must have
# followed the continue token.  The namespace is deleted afterwards.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

ns=dra-e2e-pagination
n=520
timeout_s=120

drop_ns() {
	kubectl delete namespace "$ns" --ignore-not-found --timeout="${timeout_s}s" >/dev/null 2>&1 ||
		echo "warning: namespace $ns is not gone after ${timeout_s}s"
}
e2e_cleanup_hooks="drop_ns"

# A namespace left from an aborted run may still be terminating.
drop_ns

{
	printf 'apiVersion: v1\nkind: List\nitems:\n'
	i=0
	while [ "$i" -lt "$n" ]; do
		printf -- '- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n  metadata:\n    name: page-%04d\n    namespace: %s\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly:\n          deviceClassName: gpu.nvidia.com\n' "$i" "$ns"
		i=$((i + 1))
	done
} >"$T/claims.yaml"

t0=$(date +%s)
run ns kubectl create namespace "$ns" || finish
run create kubectl create -f "$T/claims.yaml" || finish
echo "created $n claims in $(($(date +%s) - t0))s"

kubectl get resourceclaims -n "$ns" -o go-template='{{range .items}}{{.metadata.name}}{{"\n"}}{{end}}' |
	sort >"$T/want"
[ "$(wc -l <"$T/want")" = "$n" ] || fail "the API lists $(wc -l <"$T/want") claims in $ns, not $n"

if run get kubectl dra get claims -n "$ns" --no-headers -v 6; then
	awk '{ print $1 }' "$T/get.out" | sort >"$T/got"
	check_same "kubectl dra get claims -n $ns: the $n claim names" "$T/want" "$T/got"
	pending=$(awk '$2 == "pending"' "$T/get.out" | wc -l)
	[ "$pending" = "$n" ] || fail "get claims -n $ns: $pending of $n claims shown pending"
	pages=$(grep -c "GET .*/namespaces/$ns/resourceclaims?" "$T/get.err" || true)
	cont=$(grep -c "GET .*/namespaces/$ns/resourceclaims?.*continue=" "$T/get.err" || true)
	echo "kubectl-dra read the claims in $pages page(s), $cont with a continue token"
	if [ "$pages" -lt 2 ] || [ "$cont" -lt 1 ]; then
		fail "expected at least 2 pages (limit=500) and a continue token for $n claims; -v 6 log:$(echo; grep resourceclaims "$T/get.err")"
	fi
fi

if run all kubectl dra get claims -A --no-headers; then
	awk -v ns="$ns" '$1 == ns { print $2 }' "$T/all.out" | sort >"$T/got.all"
	check_same "kubectl dra get claims -A: the $n claims of $ns" "$T/want" "$T/got.all"
	total=$(kubectl get resourceclaims -A --no-headers | wc -l)
	rows=$(wc -l <"$T/all.out")
	[ "$rows" = "$total" ] || fail "get claims -A: $rows rows, the API has $total claims"
fi

t0=$(date +%s)
drop_ns
e2e_cleanup_hooks=""
echo "deleted namespace $ns in $(($(date +%s) - t0))s"
finish
