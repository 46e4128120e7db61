# shellcheck shell=bash
# tests/agree/lib.sh: what tests/agree/run and tests/agree/regress.sh
# share.  Sourced, not run; needs $agree_dir (the tests/agree folder).
#
#   why_fields FILE    reads a `kubectl-dra why -o json` document and
#                      prints "ALLOCATABLE|NODE|DEVICES": allocatable as
#                      written (true, false, null), the node ("" for
#                      null) and the devices as driver/pool/device,
#                      sorted, comma-separated; "error||" when FILE holds
#                      no "allocatable"
#   answer_verdict SCHED WHY
#                      compares the scheduler's answer SCHED
#                      ("true|node|devices" or "false||") with WHY (as
#                      why_fields prints it) and prints AGREE or
#                      DISAGREE(allocatable|node ...|devices):
#                      - allocatable must be equal (null is not false);
#                      - when both say allocatable, why's node (the first
#                        node in name order that fits) must not come
#                        after the scheduler's, which scored the nodes
#                        that fit;
#                      - on the same node, the devices must be equal:
#                        the allocator is first fit on one node.

why_fields() {
	awk -f "$agree_dir/jsonflat.awk" "$1" | awk -F '\t' '
		$1 == "allocatable" { a = $2 }
		$1 == "node" { n = ($2 == "null" ? "" : $2) }
		$1 ~ /^devices\.[0-9]+\.(driver|pool|device)$/ {
			split($1, p, ".")
			d[p[2]] = d[p[2]] (p[3] == "driver" ? "" : "/") $2
			if (p[2] + 1 > nd) nd = p[2] + 1
		}
		END {
			if (a == "") { print "error||"; exit }
			# insertion sort: a handful of devices
			for (i = 1; i < nd; i++)
				for (j = i; j > 0 && d[j - 1] > d[j]; j--) { t = d[j]; d[j] = d[j - 1]; d[j - 1] = t }
			s = ""
			for (i = 0; i < nd; i++) s = s (i ? "," : "") d[i]
			printf "%s|%s|%s\n", a, n, s
		}'
}

answer_verdict() {
	local sa sn sd wa wn wd
	IFS='|' read -r sa sn sd <<<"$1"
	IFS='|' read -r wa wn wd _ <<<"$2"
	if [ "$wa" != "$sa" ]; then
		echo "DISAGREE(allocatable)"
	elif [ "$sa" = true ] && [[ "$sn" < "$wn" ]]; then
		echo "DISAGREE(node: the scheduler used $sn, before why's first fit $wn)"
	elif [ "$sa" = true ] && [ "$sn" = "$wn" ] && [ "$sd" != "$wd" ]; then
		echo "DISAGREE(devices)"
	else
		echo AGREE
	fi
}
