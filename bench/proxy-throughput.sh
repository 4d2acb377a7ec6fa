#!/usr/bin/env bash
# Courier proxy throughput harness: one merged loopback connection carrying N concurrent segment streams
# versus a plain Netty zero-copy transfer of the same bytes over one connection.
# Usage: bench/proxy-throughput.sh [streams=100] [segmentMiB=16] [rounds=5] [warmups=3]   (run from anywhere; Maven offline)
# JAVA_OPTS may set -Dcourier.proxy.<key>=<value> (docs/configuration.md), -Dbench.readers=N (default 32) and
# -Dbench.variants=plain,callback,stream (a Courier variant may add @<key>=<value>; a plain one @sndbuf=N,
# @framed, @framed=N, @unframed, @credits, @decoder, @runs=N joined with '+'; docs/benchmarks.md); -Dbench.threads=true prints
# each event loop's CPU seconds per GB.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -o test-compile dependency:build-classpath -pl courier-shuffle -am \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
CP="courier-shuffle/target/test-classes:courier-shuffle/target/classes:scheduler-plugins/target/classes"
CP="$CP:$(cat courier-shuffle/target/bench.classpath)"
exec java -Xmx1g ${JAVA_OPTS:-} -cp "$CP" io.courier.shuffle.proxy.bench.ProxyThroughputBench "$@"
