#!/usr/bin/env bash
# Per-bin comparison of simulator runs on the FB trace: each scheduler entry replays the trace (coflow triggers,
# weights from {1..5} with seed 1, one JVM per entry, bin/courier simulate's defaults) and the table gives, per
# run, its decisions, simulator seconds, average and weighted-average CCT and the average CCT of each coflow bin
# (SN/LN/SW/LW of PAPER_RESULTS §0), each relative to the FIRST entry. It is the check that a cheaper setting
# (a coarser epoch, say) replays the same experiment: the averages are carried by the long-wide bin and can hide
# large changes in the others (docs/simulator-speed-log.md, "Speed, twelfth round").
#
# Usage: bench/simulator-bins.sh ENTRY [ENTRY...]
#   e.g. bench/simulator-bins.sh 'iaoa(period=0.05)' 'iaoa(period=1)'   (about 3 min on 2 cores)
#   TRACE overrides the trace (default ../shared/data/FB2010-1Hr-150-0.txt), OUT the output directory (each
#   entry's --out files and JSON are kept there). Needs python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" # the header comment
  [ $# -ge 1 ] && exit 0 || exit 2
fi
out=${OUT:-$root/target/simulator-bins}
bench=simulator-bins
# shellcheck source=lib/fb-trace.sh
. "$root/bench/lib/fb-trace.sh"
mkdir -p "$out"
dirs=()
k=0
for entry in "$@"; do
  k=$((k + 1))
  dir="$out/$k"
  rm -rf "$dir"
  mkdir -p "$dir"
  "$root/bin/courier" simulate --trace "$trace" --scheduler "$entry" --weights uniform:1-5 --seed 1 \
      --triggers coflow --format json -q --out "$dir" > "$dir/run.json"
  dirs+=("$dir")
  echo "$bench: $entry done" >&2
done
python3 - "${dirs[@]}" <<'PY'
import json, os, sys
runs = [json.load(open(os.path.join(d, "run.json")))["runs"][0] for d in sys.argv[1:]]
ref = runs[0]
bins = ["SN", "LN", "SW", "LW"]

def cell(value, base, first):
    if value is None:
        return "–"
    if first or not base:
        return "%.4g" % value
    return "%.4g (%+.1f %%)" % (value, 100.0 * (value / base - 1.0))


def bin_avg(run, b):
    entry = run["bins"].get(b)
    return entry["avgCct"] if entry else None

print("| run | decisions | simulator s | avg CCT s | avg w·CCT s | " + " | ".join(b + " avg s" for b in bins) + " |")
print("|" + "---|" * (5 + len(bins)))
for i, r in enumerate(runs):
    first = i == 0
    cells = [r["scheduler"], "{:,}".format(r["decisions"]), "%.1f" % r["wallSeconds"],
             cell(r["avgCct"], ref["avgCct"], first), cell(r["avgWeightedCct"], ref["avgWeightedCct"], first)]
    cells += [cell(bin_avg(r, b), bin_avg(ref, b), first) for b in bins]
    print("| " + " | ".join(cells) + " |")
PY
