#!/usr/bin/env bash
# t0010-get-claims: `kubectl dra get claims` against what the real
# scheduler wrote.  For every ResourceClaim in every namespace, read
# independently with `kubectl get -o go-template`, the row must show
# the state (allocated[,reserved] / pending, as kubectl prints it), the
# allocated devices DRIVER/POOL/DEVICE in status.allocation's order, the
# node of status.allocation.nodeSelector, the pods (reservedFor plus
# the pods that reference the claim), and in -o wide the requests of the
# results and the template a claim was made from.  One row per claim,
# nothing on stderr (every allocated device is published).
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

# ---- what the API server says ------------------------------------------
# ns, name, deleted, allocated, devices, node selector signature,
# reservedFor, result requests.
# shellcheck disable=SC2016
claims_tmpl='{{range .items}}{{.metadata.namespace}}{{"\t"}}{{.metadata.name}}{{"\t"}}
{{- if .metadata.deletionTimestamp}}1{{else}}0{{end}}{{"\t"}}
{{- with .status}}{{with .allocation}}1{{else}}0{{end}}{{else}}0{{end}}{{"\t"}}
{{- with .status}}{{with .allocation}}{{with .devices}}{{range $i, $r := .results}}{{if $i}},{{end}}{{$r.driver}}/{{$r.pool}}/{{$r.device}}{{end}}{{end}}{{end}}{{end}}{{"\t"}}
{{- with .status}}{{with .allocation}}{{with .nodeSelector}}{{range .nodeSelectorTerms}}T{{range .matchFields}} F:{{.key}}:{{.operator}}:{{range .values}}{{.}},{{end}}{{end}}{{range .matchExpressions}} E{{end}};{{end}}{{else}}ANY{{end}}{{end}}{{end}}{{"\t"}}
{{- with .status}}{{range $i, $r := .reservedFor}}{{if $i}},{{end}}{{$r.resource}}/{{$r.name}}{{end}}{{end}}{{"\t"}}
{{- with .status}}{{with .allocation}}{{with .devices}}{{range $i, $r := .results}}{{if $i}},{{end}}{{$r.request}}{{end}}{{end}}{{end}}{{end}}
{{- "\n"}}{{end}}'
# R ns claim pod: a pod references the claim; T ns claim template: the
# claim was made for a pod's resourceClaimTemplateName.
# shellcheck disable=SC2016
pods_tmpl='{{range .items}}{{$ns := .metadata.namespace}}{{$pod := .metadata.name}}{{$spec := .spec}}
{{- range .spec.resourceClaims}}{{if .resourceClaimName}}R {{$ns}} {{.resourceClaimName}} {{$pod}}{{"\n"}}{{end}}{{end}}
{{- with .status}}{{range .resourceClaimStatuses}}{{if .resourceClaimName}}{{$n := .name}}{{$c := .resourceClaimName}}R {{$ns}} {{$c}} {{$pod}}{{"\n"}}
{{- range $spec.resourceClaims}}{{if eq .name $n}}{{if .resourceClaimTemplateName}}T {{$ns}} {{$c}} {{.resourceClaimTemplateName}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}{{end}}{{end}}
{{- end}}'

run claims kubectl get resourceclaims -A -o go-template="$claims_tmpl" || finish
run pods kubectl get pods -A -o go-template="$pods_tmpl" || finish
nclaims=$(wc -l <"$T/claims.out")
[ "$nclaims" -gt 0 ] || fail "the cluster has no ResourceClaim: was the example loaded?"

# Expected rows: NAMESPACE NAME STATE DEVICES NODE PODS REQUEST TEMPLATE.
awk -F '\t' -v OFS='\t' '
FILENAME == ARGV[1] {
	split($0, f, " ")
	if (f[1] == "R") pods[f[2] "\t" f[3]] = pods[f[2] "\t" f[3]] " pod/" f[4]
	if (f[1] == "T") tmpl[f[2] "\t" f[3]] = f[4]
	next
}
{
	key = $1 "\t" $2
	if ($3 == 1) state = $4 == 1 ? "deleted,allocated" : "deleted"
	else state = $4 == 1 ? "allocated" : "pending"
	if ($4 == 1 && $7 != "") state = state ",reserved"
	dev = $5 != "" ? $5 : "-"
	if ($4 != 1) node = "-"
	else if ($6 == "ANY") node = "<any>"
	else if ($6 ~ /^T F:metadata\.name:In:[^,;]+,;$/) { node = $6; sub(/^T F:metadata\.name:In:/, "", node); sub(/,;$/, "", node) }
	else node = "<selector>"
	# PODS as a sorted set: reservedFor, then the referencing pods.
	n = split($7, r, ","); list = ""
	for (i = 1; i <= n; i++) { p = r[i]; sub(/^pods\//, "pod/", p); list = list " " p }
	list = list pods[key]
	m = split(list, a, " "); delete seen; out = ""
	for (i = 1; i <= m; i++) if (!(a[i] in seen)) { seen[a[i]] = 1; s[++k0] = a[i] }
	# insertion sort of s[1..k0]
	for (i = 2; i <= k0; i++) { v = s[i]; for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]; s[j + 1] = v }
	for (i = 1; i <= k0; i++) out = out (i > 1 ? "," : "") s[i]
	k0 = 0
	print $1, $2, state, dev, node, (out != "" ? out : "-"), ($8 != "" ? $8 : "-"), (key in tmpl ? tmpl[key] : "-")
}' "$T/pods.out" "$T/claims.out" | sort >"$T/want.wide"
cut -f 1-6 "$T/want.wide" >"$T/want"

# sort_pods: the PODS column (6) as a sorted set, like the expectation.
sort_pods() {
	awk -F '\t' -v OFS='\t' '{
		n = split($6, a, ","); for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
		s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") a[i]; $6 = s; print }'
}

# ---- kubectl dra get claims -A -o wide ---------------------------------
if run wide kubectl dra get claims -A -o wide; then
	table_tsv <"$T/wide.out" >"$T/wide.tsv"
	columns NAMESPACE NAME STATE DEVICES NODE PODS REQUEST TEMPLATE <"$T/wide.tsv" |
		sort_pods | sort >"$T/got.wide"
	check_same "kubectl dra get claims -A -o wide vs the API objects" "$T/want.wide" "$T/got.wide"
	rows=$(($(wc -l <"$T/wide.out") - 1))
	[ "$rows" = "$nclaims" ] || fail "get claims -A -o wide: $rows rows for $nclaims claims"
	if [ -s "$T/wide.err" ]; then
		fail "get claims -A -o wide wrote to stderr on a consistent cluster:"
		sed -n '1,10p' "$T/wide.err"
	fi
fi

# ---- kubectl dra get claims -A (default columns) -----------------------
if run def kubectl dra get claims -A; then
	table_tsv <"$T/def.out" >"$T/def.tsv"
	columns NAMESPACE NAME STATE DEVICES NODE PODS <"$T/def.tsv" | sort_pods | sort >"$T/got"
	check_same "kubectl dra get claims -A vs the API objects" "$T/want" "$T/got"
	head -n 1 "$T/def.tsv" | tr '\t' '\n' >"$T/def.cols"
	for c in REQUEST TEMPLATE ATTRIBUTES; do
		if grep -qx "$c" "$T/def.cols"; then fail "get claims -A shows the wide column $c"; fi
	done
	rows=$(($(wc -l <"$T/def.out") - 1))
	[ "$rows" = "$nclaims" ] || fail "get claims -A: $rows rows for $nclaims claims"
	if [ -s "$T/def.err" ]; then
		fail "get claims -A wrote to stderr on a consistent cluster (every allocated device is published):"
		sed -n '1,10p' "$T/def.err"
	fi
fi

# ---- one namespace: no NAMESPACE column, only its claims ---------------
# shellcheck disable=SC2013 # namespace names have no blanks
for ns in $(cut -f 1 "$T/want" | sort -u); do
	if run ns kubectl dra get claims -n "$ns"; then
		table_tsv <"$T/ns.out" | columns NAME STATE DEVICES NODE | sort >"$T/ns.got"
		awk -F '\t' -v OFS='\t' -v ns="$ns" '$1 == ns { print $2, $3, $4, $5 }' "$T/want" | sort >"$T/ns.want"
		check_same "kubectl dra get claims -n $ns" "$T/ns.want" "$T/ns.got"
		if head -n 1 "$T/ns.out" | grep -q '^NAMESPACE'; then
			fail "get claims -n $ns shows a NAMESPACE column"
		fi
	fi
done

echo "$nclaims claims checked: $(grep -c '	allocated' "$T/want" || true) allocated, $(grep -c '	pending' "$T/want" || true) pending"
finish
