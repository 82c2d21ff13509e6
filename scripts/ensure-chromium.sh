#!/bin/sh
# Makes sure the browser tests (test/web.test.ts) have a Chromium: Debian's package at
# /usr/bin/chromium (or $SVC_CHROMIUM). Installs it with apt-get when it is missing; fails clearly
# when it cannot (not root and no sudo, no apt-get).
set -eu

CHROMIUM="${SVC_CHROMIUM:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  echo "chromium: found $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null | tail -n 1 || echo 'version unknown'))"
  exit 0
fi

if [ "$CHROMIUM" != "/usr/bin/chromium" ]; then
  echo "chromium: $CHROMIUM (SVC_CHROMIUM) is missing or not executable" >&2
  exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium: /usr/bin/chromium is missing and apt-get is not available: install Chromium by hand" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "chromium: /usr/bin/chromium is missing; run this script as root (apt-get install chromium)" >&2
  exit 1
fi

echo "chromium: installing the Debian package with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "chromium: installed $("$CHROMIUM" --version 2>/dev/null | tail -n 1 || echo "$CHROMIUM")"
