#!/usr/bin/env bash
# Headless-Chromium check of the coordinator's live page (not part of mvn verify): starts StatusPageDemo (a
# coordinator, its HTTP server and four in-process proxies moving two jobs), loads http://…/ in headless
# Chromium, checks the rendered DOM shows both coflows and the four nodes, and writes a screenshot.
#   bench/coordinator-ui-screenshot.sh [OUT.png]   (default docs/images/coordinator-status.png)
# Installs Debian's chromium with apt-get when it is missing. Environment: JAVA, MVN, COURIER_MVN_OPTS (e.g. -o).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${1:-docs/images/coordinator-status.png}"
browser="$(bench/install-chromium.sh)"
# shellcheck source=lib/coordinator-classpath.sh
. bench/lib/coordinator-classpath.sh
log=$(mktemp)
"${JAVA:-java}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$cp" \
  io.courier.coordinator.bench.StatusPageDemo 60 sincronia >"$log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 120); do
  url="$(sed -n 's/^URL //p' "$log")"
  [ -n "$url" ] && break
  sleep 0.5
done
[ -n "$url" ] || { echo "the demo did not start:" >&2; cat "$log" >&2; exit 1; }
sleep 3 # let the proxies move some bytes
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --hide-scrollbars --window-size=1200,720 --virtual-time-budget=5000)
dom="$("$browser" "${flags[@]}" --dump-dom "$url" 2>/dev/null)"
mkdir -p "$(dirname "$out")"
"$browser" "${flags[@]}" --screenshot="$out" "$url" 2>/dev/null >&2
fail=0
for want in job_1700000000000_0001 job_1700000000000_0002 nm-1 nm-4 "scheduler sincronia"; do
  if ! grep -q "$want" <<<"$dom"; then
    echo "FAIL: the rendered page does not show '$want'" >&2
    fail=1
  fi
done
size=$(stat -c %s "$out" 2>/dev/null || echo 0)
if [ "$size" -lt 10000 ]; then
  echo "FAIL: screenshot $out is missing or tiny ($size bytes)" >&2
  fail=1
fi
[ "$fail" = 0 ] && echo "OK: page rendered both coflows and the nodes; screenshot $out ($size bytes)"
exit "$fail"
