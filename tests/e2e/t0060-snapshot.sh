#!/usr/bin/env bash
# t0060-snapshot: `kubectl dra snapshot -o FILE` against the cluster,
# then every view read back with --from FILE equals the live view:
# claims -A, devices -A and pools, in the default and wide columns,
# from a YAML and a JSON snapshot.  KUBECTL_DRA_NOW (lib.sh) pins the
# clock, so the AGE columns of both runs agree.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

views="claims:-A claims:-A:-o:wide devices:-A devices:-A:-o:wide pools pools:-o:wide"

# shellcheck disable=SC2317 # called through run
view() {
	local spec=$1
	shift
	# shellcheck disable=SC2046
	kubectl dra get $(echo "$spec" | tr ':' ' ') "$@"
}

run snap-yaml kubectl dra snapshot -o "$T/s.yaml" || finish
run snap-json kubectl dra snapshot -o "$T/s.json" || finish
for f in s.yaml s.json; do
	[ -s "$T/$f" ] || fail "kubectl dra snapshot -o $f wrote nothing"
done
echo "snapshot: $(wc -c <"$T/s.yaml") bytes of YAML, $(wc -c <"$T/s.json") bytes of JSON"

i=0
for spec in $views; do
	i=$((i + 1))
	run "live$i" view "$spec" || continue
	for f in s.yaml s.json; do
		run "file$i" view "$spec" --from "$T/$f" || continue
		check_same "get $(echo "$spec" | tr ':' ' ') --from $f vs live" "$T/live$i.out" "$T/file$i.out"
		# The cluster is consistent: a file view has nothing to warn
		# about.  (The live default claims view's stderr is t0010's.)
		if [ -s "$T/file$i.err" ]; then
			fail "get $spec --from $f wrote to stderr:"
			sed -n '1,10p' "$T/file$i.err"
		fi
	done
done

finish
