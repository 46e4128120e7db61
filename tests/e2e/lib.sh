# shellcheck shell=bash
# Sourced by the tests/e2e/tNNNN-*.sh scripts.  ctest (tests/e2e/
# CMakeLists.txt) sets:
#   DRA_SRC          the source tree
#   DRA_CLUSTER_DIR  the e2e cluster's state dir (admin.kubeconfig, ...)
#   DRA_PORT_BASE    its ports
#   DRA_PLUGIN       the kubectl-dra binary under test
#   DRA_GEN          dra-gen-fleet
#   DRA_E2E_WORK     a scratch directory in the build tree
# Every `kubectl dra ...` goes through kubectl's plugin mechanism: the
# plugin's directory comes first on PATH, then the cached kubectl.
#
# A test reports each mismatch with fail/check_same and ends with
# `finish`: exit 0 when nothing failed, else 1 (and a marker that makes
# e2e/cluster-down print where the cluster's logs are).
set -u
export LC_ALL=C

: "${DRA_SRC:?run through ctest (DRA_SRC is not set)}"
: "${DRA_CLUSTER_DIR:?DRA_CLUSTER_DIR is not set}"
: "${DRA_PLUGIN:?DRA_PLUGIN is not set}"

# shellcheck source-path=SCRIPTDIR source=../cluster/lib.sh
. "$DRA_SRC/tests/cluster/lib.sh"

E2E_TEST=${0##*/}
E2E_TEST=${E2E_TEST%.sh}
KUBECONFIG=$W/admin.kubeconfig
PATH=$(dirname "$DRA_PLUGIN"):$DRA_BIN:$PATH
# One clock for every kubectl-dra run of a test, so AGE columns agree.
KUBECTL_DRA_NOW=${KUBECTL_DRA_NOW:-$(date +%s)}
export KUBECONFIG PATH KUBECTL_DRA_NOW
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

T=$(mktemp -d "${TMPDIR:-/tmp}/dra-e2e.XXXXXX")
e2e_cleanup_hooks=""
e2e_cleanup() {
	local h
	for h in $e2e_cleanup_hooks; do "$h" || true; done
	rm -rf "$T"
}
trap e2e_cleanup EXIT

failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# check_same WHAT EXPECTED_FILE GOT_FILE: the files must be equal.
check_same() {
	if ! cmp -s "$2" "$3"; then
		echo "FAIL: $1 (--- expected, +++ got):"
		diff -u "$2" "$3" | sed -n '3,120p'
		failures=$((failures + 1))
		return 1
	fi
	return 0
}

# run NAME CMD...: run CMD with its output in $T/NAME.out and its errors
# in $T/NAME.err; when it fails, that counts as a failure and shows
# its stderr.  Returns CMD's status.
run() {
	local name=$1 rc=0
	shift
	"$@" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	if [ "$rc" != 0 ]; then
		fail "'$*' exited with $rc"
		sed -n '1,20p' "$T/$name.err"
	fi
	return "$rc"
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$E2E_TEST: $failures failure(s)"
		echo "$E2E_TEST" >>"$W/e2e-failed"
		echo "cluster logs: $LOGS"
		exit 1
	fi
	echo "$E2E_TEST: PASS"
	exit 0
}

# The plugin must be the one under test, found by kubectl itself.
[ "$(command -v kubectl-dra)" = "$DRA_PLUGIN" ] ||
	{ echo "kubectl-dra on PATH is $(command -v kubectl-dra), not $DRA_PLUGIN"; exit 1; }
[ -s "$KUBECONFIG" ] || { echo "no $KUBECONFIG: e2e/cluster-up did not run"; exit 1; }

# table_tsv < TABLE: a kubectl-style table (columns padded to the start
# of the next header) as tab-separated fields, the header line first.
# Cells may contain single spaces ("gpu.nvidia.com x2, nic x1"), so the
# columns are cut where the header words start, not at blanks.
table_tsv() {
	awk '
	NR == 1 {
		n = 0; pos = 1
		while (match(substr($0, pos), /[^ ]+/)) {
			st[++n] = pos + RSTART - 1
			pos = st[n] + RLENGTH
		}
	}
	{
		out = ""
		for (i = 1; i <= n; i++) {
			if (i < n)
				c = substr($0, st[i], st[i + 1] - st[i])
			else
				c = substr($0, st[i])
			sub(/ +$/, "", c)
			out = out (i > 1 ? "\t" : "") c
		}
		print out
	}'
}

# columns COL... < TSV: those columns (by header name) of table_tsv's
# output, without the header.
columns() {
	awk -F '\t' -v want="$*" '
	NR == 1 {
		nw = split(want, w, " ")
		for (i = 1; i <= NF; i++) col[$i] = i
		for (j = 1; j <= nw; j++)
			if (!(w[j] in col)) { print "no column " w[j] > "/dev/stderr"; exit 2 }
		next
	}
	{
		out = ""
		for (j = 1; j <= nw; j++) out = out (j > 1 ? "\t" : "") $(col[w[j]])
		print out
	}'
}

# json_paths < JSON: one "path<TAB>value" line per scalar, paths as
# status.layout[1].gpus[0].name.  With -v want=PATH: the raw JSON text
# of the value at PATH instead.  No python or jq (tests/cluster/load).
# shellcheck disable=SC2016
json_awk='
{ s = s $0 "\n" }
END {
	n = length(s); p = 1
	val("")
	ws()
	if (p <= n) bad("trailing text")
}
function bad(m) { printf "json: %s at offset %d\n", m, p > "/dev/stderr"; exit 2 }
function ws() { while (p <= n && index(" \t\r\n", substr(s, p, 1)) > 0) p++ }
function hexval(h,   i, v) {
	v = 0
	for (i = 1; i <= 4; i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
	return v
}
function str(   c, o, v) {
	if (substr(s, p, 1) != "\"") bad("expected a string")
	p++; o = ""
	while (p <= n) {
		c = substr(s, p, 1)
		if (c == "\"") { p++; return o }
		if (c == "\\") {
			c = substr(s, p + 1, 1)
			if (c == "u") {
				v = hexval(substr(s, p + 2, 4))
				o = o ((v >= 32 && v < 127) ? sprintf("%c", v) : "\\u" substr(s, p + 2, 4))
				p += 6
				continue
			}
			if (c == "n" || c == "t" || c == "r" || c == "b" || c == "f") o = o "\\" c
			else o = o c
			p += 2
			continue
		}
		o = o c; p++
	}
	bad("unterminated string")
}
function val(path,   c, k, i, start, v) {
	ws(); start = p; c = substr(s, p, 1)
	if (c == "{") {
		p++; ws()
		if (substr(s, p, 1) == "}") p++
		else for (;;) {
			ws(); k = str(); ws()
			if (substr(s, p, 1) != ":") bad("expected :")
			p++
			val(path == "" ? k : path "." k)
			ws(); c = substr(s, p++, 1)
			if (c == "}") break
			if (c != ",") bad("expected , or }")
		}
	} else if (c == "[") {
		p++; ws(); i = 0
		if (substr(s, p, 1) == "]") p++
		else for (;;) {
			val(path "[" i++ "]")
			ws(); c = substr(s, p++, 1)
			if (c == "]") break
			if (c != ",") bad("expected , or ]")
		}
	} else {
		if (c == "\"") v = str()
		else if (match(substr(s, p, 64), /^(-?[0-9][-+0-9.eE]*|true|false|null)/)) {
			v = substr(s, p, RLENGTH); p += RLENGTH
		} else bad("unexpected character")
		if (want == "") print path "\t" v
	}
	if (want != "" && path == want) print substr(s, start, p - start)
}'
json_paths() { awk "$json_awk"; }
json_raw() { awk -v want="$2" "$json_awk" "$1"; }
# jv PATHS KEY: the value of KEY in json_paths output ("" when absent).
jv() { awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$1"; }
