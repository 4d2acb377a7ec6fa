#!/usr/bin/env bash
# Coflow scheduling on an embedded mini cluster (HDFS + YARN, 3 NodeManagers running Courier's shuffle service,
# their proxies connected to a coordinator in the same JVM and paced at --capacity): a large and a small TeraSort
# at once, under the baseline scheduler (fair) and coflow schedulers (aalo, varys), >= 3 rounds with the order
# rotating; then the coordinator stopped mid-shuffle and started again. Prints every run, the ratios to the
# baseline (median/min/max) and the restart check; writes results.json and status-after-restart.json.
# Usage: bench/coflow-minicluster.sh [OUT_DIR] [options of io.courier.demo.CoflowSchedulingBenchmark, e.g.
#        --schedulers fair,aalo,varys --repeats 3 --large-rows 600000 --small-rows 60000 --capacity 131072
#        --submit-small-at 1.0]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# OUT_DIR is the first argument unless that is already an option.
out="$root/target/coflow-bench"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  out="$1"
  shift
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
exec "$root/bin/courier" coflow-bench --out "$out" "$@"
