#!/bin/sh
# Colours by default; none with NO_COLOR (https://no-color.org, any
# non-empty value) or --no-color, where attributes mark the selection
# (reverse and bold), the header, pending rows (bold) and held
# partitions (underlined: not reverse like the selection).
. "$(dirname "$0")/lib.sh"

sgr_colours() {
	# Lines setting a colour: SGR 30-38, 40-48, 90-97 or 100-107
	# (39 and 49, the default colours, are what tmux sends anyway).
	screen -e | grep -E -c '\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])(;[0-9;]*)?m'
}

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
[ "$(sgr_colours)" -gt 0 ] || fail "no colours by default"
quit

start -e NO_COLOR=1 ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
n=$(sgr_colours)
[ "$n" -eq 0 ] || fail "$n lines with colours under NO_COLOR"
# The selection is still visible: reverse video and bold, the whole row.
screen -e | grep -E -q '\[([0-9]*;)*7m' || fail "no reverse video under NO_COLOR"
screen -e | sed -n 5p | grep -E -q '^.\[0;1;7m.*team-a +ddp-trainer-0-gpus .* 8h$' ||
    fail "the selected row is not reverse and bold: $(screen -e | sed -n 5p)"
# A pending claim: bold.
screen -e | grep -E -q '\[1mteam-a +llm-pretrain-0-gpus +pending' ||
    fail "the pending claim is not bold"
# The GPU map: held partitions underlined, not reverse like the
# selection.
type_text ":gpus"
send Enter
wait_for "gpus[32]"
send j
screen -e | sed -n 6p | grep -q '\[0;4m.*whole ddp-trainer-0-gpus' ||
    fail "a held partition is not underlined: $(screen -e | sed -n 6p)"
screen -e | grep 'whole ddp-trainer-0-gpus' | grep -q '7mwhole' &&
    fail "a held partition is in reverse video"
quit

# An empty NO_COLOR does not count.
start -e NO_COLOR= ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
[ "$(sgr_colours)" -gt 0 ] || fail "NO_COLOR= (empty) turned colours off"
quit

start ui claims --no-color --from "$EXAMPLE"
wait_for "claims(all)[13]"
[ "$(sgr_colours)" -eq 0 ] || fail "colours with --no-color"
quit
