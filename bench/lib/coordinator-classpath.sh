# Sourced by the coordinator benchmarks (bench/coordinator-*.sh): builds the coordinator module with its test
# classes (where the benchmark mains live) and sets `cp` to their class path. Expects to run from the project root.
# Environment: MVN (default mvn), COURIER_MVN_OPTS (e.g. -o).
# shellcheck disable=SC2086
"${MVN:-mvn}" -B -q -Dstyle.color=never -DskipTests ${COURIER_MVN_OPTS:-} package org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test -pl coordinator -am >&2
# shellcheck disable=SC2034
cp="coordinator/target/test-classes:coordinator/target/classes:$(cat coordinator/target/bench.classpath)"
