#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests and for trying `--executor slurm`:
#   scripts/slurm-local.sh start DIR [CPUS]   writes DIR/slurm.conf, starts munged, slurmctld and
#                                              slurmd (localhost only, ports picked free), waits
#                                              until the node is idle, prints `export SLURM_CONF=...`
#   scripts/slurm-local.sh stop DIR           stops the three daemons started in DIR
# Everything (key, sockets, state, logs) lives in DIR; nothing under /etc is read or written.
# Needs Debian's slurmctld, slurmd, slurm-client and munge (scripts/install-deps.sh installs them).
set -euo pipefail

usage() { echo "usage: $0 start DIR [CPUS] | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)

stop() {
  local pids=() d pid
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] || continue
    pid=$(cat "$dir/$d.pid")
    rm -f "$dir/$d.pid"
    # Only a daemon of this folder: the pid may have been reused since.
    grep -q -- "$dir" "/proc/$pid/cmdline" 2>/dev/null || continue
    kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 100); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}

# A port no socket on this machine is bound to (/proc/net/tcp lists them in hex), from a range
# the kernel does not hand out to outgoing connections.
free_port() {
  local port hex
  while :; do
    port=$((20000 + RANDOM % 12000))
    hex=$(printf ':%04X ' "$port")
    grep -q -- "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$port"; return; }
  done
}

need() {
  command -v "$1" >/dev/null || { echo "error: $1 is missing; install Debian's slurmctld slurmd slurm-client munge (scripts/install-deps.sh)" >&2; exit 3; }
}

case "$action" in
  stop) stop; exit 0 ;;
  start) ;;
  *) usage ;;
esac
cpus=${3:-$(nproc)}
for p in munged slurmctld slurmd sbatch squeue sinfo; do need "$p"; done
stop  # a cluster left over in DIR

user=$(id -un)
node=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir"
if [ ! -f "$dir/munge.key" ]; then
  head -c 1024 /dev/urandom > "$dir/munge.key"
  chmod 400 "$dir/munge.key"
fi
# munged refuses keys and sockets in folders others can write; --force accepts root and DIR.
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --log-file="$dir/log/munged.log" \
  --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed" 2>>"$dir/log/munged.err"

ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
mem=$(awk '/MemTotal/ {print int($2/1024/2)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<CONF
ClusterName=aoc-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=3600
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" 2>>"$dir/log/slurmctld.err"
slurmd -f "$SLURM_CONF" 2>>"$dir/log/slurmd.err"
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  if [ "$state" = idle ]; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.2
done
echo "error: the node did not come up (state '${state:-none}'); logs in $dir/log" >&2
tail -n 5 "$dir"/log/* >&2 || true
stop
exit 1
