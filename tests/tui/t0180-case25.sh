#!/bin/sh
# Shared case 25 (list claims, show the allocated devices): the claims
# list of the UI shows each claim's device, node and pod as
# expect.json says, and the pending claim none; Enter on it tells its
# allocation in the describe text.  At 160 columns every cell fits
# whole (at 120 the DEVICES cell is cut, and describe has it).
. "$(dirname "$0")/lib.sh"

case25=$SRC/../shared/cases/25-list-claims-show-allocated-devices/input.yaml
[ -r "$case25" ] || fail "shared case 25 not found: $case25"

start -x 160 ui claims -n serving --from "$case25"
wait_for "claims(serving)[3]"
# A claim's row, its cells squeezed to one blank each.
row() {
	$TMUX_CMD capture-pane -p | sed 's/  */ /g' | grep "^$1 "
}
check_row() {
	got=$(row "$1")
	[ "$got" = "$2" ] || fail "row $1: got '$got', expected '$2'"
}
check_row blocker "blocker allocated,reserved gpu.example.com x1 gpu.example.com/node-a/gpu-0 node-a pod/blocker-pod <unknown>"
check_row worker-0-gpu-x7k2p "worker-0-gpu-x7k2p allocated,reserved gpu.example.com x1 gpu.example.com/node-a/gpu-1 node-a pod/worker-0 <unknown>"
check_row worker-1-gpu-q9m4d "worker-1-gpu-q9m4d pending gpu.example.com x1 - - - <unknown>"
# Enter on the second claim: its allocation, device by device.
send j
send Enter
wait_for "describe claim serving/worker-0-gpu-x7k2p"
expect "gpu.example.com/node-a/gpu-1"
send Escape
wait_for "claims(serving)[3]"
quit q
