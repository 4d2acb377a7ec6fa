#!/usr/bin/env bash
# TeraSort end to end on the emulated network: a real HDFS + YARN cluster whose daemons run in the host
# namespaces of netemu.sh, started as separate JVMs from the project's own dependency jars (no Hadoop
# distribution). Host 1 runs the NameNode and the ResourceManager; every host runs a DataNode and a NodeManager
# whose mapreduce_shuffle service is Courier's (Hadoop's ShuffleHandler on 13562 + the Courier proxy on 13563), so
# one cluster serves both modes: a job uses Courier when it sets the reduce-side consumer plugin.
#
#   yarn-cluster.sh up              netemu setup, configuration, NameNode format, all daemons (PIDs recorded)
#   yarn-cluster.sh down            stops every daemon by PID, then netemu teardown (namespaces, leftover
#                                   processes, sysctl), removes WORK. Idempotent.
#   yarn-cluster.sh status          namespaces and daemons
#   yarn-cluster.sh bench [OPTIONS] up, the benchmark driver in host 1 (io.courier.bench.netemu.NetemuBench
#                                   yarn-terasort: TeraGen, then TeraSort stock vs Courier alternating, TeraValidate
#                                   every output, report to OUT), down -- also on failure or Ctrl-C.
#                                   OPTIONS: --repeats N (5) --warmups N (1) --rows N (1000000 = 100 MB)
#                                   --gen-maps N (2 per host) --reduces N (1 per host)
#
# Environment: CP (class path: the netemu-bench jar and its runtime class path; bin/courier bench netemu-yarn
# sets it), OUT (report directory), N (4 hosts), RATE (50mbit), QLIMIT_BYTES, CC, ... (netemu.sh's knobs),
# PREFIX (cny-), SUBNET (10.205.0), MGMT_SUBNET (10.206.0), STATE_DIR (/run/courier-netemu-yarn): its own, so that it can run next to the
# default netemu testbed (cne-*, 10.201.0). WORK (/var/tmp/courier-netemu-yarn): HDFS, NodeManager dirs, daemon
# logs (copied to OUT by bench). NM_MEMORY_MB (1536: 3 containers of 512 MB per NodeManager), JAVA.
# Needs root. docs/benchmarks.md "TeraSort on the emulated network".
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export N=${N:-4}
export RATE=${RATE:-50mbit}
export PREFIX=${PREFIX:-cny-}
export SUBNET=${SUBNET:-10.205.0}
# Its own management subnet too: netemu.sh's default (10.202.0) belongs to the data-plane testbed.
export MGMT_SUBNET=${MGMT_SUBNET:-10.206.0}
export STATE_DIR=${STATE_DIR:-/run/courier-netemu-yarn}
WORK=${WORK:-/var/tmp/courier-netemu-yarn}
NM_MEMORY_MB=${NM_MEMORY_MB:-1536}
JAVA=${JAVA:-java}
NETEMU="$here/netemu.sh"
PIDS="$STATE_DIR/yarn-pids"
MAIN=io.courier.bench.netemu.NetemuBench

log() { echo "yarn-cluster: $*" >&2; }
die() { echo "yarn-cluster: error: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "must run as root (network namespaces, tc, sysctl)"; }
host_ns() { echo "${PREFIX}h$1"; }

# JDK 17 flags Hadoop needs (hadoop-project's extraJavaTestArgs); IPv4 sockets.
OPENS="-XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
--add-opens=java.base/java.math=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED \
--add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.zip=ALL-UNNAMED \
--add-opens=java.base/sun.security.util=ALL-UNNAMED --add-opens=java.base/sun.security.x509=ALL-UNNAMED \
-Djava.net.preferIPv4Stack=true -XX:+UseSerialGC"

# $WORK/lib: one short-named link per class path entry (copies of the project's own jars, so that a rebuild during
# a run changes nothing), in class path order; prints that class path. Short paths keep the containers' CLASSPATH
# variable small.
make_lib() {
  local lib="$WORK/lib" i=0 e name cp=""
  rm -rf "$lib"
  mkdir -p "$lib"
  IFS=: read -r -a entries <<< "$CP"
  for e in "${entries[@]}"; do
    [ -n "$e" ] || continue
    [ -e "$e" ] || die "class path entry $e does not exist (rebuild: mvn -o -DskipTests package -pl netemu-bench -am)"
    i=$((i + 1))
    name="$(printf '%03d' "$i")-$(basename "$e")"
    case "$e" in
      "$WORK"/*) die "class path entry $e lies inside WORK" ;;
      */.m2/*) ln -s "$e" "$lib/$name" ;;
      *) cp -r "$e" "$lib/$name" ;;
    esac
    cp="$cp${cp:+:}$lib/$name"
  done
  echo "$cp"
}

# start_daemon HOST ROLE HEAP MAIN [ARGS...]: one JVM in host HOST's namespace, PID recorded. ip netns exec, env
# and nice exec the JVM, so $! is the JVM itself.
start_daemon() {
  local h=$1 role=$2 heap=$3 main=$4
  shift 4
  # shellcheck disable=SC2086
  ip netns exec "$(host_ns "$h")" env JAVA_HOME="$JAVA_HOME" HADOOP_CONF_DIR="$WORK/conf/h$h" \
    nice -n -10 "$JAVA" "-Xmx$heap" $OPENS -Dhadoop.log.dir="$WORK/logs" -Dhadoop.log.file="$role-h$h.log" \
    -Dyarn.log.dir="$WORK/logs" -cp "$WORK/conf/h$h:$APP_CP" "$main" "$@" > "$WORK/logs/$role-h$h.out" 2>&1 &
  echo "$! $role $h" >> "$PIDS"
}

cmd_up() {
  need_root
  [ -n "${CP:-}" ] || die "CP (the netemu-bench class path) is not set; use bin/courier bench netemu-yarn"
  [ "$N" -ge 4 ] || log "warning: N=$N; the benchmark asks for at least 4 NodeManagers"
  [ ! -f "$PIDS" ] || die "daemons recorded in $PIDS; run '$0 down' first"
  JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVA")")")")}
  export JAVA_HOME
  "$NETEMU" setup
  trap 'log "up failed; tearing down"; cmd_down' ERR
  rm -rf "$WORK"
  mkdir -p "$WORK/logs"
  APP_CP=$(make_lib)
  local task_cp="$WORK/conf/h1:$APP_CP"
  log "class path: $(echo "$APP_CP" | tr ':' '\n' | wc -l) entries, ${#task_cp} characters"
  # shellcheck disable=SC2086
  "$JAVA" -Xmx256m $OPENS -cp "$APP_CP" "$MAIN" yarn-conf --hosts "$N" --subnet "$SUBNET" --work "$WORK" \
    --app-classpath "$task_cp" --nm-memory-mb "$NM_MEMORY_MB"
  # shellcheck disable=SC2086
  ip netns exec "$(host_ns 1)" "$JAVA" -Xmx256m $OPENS -Dhadoop.log.dir="$WORK/logs" \
    -Dhadoop.log.file=namenode-format.log -cp "$WORK/conf/h1:$APP_CP" \
    org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
    > "$WORK/logs/namenode-format.out" 2>&1 || die "NameNode format failed: $(tail -5 "$WORK/logs/namenode-format.log")"
  : > "$PIDS"
  start_daemon 1 namenode 256m org.apache.hadoop.hdfs.server.namenode.NameNode
  start_daemon 1 resourcemanager 384m org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
  local i
  for i in $(seq 1 "$N"); do
    start_daemon "$i" datanode 192m org.apache.hadoop.hdfs.server.datanode.DataNode
    start_daemon "$i" nodemanager 384m org.apache.hadoop.yarn.server.nodemanager.NodeManager
  done
  trap - ERR
  log "started $(wc -l < "$PIDS") daemons on $N hosts (${SUBNET}.1-$N); logs in $WORK/logs"
}

# stop_pid PID 20: TERM, then KILL after 20 s (a NodeManager stops its containers first).
# shellcheck source=stop-pid.sh
. "$here/stop-pid.sh"

cmd_down() {
  need_root
  if [ -f "$PIDS" ]; then
    local pid role
    # NodeManagers first (they stop their containers), then the rest; in parallel within each group.
    # Wait for the stoppers only: a bare `wait` would also wait for the daemons of the later groups when they
    # are this shell's own children (the bench path), which never exit by themselves.
    local stoppers
    for group in nodemanager "resourcemanager|datanode" namenode; do
      stoppers=()
      while read -r pid role _; do
        if echo "$role" | grep -Eqx "$group"; then stop_pid "$pid" 20 & stoppers+=($!); fi
      done < "$PIDS"
      [ ${#stoppers[@]} -eq 0 ] || wait "${stoppers[@]}"
    done
    rm -f "$PIDS"
  fi
  # Namespaces, anything still running in them (containers), veths, the allowed-CC sysctl, STATE_DIR.
  "$NETEMU" teardown
  rm -rf "$WORK"
  log "down: $(ip netns list | grep -c "^${PREFIX}" || true) ${PREFIX}* namespaces," \
    "$(pgrep -f -c -- "$WORK/conf/h" || true) daemon processes left"
}

cmd_status() {
  "$NETEMU" status || true
  if [ -f "$PIDS" ]; then
    local pid role h
    while read -r pid role h; do
      echo "$role h$h pid $pid $(kill -0 "$pid" 2>/dev/null && echo running || echo GONE)"
    done < "$PIDS"
  else
    echo "yarn-cluster: no daemons recorded"
  fi
}

cmd_bench() {
  need_root
  # Global, not local: the EXIT trap runs after this function has returned.
  BENCH_OUT=${OUT:-target/netemu-yarn}
  [ -n "${CP:-}" ] || die "CP (the netemu-bench class path) is not set; use bin/courier bench netemu-yarn"
  local a
  for a in "$@"; do
    case "$a" in -h|--help) exec "$JAVA" -cp "$CP" "$MAIN" yarn-terasort --help ;; esac
  done
  # The driver checks its options first: a wrong one exits 2 with the driver's message before anything is created
  # and before minutes go to bringing the cluster up.
  "$JAVA" -Xmx128m -cp "$CP" "$MAIN" yarn-terasort --check-options --hosts "$N" --prefix "$PREFIX" \
    --subnet "$SUBNET" --pids "$PIDS" --out "$BENCH_OUT" "$@" || exit $?
  mkdir -p "$BENCH_OUT"
  BENCH_OUT=$(cd "$BENCH_OUT" && pwd)
  cmd_up
  # A second Ctrl-C or TERM must not cut the teardown short: ignored while it runs.
  trap 'trap "" INT TERM; mkdir -p "$BENCH_OUT/logs"
        cp "$WORK"/logs/*.log "$WORK"/logs/*.out "$BENCH_OUT/logs/" 2>/dev/null || true; cmd_down' EXIT
  trap 'exit 130' INT TERM
  # The driver runs in host 1: only there are the cluster's addresses reachable (HDFS, ResourceManager).
  # shellcheck disable=SC2086
  ip netns exec "$(host_ns 1)" "$JAVA" -Xmx512m $OPENS -Dhadoop.log.dir="$WORK/logs" \
    -Dhadoop.log.file=driver.log -cp "$WORK/conf/h1:$APP_CP" "$MAIN" yarn-terasort --hosts "$N" \
    --prefix "$PREFIX" --subnet "$SUBNET" --pids "$PIDS" --out "$BENCH_OUT" \
    --config "switch port rate=$RATE,queue=bfifo ${QLIMIT_BYTES:-225000} B per switch port,congestion control=${CC:-cubic}" \
    "$@"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  bench) shift; cmd_bench "$@" ;;
  *) echo "usage: $0 up|down|status|bench [--help | --repeats N --warmups N --rows N --gen-maps N --reduces N]" >&2; exit 2 ;;
esac
