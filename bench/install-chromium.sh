#!/usr/bin/env bash
# Makes sure Debian's chromium is installed and prints its path (used by the coordinator's headless page test and
# bench/coordinator-ui-screenshot.sh). Installs it with apt-get only when missing; that needs root (or sudo) and
# the Debian mirrors. Exits non-zero with a message on stderr when it cannot.
set -euo pipefail
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "chromium is missing and installing it needs root (no sudo here)" >&2; exit 1; }
    sudo="sudo -n"
  fi
  echo "installing Debian's chromium (apt-get)..." >&2
  # A fresh machine's package lists may be empty or stale: install finds nothing without an update first.
  $sudo apt-get update -q >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >&2
  browser="$(command -v chromium || true)"
  [ -n "$browser" ] || { echo "apt-get finished but no chromium on the PATH" >&2; exit 1; }
fi
echo "$browser"
