#!/bin/sh
# run.sh CASE: run one CLI test case of tests/cli/cases/CASE.
#
# A case is a directory holding:
#   cmd          a sh snippet run in a fresh temporary directory; $DRA is
#                the kubectl-dra binary, $CASES the shared cases
#                folder, $DATA tests/cli/data, $T the temporary directory,
#                $GEN the fleet generator (may be empty)
#   stdout       the exact expected standard output (optional)
#   stderr       the exact expected standard error (optional)
#   stderr.grep  lines that must each appear in standard error (optional)
#   exit         the expected exit status (default 0)
# KUBECTL_DRA_NOW pins the clock so ages are reproducible, and KUBECONFIG
# points nowhere so no user configuration leaks in.
set -u

case_name=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/cases/$case_name
: "${DRA:?DRA must name the kubectl-dra binary}"
: "${CASES:?CASES must name the shared cases folder}"
DATA=$here/data
GEN=${GEN:-}
if [ ! -f "$dir/cmd" ]; then
	echo "run.sh: no such case: $case_name" >&2
	exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/dra-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
export DRA CASES DATA T GEN
export KUBECTL_DRA_NOW=1764460800	# 2025-11-30T00:00:00Z
export KUBECONFIG=/nonexistent/kubeconfig
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

(cd "$T" && sh -e "$dir/cmd") >"$T/.stdout" 2>"$T/.stderr"
rc=$?
want_rc=0
[ -f "$dir/exit" ] && want_rc=$(cat "$dir/exit")

fail=0
if [ "$rc" != "$want_rc" ]; then
	echo "FAIL $case_name: exit status $rc, want $want_rc"
	fail=1
fi
if [ -f "$dir/stdout" ] && ! cmp -s "$dir/stdout" "$T/.stdout"; then
	echo "FAIL $case_name: standard output differs (- want, + got):"
	diff -u "$dir/stdout" "$T/.stdout" | sed -n '3,60p'
	fail=1
fi
if [ -f "$dir/stderr" ] && ! cmp -s "$dir/stderr" "$T/.stderr"; then
	echo "FAIL $case_name: standard error differs (- want, + got):"
	diff -u "$dir/stderr" "$T/.stderr" | sed -n '3,60p'
	fail=1
fi
if [ -f "$dir/stderr.grep" ]; then
	while IFS= read -r line; do
		[ -z "$line" ] && continue
		if ! grep -qF -- "$line" "$T/.stderr"; then
			echo "FAIL $case_name: standard error lacks: $line"
			fail=1
		fi
	done <"$dir/stderr.grep"
fi
if [ "$fail" != 0 ]; then
	echo "--- standard error:"
	sed -n '1,30p' "$T/.stderr"
	exit 1
fi
echo "ok $case_name"
exit 0
