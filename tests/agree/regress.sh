#!/usr/bin/env bash
# tests/agree/regress.sh DIR: one disagreement between `kubectl dra why`
# and kube-scheduler v1.37.2 that tests/agree/run found, replayed
# offline (ctest label "cli", no cluster).
#
# DIR/input.yaml  the objects as the scheduler saw them when it decided
#                 (a `kubectl-dra snapshot` taken right then: slices,
#                 classes, nodes, the existing allocations and the claim)
# DIR/expect      the scheduler's answer:
#                   claim NS/NAME
#                   allocatable true|false
#                   node NODE              (when allocated)
#                   devices D1,D2,...      (request:driver/pool/device, sorted)
#                   reason ...             (when not; for the reader)
#                 lines starting with # are comments
#
# Runs `kubectl-dra why claim/NAME -n NS --from DIR/input.yaml -o json`
# ($DRA_PLUGIN), and again on input.yaml pinned to the scheduler's node
# (pin.awk), and applies the rules of tests/agree/lib.sh
# (answer_verdict): the same allocatable and exit status; the
# scheduler's node among why's fitNodes; pinned to it, the same devices.
# Exit 0 PASS, 1 FAIL.
set -eu -o pipefail
export LC_ALL=C
agree_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$agree_dir/lib.sh"
: "${DRA_PLUGIN:?set DRA_PLUGIN to the kubectl-dra binary}"
dir=${1:?usage: regress.sh DIR}
[ -s "$dir/input.yaml" ] && [ -s "$dir/expect" ] || { echo "FAIL: $dir needs input.yaml and expect"; exit 1; }

claim=$(awk '$1 == "claim" { print $2 }' "$dir/expect")
alloc=$(awk '$1 == "allocatable" { print $2 }' "$dir/expect")
node=$(awk '$1 == "node" { print $2 }' "$dir/expect")
devs=$(awk '$1 == "devices" { print ($2 == "-" ? "" : $2) }' "$dir/expect")
[ -n "$claim" ] && [ -n "$alloc" ] || { echo "FAIL: $dir/expect names no claim or allocatable"; exit 1; }
ns=${claim%%/*} name=${claim#*/}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dra-regress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rc=0
"$DRA_PLUGIN" why "claim/$name" -n "$ns" --from "$dir/input.yaml" -o json >"$tmp/why.json" 2>"$tmp/why.err" || rc=$?
got=$(why_fields "$tmp/why.json")
sched="$alloc|$node|$devs"
pinned=""
if [ -n "$node" ]; then
	pin "$dir/input.yaml" "$node" >"$tmp/pinned.yaml"
	"$DRA_PLUGIN" why "claim/$name" -n "$ns" --from "$tmp/pinned.yaml" -o json >"$tmp/pinned.json" 2>/dev/null || true
	pinned=$(why_fields "$tmp/pinned.json")
fi
verdict=$(answer_verdict "$sched" "$got" "$pinned")
case $rc in
0) [ "${got%%|*}" = true ] || verdict="DISAGREE(exit 0 but allocatable ${got%%|*})" ;;
3) [ "${got%%|*}" != true ] || verdict="DISAGREE(exit 3 but allocatable true)" ;;
*) verdict="DISAGREE(why exited $rc: $(head -c 300 "$tmp/why.err"))" ;;
esac
if [ "$verdict" = AGREE ]; then
	echo "PASS: ${dir##*/}: $claim: scheduler $sched, why $got"
	exit 0
fi
echo "FAIL: ${dir##*/}: $claim: $verdict"
echo "  kube-scheduler: $sched"
echo "  why:            $got (exit $rc)"
[ -z "$pinned" ] || echo "  why pinned to $node: $pinned"
sed 's/^/  why -o json: /' "$tmp/why.json" | head -n 40
sed 's/^/  why stderr: /' "$tmp/why.err" | head -n 10
exit 1
