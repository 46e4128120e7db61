#!/bin/sh
# ctrl-r reads the --from file again: a renamed claim shows, the
# selection stays; a file that no longer reads keeps the old data, says
# so on the status line, and the error is printed after the screen
# closes.
. "$(dirname "$0")/lib.sh"

cp "$EXAMPLE" "$T/cluster.yaml"
start ui claims --from "$T/cluster.yaml"
wait_for "claims(all)[13]"
send G
sed 's/triton-infer-0-gpu-kc4tp/triton-infer-0-gpu-renamed/g' \
    "$EXAMPLE" >"$T/cluster.yaml"
send C-r
wait_for "triton-infer-0-gpu-renamed"
expect_not "triton-infer-0-gpu-kc4tp"
# Still on the last claim.
send Enter
wait_for "describe claim team-c/triton-infer-1-gpu-mlt4q"
send Escape
echo "garbage: [" >"$T/cluster.yaml"
send C-r
wait_for "cannot read $T/cluster.yaml again; showing what was read before"
expect "claims(all)[13]"
send q
i=0
while [ ! -s "$T/rc" ] && [ $i -lt $((TUI_WAIT * 10)) ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat "$T/rc")" = 0 ] || fail "the UI exited $(cat "$T/rc")"
grep -q "^kubectl-dra: error: $T/cluster.yaml:2:1: " "$T/stderr" ||
    fail "the error was not printed after the screen closed"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "more than the error on stderr"
exit 0
