#!/usr/bin/env bash
# Coordinator scale benchmark (not a test): one coordinator in this JVM and N simulated proxies (the real client
# actor, all in one actor system in a second JVM the harness forks, over Artery TCP + Kryo) reporting every report
# interval for C active coflows. Prints epoch keeping (kept ticks, tick lateness p50/p99/max), decision time,
# message rates and CPU of each process; docs/benchmarks.md ("Coordinator scale") records runs.
#   bench/coordinator-scale.sh [proxies coflows senders receivers warmupSeconds measureSeconds epochMs reportMs scheduler]
#   defaults:                   1000    100     10      10        10            30             10      10       varys
# Environment: JAVA (default java), COURIER_JAVA_OPTS (coordinator JVM, default -Xmx1g -XX:+UseSerialGC, as bin/courier coordinator), COURIER_PROXY_JAVA_OPTS
# (proxies' JVM, default -Xmx2g), MVN (default mvn), COURIER_MVN_OPTS (e.g. -o); COURIER_PREFIX and COURIER_PROXY_PREFIX:
# command prefixes for the coordinator's and the proxies' JVM, e.g. "taskset -c 0" / "taskset -c 1" (a core each) or
# "nice -n -10" / "nice -n 10" (the coordinator ahead of the load generator; the proxies inherit the coordinator's
# niceness, so theirs is relative to it). Default: none.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=lib/coordinator-classpath.sh
. bench/lib/coordinator-classpath.sh
# shellcheck disable=SC2086
exec ${COURIER_PREFIX:-} "${JAVA:-java}" ${COURIER_JAVA_OPTS:--Xmx1g -XX:+UseSerialGC} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$cp" \
  io.courier.coordinator.bench.CoordinatorScaleHarness "$@"
