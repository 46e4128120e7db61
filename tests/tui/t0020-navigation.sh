#!/bin/sh
# Moving in a list: j/k, G/g, PgDn, Enter on the row moved to; Tab
# cycles the views, shift-Tab back.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
expect "NAMESPACE  NAME"
# The 4th claim is the pending llm-pretrain-0-gpus.
send j j j Enter
wait_for "describe claim team-a/llm-pretrain-0-gpus"
expect "claims  ›  describe"
send Escape
wait_for "claims(all)[13]"
# The selection stayed: Enter again.
send Enter
wait_for "describe claim team-a/llm-pretrain-0-gpus"
send Escape
send G Enter
wait_for "describe claim team-c/triton-infer-1-gpu-mlt4q"
send Escape
send g k Enter
wait_for "describe claim team-a/ddp-trainer-0-gpus"
send Escape
send NPage Enter
wait_for "describe claim team-c/triton-infer-1-gpu-mlt4q"
send q
wait_for "claims(all)[13]"
# Tab: the next view, then back.
send Tab
wait_for "devices[258]"
send BTab
wait_for "claims(all)[13]"
send BTab
wait_for "gpus[32]"
# Sorting: by name descending puts triton-infer-1 first.
send Tab
wait_for "claims(all)[13]"
send N N Enter
wait_for "describe claim team-c/triton-infer-1-gpu-mlt4q"
send Escape
wait_for "NAME↓"
quit
