#!/usr/bin/env bash
# The Courier experiment of the simulator issue, in the spirit of the Courier paper's §5.1: a synthetic
# MapReduce workload on 16 hosts with 20 reducers per host, Hadoop's parallel copies swept 1..15, each
# scheduler run without and with Courier's flow planning. Prints a markdown table of CCT and concurrent
# flows per port, and keeps every run's JSON in OUT (default target/courier-fetch-sweep).
#
# Usage: bench/courier-fetch-sweep.sh [SCHEDULERS] [WORKLOAD_SPEC]
#   defaults: fair,aalo,sincronia and the spec below. Needs python3 for the summary table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
schedulers=${1:-fair,aalo,sincronia}
spec=${2:-hosts=16,reducersPerHost=20,jobs=20,mappers=4-16,reducers=20-40,flowSize=lognormal:mean=2MiB:sigma=1,load=0.6,seed=7}
out=${OUT:-$root/target/courier-fetch-sweep}
mkdir -p "$out"
for p in $(seq 1 15); do
  "$root/bin/courier" simulate --workload "$spec" --scheduler "$schedulers" --compare-courier \
      --parallel-copies "$p" --format json -q > "$out/p$p.json"
  echo "parallel copies $p done" >&2
done
python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
print("| parallel copies | run | avg CCT s | p99 CCT s | max flows/port | mean flows/port |")
print("|---|---|---|---|---|---|")
for p in range(1, 16):
    with open(os.path.join(out, "p%d.json" % p)) as f:
        runs = json.load(f)["runs"]
    for r in runs:
        name = r["scheduler"] + ("+courier" if r["courier"] else "")
        print("| %d | %s | %.3f | %.3f | %d | %.1f |" % (p, name, r["avgCct"], r["p99Cct"],
              r["maxConcurrentFlowsPerPort"], r["meanConcurrentFlowsPerPort"]))
PY
