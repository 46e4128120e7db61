#!/usr/bin/env bash
# t0050-limited-user: with limited.kubeconfig (user dra-limited: get,
# list, watch on everything in namespace team-a, nothing cluster-wide;
# written by tests/cluster/up):
#   - `kubectl dra get claims -n team-a` works and shows what the admin
#     sees;
#   - -o wide, which also wants the cluster-scoped ResourceSlices, still
#     shows the claims, with a Warning line saying what was forbidden;
#   - views it may not read (devices and pools of the whole cluster,
#     claims of all namespaces or of another namespace) end with a clear
#     message or a partial view with a Warning line: never a crash
#     (no exit by a signal, e.g. 134 abort or 139 segfault), and stderr
#     names the refusal (forbidden / permission).
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

lk=$W/limited.kubeconfig
[ -s "$lk" ] || { fail "no $lk (tests/cluster/up writes it)"; finish; }
L=--kubeconfig=$lk

# The premise: kubectl itself is refused the slices, allowed team-a.
if kubectl get resourceslices "$L" >/dev/null 2>&1; then
	fail "the limited user may list resourceslices: the premise of this test is gone"
fi
run premise kubectl get resourceclaims -n team-a "$L" || finish

# ---- allowed: claims in team-a -----------------------------------------
run admin kubectl dra get claims -n team-a
if run lim kubectl dra get claims -n team-a "$L"; then
	check_same "get claims -n team-a: limited user vs admin" "$T/admin.out" "$T/lim.out"
	if grep -Eqi 'forbidden|permission' "$T/lim.err"; then
		fail "get claims -n team-a (limited) reports a refusal although every list it needs is allowed:"
		grep -Ei 'forbidden|permission' "$T/lim.err"
	fi
	[ "$(($(wc -l <"$T/lim.out") - 1))" = "$(kubectl get resourceclaims -n team-a --no-headers | wc -l)" ] ||
		fail "get claims -n team-a (limited): not one row per claim"
fi

# ---- partly allowed: -o wide also lists the cluster's ResourceSlices ---
run adminw kubectl dra get claims -n team-a -o wide
if run limw kubectl dra get claims -n team-a -o wide "$L"; then
	table_tsv <"$T/adminw.out" | columns NAME STATE DEVICES NODE PODS >"$T/adminw.tsv"
	table_tsv <"$T/limw.out" | columns NAME STATE DEVICES NODE PODS >"$T/limw.tsv"
	check_same "get claims -n team-a -o wide: limited user vs admin (NAME STATE DEVICES NODE PODS)" \
		"$T/adminw.tsv" "$T/limw.tsv"
	grep -Ei '^Warning:.*(forbidden|permission)' "$T/limw.err" | grep -q resourceslices ||
		fail "get claims -n team-a -o wide (limited): no Warning line naming the forbidden resourceslices; stderr: $(head -n 3 "$T/limw.err")"
	# ResourceSlices are cluster-wide: no namespace in their refusal,
	# and no device is called unpublished because slices were refused.
	if grep -q 'resourceslices in namespace' "$T/limw.err"; then
		fail "get claims -o wide (limited) says resourceslices were refused in a namespace: $(grep resourceslices "$T/limw.err")"
	fi
	if grep -q 'not published' "$T/limw.err"; then
		fail "get claims -o wide (limited) calls devices unpublished although it could not read the slices: $(grep -m1 'not published' "$T/limw.err")"
	fi
fi

# ---- snapshot: what the user may read, from its namespace --------------
if run snap kubectl dra snapshot -n team-a -o "$T/lim-snap.yaml" "$L"; then
	grep -Eqi '^Warning:.*forbidden' "$T/snap.err" ||
		fail "snapshot (limited): no Warning line about what was refused"
	run snapget kubectl dra get claims -n team-a --from "$T/lim-snap.yaml"
	check_same "get claims -n team-a from the limited user's snapshot vs admin (live)" \
		"$T/admin.out" "$T/snapget.out"
fi

# ---- a view whose own list is refused fails, as kubectl does ----------
rc=0
kubectl dra get claims -n team-b "$L" >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" = 1 ] || fail "get claims -n team-b (limited): exit $rc, want 1"
grep -q 'kubectl-dra: error: cannot list resourceclaims in namespace "team-b": forbidden' "$T/f.err" ||
	fail "get claims -n team-b (limited): $(cat "$T/f.err")"

# ---- describe: a refusal is not "not found" ----------------------------
rc=0
kubectl dra describe claim x -n team-b "$L" >"$T/d.out" 2>"$T/d.err" || rc=$?
[ "$rc" = 1 ] || fail "describe claim in a forbidden namespace: exit $rc, want 1"
grep -q 'kubectl-dra: error: cannot read resourceclaim "x" in namespace "team-b": forbidden' "$T/d.err" ||
	fail "describe claim in a forbidden namespace: $(cat "$T/d.err")"

# ---- not allowed: the command must fail cleanly or warn ----------------
refused() {
	local what="$*" rc=0
	kubectl dra "$@" "$L" >"$T/r.out" 2>"$T/r.err" || rc=$?
	echo "limited: kubectl dra $what -> exit $rc; $(grep -Ei 'forbidden|permission' "$T/r.err" | head -n 1)"
	if [ "$rc" -gt 128 ] || [ "$rc" = 134 ] || [ "$rc" = 139 ]; then
		fail "kubectl dra $what (limited) crashed: exit $rc"
		sed -n '1,10p' "$T/r.err"
		return
	fi
	if ! grep -Eqi 'forbidden|permission' "$T/r.err"; then
		fail "kubectl dra $what (limited): stderr does not mention forbidden/permission: $(head -n 3 "$T/r.err")"
	fi
	if [ "$rc" = 0 ] && ! grep -Eqi '^Warning:.*(forbidden|permission)' "$T/r.err"; then
		fail "kubectl dra $what (limited) exits 0 without a Warning line about the refusal"
	fi
	if [ "$rc" != 0 ] && ! grep -q '^kubectl-dra: error: ' "$T/r.err"; then
		fail "kubectl dra $what (limited) exits $rc without a 'kubectl-dra: error:' message"
	fi
}
refused get devices -A
refused get devices -A -o wide
refused get pools
refused get claims -A
refused get claims -n team-b
refused get nodes

finish
