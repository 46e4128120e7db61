#!/bin/sh
# p previews a plan made by `kubectl dra plan` beside today's layout:
# side by side at 120 columns, one above the other at 80; whole GPUs in
# the same units on both sides, the tainted GPU tainted on both, each
# half's node kept above its GPUs when scrolled, GPUs shown at 50x10,
# and a plan of a synthetic fleet said to share no node with today.
. "$(dirname "$0")/lib.sh"

# wait_line N TEXT: poll until line N (0-based) is TEXT.
wait_line() {
	i=0
	while [ $i -lt $((TUI_WAIT * 10)) ]; do
		[ "$(line "$1")" = "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "line $1 is not \"$2\" but \"$(line "$1")\""
}

"$DRA" plan --demand "$SRC/examples/demand-fragmentation.yaml" \
    --from "$EXAMPLE" -o yaml >"$T/plan.yaml" 2>"$T/plan.err" ||
    { cat "$T/plan.err"; fail "kubectl dra plan failed"; }
"$DRA" plan --demand "$SRC/examples/demand-fragmentation.yaml" \
    --from "$EXAMPLE" -o json >"$T/plan.json" 2>/dev/null ||
    fail "kubectl dra plan -o json failed"

start ui --from "$EXAMPLE" --plan "$T/plan.yaml"
wait_for "gpus[32]"
send p
wait_for "plan plan.yaml"
expect "today: 32 GPUs, 12 partitions held, util 24%"
expect "plan plan.yaml: 32 GPUs, 68 partitions held, util 72%"
expect "gpus  ›  plan"
# Side by side: today's gpu-node-2 gpu-1 is free, the plan fills it.
screen | grep -q "gpu-1 |·*|   0% 0/7 │  gpu-1 |2g.20gb .*| 100% 7/7" ||
    fail "gpu-node-2 gpu-1 today and planned are not side by side"
# The same units on both sides: whole GPUs 1/1, a free one a free whole
# GPU; the tainted GPU tainted on both.
screen | grep -q "gpu-0 |whole ddp-trainer-0-gpus *| 100% 1/1 │  gpu-0 |whole ddp-trainer-0-gpus *| 100% 1/1" ||
    fail "a whole GPU is not 1/1 on both sides"
screen | grep -q "gpu-6 |whole *|   0% 0/1 │  gpu-6 |whole *|   0% 0/1" ||
    fail "a free whole GPU is not a free whole GPU on both sides"
send G
wait_for "gpu-node-4  8 GPUs  util 20%"
screen | grep -q "gpu-3 |whole tainted *|   0% 0/1 │  gpu-3 |whole tainted *|   0% 0/1" ||
    fail "the tainted GPU is not tainted on both sides"
$TMUX_CMD resize-window -x 80 -y 30
send g
wait_for "today: 32 GPUs"
screen | grep -q "^plan plan.yaml: 32 GPUs" ||
    fail "the plan half is not below today's at 80 columns"
# Scrolled to the end at 80x24, each half keeps its node on top.
$TMUX_CMD resize-window -x 80 -y 24
# (tmux shows the old screen's last lines until the UI draws anew.)
wait_line 12 "plan plan.yaml: 32 GPUs, 68 partitions held, util 72%"
send G
wait_line 4 "gpu-node-4  8 GPUs  util 0%"
[ "$(line 3)" = "today: 32 GPUs, 12 partitions held, util 24%" ] ||
    fail "today's heading: \"$(line 3)\""
[ "$(line 13)" = "gpu-node-4  8 GPUs  util 20%" ] ||
    fail "no node above the plan's GPUs: \"$(line 13)\""
screen | sed -n 6,12p | grep -q "^  gpu-" || fail "no GPU under the node"
screen | sed -n 15,21p | grep -q "^  gpu-7 |whole " ||
    fail "the last GPU is not shown"
# At the minimum size a GPU of each half shows under its node.
$TMUX_CMD resize-window -x 50 -y 10
wait_line 5 "plan plan.yaml: 32 GPUs, 68 partitions held, util"
[ "$(line 3)" = "gpu-node-4  8 GPUs  util 0%" ] ||
    fail "50x10: \"$(line 3)\""
line 4 | grep -q "^  gpu-[0-9] |" || fail "50x10: no GPU today: \"$(line 4)\""
[ "$(line 6)" = "gpu-node-4  8 GPUs  util 20%" ] ||
    fail "50x10: \"$(line 6)\""
line 7 | grep -q "^  gpu-[0-9] |" || fail "50x10: no GPU planned: \"$(line 7)\""
$TMUX_CMD resize-window -x 120 -y 40
send Escape
wait_for "gpus[32]"
quit

# JSON plans too.
start ui --from "$EXAMPLE" --plan "$T/plan.json"
wait_for "gpus[32]"
send p
wait_for "68 partitions held"
quit C-c

# A plan of a synthetic fleet beside the example: said.
"$DRA" plan --demand "$SRC/examples/demand-fragmentation.yaml" \
    --fleet 16xH100-80GB -o yaml >"$T/fleet.yaml" 2>"$T/plan.err" ||
    { cat "$T/plan.err"; fail "kubectl dra plan --fleet failed"; }
start ui --from "$EXAMPLE" --plan "$T/fleet.yaml"
wait_for "gpus[32]"
send p
wait_for "the plan is for a synthetic fleet (fleet 16xH100-80GB): no node in common with today's"
expect "h100-80gb-0  8 GPUs"
quit qq

# Without --plan, p says how to get one.
start ui --from "$EXAMPLE"
wait_for "gpus[32]"
send p
wait_for "no plan: start with --plan FILE"
quit
