#!/bin/sh
# ctrl-r presses waiting together make one read of the --from file
# (each was a read of its own: 100 of them took half a minute on an
# 8.5 MB file before q was seen), and q or ctrl-c after them is seen
# before any read.  -v 6 logs each read ("ui: read FILE again in N
# ms"), replayed on stderr after the screen closes.
. "$(dirname "$0")/lib.sh"

# wait_exit: wait for the UI to exit, check it exited 0.
wait_exit() {
	i=0
	while [ ! -s "$T/rc" ] && [ $i -lt $((TUI_WAIT * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$T/rc" ] || fail "the UI did not exit"
	[ "$(cat "$T/rc")" = 0 ] || fail "the UI exited $(cat "$T/rc")"
}

# reads: how many times the file was read again.
reads() {
	grep -c "^ui: read $T/cluster.yaml again in [0-9]* ms$" "$T/stderr"
}

keys=""
i=0
while [ $i -lt 100 ]; do
	keys="$keys C-r"
	i=$((i + 1))
done

cp "$EXAMPLE" "$T/cluster.yaml"
start ui claims -v 6 --from "$T/cluster.yaml"
wait_for "claims(all)[13]"
# The file changes (not while it is read), then 100 presses in one
# write: one read (two if the terminal splits the write).
sed 's/triton-infer-0-gpu-kc4tp/triton-infer-0-gpu-renamed/g' \
    "$EXAMPLE" >"$T/cluster.yaml"
# shellcheck disable=SC2086
send $keys
wait_for "triton-infer-0-gpu-renamed"
send q
wait_exit
n=$(reads)
echo "reads: $n"
[ "$n" -ge 1 ] && [ "$n" -le 2 ] ||
    fail "100 ctrl-r in one write read the file $n times"
[ "$(grep -c -v "^ui: read " "$T/stderr")" = 0 ] || fail "more on stderr"

# 100 presses then q in one write: q is seen first, no read.
start ui claims -v 6 --from "$T/cluster.yaml"
wait_for "claims(all)[13]"
# shellcheck disable=SC2086
send $keys q
wait_exit
[ "$(reads)" = 0 ] || fail "q after 100 ctrl-r: $(reads) reads"
exit 0
