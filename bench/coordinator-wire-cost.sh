#!/usr/bin/env bash
# What one coordinator message costs to encode and decode through the serializer Pekko uses (our Kryo serializer,
# with its actor-reference resolution), and its size: the scale benchmark's reports (main's EpochReport with its
# reply reference vs the compact NodeReport), decision updates and acks. A benchmark, not a test; CPU time per
# message on one thread. docs/benchmarks.md ("Coordinator scale") records runs.
#   bench/coordinator-wire-cost.sh [nodes coflows senders receivers rounds]   (defaults 1000 100 3 3 200)
# Environment: JAVA, COURIER_JAVA_OPTS (default -Xmx1g), MVN, COURIER_MVN_OPTS (e.g. -o).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=lib/coordinator-classpath.sh
. bench/lib/coordinator-classpath.sh
# shellcheck disable=SC2086
exec "${JAVA:-java}" ${COURIER_JAVA_OPTS:--Xmx1g} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$cp" \
  io.courier.coordinator.bench.WireCostBench "$@"
