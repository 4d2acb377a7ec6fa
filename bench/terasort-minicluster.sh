#!/usr/bin/env bash
# TeraSort on an embedded mini cluster (HDFS + YARN, 3 NodeManagers running Courier's shuffle service): stock
# shuffle versus Courier, >= 5 alternating repeats on one cluster. Prints every run and the median/min/max of the
# Courier/stock ratios of job time and shuffle time, and the TCP connections each opened; writes results.json.
# Usage: bench/terasort-minicluster.sh [OUT_DIR] [options of io.courier.demo.TeraSortBenchmark, e.g.
#        --repeats 5 --rows 200000 --reduces 3]            (run from anywhere; OUT_DIR default: target/terasort-bench)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# OUT_DIR is the first argument unless that is already an option.
out="$root/target/terasort-bench"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  out="$1"
  shift
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
exec "$root/bin/courier" terasort-bench --out "$out" "$@"
