#!/usr/bin/env bash
# Real worker JVMs on this host: each worker's join-to-ready and the idle master's CPU per worker.
#
#   bench/workers.sh [N] [IDLE_SECONDS]     # default 10 workers, 20 s idle
#
# Starts `bin/parl master --port 0 --cpus 1` under a PARL_HOME of its own, then N workers one after
# the other (`bin/parl worker --cpus 1`), each timed from its start to its "parl worker ... ready" line.
# Then, with every worker idle, it reads the master's CPU time (/proc/PID/stat) over IDLE_SECONDS:
# before the workers (the master alone) and after. Prints one line per worker and a summary; stops
# everything it started, by pid, also when interrupted.
set -euo pipefail
n=${1:-10}
idle=${2:-20}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
home=$(mktemp -d /tmp/parl-workers-bench.XXXXXX)
export PARL_HOME=$home
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 150); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$p" 2>/dev/null || true
  done
  rm -rf "$home"
}
trap cleanup EXIT INT TERM

ticks() { # utime + stime of a process, in clock ticks
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}
cpu_ms_per_s() { # the process's CPU in ms per second over $2 seconds
  local a b
  a=$(ticks "$1"); sleep "$2"; b=$(ticks "$1")
  echo $(( (b - a) * 1000 / $(getconf CLK_TCK) / $2 ))
}
now_ms() { date +%s%3N; }

"$root/bin/parl" master --port 0 --cpus 1 > "$home/master.out" 2>&1 &
pids+=($!)
master=$!
for _ in $(seq 600); do grep -q "parl master ready" "$home/master.out" && break; sleep 0.1; done
address=$(sed -n 's/.*parl master ready: address \([^,]*\),.*/\1/p' "$home/master.out")
[ -n "$address" ] || { echo "the master did not start:"; cat "$home/master.out"; exit 1; }
# bin/parl runs java through exec, so the pid is the JVM's
sleep 5
alone=$(cpu_ms_per_s "$master" "$idle")
echo "master at $address; idle, alone: $alone ms CPU/s"

joins=()
for i in $(seq "$n"); do
  out="$home/worker-$i.out"
  t0=$(now_ms)
  "$root/bin/parl" worker --address "$address" --cpus 1 > "$out" 2>&1 &
  pids+=($!)
  until grep -q "parl worker .* ready" "$out"; do
    kill -0 "${pids[-1]}" 2>/dev/null || { echo "worker $i ended:"; cat "$out"; exit 1; }
    sleep 0.05
  done
  joins+=($(( $(now_ms) - t0 )))
  echo "worker $i: join-to-ready ${joins[-1]} ms"
done
sleep 5
busy=$(cpu_ms_per_s "$master" "$idle")
heap=$(jcmd "$master" GC.heap_info 2>/dev/null | grep -o 'used [0-9]*K' | head -1 || true)
echo "workers $n; join-to-ready first ${joins[0]} ms, last ${joins[-1]} ms"
echo "idle master with $n workers: $busy ms CPU/s (alone $alone): $(( (busy - alone) * 1000 / n )) us CPU/s per worker; heap used ${heap:-?}"
