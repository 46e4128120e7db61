#!/bin/sh
# release-archive.sh SOURCE_DIR WORK_DIR
#
# The archive krew-manifest.yaml names must be the one `cmake --build
# --target dist` produces from this tree in Release mode: builds it in
# WORK_DIR and compares the sha256 (scripts/krew-manifest.sh --check).
# After a code change, scripts/krew-manifest.sh updates the manifest.
set -eu
exec "$1/scripts/krew-manifest.sh" --check "$2"
