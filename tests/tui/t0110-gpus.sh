#!/bin/sh
# The GPU map: Up/Down between nodes and GPUs, Left/Right between the
# partitions of a GPU, Enter on a partition describes its claim, on a
# node the node.
. "$(dirname "$0")/lib.sh"

start ui --from "$EXAMPLE"
wait_for "gpus[32]"
send Enter
wait_for "describe node gpu-node-1"
send Escape
# gpu-node-1 gpu-0: one whole GPU, its claim without choosing.
send j Enter
wait_for "describe claim team-a/ddp-trainer-0-gpus"
send Escape
# gpu-node-2 gpu-0 (line 10): the 3g.40gb, then the 1g.10gb.
send j j j j j j j j j
send Right Enter
wait_for "describe claim team-b/vllm-serve-0-gpu"
send Escape Right Enter
wait_for "describe claim team-b/jupyter-bob-gpu-cr4j2"
send Escape y
wait_for "yaml claim team-b/jupyter-bob-gpu-cr4j2"
send Escape
# A free static-MIG instance describes its device.
send End
wait_for "gpus[32]"
type_text ":gpus"
send Enter
send /
type_text "gpu-node-3"
send Enter
wait_for "gpus[8/32]"
send g j j Right Enter
wait_for "describe device gpu.nvidia.com/gpu-node-3/gpu-1-mig-4g40gb"
send Escape
# w on the map points to the claims view.
send w
wait_for "partitions on the map are allocated"
quit
