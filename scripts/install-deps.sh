#!/bin/sh
# Install the Debian packages paratrace needs, only those that are missing.
# Runs as root on Debian 12 (apt-get); as another user it prints what to do.
set -eu

PKGS="make gcc g++ pkg-config clang libclang-rt-14-dev
libzstd-dev zstd zlib1g-dev
libopenmpi-dev openmpi-bin gfortran
libotf2-trace-dev otf2-tools
otf-trace libopen-trace-format-dev
python3 chromium"

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done

[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
  echo "install-deps: not root; run: sudo apt-get install -y$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
