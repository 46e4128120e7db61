#!/bin/sh
# Install the Debian packages kubectl-dra needs to build and test.
# Idempotent: packages already present are left alone, and apt is not
# touched at all when nothing is missing.
set -eu

pkgs="build-essential cmake pkg-config git ca-certificates openssl
libcurl4-openssl-dev libcjson-dev libyaml-dev libncurses-dev libglpk-dev
libcmocka-dev uthash-dev libpcre2-dev tmux hyperfine time"

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "setup: all packages present"
	exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
	SUDO="sudo"
fi
echo "setup: installing$missing"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends $missing
