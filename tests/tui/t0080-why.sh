#!/bin/sh
# w on a pending claim explains it (views/why.c, as `kubectl dra why`);
# on an allocated one it says so; :why names a pod or a template.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
send /
type_text "llm-pretrain"
send Enter
wait_for "claims(all)[1/13]"
send w
wait_for "why claim team-a/llm-pretrain-0-gpus"
expect "ResourceClaim team-a/llm-pretrain-0-gpus"
expect "Verdict:   not allocatable now; allocatable once team-b/jupyter-bob-gpu-cr4j2 and team-b/vllm-serve-0-gpu"
expect "Nodes:     4 considered, 0 fit"
expect "claims  ›  why"
send Escape Escape
wait_for "claims(all)[13]"
# An allocated claim (the first).
send g w
wait_for "claim team-a/ddp-trainer-0-gpus is allocated: nothing to explain"
# A pod by name.
type_text ":why pod/whisper-asr-0"
send Enter
wait_for "why pod team-b/whisper-asr-0"
expect "Pod team-b/whisper-asr-0"
expect "Verdict:"
send Escape
type_text ":why claim/nosuch"
send Enter
wait_for "why: claim \"nosuch\" not found"
# A template, as kubectl dra why template/NAME: a new claim from it.
type_text ":why template/gpu-template"
send Enter
wait_for "why: template \"gpu-template\" is in several namespaces; name it as template/NAMESPACE/NAME or set :ns"
type_text ":why template/team-a/gpu-template"
send Enter
wait_for "why template team-a/gpu-template"
expect "ResourceClaimTemplate team-a/gpu-template (a new claim from it)"
expect "Verdict:   allocatable now: 3 of 4 nodes fit, first gpu-node-1"
expect "team-a/gpu-template request gpu: gpu.nvidia.com/gpu-node-1/gpu-6"
send Escape
type_text ":ns team-c"
send Enter
type_text ":why templates/mig-2g20gb-template"
send Enter
wait_for "why template team-c/mig-2g20gb-template"
send Escape
type_text ":why node/x"
send Enter
wait_for "why: name claim/NAME, pod/NAME or template/NAME"
quit
