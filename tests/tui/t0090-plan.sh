#!/bin/sh
# p previews a plan made by `kubectl dra plan` beside today's layout:
# side by side at 120 columns, one above the other at 80.
. "$(dirname "$0")/lib.sh"

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
send G
wait_for "gpu-node-4  8 GPUs  util 20%"
$TMUX_CMD resize-window -x 80 -y 30
send g
wait_for "today: 32 GPUs"
screen | grep -q "^plan plan.yaml: 32 GPUs" ||
    fail "the plan half is not below today's at 80 columns"
send Escape
wait_for "gpus[32]"
quit

# JSON plans too.
start ui --from "$EXAMPLE" --plan "$T/plan.json"
wait_for "gpus[32]"
send p
wait_for "68 partitions held"
quit C-c

# Without --plan, p says how to get one.
start ui --from "$EXAMPLE"
wait_for "gpus[32]"
send p
wait_for "no plan: start with --plan FILE"
quit
