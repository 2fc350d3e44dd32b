#!/usr/bin/env bash
# series_fio_logs: fio's own logs at fio's resolution (issue 13, acceptance 1 and 3, the per-host part).
#  1. real fio, write_iops_log + write_lat_log with log_avg_msec=1000 and write_hist_log with log_hist_msec=1000,
#     15 s: imported into a run (--run ID), every log line is one stored sample at its own time; importing the
#     same logs again leaves the counts unchanged; --append doubles them.
#  3. the p50/p90/p99/p99.9 over time that bench computes from the histogram log (core/series.h, read back
#     from the chart data of `bench report --charts`) equal fio's own tools/hist/fio-histo-log-pctiles.py
#     (Debian ships it gzipped in /usr/share/doc/fio) on the same file, to fio's bucket resolution.
set -u
: "${BENCH:?}"
T=$(mktemp -d /tmp/bench-series-logs.XXXXXX)
fail() { echo "FAIL: $*" >&2; exit 1; }
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
command -v python3 >/dev/null || fail "python3 is needed"
command -v sqlite3 >/dev/null || fail "sqlite3 is needed"
PCT=/usr/share/doc/fio/fio-histo-log-pctiles.py.gz
[ -f "$PCT" ] || fail "$PCT is missing (Debian's fio package ships it)"
gunzip -c "$PCT" >pctiles.py || fail "gunzip $PCT"

fio --name=s --filename="$T/f" --size=16m --rw=randrw --rwmixread=70 --bs=4k --ioengine=psync --time_based \
	--runtime=15 --rate_iops=400,150 --write_iops_log=s --write_lat_log=s --log_avg_msec=1000 \
	--write_hist_log=s --log_hist_msec=1000 --output-format=json --output=s.json >/dev/null 2>&1 ||
	fail "fio did not run"
for f in s_iops.1.log s_lat.1.log s_clat_hist.1.log; do [ -s "$f" ] || fail "fio wrote no $f"; done
"$BENCH" import --db t.db s.json >/dev/null || fail "import fio JSON"
run=$(sqlite3 t.db "SELECT max(id) FROM run")
"$BENCH" import --db t.db --run "$run" s_iops.1.log s_lat.1.log s_clat_hist.1.log >/dev/null || fail "import logs"
count() { sqlite3 t.db "SELECT count(*) FROM sample WHERE run_id = $run AND metric LIKE '$1'"; }
lines() { grep -c . "$1"; }
n_iops=$(count 'iops.%') n_lat=$(count 'lat_ns.%')
[ "$n_iops" = "$(lines s_iops.1.log)" ] || fail "IOPS: $n_iops samples, $(lines s_iops.1.log) lines"
[ "$n_lat" = "$(lines s_lat.1.log)" ] || fail "latency: $n_lat samples, $(lines s_lat.1.log) lines"
python3 - t.db "$run" <<'PY' || fail "samples are not the lines"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); run = int(sys.argv[2])
for log, metric in (("s_iops.1.log", "iops"), ("s_lat.1.log", "lat_ns")):
    want = sorted((f"{metric}.{('read', 'write', 'trim')[int(l.split(',')[2])]}", int(l.split(",")[0]),
                   float(l.split(",")[1])) for l in open(log) if l.strip())
    got = sorted(db.execute("SELECT metric, t_ms, value FROM sample WHERE run_id = ? AND metric LIKE ?",
                            (run, metric + ".%")).fetchall())
    assert got == want, (log, got[:3], want[:3])
ivals = db.execute("SELECT count(DISTINCT t_ms || metric) FROM sample WHERE run_id = ? AND metric LIKE 'clat_hist.%'",
                   (run,)).fetchone()[0]
assert ivals == sum(1 for l in open("s_clat_hist.1.log") if l.strip()), ivals
print(f"acceptance 1: {len(want)} lat lines = samples; {ivals} histogram intervals = lines")
PY
[ $? = 0 ] || exit 1
n_hist=$(count 'clat_hist.%')
"$BENCH" import --db t.db --run "$run" s_iops.1.log s_lat.1.log s_clat_hist.1.log >/dev/null || fail "re-import"
[ "$(count 'iops.%')" = "$n_iops" ] && [ "$(count 'lat_ns.%')" = "$n_lat" ] && [ "$(count 'clat_hist.%')" = "$n_hist" ] ||
	fail "re-import changed the counts: $(count 'iops.%') $(count 'lat_ns.%') $(count 'clat_hist.%'), was $n_iops $n_lat $n_hist"
"$BENCH" import --db t.db --run "$run" --append s_iops.1.log >/dev/null || fail "--append"
[ "$(count 'iops.%')" = "$((2 * n_iops))" ] || fail "--append: $(count 'iops.%') IOPS samples, want $((2 * n_iops))"
echo "acceptance 1: $n_iops IOPS samples for $(lines s_iops.1.log) lines; re-import: $n_iops; --append: $((2 * n_iops))"

# percentiles over time: bench's (core/series.h, read back from the chart data) against fio's script.
# The script assumes a record's stamp is the START of its interval and gives it to the quanta it overlaps
# by time, so at fio's drifting stamps (1043, 2042 ...) each of its rows blends a few % of the neighbouring
# record; fio stamps the END (the record holds the IOs since the previous one), which is what bench keeps.
# So the script runs on the same file with its stamps put on the 1 s grid (nothing else changed): then every
# record is one of its quanta and the two must agree to the float; the unchanged file is compared too and
# its largest difference printed (in fio buckets).
"$BENCH" report --db t.db --where name=s --charts charts >/dev/null 2>report.err || fail "report --charts: $(cat report.err)"
GP=$(ls charts/e-*-time.gp 2>/dev/null | head -1)
[ -n "$GP" ] || fail "no chart over time"
awk -F', ' 'BEGIN { OFS = ", " } { $1 = int(($1 + 500) / 1000) * 1000; print }' s_clat_hist.1.log >grid_clat_hist.1.log
for p in 50 90 99 99.9; do
	for f in s grid; do
		python3 pctiles.py --percentiles "$p" --log-hist-msec 1000 -- "${f}_clat_hist.1.log" >"$f$p.txt" 2>&1 ||
			fail "fio-histo-log-pctiles.py: $(cat "$f$p.txt")"
	done
done
PYTHONPATH="$(dirname "$0")" python3 - "$GP" <<'PY' || fail "percentiles differ from fio-histo-log-pctiles.py"
import sys, series_chartdata
lines = series_chartdata.read(sys.argv[1])
def script(path):
    out = {}
    for l in open(path):
        f = [x.strip() for x in l.split(",")]
        if len(f) >= 3 and f[0].isdigit() and f[2]:
            out[int(f[0])] = float(f[2]) * 1000.0  # usec -> ns
    return out
def width(v):
    g = max(int(v).bit_length() - 6, 0)
    return 1 if g <= 1 else 1 << (g - 1)
# A second is compared where exactly one record lands on it, stamped within 400 ms of it: on a loaded machine fio's
# stamps drift, and two records whose stamps round to one second are one row of the script (its quantum) but two
# slots of bench (each record's own interval); that is the script's layout, not a difference of percentiles.
records = [(int(f[0]), f[1].strip()) for f in (l.split(",") for l in open("s_clat_hist.1.log") if l.strip())]
per_second = {}
for st, ddir in records:  # one record per direction and interval
    per_second.setdefault(int((st + 500) / 1000) * 1000, {}).setdefault(ddir, []).append(st)
clean = {g for g, dirs in per_second.items()
         if all(len(sts) == 1 and abs(sts[0] - g) <= 400 for sts in dirs.values())}
for p, name in (("50", "p50"), ("90", "p90"), ("99", "p99"), ("99.9", "p99.9")):
    bench = lines[("all hosts: percentiles", name)]
    grid, raw = script(f"grid{p}.txt"), script(f"s{p}.txt")
    # a record stamped 1043 is the script's row 1000 (its quantum [1000, 2000)) and bench's slot round(1.043) = 1
    pairs = [(t, bench[t], v) for t, v in grid.items() if t in bench and t in clean]
    assert len(pairs) >= 10, (name, sorted(bench), sorted(grid), sorted(clean), records)
    worst = max(abs(b - s) / s for _, b, s in pairs)
    assert worst < 1e-6, (name, [x for x in pairs if abs(x[1] - x[2]) > 1e-6 * x[2]][:3])
    rawd = max(abs(bench[t] - v) / width(v) for t, v in raw.items() if t in bench)
    print(f"acceptance 3 (one file): {name} over {len(pairs)} s equals fio-histo-log-pctiles.py "
          f"(largest relative difference {worst:.1e}); on the unchanged stamps within {rawd:.1f} buckets")
PY
[ $? = 0 ] || exit 1
echo "series_fio_logs: ok"
