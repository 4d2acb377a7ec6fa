# Sourced by netemu.sh and yarn-cluster.sh (not run on its own).
#
#   stop_pid PID [GRACE_SECONDS]   TERM, then KILL if PID still runs after GRACE_SECONDS (default 5). Callers pass
#                                  only PIDs they recorded themselves or found inside their own namespaces.
stop_pid() {
  local pid=$1 grace=${2:-5} k
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for k in $(seq 1 $((grace * 10))); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}
