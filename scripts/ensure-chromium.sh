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

sh "$(dirname "$0")/apt-install.sh" chromium chromium fonts-dejavu-core

if [ ! -x "$CHROMIUM" ]; then
  echo "chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "chromium: installed $("$CHROMIUM" --version 2>/dev/null | tail -n 1 || echo "$CHROMIUM")"
