#!/usr/bin/env bash
# Runs the JMH benchmark of one scheduling decision (scheduler-benchmarks, ScheduleBenchmark) on the
# FB trace's busiest instant, or on the synthetic snapshot where the trace is absent.
#
# Usage: bench/scheduler-jmh.sh [JMH options...]
#   bench/scheduler-jmh.sh                          every scheduler of the default list
#   bench/scheduler-jmh.sh -p scheduler=fair,varys  only these
#   bench/scheduler-jmh.sh -p snapshot=synthetic    the synthetic snapshot even if the trace exists
#   bench/scheduler-jmh.sh -f 3 -i 10               more forks / measurement iterations
# Defaults (in the benchmark's annotations): 1 fork, 3 warm-up and 5 measurement iterations of 1 s,
# average time in ms. Schedulers this build does not register fail their trial with a message saying so.
#
# Environment:
#   COURIER_FB_TRACE  the trace file (default: ../shared/data/FB2010-1Hr-150-0.txt beside the project root)
#   JMH_RESULT        JSON result file (default: target/jmh-result.json under the project root)
#   MVN_FLAGS         extra Maven flags for the build, e.g. -o
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# shellcheck disable=SC2086
mvn -B -q ${MVN_FLAGS:-} -DskipTests package -pl scheduler-benchmarks -am

jar=$(ls scheduler-benchmarks/target/courier-scheduler-benchmarks-*-jmh.jar)
trace=${COURIER_FB_TRACE:-$root/../shared/data/FB2010-1Hr-150-0.txt}
result=${JMH_RESULT:-$root/target/jmh-result.json}
mkdir -p "$(dirname "$result")"

# JMH passes this JVM's -D options on to its forks, so the benchmark sees the trace path.
java -Dcourier.fbTrace="$trace" -jar "$jar" ScheduleBenchmark -rf json -rff "$result" "$@"
echo "JMH results: $result"
