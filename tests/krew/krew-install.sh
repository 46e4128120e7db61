#!/bin/sh
# krew-install.sh BUILD_DIR SOURCE_DIR
#
# Installs the plugin through Krew itself, as a user would: builds the
# archive (target "dist"), validates krew-manifest.yaml with Krew's own
# validate-krew-manifest (as the krew-index CI does; -skip-install
# because the manifest's uri is not reachable from here), installs with
# `kubectl krew install --manifest --archive` into a temporary
# KREW_ROOT, and runs `kubectl dra version` through that install.
#
# The manifest's sha256 names the Release archive (checked by
# release-archive.sh); this build's archive differs, so the copy
# installed here carries this archive's sha256.
set -eu

build=$1
src=$2
bin=${DRA_CACHE:-$HOME/.cache/kubectl-dra}/k8s-v1.37.2/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for b in krew validate-krew-manifest kubectl; do
	[ -x "$bin/$b" ] || { echo "missing $bin/$b: run tests/cluster/build" >&2; exit 1; }
done
cmake --build "$build" --target dist >/dev/null
version=$(sed -n 's/^project(kubectl-dra VERSION \([0-9.]*\).*/\1/p' \
    "$src/CMakeLists.txt")
archive=$build/kubectl-dra_v${version}_linux_amd64.tar.gz
sha=$(cat "$archive.sha256")
case $sha in
*[!0-9a-f]* | "") echo "bad sha256 '$sha'" >&2; exit 1 ;;
esac
[ ${#sha} -eq 64 ] || { echo "sha256 '$sha' is not 64 hex digits" >&2; exit 1; }

# Krew requires the file to be named after the plugin.
sed "s/^\( *sha256: *\).*/\1\"$sha\"/" "$src/krew-manifest.yaml" \
    >"$tmp/dra.yaml"
"$bin/validate-krew-manifest" -manifest "$tmp/dra.yaml" -skip-install

mkdir -p "$tmp/path"
ln -s "$bin/krew" "$tmp/path/kubectl-krew"
ln -s "$bin/kubectl" "$tmp/path/kubectl"
export KREW_ROOT="$tmp/krew"
PATH="$KREW_ROOT/bin:$tmp/path:/usr/bin:/bin"
export PATH
kubectl krew install --manifest="$tmp/dra.yaml" --archive="$archive"

out=$(kubectl dra version --client)
echo "$out"
[ "$out" = "Client Version: v$version" ] || {
	echo "expected 'Client Version: v$version'" >&2
	exit 1
}
# The plugin kubectl found is the one Krew installed.
[ -L "$KREW_ROOT/bin/kubectl-dra" ] || { echo "no krew symlink" >&2; exit 1; }
for f in kubectl-dra kubectl_complete-dra LICENSE; do
	ls "$KREW_ROOT"/store/dra/v"$version"/"$f" >/dev/null
done
echo "installed through krew into $KREW_ROOT"
