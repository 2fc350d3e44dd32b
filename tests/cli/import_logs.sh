#!/bin/bash
# import_logs: `bench import` of fio log files (issue 6, "fio logs"). The windowed logs of tests/fixtures/fio/logs
# (lat, clat, bw, iops; log_avg_msec 250, 500 and 1000; 4 and 5 columns) become runs with one sample per line
# per direction at the line's own time and value, with the window (issue 13; bw logs are KiB/s, stored as
# bytes/s); `--run ID` attaches a log's samples to an existing run without touching its results, and doing it
# again replaces them (same count), `--append` adds; a per-IO log (the fixture's and one generated here)
# gives a result with IOs, mean latency and percentiles computed here independently with fio's bucket rule; a
# histogram log (log_hist_msec) gives one interval per line and direction whose bucket counts are the line's;
# a bad line is refused with exit 3 and file:line, leaving the database as it was.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
cd "$T"
FX="$BENCH_SRC/tests/fixtures/fio/logs"
shopt -s nullglob
logs=() perio=() hist=()
for f in "$FX"/*.log; do
	case $f in
	*_hist.*) hist+=("$f") ;;
	*_perio_*) perio+=("$f") ;;
	*) logs+=("$f") ;;
	esac
done
[ ${#logs[@]} -ge 6 ] && [ ${#perio[@]} -ge 1 ] && [ ${#hist[@]} -ge 1 ] ||
	{ echo "FAIL: fixtures missing in $FX: ${#logs[@]} windowed, ${#perio[@]} per-IO, ${#hist[@]} histogram" >&2; exit 1; }
"$BENCH" import --db t.db --label src=log "${logs[@]}" "${perio[@]}" >out.txt
[ "$(wc -l <out.txt)" -eq $((${#logs[@]} + ${#perio[@]})) ] || { echo "FAIL: summary: $(cat out.txt)" >&2; exit 1; }

# per-IO log: 3 s of reads and writes, 5 columns
python3 - <<'PY'
import random
random.seed(7)
with open("gen_clat.1.log", "w") as f:
    for i in range(30000):
        d = 0 if i % 10 < 7 else 1
        f.write(f"{i // 10}, {random.randint(5000, 9000000)}, {d}, {4096 if d == 0 else 8192}, 0\n")
PY
"$BENCH" import --db t.db gen_clat.1.log >/dev/null
run1=$(sqlite3 t.db "SELECT min(id) FROM run")
before=$(sqlite3 t.db "SELECT count(*) FROM result WHERE run_id = $run1")
"$BENCH" import --db t.db --run "$run1" gen_clat.1.log >/dev/null

python3 - t.db "${#logs[@]}" "${logs[@]}" "${perio[@]}" <<'PY'
import sqlite3, sys, math
db = sqlite3.connect(sys.argv[1]); fails = []
nwin = int(sys.argv[2]); windowed, perio = sys.argv[3:3 + nwin], sys.argv[3 + nwin:]
def idx(v):
    if v < 128: return v
    msb = v.bit_length() - 1; eb = msb - 6
    return min(((eb + 1) << 6) + ((v >> eb) & 63), 1855)
def val(i):
    if i < 128: return i
    eb = (i >> 6) - 1
    return (1 << (eb + 6)) + int((i % 64 + 0.5) * (1 << eb))
def run_of(name):
    return db.execute("SELECT r.id FROM run r JOIN suite s ON s.id = r.suite_id WHERE s.name = ?", (name,)).fetchone()[0]
# kind from fio's file name: <prefix>_<kind>.<job>.log; metric and unit factor of bench's samples
KINDS = {"lat": ("lat_ns", 1), "clat": ("clat_ns", 1), "bw": ("bw_bytes", 1024), "iops": ("iops", 1)}
seen_avg, seen_cols = set(), set()
for path in windowed:
    kind = path.rsplit("_", 1)[1].split(".")[0]
    metric, unit = KINDS[kind]
    lines = [tuple(int(x) for x in l.split(",")[:4]) for l in open(path) if l.strip()]
    seen_cols |= {len(l.split(",")) for l in open(path) if l.strip()}
    if any(x[3] != 0 for x in lines): fails.append(f"{path}: not a windowed log (bs column not 0)")
    seen_avg.add(int(path.split("_avg")[1].split("_")[0]))
    rid = run_of(path)
    if db.execute("SELECT value FROM run_label WHERE run_id = ? AND key = 'src'", (rid,)).fetchone() != ("log",):
        fails.append(f"{path}: label missing")
    rows = db.execute("SELECT metric, t_ms, value, window_ms FROM sample WHERE run_id = ? AND host = 'localhost' "
                      "AND metric LIKE ?", (rid, metric + ".%")).fetchall()
    names = {0: metric + ".read", 1: metric + ".write"}
    want = sorted((names[x[2]], x[0], float(x[1] * unit)) for x in lines)
    got = sorted((m, t, v) for m, t, v, w in rows)
    if got != want: fails.append(f"{path}: stored {len(got)} samples, {len(want)} lines; first differences "
                                 f"{[(a, b) for a, b in zip(got, want) if a != b][:3]}")
    avg = int(path.split("_avg")[1].split("_")[0])
    if {w for _, _, _, w in rows} != {avg}: fails.append(f"{path}: windows {set(w for *_, w in rows)}, want {avg}")
    if len(rows) < 100: fails.append(f"{path}: only {len(rows)} samples")
# the windows and layouts the fixtures are there for (tests/fixtures/fio/logs/SOURCES.md)
if not {250, 500, 1000} <= seen_avg: fails.append(f"log_avg_msec of the fixtures: {sorted(seen_avg)}")
if not {4, 5} <= seen_cols: fails.append(f"column counts of the fixtures: {sorted(seen_cols)}")
def check_per_io(path, name):
    gen = [tuple(int(x) for x in l.split(",")[:4]) for l in open(path) if l.strip()]
    rid = run_of(name)
    for d, dname in ((0, "read"), (1, "write")):
        vals = [x[1] for x in gen if x[2] == d]
        row = db.execute("SELECT id, ios, bytes, clat_mean_ns, clat_min_ns, clat_max_ns, pct_kind FROM result "
                         "WHERE run_id = ? AND host = 'localhost' AND ddir = ?", (rid, dname)).fetchone()
        if row is None: fails.append(f"{name} {dname}: no result"); continue
        resid, ios, nbytes, mean, mn, mx, kind = row
        if (ios, nbytes, mn, mx, kind) != (len(vals), sum(x[3] for x in gen if x[2] == d), min(vals), max(vals), "clat"):
            fails.append(f"{name} {dname}: {row}")
        if abs(mean - sum(vals) / len(vals)) > 1e-9 * mean: fails.append(f"{name} {dname}: mean {mean}")
        hist = {}
        for v in vals: hist[idx(v)] = hist.get(idx(v), 0) + 1
        want = {}
        for p in (50.0, 99.0, 99.9):
            cum = 0
            for i in sorted(hist):
                cum += hist[i]
                if cum >= p / 100 * len(vals): want[p] = val(i); break
        for p, w in want.items():
            got = db.execute("SELECT value_ns FROM result_pct WHERE result_id = ? AND pct = ?", (resid, p)).fetchone()
            if not got or got[0] != w: fails.append(f"{name} {dname} p{p}: stored {got}, want {w}")
        iops = db.execute("SELECT sum(value) FROM sample WHERE run_id = ? AND metric = ?", (rid, "iops." + dname)).fetchone()[0]
        if iops != len(vals): fails.append(f"{name} {dname}: IOPS samples add to {iops}, want {len(vals)}")
for path in perio:
    check_per_io(path, path)
check_per_io("gen_clat.1.log", "gen_clat.1.log")
if fails:
    print("FAIL:\n  " + "\n  ".join(fails[:20]), file=sys.stderr); sys.exit(1)
print(f"ok: {len(windowed)} windowed and {len(perio) + 1} per-IO logs: samples, results and percentiles match")
PY
# --run attached samples only: same results as before; importing again replaces the series, --append adds
after=$(sqlite3 t.db "SELECT count(*) FROM result WHERE run_id = $run1")
[ "$after" = "$before" ] || { echo "FAIL: --run changed the results of run $run1" >&2; exit 1; }
n=$(sqlite3 t.db "SELECT count(*) FROM sample WHERE run_id = $run1 AND metric LIKE 'clat_ns.%'")
[ "$n" -gt 0 ] || { echo "FAIL: --run stored no samples" >&2; exit 1; }
"$BENCH" import --db t.db --run "$run1" gen_clat.1.log >/dev/null
n2=$(sqlite3 t.db "SELECT count(*) FROM sample WHERE run_id = $run1 AND metric LIKE 'clat_ns.%'")
[ "$n2" = "$n" ] || { echo "FAIL: re-import: $n2 samples, was $n" >&2; exit 1; }
"$BENCH" import --db t.db --run "$run1" --append gen_clat.1.log >/dev/null
n3=$(sqlite3 t.db "SELECT count(*) FROM sample WHERE run_id = $run1 AND metric LIKE 'clat_ns.%'")
[ "$n3" = "$((2 * n))" ] || { echo "FAIL: --append: $n3 samples, want $((2 * n))" >&2; exit 1; }
rc=0; "$BENCH" import --db t.db --append gen_clat.1.log 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: --append without --run: exit $rc" >&2; exit 1; }

# a histogram log (fio 3.x: time, ddir, bs, then one count per latency bucket): one interval per line and
# direction, its bucket counts the line's, buckets [lo, hi) as fio-histo-log-pctiles.py's
for h in "${hist[@]}"; do
	awk -F', ' 'NF != 3 + 1856 { bad = 1 } END { exit bad }' "$h" ||
		{ echo "FAIL: $h: not 3 + 1856 columns per line (fio 3.x histogram log, log_hist_coarseness=0)" >&2; exit 1; }
	"$BENCH" import --db t.db "$h" >/dev/null
	python3 - t.db "$h" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); path = sys.argv[2]; fails = []
rid = db.execute("SELECT r.id FROM run r JOIN suite s ON s.id = r.suite_id WHERE s.name = ?", (path,)).fetchone()[0]
def rng(i):
    g, b = divmod(i, 64); w = 1 if g <= 1 else 1 << (g - 1); base = 0 if g == 0 else 64 << (g - 1)
    return base + b * w, base + b * w + w
want = {}
for l in open(path):
    x = [int(v) for v in l.split(",")]
    for i, c in enumerate(x[3:]):
        if c: want[(x[0], ("clat_hist.read", "clat_hist.write")[x[1]]) + rng(i)] = c
got = {(t, m, lo, hi): v for t, m, lo, hi, v in db.execute(
    "SELECT t_ms, metric, bucket_lo_ns, bucket_hi_ns, value FROM sample WHERE run_id = ?", (rid,))}
if got != want: fails.append(f"{path}: {len(got)} bucket rows, want {len(want)}")
lines = sum(1 for l in open(path) if l.strip())
ivals = db.execute("SELECT count(DISTINCT t_ms || metric) FROM sample WHERE run_id = ?", (rid,)).fetchone()[0]
if ivals != lines: fails.append(f"{path}: {ivals} intervals, {lines} lines")
if fails: print("FAIL: " + "; ".join(fails), file=sys.stderr); sys.exit(1)
print(f"ok: {path.rsplit('/', 1)[1]}: {lines} lines, {ivals} intervals, {len(got)} bucket rows")
PY
done

# a bad line: exit 3, one line with file:line, nothing stored
printf '1, 100, 0, 4096, 0\n2, 100, 7, 4096, 0\n' >bad_lat.1.log
counts=$(sqlite3 t.db "SELECT (SELECT count(*) FROM run), (SELECT count(*) FROM sample)")
rc=0; "$BENCH" import --db t.db bad_lat.1.log 2>err.txt || rc=$?
[ "$rc" -eq 3 ] || { echo "FAIL: bad log: exit $rc" >&2; exit 1; }
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "bad_lat.1.log:2:" err.txt || { echo "FAIL: bad log message: $(cat err.txt)" >&2; exit 1; }
[ "$(sqlite3 t.db "SELECT (SELECT count(*) FROM run), (SELECT count(*) FROM sample)")" = "$counts" ] || { echo "FAIL: bad log changed the database" >&2; exit 1; }
echo "import_logs: ok ($(cat err.txt))"
