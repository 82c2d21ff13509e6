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

# shellcheck disable=SC2086
sh "$(dirname "$0")/apt-install.sh" "sdk toolchains" $missing
echo "sdk toolchains: $(go version), $(mypy --version 2>/dev/null || /usr/bin/mypy --version)"
