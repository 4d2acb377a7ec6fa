#!/usr/bin/env bash
# Usage: bench/proxy-soak.sh [MINUTES]   (RESTART_MS from the environment; runs Maven offline: mvn -o)
# Proxy soak on loopback (issue "Hardening"): ProxySoakTest for MINUTES minutes (default 15) — four proxies, jobs
# added and removed, reducers stalling/cancelling/dropping connections, proxies restarted every RESTART_MS
# (default 3000) — then the before/after resource check (threads, fds, pooled buffers, leaks, heap).
# Writes the summary to target/proxy-soak/result.txt and prints it with the load average. Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-15}"
restart_ms="${RESTART_MS:-3000}"
out="$PWD/target/proxy-soak"
mkdir -p "$out"
echo "# proxy soak: ${minutes} min, restart every ${restart_ms} ms; started $(date -u +%FT%TZ); $(uptime)"
mvn -B -q -o test -pl courier-shuffle -am -Dtest='ProxySoakTest#proxiesUnderChurn*' \
    -Dsurefire.failIfNoSpecifiedTests=false -Dcourier.soak.seconds=$((minutes * 60)) \
    -Dcourier.soak.restart-every-ms="$restart_ms" -Dcourier.soak.report="$out/result.txt" \
    > "$out/mvn.log" 2>&1 || { tail -50 "$out/mvn.log"; echo "soak FAILED (log: $out/mvn.log)"; exit 1; }
cat "$out/result.txt"
echo "# finished $(date -u +%FT%TZ); $(uptime)"
