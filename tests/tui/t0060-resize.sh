#!/bin/sh
# Resizing: 80x24 still shows every part of the screen, lines no wider
# than the terminal; below the minimum the UI says so and comes back.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
$TMUX_CMD resize-window -x 80 -y 24
# Two columns do not fit: the title says so; l scrolls them in with
# NAMESPACE and NAME kept, h back.
wait_for "───── claims(all)[13] +2 columns, ←/→ ─────"
expect_not "DEVICES"
send l
wait_for "REQUESTS"
expect "NAMESPACE  NAME"
send l l
wait_for "DEVICES"
send h h h
wait_gone "REQUESTS"
expect "NAMESPACE  NAME                        STATE"
expect "OFFLINE file"
expect "team-c     triton-infer-1-gpu-mlt4q"
[ "$(line 22)" = " claims" ] || fail "breadcrumbs at 80x24: \"$(line 22)\""
w=$(screen | wc -L)
[ "$w" -le 80 ] || fail "a line is $w columns wide at 80x24"
# Too small.
$TMUX_CMD resize-window -x 40 -y 8
wait_for "terminal too small: 40x8, need 50x10"
# Keys still work while too small.
send Tab
$TMUX_CMD resize-window -x 100 -y 30
wait_for "devices[258]"
expect_not "terminal too small"
# The GPU map at 80 columns.
type_text ":gpus"
send Enter
$TMUX_CMD resize-window -x 80 -y 24
wait_for "gpus[32]"
screen | grep -q "gpu-0 *|3g.40gb vllm-ser.*|  57% 4/7" ||
    fail "the GPU bar at 80 columns"
quit
