#!/bin/sh
# scripts/krew-manifest.sh [--check] [BUILD_DIR]
#
# Builds the release archive (Release, reproducible: see scripts/dist.sh)
# in BUILD_DIR (default build/release) and writes its lowercase sha256
# into krew-manifest.yaml.  With --check it changes nothing and fails
# when krew-manifest.yaml does not name that archive's sha256, so the
# manifest always points at an archive `cmake --build` produces.
set -eu

cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then
	check=1
	shift
fi
dir=${1:-build/release}

cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DDRA_WERROR=ON >/dev/null
cmake --build "$dir" --target dist -j "$(nproc 2>/dev/null || echo 2)" \
    >/dev/null
version=$(sed -n 's/^project(kubectl-dra VERSION \([0-9.]*\).*/\1/p' \
    CMakeLists.txt)
sha=$(cat "$dir/kubectl-dra_v${version}_linux_amd64.tar.gz.sha256")
have=$(sed -n 's/^ *sha256: *"*\([0-9a-f]*\)"*$/\1/p' krew-manifest.yaml)
mver=$(sed -n 's/^  version: *"*v\([0-9.]*\)"*$/\1/p' krew-manifest.yaml)

if [ "$check" = 1 ]; then
	if [ "$have" != "$sha" ] || [ "$mver" != "$version" ]; then
		echo "krew-manifest.yaml: sha256 $have (v$mver), but the" \
		    "release archive v$version has $sha:" \
		    "run scripts/krew-manifest.sh" >&2
		exit 1
	fi
	echo "krew-manifest.yaml matches the release archive ($sha)"
	exit 0
fi
tmp=krew-manifest.yaml.tmp
sed -e "s/^\( *sha256: *\).*/\1\"$sha\"/" \
    -e "s/^\(  version: *\).*/\1\"v$version\"/" \
    -e "s|/download/v[0-9.]*/kubectl-dra_v[0-9.]*_linux_amd64|/download/v$version/kubectl-dra_v${version}_linux_amd64|" \
    krew-manifest.yaml >"$tmp"
mv "$tmp" krew-manifest.yaml
echo "krew-manifest.yaml: v$version sha256 $sha"
