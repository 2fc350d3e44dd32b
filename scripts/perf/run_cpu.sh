#!/bin/bash
# run_cpu: bench's own CPU time per run of a 10 s local fio workload (issue 19, acceptance 5: <= 1% of the
# run's length), not fio's. Not a test: a measurement.
#
# `bench run` of a job file (ioengine=null, randrw 4k, runtime RUNTIME s, no ramp) with the default collectors,
# started by python3, which waits for it with WNOWAIT (the process stays a zombie) and then reads its
# /proc/PID/stat: utime + stime is bench's own CPU (all its threads), cutime + cstime that of the processes it
# started and reaped (fio). Repeated REPS times; prints each and the median.
#
# usage: scripts/perf/run_cpu.sh [BENCH_BINARY] [RUNTIME_S] [REPS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/machine.sh"
BENCH=${1:-${BENCH:-$HERE/../../build/bench}}
RUNTIME=${2:-10}
REPS=${3:-3}
[ -x "$BENCH" ] || { echo "run_cpu: no bench binary at '$BENCH' (pass it as the first argument)" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
perf_machine
printf '[w]\nioengine=null\nrw=randrw\nrwmixread=70\nbs=4k\nsize=64m\ntime_based\nruntime=%s\niodepth=8\n' \
	"$RUNTIME" >"$T/w.fio"
python3 - "$BENCH" "$T" "$RUNTIME" "$REPS" <<'PY'
import os, subprocess, sys
bench, tmp, runtime, reps = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
hz = os.sysconf("SC_CLK_TCK")
own = []
for r in range(reps):
    db = f"{tmp}/r{r}.db"
    with open(f"{tmp}/out", "w") as out:
        p = subprocess.Popen([bench, "run", f"{tmp}/w.fio", "--db", db, "-q"], stdout=out, stderr=subprocess.STDOUT)
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
    f = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(x) / hz for x in f[11:15])
    p.wait()
    if p.returncode != 0:
        sys.exit(f"run_cpu: bench run exited {p.returncode}: {open(tmp + '/out').read()[:400]}")
    own.append(utime + stime)
    print(f"run {r + 1}: bench {utime:.2f} s user + {stime:.2f} s sys = {utime + stime:.2f} s "
          f"({100 * (utime + stime) / runtime:.2f}% of {runtime:.0f} s); its children (fio) {cutime + cstime:.2f} s")
own.sort()
m = own[len(own) // 2]
print(f"median: bench's own CPU {m:.2f} s per {runtime:.0f} s run = {100 * m / runtime:.2f}% "
      f"[target <= 1%: {'meets' if 100 * m / runtime <= 1 else 'MISSES'}] (clock tick {1000 / hz:.0f} ms)")
PY
