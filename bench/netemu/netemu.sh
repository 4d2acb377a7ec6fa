#!/usr/bin/env bash
# Emulated data-center network on one machine (network namespaces), for the Courier netemu benchmark.
#
#   netemu.sh setup      N host namespaces ${PREFIX}h1..hN on a "big switch": a bridge in ${PREFIX}sw whose
#                        output port toward host i (p<i>) is HTB-shaped to RATE with a bounded byte FIFO
#                        (bfifo QLIMIT_BYTES, default 225000 as in the Courier paper); host NICs shaped to RATE
#                        with a large packet FIFO (HOST_QLEN) so that only the switch drops; offloads off on both
#                        ends of every veth; static ARP and bridge FDB; bridge netfilter off; congestion control CC
#                        (default cubic) as every namespace's default. Always also a management network for
#                        control traffic that must not cross the emulated switch (the Courier coordinator's
#                        Artery TCP): in each host namespace mgmt0 = ${MGMT_SUBNET}.i, veth to a root-namespace
#                        bridge ${PREFIX}mg = ${MGMT_SUBNET}.254; unshaped, no qdisc of ours, offloads untouched.
#   netemu.sh teardown   stops every process this script started (by PID file) and anything still running in
#                        its namespaces (by PID), deletes the namespaces (veths and bridge go with them) and
#                        restores the global sysctl it changed. Idempotent.
#   netemu.sh status     what exists now (namespaces, qdiscs, PIDs, the saved sysctl); exit 1 if nothing is set up.
#   netemu.sh start-agents CLASSPATH            one benchmark agent JVM per host namespace (PIDs recorded)
#   netemu.sh bench [OPTIONS]                   setup, agents, coordinator run (CP, OUT from the environment),
#                                               report, teardown (also on failure or Ctrl-C)
#   netemu.sh stop-agents                       stops them by PID
#   netemu.sh exec HOST CMD...                  runs CMD in host namespace HOST (1..N)
#
# Knobs (environment): N (8), RATE (50mbit), QLIMIT_BYTES (225000), HOST_QLEN (10000 packets), HOST_SHAPE (1),
# CC (cubic), RTO_MIN_US (unset: kernel default 200 ms), PREFIX (cne-), SUBNET (10.201.0), MGMT_SUBNET (10.202.0;
# must differ from SUBNET), STATE_DIR (/run/courier-netemu), AGENT_JAVA_OPTS (-Xmx640m -XX:+UseSerialGC
# -XX:TieredStopAtLevel=1: the agents' JVM options), JIT (c1: those options; c2: the same without
# -XX:TieredStopAtLevel=1, default tiered compilation), JAVA (java); bench: CP, OUT (target/netemu). Needs root, iproute2 and ethtool (installed with apt-get when missing).
# Facts, numbers and pitfalls behind these choices: docs/benchmarks.md "Emulated network (netemu)".
set -euo pipefail

N=${N:-8}
RATE=${RATE:-50mbit}
QLIMIT_BYTES=${QLIMIT_BYTES:-225000}
HOST_QLEN=${HOST_QLEN:-10000}
HOST_SHAPE=${HOST_SHAPE:-1}
CC=${CC:-cubic}
PREFIX=${PREFIX:-cne-}
SUBNET=${SUBNET:-10.201.0}
MGMT_SUBNET=${MGMT_SUBNET:-10.202.0}
STATE_DIR=${STATE_DIR:-/run/courier-netemu}
SW="${PREFIX}sw"

log() { echo "netemu: $*" >&2; }
die() { echo "netemu: error: $*" >&2; exit 1; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (network namespaces, tc, sysctl)"; }

# Installs the tools the testbed needs when one is missing (iproute2: ip/tc/ss/nstat; ethtool).
ensure_tools() {
  local missing=()
  command -v ip >/dev/null && command -v tc >/dev/null && command -v ss >/dev/null && command -v nstat >/dev/null \
    || missing+=(iproute2)
  command -v ethtool >/dev/null || missing+=(ethtool)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]} with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2 || die "apt-get install ${missing[*]} failed"
  fi
}

mac_of() { printf '02:cc:00:00:%02x:%02x' $(($1 / 256)) $(($1 % 256)); }
host_ns() { echo "${PREFIX}h$1"; }
host_ip() { echo "${SUBNET}.$1"; }
mgmt_ip() { echo "${MGMT_SUBNET}.$1"; }
MGMT_BR="${PREFIX}mg"

our_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep "^${PREFIX}" || true; }

offloads_off() { # ns dev
  ip netns exec "$1" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1 \
    || ip netns exec "$1" ethtool -K "$2" tso off gso off gro off
}

# Adds CC to the global allowed list (a namespace may default only to an allowed CC: EPERM otherwise); the original
# list is saved once and restored by teardown.
allow_cc() {
  local cur
  cur=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
  grep -qw "$CC" /proc/sys/net/ipv4/tcp_available_congestion_control \
    || die "congestion control '$CC' is not available (available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control))"
  [ -f "$STATE_DIR/allowed_cc" ] || echo "$cur" > "$STATE_DIR/allowed_cc"
  if ! echo " $cur " | grep -qw "$CC"; then
    sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$cur $CC" >/dev/null
  fi
}

cmd_setup() {
  need_root
  ensure_tools
  [ -z "$(our_namespaces)" ] || die "namespaces ${PREFIX}* exist already; run '$0 teardown' first"
  [ "$N" -ge 2 ] && [ "$N" -le 250 ] || die "N must be 2..250, got $N"
  [ "$MGMT_SUBNET" != "$SUBNET" ] || die "MGMT_SUBNET must differ from SUBNET ($SUBNET)"
  if ip -o link show "$MGMT_BR" >/dev/null 2>&1; then die "link $MGMT_BR exists already; run '$0 teardown' first"; fi
  mkdir -p "$STATE_DIR"
  : > "$STATE_DIR/pids"
  # Written first: a failed setup can always be torn down.
  printf 'N=%s\nRATE=%s\nQLIMIT_BYTES=%s\nHOST_QLEN=%s\nHOST_SHAPE=%s\nCC=%s\nPREFIX=%s\nSUBNET=%s\nMGMT_SUBNET=%s\n' \
    "$N" "$RATE" "$QLIMIT_BYTES" "$HOST_QLEN" "$HOST_SHAPE" "$CC" "$PREFIX" "$SUBNET" "$MGMT_SUBNET" \
    > "$STATE_DIR/config"
  trap 'log "setup failed; tearing down"; cmd_teardown' ERR
  allow_cc

  ip netns add "$SW"
  ip -n "$SW" link set lo up
  ip -n "$SW" link add br0 type bridge
  # Bridged frames skip iptables (br_netfilter is built in); no STP, no learning delay.
  for k in bridge-nf-call-iptables bridge-nf-call-ip6tables bridge-nf-call-arptables; do
    if [ -e /proc/sys/net/bridge/$k ]; then ip netns exec "$SW" sysctl -q -w net.bridge.$k=0 >/dev/null || true; fi
  done
  ip -n "$SW" link set br0 type bridge stp_state 0 forward_delay 0
  ip -n "$SW" link set br0 up
  # Management network (root namespace side): a plain bridge; its veths die with the host namespaces, the bridge
  # is removed by teardown's sweep of ${PREFIX}* links.
  ip link add "$MGMT_BR" type bridge
  ip link set "$MGMT_BR" type bridge stp_state 0 forward_delay 0
  ip addr add "${MGMT_SUBNET}.254/24" dev "$MGMT_BR"
  ip link set "$MGMT_BR" up

  local i j
  for i in $(seq 1 "$N"); do
    local h; h=$(host_ns "$i")
    ip netns add "$h"
    ip -n "$h" link set lo up
    ip link add "${PREFIX}v$i" type veth peer name "${PREFIX}p$i"
    ip link set "${PREFIX}v$i" netns "$h"
    ip link set "${PREFIX}p$i" netns "$SW"
    ip -n "$h" link set "${PREFIX}v$i" name eth0
    ip -n "$h" link set eth0 address "$(mac_of "$i")"
    ip -n "$SW" link set "${PREFIX}p$i" name "p$i"
    ip -n "$SW" link set "p$i" master br0
    ip netns exec "$h" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 >/dev/null
    ip netns exec "$h" sysctl -q -w net.ipv4.tcp_congestion_control="$CC" >/dev/null
    # Cached ssthresh/cwnd of earlier runs must not leak into the next one.
    ip netns exec "$h" sysctl -q -w net.ipv4.tcp_no_metrics_save=1 >/dev/null
    if [ -n "${RTO_MIN_US:-}" ]; then
      ip netns exec "$h" sysctl -q -w net.ipv4.tcp_rto_min_us="$RTO_MIN_US" >/dev/null
    fi
    ip -n "$h" addr add "$(host_ip "$i")/24" dev eth0
    ip -n "$h" link set eth0 up
    ip -n "$SW" link set "p$i" up
    # Segmentation offloads make 64 KB super-packets that a packet FIFO counts as one: off on both ends.
    offloads_off "$h" eth0
    offloads_off "$SW" "p$i"
    # Switch output port toward host i: HTB at RATE, bounded byte FIFO (ACKs take bytes, not whole slots).
    ip netns exec "$SW" tc qdisc add dev "p$i" root handle 1: htb default 10
    ip netns exec "$SW" tc class add dev "p$i" parent 1: classid 1:10 htb rate "$RATE" ceil "$RATE" \
      burst 3028 cburst 3028 quantum 1514
    ip netns exec "$SW" tc qdisc add dev "p$i" parent 1:10 handle 10: bfifo limit "$QLIMIT_BYTES"
    # Host NIC at line rate with a queue large enough that the host never drops (TSQ does not bound µs RTTs).
    if [ "$HOST_SHAPE" = 1 ]; then
      ip netns exec "$h" tc qdisc add dev eth0 root handle 1: htb default 10
      ip netns exec "$h" tc class add dev eth0 parent 1: classid 1:10 htb rate "$RATE" ceil "$RATE" \
        burst 3028 cburst 3028 quantum 1514
      ip netns exec "$h" tc qdisc add dev eth0 parent 1:10 handle 10: pfifo limit "$HOST_QLEN"
    fi
    # Management interface: unshaped, never crosses the emulated switch.
    ip link add "${PREFIX}m$i" type veth peer name "${PREFIX}n$i"
    ip link set "${PREFIX}n$i" netns "$h"
    ip -n "$h" link set "${PREFIX}n$i" name mgmt0
    ip -n "$h" addr add "$(mgmt_ip "$i")/24" dev mgmt0
    ip -n "$h" link set mgmt0 up
    ip link set "${PREFIX}m$i" master "$MGMT_BR"
    ip link set "${PREFIX}m$i" up
    # Static forwarding entry: the bridge never floods.
    ip netns exec "$SW" bridge fdb replace "$(mac_of "$i")" dev "p$i" master static
  done
  for i in $(seq 1 "$N"); do
    for j in $(seq 1 "$N"); do
      [ "$i" = "$j" ] || ip -n "$(host_ns "$i")" neigh replace "$(host_ip "$j")" lladdr "$(mac_of "$j")" \
        dev eth0 nud permanent
    done
  done
  trap - ERR
  log "up: $N hosts ${SUBNET}.1-$N, switch ports $RATE with bfifo $QLIMIT_BYTES B, CC $CC;" \
    "management ${MGMT_SUBNET}.1-$N via $MGMT_BR (${MGMT_SUBNET}.254)"
}

# stop_pid PID: TERM, then KILL after 5 s. Only PIDs this script recorded or found inside its namespaces.
# shellcheck source=stop-pid.sh
. "$(dirname "${BASH_SOURCE[0]}")/stop-pid.sh"

cmd_stop_agents() {
  if [ -f "$STATE_DIR/pids" ]; then
    local pid
    while read -r pid _; do
      [ -n "$pid" ] && stop_pid "$pid"
    done < "$STATE_DIR/pids"
    : > "$STATE_DIR/pids"
  fi
}

cmd_teardown() {
  need_root
  [ -f "$STATE_DIR/config" ] && { PREFIX=$(sed -n 's/^PREFIX=//p' "$STATE_DIR/config"); SW="${PREFIX}sw"
    MGMT_BR="${PREFIX}mg"; }
  cmd_stop_agents
  local ns pid
  for ns in $(our_namespaces); do
    # Anything still running inside one of our namespaces was started through this testbed.
    for pid in $(ip netns pids "$ns" 2>/dev/null); do stop_pid "$pid"; done
    ip netns del "$ns" 2>/dev/null || true
  done
  if [ -f "$STATE_DIR/allowed_cc" ]; then
    sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$(cat "$STATE_DIR/allowed_cc")" >/dev/null
    rm -f "$STATE_DIR/allowed_cc"
  fi
  rm -f "$STATE_DIR/config" "$STATE_DIR/pids" "$STATE_DIR"/agent-*.sock "$STATE_DIR"/agent-*.log
  rm -rf "$STATE_DIR/work"
  rmdir "$STATE_DIR" 2>/dev/null || true
  # veth pairs die with their namespace; a half-built pair left in the root namespace, and the management bridge
  # ${PREFIX}mg, are ours by their prefix.
  local l
  for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^${PREFIX}" || true); do
    ip link del "$l" 2>/dev/null || true
  done
  log "torn down: $(our_namespaces | wc -l) ${PREFIX}* namespaces left," \
    "allowed CC: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
}

cmd_status() {
  local nss; nss=$(our_namespaces)
  if [ -z "$nss" ]; then echo "netemu: nothing set up (no ${PREFIX}* namespaces)"; return 1; fi
  [ -f "$STATE_DIR/config" ] && cat "$STATE_DIR/config"
  echo "namespaces: $(echo "$nss" | tr '\n' ' ')"
  echo "allowed CC: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
  ip -br addr show "$MGMT_BR" 2>/dev/null || true
  [ -f "$STATE_DIR/pids" ] && echo "agent pids: $(awk '{print $1}' "$STATE_DIR/pids" | tr '\n' ' ')"
  ip netns exec "$SW" tc -s qdisc show | grep -E '^qdisc (htb|bfifo)|dropped' || true
}

# JVM options of every benchmark JVM: Hadoop's JDK 17 flags, IPv4 sockets (connections show in /proc/net/tcp).
HADOOP_OPENS="-XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
--add-opens=java.base/java.math=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED \
--add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.zip=ALL-UNNAMED \
--add-opens=java.base/sun.security.util=ALL-UNNAMED --add-opens=java.base/sun.security.x509=ALL-UNNAMED \
-Djava.net.preferIPv4Stack=true"
MAIN=io.courier.bench.netemu.NetemuBench
# The JIT arm: c1 (default) stops tiered compilation at C1, as the agents always ran; c2 compiles hot code with C2
# as a default JVM does (its compile CPU shows in the jit role, docs/benchmarks.md "Emulated network (netemu)").
JIT=${JIT:-}
AGENT_JAVA_OPTS=${AGENT_JAVA_OPTS:-}

# Sets AGENT_JAVA_OPTS (JIT's default when not given) and JIT_ARM, the arm the agents really run, for the report;
# an explicit JIT must agree with explicit options. Called by the commands that start agents (teardown never fails
# on a bad JIT).
agent_jit_arm() {
  local defaults
  case "${JIT:-c1}" in
    c1) defaults="-Xmx640m -XX:+UseSerialGC -XX:TieredStopAtLevel=1" ;;
    c2) defaults="-Xmx640m -XX:+UseSerialGC" ;;
    *) die "JIT must be c1 or c2, got '$JIT'" ;;
  esac
  AGENT_JAVA_OPTS=${AGENT_JAVA_OPTS:-$defaults}
  case " $AGENT_JAVA_OPTS " in
    *" -XX:TieredStopAtLevel="[123]" "*) JIT_ARM=c1 ;;
    *) JIT_ARM=c2 ;;
  esac
  [ -z "$JIT" ] || [ "$JIT" = "$JIT_ARM" ] || die "JIT=$JIT contradicts AGENT_JAVA_OPTS='$AGENT_JAVA_OPTS'" \
    "(c1 needs -XX:TieredStopAtLevel=1, c2 must not stop below level 4)"
}

# One agent JVM per host namespace (class path CP); PIDs go to $STATE_DIR/pids. Waits until every agent is ready.
cmd_start_agents() {
  need_root
  local cp=$1
  agent_jit_arm
  [ -f "$STATE_DIR/config" ] || die "not set up; run '$0 setup' first"
  # shellcheck disable=SC1091
  . "$STATE_DIR/config"
  local i
  for i in $(seq 1 "$N"); do
    # ip netns exec execs the JVM: $! is the JVM itself. nice -n -10: the emulated hosts outrank builds.
    # shellcheck disable=SC2086
    ip netns exec "$(host_ns "$i")" nice -n -10 "${JAVA:-java}" $AGENT_JAVA_OPTS $HADOOP_OPENS -cp "$cp" "$MAIN" \
      agent --host "$i" --ip "$(host_ip "$i")" --mgmt-ip "$(mgmt_ip "$i")" --socket "$STATE_DIR/agent-$i.sock" --dir "$STATE_DIR/work/h$i" \
      > "$STATE_DIR/agent-$i.log" 2>&1 &
    echo "$! agent-$i" >> "$STATE_DIR/pids"
  done
  local deadline=$((SECONDS + 180)) pid
  for i in $(seq 1 "$N"); do
    until grep -q "^READY $i" "$STATE_DIR/agent-$i.log" 2>/dev/null; do
      pid=$(sed -n "${i}p" "$STATE_DIR/pids" | awk '{print $1}')
      kill -0 "$pid" 2>/dev/null || die "agent $i (pid $pid) exited: $(tail -5 "$STATE_DIR/agent-$i.log")"
      [ $SECONDS -lt $deadline ] || die "agent $i not ready after 180 s: $(tail -5 "$STATE_DIR/agent-$i.log")"
      sleep 0.5
    done
  done
  log "started $N agents: $(awk '{print $1}' "$STATE_DIR/pids" | tr '\n' ' ')"
}

# The whole benchmark: setup, agents, coordinator (root namespace), report; teardown whatever happens.
#   CP=<class path> OUT=<dir> netemu.sh bench [benchmark driver options: --quick --repeats N --families ...]
cmd_bench() {
  need_root
  [ -n "${CP:-}" ] || die "CP (the netemu-bench class path) is not set; use bin/courier bench netemu"
  agent_jit_arm
  BENCH_OUT=${OUT:-target/netemu}
  local rate_mbit
  rate_mbit=$(echo "$RATE" | sed -n 's/^\([0-9][0-9]*\)mbit$/\1/p')
  [ -n "$rate_mbit" ] || die "RATE must be <n>mbit for the benchmark, got $RATE"
  local a
  for a in "$@"; do
    case "$a" in -h|--help) exec "${JAVA:-java}" -cp "$CP" "$MAIN" run --help ;; esac
  done
  # The driver checks its options first: a wrong one exits 2 with the driver's message before minutes go to
  # building the testbed.
  "${JAVA:-java}" -Xmx128m -cp "$CP" "$MAIN" run --check-options --hosts "$N" --rate-mbit "$rate_mbit" \
    --socket-dir "$STATE_DIR" --out "$BENCH_OUT" --prefix "$PREFIX" --subnet "$SUBNET" --mgmt-subnet "$MGMT_SUBNET" \
    "$@" || exit $?
  mkdir -p "$BENCH_OUT"
  cmd_setup   # tears down what it built itself when it fails
  trap 'cp "$STATE_DIR"/agent-*.log "$BENCH_OUT"/ 2>/dev/null || true; cmd_teardown' EXIT
  trap 'exit 130' INT TERM
  cmd_start_agents "$CP"
  # shellcheck disable=SC2086
  "${JAVA:-java}" -Xmx512m $HADOOP_OPENS -cp "$CP" "$MAIN" run --hosts "$N" --rate-mbit "$rate_mbit" \
    --socket-dir "$STATE_DIR" --out "$BENCH_OUT" --prefix "$PREFIX" --subnet "$SUBNET" --mgmt-subnet "$MGMT_SUBNET" \
    --config "queue=bfifo $QLIMIT_BYTES B per switch port,congestion control=$CC,host NIC queue=pfifo $HOST_QLEN,agent JIT=$JIT_ARM (agent JVM options: ${AGENT_JAVA_OPTS//,/;})" \
    "$@"
}

case "${1:-}" in
  setup) cmd_setup ;;
  teardown) cmd_teardown ;;
  status) cmd_status ;;
  start-agents) shift; [ $# -ge 1 ] || die "usage: $0 start-agents CLASSPATH"; cmd_start_agents "$1" ;;
  bench) shift; cmd_bench "$@" ;;
  stop-agents) need_root; cmd_stop_agents ;;
  exec) shift; [ $# -ge 2 ] || die "usage: $0 exec HOST CMD..."; h=$1; shift; exec ip netns exec "$(host_ns "$h")" "$@" ;;
  *) echo "usage: $0 setup|teardown|status|start-agents CLASSPATH|stop-agents|bench [options]|exec HOST CMD..." >&2
     exit 2 ;;
esac
