#!/bin/sh
# scripts/dist.sh BINARY LICENSE OUTDIR VERSION
#
# Packs the plugin for Krew: OUTDIR/kubectl-dra_vVERSION_linux_amd64.tar.gz
# holding kubectl-dra, kubectl_complete-dra and LICENSE, made
# reproducible (sorted names, zero times and owners, gzip without a
# name or time), and OUTDIR/<archive>.sha256 with its lowercase sha256.
# Called by the CMake target "dist".
set -eu

bin=$1
license=$2
out=$3
version=$4
name=kubectl-dra_v${version}_linux_amd64
stage=$out/$name.stage

rm -rf "$stage"
mkdir -p "$stage"
cp "$bin" "$stage/kubectl-dra"
cp "$(dirname "$bin")/kubectl_complete-dra" "$stage/kubectl_complete-dra"
cp "$license" "$stage/LICENSE"
chmod 0755 "$stage/kubectl-dra" "$stage/kubectl_complete-dra"
chmod 0644 "$stage/LICENSE"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    -C "$stage" -cf - kubectl-dra kubectl_complete-dra LICENSE |
    gzip -n -9 >"$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
rm -rf "$stage"
(cd "$out" && sha256sum "$name.tar.gz" | cut -d' ' -f1 >"$name.tar.gz.sha256")
echo "$out/$name.tar.gz $(cat "$out/$name.tar.gz.sha256")"
