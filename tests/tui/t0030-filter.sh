#!/bin/sh
# The filter: a regex over the row, live while typed; /!x inverse;
# Esc clears it; an invalid regex is matched as text.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
send /
type_text "team-b"
wait_for "claims(all)[5/13] </team-b>"
expect "/team-b"
expect "jupyter-bob-gpu-cr4j2"
expect_not "ddp-trainer-0-gpus"
send Enter
wait_for "claims(all)[5/13] </team-b>"
# A regex: two teams.
send /
send C-u
type_text "team-(a|c)"
wait_for "claims(all)[8/13] </team-(a|c)>"
expect_not "jupyter-bob"
send Enter
# Inverse: what is not allocated.
send / C-u
type_text "!allocated"
wait_for "claims(all)[2/13] </!allocated>"
expect "llm-pretrain-0-gpus"
expect "whisper-asr-0-gpu"
send Enter
# Esc clears the filter first.
send Escape
wait_for "claims(all)[13]"
expect "ddp-trainer-0-gpus"
# An invalid regex is matched as text.
send /
type_text "(x"
wait_for "not a valid regular expression"
send Escape
wait_for "claims(all)[13]"
# The GPU map filters GPUs.
send Escape
type_text ":gpus"
send Enter
wait_for "gpus[32]"
send /
type_text "jupyter"
wait_for "gpus[2/32]"
expect "gpu-node-2  1 GPU"
expect "gpu-node-3  1 GPU"
expect_not "gpu-node-1"
quit "C-c"
