#!/bin/bash
# report_scale: `bench report`, `bench report --compare` and `bench gate` over a database of RUNS stored runs
# (default 100,000; issue 19, acceptance 4: each under 2 s and 200 MiB). Not a test: a measurement.
#
# The database is made fast with one `bench import --csv` of a generated table (python3): 20 workloads (block
# size x read share x random share x iodepth) x 2 labels (branch=base, branch=cand) x RUNS/40 repetitions, each
# row with read and write IOPS, MiB/s, mean and p99 latency and CPU, varied per row. Each command is timed
# with GNU time (wall, peak RSS, and user + sys CPU: the machine is shared, and a wall time under load says
# little without the CPU it took); output goes to /dev/null after its line count is printed.
#
# A CSV table has no IO counts, so the gate finds no measured direction in those runs (every cell INVALID)
# and never reaches its statistics. The last line therefore times the gate once more on a copy of the
# database whose result rows were given IO counts (sqlite3): 2 x RUNS/40 runs per cell, Mann-Whitney
# intervals over RUNS^2/1600 pairwise differences each.
#
# usage: scripts/perf/report_scale.sh [BENCH_BINARY] [RUNS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/machine.sh"
BENCH=${1:-${BENCH:-$HERE/../../build/bench}}
RUNS=${2:-100000}
[ -x "$BENCH" ] || { echo "report_scale: no bench binary at '$BENCH' (pass it as the first argument)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "report_scale: GNU time is missing: apt-get install time" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
perf_machine

python3 - "$T/runs.csv" "$RUNS" <<'PY'
import csv, random, sys
out, n = sys.argv[1], int(sys.argv[2])
random.seed(19)
wl = [(bs, rd, rnd, qd) for bs in ("4k", "64k") for rd in (0, 70, 100) for rnd in (0, 100) for qd in (1, 32)][:20]
reps = max(1, n // (2 * len(wl)))
with open(out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["workload", "tool", "bs", "rdpct", "randpct", "iodepth", "repetition", "branch", "read_iops",
                "write_iops", "read_lat_us", "write_lat_us", "read_p99_us", "write_p99_us", "cpu_pct"])
    for branch in ("base", "cand"):
        for (bs, rd, rnd, qd) in wl:
            for r in range(reps):
                k = 1.0 + random.gauss(0, 0.03) - (0.02 if branch == "cand" else 0)
                iops = 10000 * qd ** 0.5 * k
                w.writerow([f"fio-{bs}-{rd}rdpct-{rnd}randompct-qd{qd}", "fio", bs, rd, rnd, qd, r + 1, branch,
                            f"{iops * rd / 100:.1f}", f"{iops * (100 - rd) / 100:.1f}", f"{100 / k:.2f}",
                            f"{120 / k:.2f}", f"{400 / k:.2f}", f"{500 / k:.2f}", f"{30 * k:.1f}"])
PY
/usr/bin/time -f "%e %M" -o "$T/time" "$BENCH" import --csv "$T/runs.csv" --db "$T/r.db" >/dev/null
read -r iw irss <"$T/time"
stored=$(sqlite3 "$T/r.db" "SELECT count(*) FROM run")
printf 'database: %d runs stored by one bench import --csv in %s s (peak RSS %.1f MiB), %.1f MB\n' "$stored" "$iw" \
	"$(awk -v k="$irss" 'BEGIN { print k / 1024 }')" "$(awk -v b="$(stat -c %s "$T/r.db")" 'BEGIN { print b / 1e6 }')"

measure() { # label db args...
	local what=$1 db=$2 rc
	shift 2
	set +e
	/usr/bin/time -f "%e %M %U %S" -o "$T/time" "$BENCH" "$@" --db "$db" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	read -r wall rss usr sys < <(tail -n 1 "$T/time")
	printf '%-44s exit %d, %5d lines: %5.2f s [target < 2 s: %s] (CPU %.2f s), peak RSS %6.1f MiB [target < 200: %s]\n' \
		"$what" "$rc" "$(wc -l <"$T/out")" "$wall" "$(perf_verdict "$wall" '<=' 2)" \
		"$(awk -v u="$usr" -v s="$sys" 'BEGIN { print u + s }')" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" \
		"$(perf_verdict "$rss" '<=' 204800)"
	[ "$rc" -le 1 ] || [ "$rc" -eq 6 ] || { head -n 3 "$T/err" >&2; }
}
measure "bench report" "$T/r.db" report
measure "bench report --compare branch=base:cand" "$T/r.db" report --compare branch=base:cand
measure "bench gate (branch=base vs branch=cand)" "$T/r.db" gate --baseline branch=base --candidate branch=cand
cp "$T/r.db" "$T/s.db"
sqlite3 "$T/s.db" "UPDATE result SET ios = CAST(iops * 60 AS INTEGER) WHERE iops > 0"
measure "bench gate, with IO counts (statistics run)" "$T/s.db" gate --baseline branch=base --candidate branch=cand
