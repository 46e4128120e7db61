#!/bin/sh
# ? lists every key, generated from the key tables, and the views and
# commands; it scrolls and searches like the other texts; Esc returns.
. "$(dirname "$0")/lib.sh"

start ui claims --from "$EXAMPLE"
wait_for "claims(all)[13]"
send ?
wait_for "Keys everywhere"
expect "claims  ›  help"
expect "ctrl-r                 refresh: read the data again"
expect "Esc, Backspace         back (clears the filter first)"
expect "Enter, d               describe the selected object"
expect "y                      its YAML"
expect "w                      why: explain a pending claim"
# Further down: the GPU keys, the views, the commands.
send /
type_text "Commands"
send Enter
wait_for ":ns [NAME|-]"
# In the columns of the keys.
expect "   :gpus                  also :gpu, :map"
expect "   :templates             also :template, :rct"
expect ":why KIND/NAME         why a claim, pod or template (KIND) gets its devices or not"
send /
send C-u
type_text "previous partition"
send Enter
wait_for "Left, h                previous partition of the GPU"
send G
wait_for "Colours: utilization green below the 80% target"
send Escape Escape
wait_for "claims(all)[13]"
expect_not "Keys everywhere"
# :help does the same.
type_text ":help"
send Enter
wait_for "Keys everywhere"
send q
wait_for "claims(all)[13]"
quit
