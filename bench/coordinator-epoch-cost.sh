#!/usr/bin/env bash
# The coordinator's scheduling actor alone (not a test): its CPU per epoch for report ingestion and for the tick
# (state, scheduler call, per-node decision diff and fan-out), driven synchronously in virtual 10 ms epochs by
# EpochCostBench, without wire or simulated proxies competing for the CPU; counts decision updates and acks.
# docs/benchmarks.md ("Coordinator scale") records runs.
#   bench/coordinator-epoch-cost.sh [nodes coflows senders receivers warmupEpochs measuredEpochs scheduler]
#   defaults:                        1000  100     3       3         300          1000           varys
# Environment: JAVA (default java), COURIER_JAVA_OPTS (default -Xmx2g), MVN (default mvn), COURIER_MVN_OPTS (e.g. -o).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=lib/coordinator-classpath.sh
. bench/lib/coordinator-classpath.sh
# shellcheck disable=SC2086
exec "${JAVA:-java}" ${COURIER_JAVA_OPTS:--Xmx2g} -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$cp" \
  io.courier.coordinator.actors.EpochCostBench "$@"
