#!/bin/sh
# Installs Debian packages with apt-get, as root or through sudo, for the scripts that make sure a
# test's tools are there (ensure-chromium.sh, ensure-sdk-toolchains.sh). Usage: apt-install.sh WHAT
# PACKAGE...; WHAT names the tools in the messages. Fails clearly where it cannot install: no
# apt-get, or neither root nor sudo. Nothing is fetched from outside Debian's archive.
set -eu

what="$1"
shift

if ! command -v apt-get >/dev/null 2>&1; then
  echo "$what: missing, and apt-get is not available: install $* by hand" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "$what: missing; run this as root (apt-get install $*)" >&2
  exit 1
fi

echo "$what: installing $* with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
