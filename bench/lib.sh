# shellcheck shell=bash
# Shared helpers of bench/*.sh.  Sourced, not run.  Plain bash, awk and
# /usr/bin/time (GNU time: wall time and peak RSS); no python or jq.

bench_log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
bench_die() { bench_log "error: $*"; exit 1; }

# bench_need CMD...: fail early when a tool is missing.
bench_need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			bench_die "$c is missing (scripts/setup.sh installs what bench/ needs)"
	done
}

# bench_build ROOT DIR: configure and build kubectl-dra and dra-gen-fleet
# in DIR with the project's default build type (RelWithDebInfo: -O2 -g,
# the symbols keep perf profiles readable).
bench_build() {
	local root=$1 dir=$2
	bench_log "building $root in $dir"
	cmake -S "$root" -B "$dir" -DBUILD_TESTING=OFF >"$dir.cmake.log" 2>&1 ||
		{ cat "$dir.cmake.log" >&2; bench_die "cmake failed"; }
	cmake --build "$dir" -j "$(nproc)" --target kubectl-dra dra-gen-fleet \
		>"$dir.build.log" 2>&1 ||
		{ tail -n 40 "$dir.build.log" >&2; bench_die "build failed"; }
}

# bench_workdir NAME: the scratch directory into $dir: the one --dir
# named (created, made absolute), else a new dra-bench-NAME.XXXXXX under
# $TMPDIR.  Removing it at exit is the caller's (its trap).
bench_workdir() {
	if [ -z "$dir" ]; then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/dra-bench-$1.XXXXXX")
	else
		mkdir -p "$dir"
		dir=$(cd "$dir" && pwd)
	fi
}

# bench_binaries ROOT: the build tree into $build (ROOT built in
# $dir/build when --build named none), and the binaries the benchmarks
# run into $dra (kubectl-dra) and $gen (dra-gen-fleet).
bench_binaries() {
	if [ -z "$build" ]; then
		bench_need cmake
		build=$dir/build
		bench_build "$1" "$build"
	fi
	build=$(cd "$build" && pwd)
	dra=$build/kubectl-dra/kubectl-dra
	gen=$build/bench/gen/dra-gen-fleet
	[ -x "$dra" ] || bench_die "no $dra"
	[ -x "$gen" ] || bench_die "no $gen"
}

# bench_time RESULTS LABEL RUN OUT -- CMD...: run CMD once under
# /usr/bin/time, stdout to OUT (use /dev/null for timed runs; else its
# stderr is kept in OUT.err and its exit status in OUT.rc), and append
# "LABEL RUN WALL_S PEAK_RSS_KB USER_S SYS_S" to RESULTS.  A failing CMD
# stops the benchmark: a number from a failed run means nothing.  The
# exit statuses that count as success are the words of $bench_ok_rc
# (default 0): `bench_ok_rc="0 3" bench_time ...` for a command whose 3
# is a negative answer, not a failure.
bench_time() {
	local results=$1 label=$2 run=$3 out=$4 t rc=0
	shift 5
	t=$(mktemp "${TMPDIR:-/tmp}/bench-time.XXXXXX")
	/usr/bin/time -f '%e %M %U %S' -o "$t" "$@" >"$out" 2>"$t.err" || rc=$?
	case " ${bench_ok_rc:-0} " in
	*" $rc "*) ;;
	*)
		cat "$t.err" "$t" >&2
		rm -f "$t" "$t.err"
		bench_die "failed (exit $rc): $*"
		;;
	esac
	if [ "$out" != /dev/null ]; then
		cp "$t.err" "$out.err"
		echo "$rc" >"$out.rc"
	fi
	# GNU time writes its line last.
	printf '%s %s %s\n' "$label" "$run" "$(tail -n 1 "$t")" >>"$results"
	rm -f "$t" "$t.err"
}

# bench_stats RESULTS: one line per label,
#   LABEL N WALL_MEDIAN WALL_MIN WALL_MAX RSS_MEDIAN_KB RSS_MIN RSS_MAX
#   CPU_MEDIAN (user + system seconds)
bench_stats() {
	awk '
	function median(a, n,    i, j, t) {
		for (i = 2; i <= n; i++) {
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		l = $1; n = ++cnt[l]
		w[l, n] = $3; r[l, n] = $4; c[l, n] = $5 + $6
		if (!(l in seen)) { seen[l] = 1; order[++nl] = l }
	}
	END {
		for (k = 1; k <= nl; k++) {
			l = order[k]; n = cnt[l]
			wmin = wmax = w[l, 1]; rmin = rmax = r[l, 1]
			for (i = 1; i <= n; i++) {
				ww[i] = w[l, i]; rr[i] = r[l, i]; cc[i] = c[l, i]
				if (w[l, i] < wmin) wmin = w[l, i]
				if (w[l, i] > wmax) wmax = w[l, i]
				if (r[l, i] < rmin) rmin = r[l, i]
				if (r[l, i] > rmax) rmax = r[l, i]
			}
			printf "%s %d %.3f %.2f %.2f %d %d %d %.3f\n", l, n,
			    median(ww, n), wmin, wmax, median(rr, n), rmin, rmax,
			    median(cc, n)
		}
	}' "$1"
}

# bench_ratio RESULTS NUM DEN FIELD: the median over runs of the paired
# ratio NUM/DEN of FIELD (3 = wall time, 4 = peak RSS, cpu = user +
# system time), where run i of NUM is divided by run i of DEN.  Both
# ran in the same round, next to each other, so drifting load on a
# shared machine hits both alike.
bench_ratio() {
	awk -v num="$2" -v den="$3" -v f="$4" '
	function median(a, n,    i, j, t) {
		for (i = 2; i <= n; i++) {
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$1 == num { x[$2] = (f == "cpu" ? $5 + $6 : $f) }
	$1 == den { y[$2] = (f == "cpu" ? $5 + $6 : $f) }
	END {
		n = 0
		for (i in x)
			if ((i in y) && y[i] > 0)
				q[++n] = x[i] / y[i]
		if (n == 0) { print "n/a"; exit }
		printf "%.2f\n", median(q, n)
	}' "$1"
}

# bench_field STATS LABEL N: field N of LABEL's line of bench_stats.
bench_field() {
	awk -v l="$2" -v f="$3" '$1 == l { print $f; found = 1 } END { if (!found) print "n/a" }' "$1"
}

# bench_machine: a few lines on the machine, for the report.
bench_machine() {
	local cpu mem
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
	echo "- machine: $(nproc) cores (${cpu:-unknown CPU}), $mem memory, $(uname -sr)"
	echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# bench_build_type BUILD: the build type and the optimisation flags of a
# build tree (the project sets RelWithDebInfo when none is given, without
# writing it into the cache).
bench_build_type() {
	local t flags
	t=$(awk -F= '/^CMAKE_BUILD_TYPE:/ { print $2 }' "$1/CMakeCache.txt" 2>/dev/null)
	flags=$(awk '/^C_FLAGS/ { for (i = 3; i <= NF; i++) if ($i ~ /^-(O|g$|DNDEBUG)/) s = s " " $i } END { print substr(s, 2) }' \
		"$1/kubectl-dra/CMakeFiles/kubectl-dra.dir/flags.make" 2>/dev/null)
	echo "${t:-RelWithDebInfo (the project default)} (${flags:-flags unknown})"
}

# bench_t STATS LABEL: "median (min–max)" wall seconds.
bench_t() {
	awk -v l="$2" '$1 == l { printf "%.2f (%.2f–%.2f)", $3, $4, $5 }' "$1"
}
# bench_m STATS LABEL: "median (min–max)" peak RSS in MB (10^6 bytes;
# GNU time reports KiB), just the median when min and max round alike.
bench_m() {
	awk -v l="$2" '$1 == l {
		md = sprintf("%.0f", $6 * 1.024 / 1000)
		lo = sprintf("%.0f", $7 * 1.024 / 1000)
		hi = sprintf("%.0f", $8 * 1.024 / 1000)
		if (lo == hi) print md; else printf "%s (%s–%s)\n", md, lo, hi }' "$1"
}
# bench_cpu STATS LABEL: median user + system seconds.
bench_cpu() {
	awk -v l="$2" '$1 == l { printf "%.2f", $9 }' "$1"
}

# bench_perf DIR LABEL HZ -- CMD...: profile one run of CMD (stdout and
# stderr discarded) with perf's DWARF call graphs at HZ samples a
# second (16 KiB of stack a sample: 250 Hz makes 40 MB in 10 s), keep the
# data in DIR/perf.LABEL.data and a summary in DIR/perf.LABEL.txt: the
# share of samples per library (self) and the heaviest functions with
# what they call (children).  Rerun `perf report -i DIR/perf.LABEL.data`
# for more.
bench_perf() {
	local dir=$1 label=$2 hz=$3
	shift 4
	perf record -q -F "$hz" --call-graph dwarf,16384 -o "$dir/perf.$label.data" \
		"$@" >/dev/null 2>"$dir/perf.$label.err" ||
		{ cat "$dir/perf.$label.err" >&2; bench_die "perf record failed: $*"; }
	{
		echo "# $*"
		echo "# by library, self"
		perf report -i "$dir/perf.$label.data" --no-children --sort dso \
			--stdio -g none 2>/dev/null | awk '/%/ && n < 12 { print; n++ }'
		echo "# by function, with children"
		perf report -i "$dir/perf.$label.data" --children --sort symbol \
			--stdio -g none 2>/dev/null |
			awk '/%/ && !/ 0x0000/ && n < 45 { print; n++ }'
	} >"$dir/perf.$label.txt"
}

# bench_rounds RUNS LABEL...: the timed rounds.  Each round runs every
# label once through the caller's run_label LABEL ROUND OUT, in an order
# that rotates every round, so that no command always follows the same
# one and load from other work hits them all alike.
bench_rounds() {
	local runs=$1 r i j n
	shift
	n=$#
	for ((r = 1; r <= runs; r++)); do
		bench_log "round $r/$runs (load $(cut -d' ' -f1-3 /proc/loadavg))"
		for ((i = 0; i < n; i++)); do
			j=$(((i + r - 1) % n + 1))
			run_label "${!j}" "$r" /dev/null
		done
	done
}

# bench_usage: the script's usage (its header from "#   bench/" to the
# next "# Capital" line) on stderr, exit 2.
bench_usage() {
	awk '/^#   bench\// { p = 1 } /^# [A-Z]/ { p = 0 } p { sub(/^# ?/, ""); print }' "$0" >&2
	exit 2
}

# bench_args "$@": the options every benchmark takes into runs, build,
# dir and keep (--runs N, --build DIR, --dir DIR, --keep, -h); anything
# else is a usage error.  Checks --runs and GNU time.
bench_args() {
	runs=5 build="" dir="" keep=0
	while [ $# -gt 0 ]; do
		case $1 in
		--runs) [ $# -ge 2 ] || bench_usage; runs=$2; shift 2 ;;
		--runs=*) runs=${1#*=}; shift ;;
		--build) [ $# -ge 2 ] || bench_usage; build=$2; shift 2 ;;
		--build=*) build=${1#*=}; shift ;;
		--dir) [ $# -ge 2 ] || bench_usage; dir=$2; shift 2 ;;
		--dir=*) dir=${1#*=}; shift ;;
		--keep) keep=1; shift ;;
		*) bench_usage ;;
		esac
	done
	case $runs in '' | *[!0-9]* | 0) bench_die "--runs wants a positive number" ;; esac
	[ -x /usr/bin/time ] || bench_die "/usr/bin/time (GNU time) is missing"
	bench_need awk
}

# bench_stderr_of FILE: what a command wrote to stderr (FILE, the
# OUT.err of bench_time), for the report: "none", or the number of lines
# and the first one.  Warnings are part of what a user sees.
bench_stderr_of() {
	local n
	n=$(grep -c . "$1" || true)
	if [ "$n" -gt 0 ]; then
		printf '%s line(s), the first: "%s"' "$n" "$(head -n 1 "$1")"
	else
		echo none
	fi
}

# bench_http_time CMD...: run CMD (a kubectl-dra command line) once more
# with --v=6, which logs every request with its duration (from sending it
# to the last byte of the body, gzip included; not the decoding), and
# print "N requests, S s": their count and summed time.  Exit statuses
# are ignored (doctor's 3).
bench_http_time() {
	{ "$@" --v=6 2>&1 >/dev/null || true; } |
		awk '/ in [0-9]+ ms$/ { n++; ms += $(NF - 1) } END { printf "%d requests, %.2f s", n, ms / 1000 }'
}

# bench_plugin_path ROOT DIR DRA: put the plugin DRA on PATH as a user
# installs it (DIR/bin/kubectl-dra) behind the cached kubectl of
# tests/cluster (ROOT/tests/cluster/lib.sh: $DRA_BIN), and check that
# kubectl finds both.
bench_plugin_path() {
	local kbin
	kbin=$(bash -c '. "$1" && echo "$DRA_BIN"' _ "$1/tests/cluster/lib.sh")
	[ -x "$kbin/kubectl" ] || bench_die "no $kbin/kubectl (tests/cluster/build)"
	mkdir -p "$2/bin"
	ln -sf "$3" "$2/bin/kubectl-dra"
	export PATH=$2/bin:$kbin:$PATH
	[ "$(command -v kubectl)" = "$kbin/kubectl" ] ||
		bench_die "kubectl on PATH is not $kbin/kubectl"
	kubectl plugin list 2>/dev/null | grep -q "$2/bin/kubectl-dra" ||
		bench_die "kubectl does not find kubectl-dra on PATH"
}
