#!/bin/sh
# The status line: no standing note of the GPU map (the tainted GPU is
# marked on its bar), an invalid filter's message kept after Enter and
# gone a few seconds later, an error of a command likewise; below the
# minimum size the size needed is read even at 20x5.
. "$(dirname "$0")/lib.sh"

start ui --from "$EXAMPLE"
wait_for "gpus[32]"
[ "$(line 39)" = "" ] || fail "a standing note: \"$(line 39)\""
expect "|whole tainted"
# An invalid regex: said while typing, kept after Enter, then gone.
type_text ":claims"
send Enter
wait_for "claims(all)[13]"
[ "$(line 39)" = "" ] || fail "a standing note: \"$(line 39)\""
send /
type_text "["
wait_for 'not a valid regular expression: matching "[" as text'
send Enter
wait_for "</[>"
case $(line 39) in
'not a valid regular expression: matching "[" as text') ;;
*) fail "after Enter: \"$(line 39)\"" ;;
esac
wait_gone "not a valid regular expression"
[ "$(line 39)" = "" ] || fail "after the message: \"$(line 39)\""
# An error of a command: no note comes back over it.
send Escape
type_text ":plan"
send Enter
wait_for "no plan: start with --plan FILE"
send j
expect "no plan: start with --plan FILE"
wait_gone "no plan: start with --plan FILE"
# Too small, even 20x5: the size needed is read whole.
$TMUX_CMD resize-window -x 20 -y 5
wait_for "20x5, need 50x10"
expect "terminal too small:"
$TMUX_CMD resize-window -x 120 -y 40
wait_for "claims(all)[13]"
quit
