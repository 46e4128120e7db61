#!/bin/sh
# The UI's -v log and its notes never show a credential: with a token
# and a password in the server URL of the kubeconfig, a server that
# does not answer is named by scheme, host and port only, at -v 9 too.
. "$(dirname "$0")/lib.sh"

cat >"$T/config" <<'YAML'
apiVersion: v1
kind: Config
current-context: c
contexts:
- name: c
  context: {cluster: k, user: u}
clusters:
- name: k
  cluster:
    server: https://alice:PASSWORD-SECRET@127.0.0.1:1
    insecure-skip-tls-verify: true
users:
- name: u
  user:
    token: TOKEN-SECRET
YAML
start -e KUBECONFIG="$T/config" ui -v 9
i=0
while [ ! -s "$T/rc" ] && [ $i -lt $((TUI_WAIT * 10)) ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat "$T/rc")" = 1 ] || fail "ui exited $(cat "$T/rc")"
grep -q "GET https://127.0.0.1:1/apis/resource.k8s.io failed" "$T/stderr" ||
    fail "no -v log of the request"
grep -q "^kubectl-dra: error: get https://127.0.0.1:1/apis/resource.k8s.io: " \
    "$T/stderr" || fail "no error"
grep -q "SECRET" "$T/stderr" && fail "a credential on stderr"
exit 0
