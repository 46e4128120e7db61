#!/bin/sh
# Without a terminal ui refuses to start, exit 1; usage errors exit 2;
# a terminal type without cursor addressing (dumb) is refused, exit 1.
. "$(dirname "$0")/lib.sh"

"$DRA" ui --from "$EXAMPLE" </dev/null >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "ui without a terminal exited $rc"
grep -q "ui needs a terminal: standard input and output must be a terminal" \
    "$T/err" || fail "no terminal error: $(cat "$T/err")"
[ -s "$T/out" ] && fail "ui wrote to stdout without a terminal"
"$DRA" ui nosuch --from "$EXAMPLE" </dev/null >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "an unknown view exited $rc"
grep -q 'unknown view "nosuch"' "$T/err" || fail "$(cat "$T/err")"
# Plain kubectl-dra without a terminal prints the usage, as before.
"$DRA" </dev/null >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "plain kubectl-dra without a terminal exited $rc"
grep -q "^Commands:" "$T/out" || fail "no usage"
grep -q "^  ui " "$T/out" || fail "ui is not in the usage"
# A bad plan file is refused before the screen opens.
echo "kind: Demand" >"$T/bad.yaml"
start ui --from "$EXAMPLE" --plan "$T/bad.yaml"
i=0
while [ ! -s "$T/rc" ] && [ $i -lt $((TUI_WAIT * 10)) ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat "$T/rc")" = 1 ] || fail "a bad plan exited $(cat "$T/rc")"
grep -q "is not a Plan document" "$T/stderr" || fail "$(cat "$T/stderr")"
# A terminal that cannot move the cursor is refused, exit 1, as an
# unknown one is.
for term in dumb no-such-terminal; do
	start -e TERM=$term ui --from "$EXAMPLE"
	i=0
	while [ ! -s "$T/rc" ] && [ $i -lt $((TUI_WAIT * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat "$T/rc")" = 1 ] || fail "TERM=$term exited $(cat "$T/rc")"
	case $term in
	dumb)	msg='cannot open the terminal: terminal type "dumb" cannot move the cursor (no cup capability); use a terminal such as xterm' ;;
	*)	msg='cannot open the terminal: unknown terminal type "no-such-terminal"' ;;
	esac
	grep -q -F "$msg" "$T/stderr" || fail "TERM=$term: $(cat "$T/stderr")"
done
exit 0
