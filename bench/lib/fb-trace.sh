# Sourced by the simulator benchmarks (bench/simulator-*.sh): sets `trace` to the FB coflow trace — TRACE, or
# ../shared/data/FB2010-1Hr-150-0.txt beside the project — and exits 2 naming the path when it is missing.
# Expects `root` (the project root) and `bench` (the script's name, for the message).
trace=${TRACE:-$root/../shared/data/FB2010-1Hr-150-0.txt}
if [ ! -f "$trace" ]; then
  echo "$bench: no trace at $trace (set TRACE)" >&2
  exit 2
fi
