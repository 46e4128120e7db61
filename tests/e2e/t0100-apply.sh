#!/usr/bin/env bash
# t0100-apply: `kubectl dra apply` on the real control plane (issue 7).
#
# The plan of data/plan-demand.yaml (t0080's demand), made live:
#  1. before its namespaces exist, apply refuses and names them;
#  1b. a pending claim charged beyond a plan's quota: refused, exit 3;
#  2. one of its PriorityClasses already exists (made by kubectl
#     create, same value and description, no label);
#  3. the preview (no --yes) changes nothing; its lines say created
#     (dry run) for each object, configured for the one that exists;
#     KUBECTL_EXTERNAL_DIFF replaces diff;
#  4. the limited user (limited.kubeconfig) is refused, with the
#     server's message; no backup, nothing changed;
#  5. --yes: the backup, then every object created or configured, owned
#     by field manager kubectl-dra (operation Apply), the quotas and
#     node labels as the plan says;
#  6. again: everything unchanged;
#  7. another field manager ("other") owns a quota value: the preview
#     and --yes report the conflict naming it and its field, change
#     nothing; --force-conflicts takes it, saying so (preview, --yes,
#     -o json: taking .spec.hard.KEY from "other"); rolling that apply back
#     gives the value, and its ownership, back to "other";
#  8. a stale plan is refused with exit 3: a claim allocated on a GPU
#     the plan repartitions, and a node the plan names that is gone;
#  9. the backup journals each object's resourceVersion after the
#     apply: a later apply changing the PriorityClass is reported by
#     the rollback preview of the first (changed since, by
#     "kubectl-dra", a later apply), and no longer once that apply is
#     rolled back; the quota "other" took is reported and deleted
#     anyway; rolling the first apply back: what it created is gone,
#     the PriorityClass that existed is as it was, the node labels as
#     before.
# The cluster is left as it was found.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

demand=$here/data/plan-demand.yaml
label=kubectl-dra.e2e/test=t0100-apply
stale_ns=apply-stale
poll_max=1200

# json_paths, json_raw, jv: lib.sh.

# cluster_state: what t0100 must leave as it found it.
# shellcheck disable=SC2016
cluster_state() {
	kubectl get namespaces -o go-template='{{range .items}}namespace {{.metadata.name}}{{"\n"}}{{end}}'
	kubectl get nodes -o go-template='{{range .items}}node {{.metadata.name}} labels={{.metadata.labels}}{{"\n"}}{{end}}'
	kubectl get deviceclasses -o go-template='{{range .items}}deviceclass {{.metadata.name}} labels={{.metadata.labels}} spec={{.spec}}{{"\n"}}{{end}}'
	kubectl get priorityclasses -o go-template='{{range .items}}priorityclass {{.metadata.name}} {{.value}} labels={{.metadata.labels}}{{"\n"}}{{end}}'
	kubectl get resourcequotas,configmaps -A -o go-template='{{range .items}}{{.kind}} {{.metadata.namespace}}/{{.metadata.name}} labels={{.metadata.labels}} hard={{with .spec}}{{.hard}}{{end}}{{"\n"}}{{end}}' |
		grep -v ' kube-root-ca.crt '
	kubectl get resourceclaims -A -o go-template='{{range .items}}claim {{.metadata.namespace}}/{{.metadata.name}}{{"\n"}}{{end}}'
}

# dra NAME ARGS...: kubectl dra ARGS with stdout in $T/NAME.out, stderr
# in $T/NAME.err, the exit status in $T/NAME.rc.
dra() {
	local name=$1 rc=0
	shift
	kubectl dra "$@" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	echo "$rc" >"$T/$name.rc"
}

# expect_rc NAME RC: the run NAME exited RC, else a failure with its
# output.
expect_rc() {
	if [ "$(cat "$T/$1.rc")" != "$2" ]; then
		fail "$1: exit $(cat "$T/$1.rc"), expected $2"
		sed -n '1,30p' "$T/$1.out" "$T/$1.err"
		return 1
	fi
	return 0
}

# grep_in NAME FILE TEXT: FILE ($T/NAME.out or .err) holds TEXT.
grep_in() {
	grep -qF -- "$3" "$T/$1.$2" || { fail "$1: no '$3' in its std$2"; sed -n '1,20p' "$T/$1.$2"; }
}

managers() {
	kubectl get "$@" -o go-template='{{range .metadata.managedFields}}{{.manager}}/{{.operation}} {{end}}'
}

qvalue() {
	kubectl get resourcequota dra-plan -n "$1" -o go-template="{{index .spec.hard \"$2\"}}"
}

# ---- 0. the cluster before, and the plan ---------------------------------
# A namespace an earlier test deleted may still be terminating (its
# claims wait for the resourceclaim controller): the state before is
# taken once it is gone, or it would vanish during the test.
for _ in $(seq 1 $poll_max); do
	terminating=$(kubectl get namespaces -o go-template='{{range .items}}{{if .metadata.deletionTimestamp}}{{.metadata.name}} {{end}}{{end}}')
	[ -z "$terminating" ] && break
	sleep 0.5
done
[ -z "$terminating" ] || fail "namespaces still terminating: $terminating"
run before cluster_state || finish
cp "$T/before.out" "$T/state-before"
run plan kubectl dra plan --demand "$demand" -o json || finish
mv "$T/plan.out" "$T/plan.json"
json_paths <"$T/plan.json" >"$T/plan.tsv" || { fail "the plan is not JSON"; finish; }
[ "$(jv "$T/plan.tsv" status.solver.status)" = optimal ] || fail "plan status $(jv "$T/plan.tsv" status.solver.status)"
# The plan's objects: "kind namespace name" (namespace "-" when none).
awk -F '\t' '
$1 ~ /^status\.manifests\[[0-9]+\]\.kind$/ { i = $1; sub(/\.kind$/, "", i); kind[i] = $2; ord[++n] = i }
$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.name$/ { i = $1; sub(/\.metadata\.name$/, "", i); name[i] = $2 }
$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.namespace$/ { i = $1; sub(/\.metadata\.namespace$/, "", i); ns[i] = $2 }
END { for (k = 1; k <= n; k++) { i = ord[k]; print kind[i], (i in ns ? ns[i] : "-"), name[i] } }' "$T/plan.tsv" >"$T/objects"
awk -F '\t' '$1 ~ /^status\.nodeLabels\[[0-9]+\]\.node$/ { print $2 }' "$T/plan.tsv" >"$T/nodes"
namespaces=$(awk '$2 != "-" { print $2 }' "$T/objects" | sort -u)
nobj=$(( $(grep -c . "$T/objects") + $(grep -c . "$T/nodes") ))
echo "plan: $(grep -c . "$T/objects") manifests, labels of $(grep -c . "$T/nodes") nodes, namespaces $(echo $namespaces)"
[ -s "$T/objects" ] || { fail "the plan has no manifests"; finish; }
# kubectl's name of each object, in the order apply must go.
awk '
function t(k) { return k == "PriorityClass" ? "priorityclass.scheduling.k8s.io" : k == "DeviceClass" ? "deviceclass.resource.k8s.io" : tolower(k) }
function r(k) { return k == "PriorityClass" ? 0 : k == "DeviceClass" ? 1 : k == "ConfigMap" ? 2 : 3 }
{ print r($1), NR, t($1) "/" $3 ($2 != "-" ? " -n " $2 : "") }' "$T/objects" | sort -k1,1n -k2,2n | cut -d' ' -f3- >"$T/names"
sed 's|^|node/|' "$T/nodes" >>"$T/names"
pc=$(awk '$1 == "PriorityClass" { print $3; exit }' "$T/objects")

cleaned=0
apply_cleanup() {
	[ "$cleaned" = 0 ] || return 0
	cleaned=1
	[ -f "$T/b1.json" ] && kubectl dra apply --rollback "$T/b1.json" --yes >/dev/null 2>&1
	kubectl delete pods,resourceclaims --all -n "$stale_ns" --force --grace-period=0 --ignore-not-found >/dev/null 2>&1
	# shellcheck disable=SC2086
	kubectl delete namespace $namespaces "$stale_ns" --ignore-not-found --wait=true --timeout=300s >/dev/null 2>&1
	[ -n "$pc" ] && kubectl delete priorityclass "$pc" --ignore-not-found >/dev/null 2>&1
	return 0
}
e2e_cleanup_hooks="$e2e_cleanup_hooks apply_cleanup"
for ns in $namespaces $stale_ns; do
	kubectl get namespace "$ns" >/dev/null 2>&1 &&
		{ fail "namespace $ns exists before t0100 (left over?)"; finish; }
done

# ---- 1. namespaces missing -------------------------------------------------
dra nons apply -f "$T/plan.json"
expect_rc nons 1
for ns in $namespaces; do
	grep_in nons err "namespace $ns does not exist: create it first"
done
grep_in nons err "nothing was changed"
for ns in $namespaces; do
	run "ns-$ns" kubectl create namespace "$ns" || finish
	run "ns-$ns-label" kubectl label namespace "$ns" "$label" >/dev/null
done

# ---- 1b. a quota the namespace's claims already exceed -----------------------
# A pending claim charged one device more than the plan's hard for a
# class (the evaluator charges the spec): the plan is refused, exit 3.
qm=$(awk -F '\t' '$1 ~ /^status\.manifests\[[0-9]+\]\.kind$/ && $2 == "ResourceQuota" { sub(/\.kind$/, "", $1); print $1; exit }' "$T/plan.tsv")
qns0=$(jv "$T/plan.tsv" "$qm.metadata.namespace")
sfx=.deviceclass.resource.k8s.io/devices
qline=$(awk -F '\t' -v p="$qm.spec.hard." -v s="$sfx" 'index($1, p) == 1 && substr($1, length($1) - length(s) + 1) == s { print substr($1, length(p) + 1) "\t" $2; exit }' "$T/plan.tsv")
qkey=${qline%%	*}
qhard=${qline##*	}
qcls=${qkey%"$sfx"}
if [ -n "$qkey" ] && [ "$qhard" -lt 32 ]; then
	cat >"$T/over.yaml" <<EOT
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: over-0, namespace: $qns0}
spec:
  devices:
    requests:
    - name: dev
      exactly: {deviceClassName: $qcls, count: $((qhard + 1))}
EOT
	run over-create kubectl create -f "$T/over.yaml" || finish
	dra over apply -f "$T/plan.json"
	expect_rc over 3
	grep_in over err "quota dra-plan in $qns0: $qkey: $((qhard + 1)) used, the plan's hard is $qhard"
	run over-del kubectl delete resourceclaim over-0 -n "$qns0" --wait=true
else
	fail "the plan's quota of $qns0 has no device key below 32: $qline"
fi

# ---- 2. an object of the plan already exists ------------------------------
desc=$(awk -F '\t' -v n="$pc" '
	$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.name$/ && $2 == n { i = $1; sub(/\.metadata\.name$/, "", i) }
	i != "" && $1 == i ".description" { print $2; exit }' "$T/plan.tsv")
value=$(awk -F '\t' -v n="$pc" '
	$1 ~ /^status\.manifests\[[0-9]+\]\.metadata\.name$/ && $2 == n { i = $1; sub(/\.metadata\.name$/, "", i) }
	i != "" && $1 == i ".value" { print $2; exit }' "$T/plan.tsv")
run pc kubectl create priorityclass "$pc" --value="$value" --description="$desc" || finish
run state0 cluster_state || finish

# ---- 3. the preview changes nothing ----------------------------------------
dra preview apply -f "$T/plan.json"
expect_rc preview 0
sed 's/^/  /' "$T/preview.out" | grep -v '^  [-+@ ]' | grep -v '^  diff '
awk '
	/ \(dry run\)$/ { sub(/ (created|configured|unchanged) \(dry run\)$/, ""); print }' "$T/preview.out" >"$T/preview.names"
check_same "the preview's objects, in apply order" "$T/names" "$T/preview.names"
grep_in preview out "priorityclass.scheduling.k8s.io/$pc configured (dry run)"
[ "$(grep -c ' created (dry run)$' "$T/preview.out")" = "$(($(grep -c . "$T/objects") - 1))" ] ||
	fail "the preview does not say created (dry run) for every object but $pc"
grep_in preview out "Dry run: "
grep_in preview out "To apply: kubectl dra apply -f $T/plan.json --yes"
grep_in preview out "+    app.kubernetes.io/managed-by: kubectl-dra"
if [ -s "$T/nodes" ]; then
	grep_in preview out "+    nvidia.com/mig.config: "
fi
run state-preview cluster_state
check_same "the cluster after the preview vs before" "$T/state0.out" "$T/state-preview.out"
KUBECTL_EXTERNAL_DIFF="echo EXT" dra ext apply -f "$T/plan.json"
expect_rc ext 0
grep -Eq '^EXT /[^ ]*/LIVE-[^ ]* /[^ ]*/MERGED-' "$T/ext.out" || fail "KUBECTL_EXTERNAL_DIFF was not run: $(head -3 "$T/ext.out")"
# A diff program that fails (above 1, as kubectl diff counts) is an error.
KUBECTL_EXTERNAL_DIFF=/nonexistent/diff dra extbad apply -f "$T/plan.json"
expect_rc extbad 1
grep_in extbad err "/nonexistent/diff exited with 127"

# ---- 4. the limited user -----------------------------------------------------
KUBECONFIG=$W/limited.kubeconfig dra limited apply -f "$T/plan.json" --yes --backup "$T/limited.json"
expect_rc limited 1
grep_in limited err 'User "dra-limited" cannot list resource'
grep_in limited err "nothing was changed"
[ -e "$T/limited.json" ] && fail "the limited user's refused apply wrote a backup"
grep -q 'token\|Bearer' "$T/limited.err" && fail "the limited user's error shows a credential"
run state-limited cluster_state
check_same "the cluster after the limited user vs before" "$T/state0.out" "$T/state-limited.out"

# ---- 5. apply --yes ---------------------------------------------------------
dra yes1 apply -f "$T/plan.json" --yes --backup "$T/b1.json"
expect_rc yes1 0 || finish
sed 's/^/  /' "$T/yes1.out"
grep_in yes1 out "Backup of the state before: $T/b1.json"
sed -n 's/ \(created\|configured\)$//p' "$T/yes1.out" >"$T/yes1.names"
check_same "the objects apply --yes created or configured" "$T/names" "$T/yes1.names"
while read -r kind ns name; do
	if [ "$ns" = - ]; then m=$(managers "$kind" "$name"); else m=$(managers "$kind" "$name" -n "$ns"); fi
	case " $m" in
	*" kubectl-dra/Apply "*) ;;
	*) fail "$kind $ns/$name: field managers '$m', no kubectl-dra/Apply" ;;
	esac
	# Created by a POST, then owned through Apply only.
	case " $m" in
	*" kubectl-dra/Update "*) fail "$kind $ns/$name: kubectl-dra also owns fields through Update: $m" ;;
	esac
done <"$T/objects"
while read -r node; do
	want=$(awk -F '\t' -v n="$node" '
		$1 ~ /^status\.nodeLabels\[[0-9]+\]\.node$/ && $2 == n { i = $1; sub(/\.node$/, "", i) }
		i != "" && $1 == i ".labels.nvidia.com/mig.config" { print $2; exit }' "$T/plan.tsv")
	got=$(kubectl get node "$node" -o go-template='{{index .metadata.labels "nvidia.com/mig.config"}}')
	[ "$got" = "$want" ] || fail "node $node: nvidia.com/mig.config '$got', the plan says '$want'"
	case " $(managers node "$node")" in
	*" kubectl-dra/Apply "*) ;;
	*) fail "node $node: no kubectl-dra/Apply field manager" ;;
	esac
done <"$T/nodes"
key=count/resourceclaims.resource.k8s.io
for ns in $(awk '$1 == "ResourceQuota" { print $2 }' "$T/objects"); do
	want=$(awk -F '\t' -v ns="$ns" -v k="$key" '
		$1 ~ /^status\.teams\[[0-9]+\]\.namespace$/ && $2 == ns { t = $1; sub(/namespace$/, "quota.hard.", t) }
		t != "" && $1 == t k { print $2; exit }' "$T/plan.tsv")
	[ "$(qvalue "$ns" "$key")" = "$want" ] || fail "quota dra-plan in $ns: $key $(qvalue "$ns" "$key"), the plan says $want"
done
grep -q '"phase": "complete"' "$T/b1.json" || fail "backup b1: phase is not complete"
[ "$(grep -c '"createdUID"' "$T/b1.json")" = "$(($(grep -c . "$T/objects") - 1))" ] ||
	fail "backup b1: $(grep -c '"createdUID"' "$T/b1.json") createdUID, expected one per created object"

# A backup without the uids apply recorded (as when someone else created
# the objects, or a later apply labelled them): the rollback deletes
# none of them, though each carries the label and kubectl-dra/Apply.
awk '/"createdUID"/ { if ($0 !~ /,[ \t]*$/) sub(/,[ \t]*$/, "", prev); next }
	NR > 1 { print prev } { prev = $0 } END { print prev }' "$T/b1.json" >"$T/b1-nouid.json"
grep -q createdUID "$T/b1-nouid.json" && fail "b1-nouid.json still has a createdUID"
dra nouid apply --rollback "$T/b1-nouid.json" --yes
expect_rc nouid 0
[ "$(grep -c 'left alone: this apply recorded no uid of it (it did not create it): left alone' "$T/nouid.out")" = "$(($(grep -c . "$T/objects") - 1))" ] ||
	fail "a rollback without recorded uids does not leave every created object alone: $(cat "$T/nouid.out")"
grep -q ' deleted$' "$T/nouid.out" && fail "a rollback without recorded uids deleted: $(cat "$T/nouid.out")"
while read -r kind ns name; do
	if [ "$ns" = - ]; then kubectl get "$kind" "$name" >/dev/null 2>&1; else kubectl get "$kind" "$name" -n "$ns" >/dev/null 2>&1; fi ||
		fail "$kind $ns/$name: deleted by a rollback that recorded no uid of it"
done <"$T/objects"
# That rollback put the node labels back: apply them again.
dra yes1b apply -f "$T/plan.json" --yes --backup "$T/b1b.json"
expect_rc yes1b 0

# ---- 6. again: unchanged ---------------------------------------------------
dra again apply -f "$T/plan.json"
expect_rc again 0
grep_in again out "Dry run: 0 to create, 0 to configure, $nobj unchanged"
dra again-json apply -f "$T/plan.json" -o json
expect_rc again-json 0
[ "$(grep -c '"result": "unchanged"' "$T/again-json.out")" = "$nobj" ] ||
	fail "apply -o json: not $nobj objects unchanged: $(head -20 "$T/again-json.out")"
grep_in again-json out '"dryRun": true'
dra yes2 apply -f "$T/plan.json" --yes --backup "$T/b2.json"
expect_rc yes2 0
[ "$(grep -c ' unchanged$' "$T/yes2.out")" = "$nobj" ] || fail "apply --yes again: not every object unchanged: $(cat "$T/yes2.out")"

# ---- 7. a conflict with another field manager --------------------------------
qns=$(awk '$1 == "ResourceQuota" { print $2; exit }' "$T/objects")
planned=$(qvalue "$qns" "$key")
cat >"$T/other.yaml" <<EOT
apiVersion: v1
kind: ResourceQuota
metadata: {name: dra-plan, namespace: $qns}
spec:
  hard:
    $key: "1000"
EOT
run other kubectl apply --server-side --field-manager=other --force-conflicts -f "$T/other.yaml" || finish
dra conflict-preview apply -f "$T/plan.json"
expect_rc conflict-preview 1
grep_in conflict-preview err "resourcequota/dra-plan -n $qns: conflict: "
grep_in conflict-preview err "conflict with \"other\""
grep_in conflict-preview err ".spec.hard.$key"
grep_in conflict-preview err "--force-conflicts takes them"
dra conflict apply -f "$T/plan.json" --yes --backup "$T/bc.json"
expect_rc conflict 1
grep_in conflict err "conflict with \"other\""
grep_in conflict err "nothing was changed"
[ -e "$T/bc.json" ] && fail "a refused apply wrote a backup"
[ "$(qvalue "$qns" "$key")" = 1k ] || fail "the conflicting value was overridden: $(qvalue "$qns" "$key")"
# --force-conflicts says what it takes, from whom: preview, --yes, -o json.
dra force-preview apply -f "$T/plan.json" --force-conflicts
expect_rc force-preview 0
grep_in force-preview out "resourcequota/dra-plan -n $qns configured (dry run): taking .spec.hard.$key from \"other\""
dra force-json apply -f "$T/plan.json" --force-conflicts -o json
expect_rc force-json 0
grep_in force-json out '"message": "taking .spec.hard.'"$key"' from \"other\""'
[ "$(qvalue "$qns" "$key")" = 1k ] || fail "the --force-conflicts preview changed the quota"
dra force apply -f "$T/plan.json" --yes --force-conflicts --backup "$T/b3.json"
expect_rc force 0
grep_in force out "resourcequota/dra-plan -n $qns configured: taking .spec.hard.$key from \"other\""
[ "$(grep -c 'taking ' "$T/force.out")" = 1 ] || fail "--force-conflicts says it takes from more than one object: $(grep 'taking ' "$T/force.out")"
[ "$(qvalue "$qns" "$key")" = "$planned" ] || fail "--force-conflicts: $key $(qvalue "$qns" "$key"), expected $planned"
dra rb3-preview apply --rollback "$T/b3.json"
expect_rc rb3-preview 0
grep_in rb3-preview out "resourcequota/dra-plan -n $qns restored (dry run)"
[ "$(qvalue "$qns" "$key")" = "$planned" ] || fail "the rollback preview changed the quota"
dra rb3 apply --rollback "$T/b3.json" --yes
expect_rc rb3 0
grep_in rb3 out "resourcequota/dra-plan -n $qns restored"
[ "$(qvalue "$qns" "$key")" = 1k ] || fail "rollback of the forced apply: $key $(qvalue "$qns" "$key"), expected 1k"
# shellcheck disable=SC2016
owner=$(kubectl get resourcequota dra-plan -n "$qns" -o go-template='{{range .metadata.managedFields}}{{if .fieldsV1}}{{with index .fieldsV1 "f:spec"}}{{with index . "f:hard"}}{{range $k, $v := .}}{{if eq $k "f:count/resourceclaims.resource.k8s.io"}}{{"x"}}{{end}}{{end}}{{end}}{{end}}{{end}}{{.manager}}/{{.operation}} {{end}}')
case " $owner" in
*" xother/Apply "*) ;;
*) fail "after the rollback $key is not owned by other/Apply again: $owner" ;;
esac

# A node label another manager applied: taken by force, then given back
# with its ownership (and kubectl-dra owns it in no way after).
lnode=$(head -1 "$T/nodes")
if [ -n "$lnode" ]; then
	lkey=nvidia.com/mig.config
	printf 'apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels: {%s: all-disabled}\n' "$lnode" "$lkey" >"$T/gpuop.yaml"
	run gpuop kubectl apply --server-side --field-manager=gpu-operator --force-conflicts -f "$T/gpuop.yaml" || finish
	dra lforce apply -f "$T/plan.json" --yes --force-conflicts --backup "$T/b4.json"
	expect_rc lforce 0
	grep_in lforce out "node/$lnode configured: taking .metadata.labels.$lkey from \"gpu-operator\""
	dra rb4 apply --rollback "$T/b4.json" --yes
	expect_rc rb4 0
	grep_in rb4 out "node/$lnode labels restored"
	got=$(kubectl get node "$lnode" -o go-template="{{index .metadata.labels \"$lkey\"}}")
	[ "$got" = all-disabled ] || fail "node $lnode: $lkey '$got' after the rollback, expected all-disabled"
	# shellcheck disable=SC2016
	lowner=$(kubectl get node "$lnode" -o go-template='{{range .metadata.managedFields}}{{if .fieldsV1}}{{with index .fieldsV1 "f:metadata"}}{{with index . "f:labels"}}{{range $k, $v := .}}{{if eq $k "f:nvidia.com/mig.config"}}{{"x"}}{{end}}{{end}}{{end}}{{end}}{{end}}{{.manager}}/{{.operation}} {{end}}')
	case " $lowner" in
	*" xgpu-operator/Apply "*) ;;
	*) fail "after the rollback $lkey of $lnode is not owned by gpu-operator/Apply again: $lowner" ;;
	esac
	case " $lowner" in
	*" xkubectl-dra/"*) fail "after the rollback kubectl-dra still owns $lkey of $lnode: $lowner" ;;
	esac
	dra lconflict apply -f "$T/plan.json"
	expect_rc lconflict 1
	grep_in lconflict err "conflict with \"gpu-operator\""
	grep -q 'conflict with "kubectl-dra"' "$T/lconflict.err" && fail "apply conflicts with kubectl-dra itself after a rollback"
fi

# ---- 8. a stale plan ----------------------------------------------------------
# A GPU the plan repartitions (changed or rebuilt, whole or static MIG
# today) and keeps no running claim on: "node gpu mode busID".
awk -F '\t' '
$1 ~ /^status\.layout\[[0-9]+\]\.node$/ { l = $1; sub(/\.node$/, "", l); node[l] = $2 }
$1 ~ /^status\.layout\[[0-9]+\]\.gpus\[[0-9]+\]\.(name|mode|pciBusID|changed|rebuilt)$/ {
	g = $1; f = g; sub(/\.[a-zA-Z]+$/, "", g); sub(/.*\./, "", f); v[g, f] = $2; gpus[g] = 1 }
$1 ~ /\.instances\[[0-9]+\]\.owner\.kind$/ && ($2 == "running" || $2 == "moved") {
	g = $1; sub(/\.instances\[.*/, "", g); busy[g] = 1 }
END {
	for (g in gpus) {
		if (g in busy || (v[g, "changed"] != "true" && v[g, "rebuilt"] != "true")) continue
		if (v[g, "mode"] != "whole" && v[g, "mode"] != "static") continue
		l = g; sub(/\.gpus\[.*/, "", l)
		print node[l], v[g, "name"], v[g, "mode"], v[g, "pciBusID"]
	}
}' "$T/plan.tsv" | sort | head -1 >"$T/victim"
if [ -s "$T/victim" ]; then
	read -r vnode vgpu vmode vbus <"$T/victim"
	class=gpu.nvidia.com
	[ "$vmode" = static ] && class=mig.nvidia.com
	run stale-ns kubectl create namespace "$stale_ns" || finish
	kubectl label namespace "$stale_ns" "$label" >/dev/null
	for _ in $(seq 1 $poll_max); do
		kubectl get serviceaccount default -n "$stale_ns" >/dev/null 2>&1 && break
		sleep 0.5
	done
	cat >"$T/stale.yaml" <<EOT
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: stale-0, namespace: $stale_ns}
spec:
  devices:
    requests:
    - name: dev
      exactly:
        deviceClassName: $class
        selectors:
        - cel:
            expression: "device.attributes['resource.kubernetes.io'].pciBusID == '$vbus'"
---
apiVersion: v1
kind: Pod
metadata: {name: stale-0, namespace: $stale_ns}
spec:
  nodeSelector: {kubernetes.io/hostname: $vnode}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources: {claims: [{name: dev}]}
  resourceClaims:
  - {name: dev, resourceClaimName: stale-0}
EOT
	run stale-create kubectl create -f "$T/stale.yaml" || finish
	dev=""
	for _ in $(seq 1 $poll_max); do
		dev=$(kubectl get resourceclaim stale-0 -n "$stale_ns" -o go-template='{{with .status}}{{with .allocation}}{{range .devices.results}}{{.device}}{{end}}{{end}}{{end}}' 2>/dev/null)
		[ -n "$dev" ] && break
		sleep 0.5
	done
	echo "stale: claim $stale_ns/stale-0 holds $vnode/$dev ($vmode GPU $vgpu, which the plan repartitions)"
	if [ -z "$dev" ]; then
		fail "the claim on $vnode/$vgpu ($vbus) was not allocated"
	else
		dra stale apply -f "$T/plan.json"
		expect_rc stale 3
		grep_in stale err "no longer matches the cluster"
		grep_in stale err "$vnode/$vgpu: claim $stale_ns/stale-0 now holds $dev, which the plan does not keep"
	fi
	kubectl delete pod stale-0 -n "$stale_ns" --force --grace-period=0 >/dev/null 2>&1
	run stale-del kubectl delete resourceclaim stale-0 -n "$stale_ns" --wait=true --timeout=300s
	run stale-ns-del kubectl delete namespace "$stale_ns" --wait=true --timeout=300s
else
	echo "NOTE: the plan repartitions no free whole or static GPU on this load: no claim to stage"
fi
# A node the plan names that is gone.
sed 's/"node": "\([^"]*\)"/"node": "\1-gone"/' "$T/plan.json" >"$T/gone.json"
dra gone apply -f "$T/gone.json"
expect_rc gone 3
grep_in gone err "node $(awk -F '\t' '$1 == "status.layout[0].node" { print $2 }' "$T/plan.tsv")-gone: no longer exists"

# ---- 9. rollback of the first apply ----------------------------------------
grep -q '"appliedResourceVersion"' "$T/b1.json" || fail "backup b1: no appliedResourceVersion journaled"
# A later apply changes the PriorityClass: rolling b1 back says so.
awk -v pc="$pc" '{ if (index($0, "\"name\": \"" pc "\"")) hit = 1
	if (hit && sub(/"description": "/, "&later: ")) hit = 0; print }' "$T/plan.json" >"$T/later.json"
cmp -s "$T/plan.json" "$T/later.json" && fail "later.json: the description of $pc was not changed"
# (--force-conflicts: "other" and gpu-operator own a quota value and a
# label again since the rollbacks of step 7.)
dra later apply -f "$T/later.json" --yes --force-conflicts --backup "$T/b5.json"
expect_rc later 0
grep_in later out "priorityclass.scheduling.k8s.io/$pc configured"
dra rb1-later apply --rollback "$T/b1.json"
expect_rc rb1-later 0
grep_in rb1-later out "priorityclass.scheduling.k8s.io/$pc restored (dry run): changed since the apply (resourceVersion "
grep_in rb1-later out 'by "kubectl-dra"; restoring anyway'
grep_in rb1-later err "changed by a later kubectl-dra apply"
dra rb5 apply --rollback "$T/b5.json" --yes
expect_rc rb5 0
grep_in rb5 out "priorityclass.scheduling.k8s.io/$pc restored"
dra rb1-preview apply --rollback "$T/b1.json"
expect_rc rb1-preview 0
grep_in rb1-preview out "priorityclass.scheduling.k8s.io/$pc restored (dry run)"
grep -q "priorityclass.scheduling.k8s.io/$pc restored (dry run): changed" "$T/rb1-preview.out" &&
	fail "after the later apply was rolled back, $pc is still reported changed"
grep -q "changed by a later kubectl-dra apply" "$T/rb1-preview.err" &&
	fail "after the later apply was rolled back, a later apply is still reported: $(cat "$T/rb1-preview.err")"
# "other" took the quota value since (step 7): said, and deleted anyway.
grep_in rb1-preview out "resourcequota/dra-plan -n $qns deleted (dry run): changed since the apply (resourceVersion "
grep_in rb1-preview out 'by "other"'
grep_in rb1-preview out "deleting anyway"
run state-rb1-preview cluster_state
dra rb1 apply --rollback "$T/b1.json" --yes
expect_rc rb1 0
sed 's/^/  /' "$T/rb1.out"
[ "$(grep -c ' deleted$\| deleted: ' "$T/rb1.out")" = "$(($(grep -c . "$T/objects") - 1))" ] ||
	fail "the rollback did not delete every object apply created"
grep_in rb1 out "priorityclass.scheduling.k8s.io/$pc restored"
for _ in $(seq 1 $poll_max); do
	cluster_state >"$T/state-rb1" 2>&1
	cmp -s "$T/state0.out" "$T/state-rb1" && break
	sleep 0.5
done
check_same "the cluster after the rollback vs before the first apply" "$T/state0.out" "$T/state-rb1"
dra rb1-again apply --rollback "$T/b1.json" --yes
expect_rc rb1-again 0
grep -q ' deleted$\| restored$' "$T/rb1-again.out" && fail "a second rollback changed something: $(cat "$T/rb1-again.out")"

# ---- 10. the cluster as it was ------------------------------------------------
rm -f "$T/b1.json"
apply_cleanup
for _ in $(seq 1 $poll_max); do
	cluster_state >"$T/state-after" 2>&1
	cmp -s "$T/state-before" "$T/state-after" && break
	sleep 0.5
done
check_same "the cluster after t0100 vs before" "$T/state-before" "$T/state-after" &&
	echo "cleanup: the cluster is as it was ($(grep -c . "$T/state-before") lines of state)"
finish
