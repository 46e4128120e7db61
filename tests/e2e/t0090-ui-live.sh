#!/usr/bin/env bash
# t0090-ui-live: `kubectl dra ui` on the real control plane, in tmux
# (a private server, 160x45), with the live source of kubectl-dra/
# live.c (list, then watch):
#   - a ResourceClaim created with kubectl while the UI runs appears in
#     the claims view, and disappears once deleted (polled, 20 s cap;
#     the times are printed);
#   - the UI talks to the API server through tcp_relay; killing the
#     relay breaks every watch: the header turns from LIVE to STALE and
#     the status line says why, without a crash; a claim created
#     meanwhile appears once the relay is back (list again, watch
#     again) and the header says LIVE;
#   - the server hangs (the relay stopped with SIGSTOP: connections stay
#     open, nothing answers): STALE within 20 s with "does not answer"
#     (the times are printed), ctrl-r meanwhile gives an answer, not an
#     endless "refreshing"; a claim created meanwhile appears once the
#     relay runs again, LIVE;
#   - :ctx dead-ctx (a context whose server port is closed): at once the
#     header names dead-ctx, CONNECTING, no rows of the old context,
#     then the connection error on the status line; the contexts list
#     marks dead-ctx current; Enter on the first context switches back,
#     leaves the list for the claims view, whose claim comes back, LIVE;
#   - the namespace-limited user (limited.kubeconfig, -n team-a) sees
#     team-a's claims and a note that other lists were forbidden,
#     LIVE (partial);
#   - the same user without -n (the context's namespace, "default",
#     refuses everything): NO ACCESS and "nothing could be read";
#     :ns team-a lists team-a (its claims, LIVE (partial)), :ns team-b
#     says team-b is forbidden, :ns alone goes back to nothing;
#   - q quits with status 0 and nothing on stderr.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

command -v tmux >/dev/null || { fail "no tmux"; finish; }
relay=${DRA_TCP_RELAY:-$(dirname "$DRA_PLUGIN")/../tests/unit/client/tcp_relay}
[ -x "$relay" ] || { fail "no tcp_relay at $relay (DRA_TCP_RELAY)"; finish; }

# Ages on the screen run on the real clock.
unset KUBECTL_DRA_NOW
export TMUX_TMPDIR=$T LC_ALL=C.UTF-8
unset TMUX
# A server per start (dra$$-N): one still exiting is never the next.
nstarts=0
tm() { tmux -L "dra$$-$nstarts" -f /dev/null "$@"; }
ns=ui-live-$$
relay_pid=""
cleanup() {
	tm kill-server 2>/dev/null
	[ -n "$relay_pid" ] && kill -CONT "$relay_pid" 2>/dev/null
	[ -n "$relay_pid" ] && kill "$relay_pid" 2>/dev/null
	kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
	return 0
}
e2e_cleanup_hooks="$e2e_cleanup_hooks cleanup"

ms() { date +%s%3N; }

# start_ui ARGS...: kubectl dra ARGS in a new session; its stderr goes
# to $T/ui.err and its exit status to $T/ui.rc.
start_ui() {
	tm kill-server 2>/dev/null
	nstarts=$((nstarts + 1))
	rm -f "$T/ui.rc" "$T/ui.err"
	{
		printf 'env TERM=screen kubectl dra'
		printf " '%s'" "$@"
		echo " 2>'$T/ui.err'"
		echo "echo \$? >'$T/ui.rc'"
		echo "exec sleep 600"
	} >"$T/ui.sh"
	tm new-session -d -x 160 -y 45 "bash '$T/ui.sh'"
}

screen() { tm capture-pane -p 2>/dev/null; }

# wait_for TEXT [SECONDS]: poll the screen until it shows TEXT (a
# fixed string); 1 after SECONDS (20).
wait_for() {
	local i
	for ((i = 0; i < ${2:-20} * 10; i++)); do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT.
wait_gone() {
	local i
	for ((i = 0; i < ${2:-20} * 10; i++)); do
		screen | grep -qF -- "$1" || return 0
		sleep 0.1
	done
	return 1
}

show_screen() {
	echo "--- screen"
	screen
	echo "--- stderr"
	cat "$T/ui.err" 2>/dev/null
}

# quit_ui: q, then the UI must have exited 0 with nothing on stderr.
quit_ui() {
	local i
	tm send-keys q
	for ((i = 0; i < 200; i++)); do
		[ -s "$T/ui.rc" ] && break
		sleep 0.1
	done
	[ "$(cat "$T/ui.rc" 2>/dev/null)" = 0 ] ||
		{ fail "$1: ui did not exit 0 on q (status $(cat "$T/ui.rc" 2>/dev/null))"; show_screen; }
	[ ! -s "$T/ui.err" ] ||
		{ fail "$1: ui wrote to stderr:"; sed -n 1,20p "$T/ui.err"; }
}

claim() {
	cat <<YAML
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: $1
  namespace: $ns
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
YAML
}

# ---- the relay in front of the API server --------------------------------
api_port=$API_PORT
"$relay" "$api_port" "$T/relay.port" 2>"$T/relay.err" &
relay_pid=$!
for ((i = 0; i < 100; i++)); do [ -s "$T/relay.port" ] && break; sleep 0.1; done
port=$(cat "$T/relay.port" 2>/dev/null)
[ -n "$port" ] || { fail "tcp_relay did not start: $(cat "$T/relay.err")"; finish; }
server=https://127.0.0.1:$port

run ns kubectl create namespace "$ns" || finish

# ---- a claim appears and disappears --------------------------------------
# -n: the test's namespace only, whatever else the cluster holds
start_ui ui claims -n "$ns" --server "$server"
if ! wait_for "claims($ns)[0]" 30 || ! wait_for "LIVE" 5; then
	fail "ui claims did not come up LIVE"
	show_screen
	finish
fi
screen | grep -qF "context " || fail "the header does not name the context"

claim live-a | kubectl apply -f - >/dev/null || fail "cannot create claim live-a"
t0=$(ms)
if wait_for "live-a"; then
	echo "t0090: created claim on screen after $(($(ms) - t0)) ms"
	screen | grep -Eq "^ *live-a +pending" ||
		{ fail "the row of live-a is not 'live-a pending ...'"; show_screen; }
	screen | grep -qF "claims($ns)[1]" ||
		{ fail "the title does not count 1 claim"; show_screen; }
else
	fail "claim live-a did not appear within 20 s"
	show_screen
fi
kubectl delete resourceclaim -n "$ns" live-a >/dev/null || fail "cannot delete live-a"
t0=$(ms)
if wait_gone "live-a"; then
	echo "t0090: deleted claim off screen after $(($(ms) - t0)) ms"
else
	fail "claim live-a did not disappear within 20 s"
	show_screen
fi

# ---- the watches break: STALE, then back -----------------------------------
kill "$relay_pid"
wait "$relay_pid" 2>/dev/null
relay_pid=""
t0=$(ms)
if wait_for "STALE" 30; then
	echo "t0090: STALE shown $(($(ms) - t0)) ms after the connections were cut"
	screen | grep -Eq "next try in [0-9]+ s" ||
		{ fail "the status line does not say when the next try is"; show_screen; }
else
	fail "the header did not turn STALE when the connections were cut"
	show_screen
fi
claim live-b | kubectl apply -f - >/dev/null || fail "cannot create claim live-b"
"$relay" -p "$port" "$api_port" "$T/relay2.port" 2>"$T/relay.err" &
relay_pid=$!
t0=$(ms)
# the backoff has grown to at most 2 s + 4 s + ... by now: 45 s cap
if wait_for "live-b" 45 && wait_gone "STALE" 45 &&
    wait_for "claims($ns)[1]" 5; then
	echo "t0090: LIVE again with the new claim $(($(ms) - t0)) ms after the relay came back"
	wait_for "LIVE" 5 || { fail "no LIVE after recovery"; show_screen; }
else
	fail "no recovery after the relay came back (live-b listed, STALE gone)"
	show_screen
fi

# ---- the server hangs: STALE, then back ------------------------------------
# A stopped relay is a server that hangs: the kernel keeps accepting and
# acknowledging, nothing answers, no connection closes.
kill -STOP "$relay_pid"
t0=$(ms)
if wait_for "STALE" 30; then
	echo "t0090: STALE shown $(($(ms) - t0)) ms after the server stopped answering"
	wait_for "does not answer" 10 ||
		{ fail "hang: the status line does not say the server does not answer"; show_screen; }
	# ctrl-r on a server that hangs: an answer, not "refreshing" for good
	tm send-keys C-r
	t0=$(ms)
	if wait_for "refreshing" 5 && wait_gone "refreshing" 30; then
		echo "t0090: ctrl-r on the hung server answered after $(($(ms) - t0)) ms"
		screen | grep -qF "STALE" || { fail "hang: not STALE after ctrl-r"; show_screen; }
	else
		fail "hang: ctrl-r left 'refreshing' on the status line"
		show_screen
	fi
else
	fail "the header did not turn STALE when the server stopped answering"
	show_screen
fi
claim live-c | kubectl apply -f - >/dev/null || fail "cannot create claim live-c"
kill -CONT "$relay_pid"
t0=$(ms)
if wait_for "live-c" 45 && wait_gone "STALE" 45 && wait_for "LIVE" 5; then
	echo "t0090: LIVE again with the new claim $(($(ms) - t0)) ms after the server answered again"
	screen | grep -qF "claims($ns)[2]" || { fail "hang: not 2 claims after recovery"; show_screen; }
else
	fail "no recovery after the server answered again (live-c listed, LIVE)"
	show_screen
fi
quit_ui "admin"

# ---- contexts: an unreachable one, and back --------------------------------
ck=$T/ctx.kubeconfig
cp "$W/admin.kubeconfig" "$ck"
kc() { kubectl --kubeconfig "$ck" "$@" >/dev/null; }
ctx0=$(kubectl --kubeconfig "$ck" config current-context)
cl0=$(kubectl --kubeconfig "$ck" config view -o jsonpath="{.contexts[?(@.name==\"$ctx0\")].context.cluster}")
us0=$(kubectl --kubeconfig "$ck" config view -o jsonpath="{.contexts[?(@.name==\"$ctx0\")].context.user}")
# the first context goes through the relay; dead-ctx to a closed port
kc config set-cluster "$cl0" --server "$server"
kc config set-cluster dead --server https://127.0.0.1:1
kc config set-context dead-ctx --cluster dead --user "$us0"
start_ui ui claims -n "$ns" --kubeconfig "$ck"
if wait_for "claims($ns)[2]" 30 && wait_for "LIVE" 10; then
	tm send-keys : ctx Space dead-ctx Enter
	t0=$(ms)
	if wait_for "context dead-ctx" 5; then
		echo "t0090: the header named dead-ctx after $(($(ms) - t0)) ms"
		screen | grep -qF "CONNECTING" ||
			{ fail "ctx: the header does not say CONNECTING"; show_screen; }
		screen | grep -qF "claims($ns)[0]" ||
			{ fail "ctx: rows of the old context under dead-ctx"; show_screen; }
		screen | grep -qF "live-b" &&
			{ fail "ctx: claim live-b of the old context under dead-ctx"; show_screen; }
	else
		fail "ctx: the header did not name dead-ctx at once"
		show_screen
	fi
	if wait_for "cannot reach context \"dead-ctx\"" 20; then
		screen | grep -Eq "next try in [0-9]+ s" ||
			{ fail "ctx: the error does not say when the next try is"; show_screen; }
	else
		fail "ctx: no connection error for dead-ctx"
		show_screen
	fi
	tm send-keys : ctx Enter
	if wait_for "contexts[" 5; then
		screen | grep -Eq "^ *\* +dead-ctx" ||
			{ fail "ctx: the contexts list does not mark dead-ctx current"; show_screen; }
		screen | grep -Eq "^ *\* +$ctx0" &&
			{ fail "ctx: the contexts list still marks $ctx0 current"; show_screen; }
		# the first row is the first context: Enter switches to it
		tm send-keys g Enter
		if wait_for "context $ctx0" 10 && wait_for "claims($ns)[2]" 30 &&
		    wait_for "LIVE" 10; then
			screen | grep -qF "contexts[" &&
				{ fail "ctx: still in the contexts list after Enter"; show_screen; }
			screen | grep -Eq "^ *live-b +pending" ||
				{ fail "ctx: claim live-b not back"; show_screen; }
		else
			fail "ctx: no switch back to $ctx0 with its claims"
			show_screen
		fi
		tm send-keys : ctx Enter
		wait_for "contexts[" 5 && { screen | grep -Eq "^ *\* +$ctx0" ||
			{ fail "ctx: $ctx0 not marked current after the switch back"; show_screen; }; }
		tm send-keys Escape
	else
		fail "ctx: no contexts list"
		show_screen
	fi
else
	fail "ctx: ui claims did not come up LIVE with the two claims"
	show_screen
fi
quit_ui "contexts"

# ---- the namespace-limited user ------------------------------------------
lk=$W/limited.kubeconfig
if [ -s "$lk" ]; then
	start_ui ui claims -n team-a --kubeconfig "$lk"
	if wait_for "claims(" 30 && wait_for "forbidden" 10; then
		n=$(kubectl get resourceclaims -n team-a --no-headers | wc -l)
		wait_for "[$n]" 10 || { fail "limited user: not the $n claims of team-a"; show_screen; }
		screen | grep -qF "showing what could be read" ||
			{ fail "limited user: no note on what could be read"; show_screen; }
		screen | grep -qF "LIVE (partial)" ||
			{ fail "limited user: not LIVE (partial)"; show_screen; }
	else
		fail "limited user: no claims view with a forbidden note"
		show_screen
	fi
	quit_ui "limited user"

	# without -n: the context's namespace ("default") is refused too
	na=$(kubectl get resourceclaims -n team-a --no-headers | wc -l)
	start_ui ui claims --kubeconfig "$lk"
	if wait_for "claims(all)[0]" 30 && wait_for "nothing could be read" 10; then
		screen | grep -qF "in namespace \"default\"; :ns NAME lists another namespace" ||
			{ fail "limited, no -n: the note does not name default nor :ns"; show_screen; }
		screen | grep -qF "NO ACCESS" ||
			{ fail "limited, no -n: the header does not say NO ACCESS"; show_screen; }
		tm send-keys : ns Space team-a Enter
		t0=$(ms)
		if wait_for "claims(team-a)[$na]" 20; then
			echo "t0090: limited user, :ns team-a: $na claims after $(($(ms) - t0)) ms"
			wait_for "LIVE (partial)" 5 ||
				{ fail "limited, :ns team-a: not LIVE (partial)"; show_screen; }
			screen | grep -qF "beyond namespace \"team-a\"" ||
				{ fail "limited, :ns team-a: no note on what was refused"; show_screen; }
		else
			fail "limited, :ns team-a: not the $na claims of team-a"
			show_screen
		fi
		tm send-keys : ns Space team-b Enter
		wait_for "in namespace \"team-b\"; :ns" 20 ||
			{ fail "limited, :ns team-b: no note that team-b is forbidden"; show_screen; }
		wait_for "claims(team-b)[0]" 5 ||
			{ fail "limited, :ns team-b: not 0 claims"; show_screen; }
		tm send-keys : ns Enter
		if wait_for "in namespace \"default\"; :ns" 20; then
			wait_for "claims(all)[0]" 5 ||
				{ fail "limited, :ns: not 0 claims"; show_screen; }
		else
			fail "limited, :ns: not back to the context's namespace"
			show_screen
		fi
	else
		fail "limited, no -n: no claims view saying nothing could be read"
		show_screen
	fi
	quit_ui "limited user without -n"
else
	fail "no $lk (tests/cluster/up writes it)"
fi

finish
