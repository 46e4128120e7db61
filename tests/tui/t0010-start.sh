#!/bin/sh
# The first screen on the offline example: the GPU map, the header
# with the file and OFFLINE, each GPU a bar of its partitions with the
# claims holding them; q quits cleanly.
. "$(dirname "$0")/lib.sh"

start ui --from "$EXAMPLE"
wait_for "gpus[32] util 24%, 12 of 50 partitions held"
expect "File: $EXAMPLE"
expect "OFFLINE file"
expect "Namespace: all   Claims: 13 (2 pending)   Devices: 258 (13 allocated)"
expect "gpu-node-1  8 GPUs  util 75%"
# A dynamic-MIG GPU: the 3g.40gb of vllm-serve, the 1g.10gb of
# jupyter-bob, the rest free (dots).
screen | grep -q "gpu-0 .*|3g.40gb vllm-serve-0-gpu *|1g.10gb …|·*|  57% 4/7" ||
    fail "gpu-node-2 gpu-0 is not drawn with its two partitions"
# The tainted whole GPU of gpu-node-4.
screen | grep -q "gpu-3 .*|whole tainted *|   0% 0/1" ||
    fail "the tainted GPU is not marked"
# The breadcrumbs and the key hints.
expect "?:help ::cmd /:filter q:quit"
[ "$(line 38)" = " gpus" ] || fail "breadcrumbs: \"$(line 38)\""
quit

# Plain `kubectl dra` on a terminal opens the UI too.
start --from "$EXAMPLE"
wait_for "gpus[32]"
quit
exit 0
