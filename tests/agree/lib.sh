# shellcheck shell=bash
# tests/agree/lib.sh: what tests/agree/run and tests/agree/regress.sh
# share.  Sourced, not run; needs $agree_dir (the tests/agree folder).
#
#   why_fields FILE    reads a `kubectl-dra why -o json` document and
#                      prints "ALLOCATABLE|NODE|DEVICES|FITNODES":
#                      allocatable as written (true, false, null), the
#                      node ("" for null), the devices as
#                      request:driver/pool/device, sorted,
#                      comma-separated, and
#                      the nodes that fit ("fitNodes", comma-separated;
#                      "?" when the document has no such key);
#                      "error|||" when FILE holds no "allocatable"
#   pin FILE NODE      the snapshot FILE without the Nodes but NODE
#                      (pin.awk), on stdout
#   answer_verdict SCHED WHY [PINNED]
#                      compares the scheduler's answer SCHED
#                      ("true|node|devices" or "false||"; devices "?"
#                      when unknown: not compared) with WHY (as
#                      why_fields prints it) and, when given, PINNED (why
#                      on the snapshot pinned to the scheduler's node) and
#                      prints AGREE or DISAGREE(allocatable|node ...|
#                      devices|pinned ...):
#                      - allocatable must be equal (null is not false);
#                      - when both say allocatable, the scheduler's node
#                        must be one of why's fitNodes (without that key:
#                        why's node, the first in name order that fits,
#                        must not come after the scheduler's, which
#                        scored the nodes that fit);
#                      - on the same node, the devices must be equal:
#                        the allocator is first fit on one node;
#                      - pinned to the scheduler's node, why must say
#                        allocatable with exactly the scheduler's devices.

why_fields() {
	awk -f "$agree_dir/jsonflat.awk" "$1" | awk -F '\t' '
		$1 == "allocatable" { a = $2 }
		$1 == "node" { n = ($2 == "null" ? "" : $2) }
		$1 == "fitNodes" { hf = 1 }
		$1 ~ /^fitNodes\.[0-9]+$/ { hf = 1; f = f (f == "" ? "" : ",") $2 }
		$1 ~ /^devices\.[0-9]+\.(request|driver|pool|device)$/ {
			split($1, p, ".")
			d[p[2]] = d[p[2]] (p[3] == "request" ? "" : p[3] == "driver" ? ":" : "/") $2
			if (p[2] + 1 > nd) nd = p[2] + 1
		}
		END {
			if (a == "") { print "error|||"; exit }
			# insertion sort: a handful of devices
			for (i = 1; i < nd; i++)
				for (j = i; j > 0 && d[j - 1] > d[j]; j--) { t = d[j]; d[j] = d[j - 1]; d[j - 1] = t }
			s = ""
			for (i = 0; i < nd; i++) s = s (i ? "," : "") d[i]
			printf "%s|%s|%s|%s\n", a, n, s, (hf ? f : "?")
		}'
}

pin() { awk -v keep="$2" -f "$agree_dir/pin.awk" "$1"; }

answer_verdict() {
	local sa sn sd wa wn wd wf pa pd
	IFS='|' read -r sa sn sd <<<"$1"
	IFS='|' read -r wa wn wd wf _ <<<"$2"
	if [ "$wa" != "$sa" ]; then
		echo "DISAGREE(allocatable)"
	elif [ "$sa" = true ] && [ "$wf" != "?" ] && [[ ",$wf," != *",$sn,"* ]]; then
		echo "DISAGREE(node: the scheduler used $sn, not among why's fitNodes $wf)"
	elif [ "$sa" = true ] && [[ "$sn" < "$wn" ]]; then
		echo "DISAGREE(node: the scheduler used $sn, before why's first fit $wn)"
	elif [ "$sa" = true ] && [ "$sn" = "$wn" ] && [ "$sd" != "?" ] && [ "$sd" != "$wd" ]; then
		echo "DISAGREE(devices)"
	elif [ "$sa" = true ] && [ -n "${3:-}" ] && { IFS='|' read -r pa _ pd _ <<<"$3"; [ "$pa" != true ]; }; then
		echo "DISAGREE(pinned: not allocatable on the scheduler's node $sn)"
	elif [ "$sa" = true ] && [ -n "${3:-}" ] && [ "$sd" != "?" ] && [ "$pd" != "$sd" ]; then
		echo "DISAGREE(pinned: other devices on the scheduler's node $sn)"
	else
		echo AGREE
	fi
}
