# lib.sh: what the terminal tests of `kubectl dra ui` share (sourced).
#
# Each test drives the UI through a private tmux server (tmux's own
# regress/ tests do the same): a fixed-size session runs the UI, keys
# go in with send-keys, and the screen is read back with capture-pane
# until the expected text appears (polled, capped at $TUI_WAIT seconds,
# never a bare sleep).  The UI runs under sh so its exit status and
# its stderr (replayed after the screen closes) are kept in $T; `quit`
# checks both, so a leak report of the sanitizer build fails a test.
#
# Environment (ctest sets it): DRA, the kubectl-dra binary; SRC, the
# source tree.
set -u

: "${DRA:?DRA must name the kubectl-dra binary}"
: "${SRC:?SRC must name the source tree}"
EXAMPLE=$SRC/examples/cluster.yaml
TUI_WAIT=${TUI_WAIT:-20}
export LC_ALL=C.UTF-8
# Reproducible ages: 2026-11-30T00:53:20Z, 8h after the example's
# objects were made.
export KUBECTL_DRA_NOW=1796000000
export KUBECONFIG=/nonexistent/kubeconfig
unset NO_COLOR

T=$(mktemp -d "${TMPDIR:-/tmp}/dra-tui.XXXXXX") || exit 1
# The servers' sockets go with the test's directory.
export TMUX_TMPDIR=$T
unset TMUX
# Each start gets its own server (dra$$-N), so a server still exiting
# cannot be mistaken for the next one.
NSTARTS=0
SOCK=dra$$-0
TMUX_CMD="tmux -L $SOCK -f /dev/null"
trap '$TMUX_CMD kill-server 2>/dev/null; rm -rf "$T"' EXIT INT TERM

# fail MESSAGE: print the screen and the UI's stderr, exit 1.
fail() {
	echo "FAIL: $*"
	echo "--- screen"
	$TMUX_CMD capture-pane -p 2>/dev/null
	echo "--- stderr"
	cat "$T/stderr" 2>/dev/null
	exit 1
}

# start [-x COLS] [-y LINES] [-e VAR=VALUE]... ARGS...: run
# "kubectl-dra ARGS" in a new server and session of COLS x LINES
# (120 x 40); the server of an earlier start is killed.
start() {
	$TMUX_CMD kill-server 2>/dev/null
	NSTARTS=$((NSTARTS + 1))
	SOCK=dra$$-$NSTARTS
	TMUX_CMD="tmux -L $SOCK -f /dev/null"
	rm -f "$T/rc" "$T/stderr"
	cols=120
	lines=40
	envs=""
	while [ $# -gt 0 ]; do
		case $1 in
		-x) cols=$2; shift 2 ;;
		-y) lines=$2; shift 2 ;;
		-e) envs="$envs $2"; shift 2 ;;
		*) break ;;
		esac
	done
	{
		echo "cd '$T' || exit 1"
		# ctrl-c reaches the shell too: it must wait for the UI.
		echo "trap : INT"
		printf 'env TERM=screen%s' "$envs"
		printf " '%s'" "$DRA" "$@"
		echo " 2>'$T/stderr'"
		echo "echo \$? >'$T/rc'"
		# Keep the pane open so the last screen can be read.
		echo "exec sleep 600"
	} >"$T/run.sh"
	$TMUX_CMD new-session -d -x "$cols" -y "$lines" "sh '$T/run.sh'" ||
	    fail "cannot start tmux"
}

# screen [-e]: the visible screen (-e: with attributes).
screen() {
	$TMUX_CMD capture-pane -p "$@"
}

# send KEY...: tmux send-keys (key names as tmux spells them).
send() {
	$TMUX_CMD send-keys "$@"
}

# type TEXT: the characters of TEXT, literally.
type_text() {
	$TMUX_CMD send-keys -l "$1"
}

# wait_for TEXT: poll until TEXT (fixed string) is on the screen.
wait_for() {
	i=0
	while [ $i -lt $((TUI_WAIT * 10)) ]; do
		screen | grep -F -q -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "\"$1\" did not appear within ${TUI_WAIT}s"
}

# wait_gone TEXT: poll until TEXT is no longer on the screen.
wait_gone() {
	i=0
	while [ $i -lt $((TUI_WAIT * 10)) ]; do
		screen | grep -F -q -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "\"$1\" did not go away within ${TUI_WAIT}s"
}

# expect TEXT: TEXT is on the screen now.
expect() {
	screen | grep -F -q -- "$1" || fail "\"$1\" is not on the screen"
}

# expect_not TEXT: TEXT is not on the screen now.
expect_not() {
	screen | grep -F -q -- "$1" && fail "\"$1\" is on the screen"
	return 0
}

# line N: line N (0-based) of the screen.
line() {
	screen | sed -n "$(($1 + 1))p"
}

# quit [KEYS]: quit the UI (q, or KEYS) and check that it exited 0
# with nothing on stderr.
quit() {
	send "${1:-q}"
	i=0
	while [ ! -s "$T/rc" ] && [ $i -lt $((TUI_WAIT * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$T/rc" ] || fail "the UI did not exit"
	rc=$(cat "$T/rc")
	[ "$rc" = 0 ] || fail "the UI exited $rc"
	[ -s "$T/stderr" ] && fail "the UI wrote to stderr"
	return 0
}
