#!/bin/sh
# Command mode: view names and aliases, completion, :ns, unknown
# commands with a suggestion, :ctx on a file, :q.
. "$(dirname "$0")/lib.sh"

start ui --from "$EXAMPLE"
wait_for "gpus[32]"
type_text ":dev"
send Tab
wait_for ":devices"
send Enter
wait_for "devices[258]"
# Candidates are listed when the prefix is ambiguous.
type_text ":cl"
send Tab
wait_for "claims classes"
send Escape
wait_gone "claims classes"
# Aliases and kubectl's spellings.
type_text ":rc"
send Enter
wait_for "claims(all)[13]"
type_text ":resourceslices"
send Enter
wait_for "slices["
# A namespace: the header, the title and the rows follow it.
type_text ":claims team-a"
send Enter
wait_for "claims(team-a)[4]"
expect "Namespace: team-a   Claims: 4 (1 pending)"
expect_not "jupyter-bob"
type_text ":ns"
send Tab
wait_for ":ns"
type_text "team-"
send Tab
wait_for "team-a team-b team-c"
send C-u
type_text "ns team-b"
send Enter
wait_for "claims(team-b)[5]"
type_text ":ns -"
send Enter
wait_for "claims(all)[13]"
expect "namespace: all namespaces"
# Mistakes.
type_text ":claimz"
send Enter
wait_for "unknown command \":claimz\"; did you mean \":claims\"?"
type_text ":ctx"
send Enter
wait_for "contexts: not available when reading a file (--from)"
# A namespace without objects: taken, and said.
type_text ":ns team-d"
send Enter
wait_for 'namespace: team-d (no objects in namespace team-d; did you mean "team-a"?)'
expect "claims(team-d)[0]"
type_text ":ns -"
send Enter
wait_for "claims(all)[13]"
# Esc leaves command mode without running anything.
type_text ":devices"
send Escape
wait_for "claims(all)[13]"
type_text ":q"
quit Enter
