#!/bin/sh
# Makes sure the tests of the Python and Go SDKs (test/sdk-python.test.ts, test/sdk-go.test.ts) have
# their toolchains: python3 with venv, mypy and go, from Debian's packages (python3-venv, mypy,
# golang-go). Installs what is missing with apt-get; fails clearly when it cannot (not root and no
# sudo, no apt-get). Nothing is downloaded from outside Debian's archive.
set -eu

missing=""
command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing="$missing python3 python3-venv"
[ -x /usr/bin/mypy ] || command -v mypy >/dev/null 2>&1 || missing="$missing mypy"
command -v go >/dev/null 2>&1 || missing="$missing golang-go"

if [ -z "$missing" ]; then
  echo "sdk toolchains: python3 $(python3 -c 'import platform; print(platform.python_version())'), $(mypy --version 2>/dev/null || /usr/bin/mypy --version), $(go version)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "sdk toolchains: missing:$missing, and apt-get is not available: install them by hand" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "sdk toolchains: missing:$missing; run this script as root (apt-get install$missing)" >&2
  exit 1
fi

echo "sdk toolchains: installing$missing with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "sdk toolchains: $(go version), $(mypy --version 2>/dev/null || /usr/bin/mypy --version)"
