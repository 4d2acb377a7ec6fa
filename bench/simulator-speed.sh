#!/usr/bin/env bash
# The simulator's speed figure of the simulator issue: each scheduler replays the full FB trace (coflow triggers,
# weights from {1..5} with seed 1) in its own JVM with bin/courier simulate's defaults (-Xmx1g -XX:+UseParallelGC and
# the class-data-sharing archive), REPEATS times, the schedulers interleaved within each round so that the host's
# drift hits them alike. Prints a markdown table: wall seconds of the whole process (min / median / max; JVM start
# and trace reading included), the simulator's own seconds (median), peak heap (max), decisions and, when fair is
# in the list, each scheduler's wall time as a multiple of fair's in the same round (median). Keeps every run's
# JSON in OUT.
#
# Usage: bench/simulator-speed.sh [SCHEDULERS] [REPEATS]
#   defaults: the nine schedulers that replay the trace in seconds, 3 repeats (about 3 min on 2 cores);
#   add iaoa and stream for the full eleven (about 6.5 min more per round). Needs python3.
#   TRACE overrides the trace (default ../shared/data/FB2010-1Hr-150-0.txt), OUT the output directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
schedulers=${1:-fair,fifo,varys,skipl,aalo,simple-offline,fai,weighted-2approx,sincronia}
repeats=${2:-3}
out=${OUT:-$root/target/simulator-speed}
bench=simulator-speed
# shellcheck source=lib/fb-trace.sh
. "$root/bench/lib/fb-trace.sh"
mkdir -p "$out"
: > "$out/walls.txt"
IFS=, read -r -a names <<< "$schedulers"
# A small run first: it builds the jar if needed and writes bin/courier's class-data-sharing archive, which the
# first timed run would otherwise pay for.
"$root/bin/courier" simulate --workload 'hosts=4,jobs=2,mappers=2,reducers=2,seed=1' --scheduler fair \
    --format json -q > /dev/null
for r in $(seq 1 "$repeats"); do
  for s in "${names[@]}"; do
    start=$(date +%s.%N)
    "$root/bin/courier" simulate --trace "$trace" --scheduler "$s" --weights uniform:1-5 --seed 1 \
        --triggers coflow --format json -q > "$out/$s.$r.json"
    end=$(date +%s.%N)
    echo "$s $r $start $end" >> "$out/walls.txt"
    echo "round $r: $s done" >&2
  done
done
python3 - "$out" "$schedulers" "$repeats" <<'PY'
import json, os, statistics, sys
out, names, repeats = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
walls = {}
with open(os.path.join(out, "walls.txt")) as f:
    for line in f:
        s, r, a, b = line.split()
        walls[(s, int(r))] = float(b) - float(a)
# With fair in the list, each run's wall time is also divided by fair's in the same round (side by side, so the
# host's drift between rounds cancels) and the median of those ratios printed: the replay's cost in units of the
# baseline's, which moves less with the host than seconds do.
relative = "fair" in names
print("| scheduler | wall s min / median / max | simulator s (median) | peak heap MiB (max) | decisions |"
      + (" × fair's wall (median of rounds) |" if relative else ""))
print("|---|---|---|---|---|" + ("---|" if relative else ""))
for s in names:
    runs = [json.load(open(os.path.join(out, "%s.%d.json" % (s, r))))["runs"][0] for r in range(1, repeats + 1)]
    w = sorted(walls[(s, r)] for r in range(1, repeats + 1))
    row = "| %s | %.2f / %.2f / %.2f | %.2f | %d | %s |" % (s, w[0], statistics.median(w), w[-1],
          statistics.median(x["wallSeconds"] for x in runs), max(x["peakHeapBytes"] for x in runs) / 2**20,
          runs[0].get("decisions", "-"))
    if relative:
        row += " %.2f |" % statistics.median(walls[(s, r)] / walls[("fair", r)] for r in range(1, repeats + 1))
    print(row)
PY
