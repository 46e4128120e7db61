#!/bin/sh
# Enter describes, y shows YAML (searchable with / n N), on claims,
# devices, pools, nodes and quotas; objects without a describe text
# show YAML; long lines scroll sideways.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
send /
type_text "vllm"
send Enter
wait_for "claims(all)[1/13]"
send Enter
wait_for "describe claim team-b/vllm-serve-0-gpu"
expect "Name:                vllm-serve-0-gpu"
expect "Namespace:           team-b"
send Escape y
wait_for "yaml claim team-b/vllm-serve-0-gpu"
expect "apiVersion: resource.k8s.io/v1"
expect "kind: ResourceClaim"
# Search in the text.
send /
type_text "deviceClassName"
send Enter
wait_for "[/deviceClassName]"
send n
send Escape
wait_for "yaml claim team-b/vllm-serve-0-gpu"
send Escape
wait_for "claims(all)[1/13] </vllm>"
# A device.
type_text ":devices"
send Enter
wait_for "devices[258]"
send Enter
wait_for "describe device gpu.nvidia.com/gpu-node-1/gpu-0"
send Escape y
wait_for "yaml device gpu.nvidia.com/gpu-node-1/gpu-0"
expect "kind: Device"
send Escape
# A pool and a node.
type_text ":pools"
send Enter
wait_for "pools[5]"
send Enter
wait_for "describe pool gpu.nvidia.com/gpu-node-1"
send Escape
type_text ":nodes"
send Enter
wait_for "nodes["
send Enter
wait_for "describe node gpu-node-1"
send Escape
# A class has no describe text: Enter shows its YAML.
type_text ":classes"
send Enter
wait_for "classes["
send Enter
wait_for "kind: DeviceClass"
# Scrolling a long text.
type_text ":slices"
send Enter
send Enter
wait_for "kind: ResourceSlice"
send End
wait_for "slices  ›  describe"
expect_not "kind: ResourceSlice"
send Home
wait_for "kind: ResourceSlice"
send Escape
# Quotas: a row per quota and DRA key; Enter describes the quota.
type_text ":quotas"
send Enter
wait_for "quotas(all)[9]"
expect "team-a     gpu-quota  gpu.nvidia.com.deviceclass.resource.k8s.io/devices    12    12  100%"
send j Enter
wait_for "describe quota team-a/gpu-quota"
expect "gpu.nvidia.com.deviceclass.resource.k8s.io/devices  12    12    100%"
send Escape
# Long lines scroll sideways.
type_text ":claims /llm-pretrain"
send Enter
wait_for "claims(all)[1/13]"
send Enter
wait_for "describe claim team-a/llm-pretrain-0-gpus"
expect_not "Preemption is not helpful"
send Right Right Right Right Right Right
wait_for "Preemption is not helpful for scheduling."
send Left Left Left Left Left Left
wait_for " Name:                llm-pretrain-0-gpus"
quit C-c
