#!/bin/bash
# import_logs: `bench import` of fio log files (issue 6, "fio logs"). Real windowed logs from the fixtures
# become runs with 1 s latency samples equal to the mean of the log's lines in each second; `--run ID`
# attaches a log's samples to an existing run without touching its results; a generated per-IO log gives
# a result with IOs, mean latency and percentiles computed here independently with fio's bucket rule; a bad
# line is refused with exit 3 and file:line, leaving the database as it was.
set -euo pipefail
: "${BENCH:?}" "${BENCH_SHARED:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
logs=("$BENCH_SHARED"/fixtures/fio/logs/*.log)
"$BENCH" import --db t.db --label src=log "${logs[@]}" >out.txt
[ "$(wc -l <out.txt)" -eq ${#logs[@]} ] || { echo "FAIL: summary: $(cat out.txt)" >&2; exit 1; }

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

python3 - t.db "${logs[@]}" <<'PY'
import sqlite3, sys, math
db = sqlite3.connect(sys.argv[1]); fails = []
def idx(v):
    if v < 128: return v
    msb = v.bit_length() - 1; eb = msb - 6
    return min(((eb + 1) << 6) + ((v >> eb) & 63), 1855)
def val(i):
    if i < 128: return i
    eb = (i >> 6) - 1
    return (1 << (eb + 6)) + int((i % 64 + 0.5) * (1 << eb))
for path in sys.argv[2:]:
    lines = [tuple(int(x) for x in l.split(",")[:4]) for l in open(path) if l.strip()]
    rid = db.execute("SELECT r.id FROM run r JOIN suite s ON s.id = r.suite_id WHERE s.name = ?", (path,)).fetchone()[0]
    if db.execute("SELECT value FROM run_label WHERE run_id = ? AND key = 'src'", (rid,)).fetchone() != ("log",):
        fails.append(f"{path}: label missing")
    rows = db.execute("SELECT metric, t_ms, value FROM sample WHERE run_id = ? AND host = 'localhost' AND metric LIKE 'lat_ns.%'", (rid,)).fetchall()
    for metric, t, v in rows:
        d = {"lat_ns.read": 0, "lat_ns.write": 1}[metric]
        vals = [x[1] for x in lines if x[2] == d and t <= x[0] < t + 1000]
        if not vals or abs(sum(vals) / len(vals) - v) > 1e-9 * v:
            fails.append(f"{path} {metric} t={t}: stored {v}, lines {vals}")
    if len(rows) < 100: fails.append(f"{path}: only {len(rows)} samples")
gen = [tuple(int(x) for x in l.split(",")[:4]) for l in open("gen_clat.1.log")]
rid = db.execute("SELECT r.id FROM run r JOIN suite s ON s.id = r.suite_id WHERE s.name = 'gen_clat.1.log'").fetchone()[0]
for d, name in ((0, "read"), (1, "write")):
    vals = [x[1] for x in gen if x[2] == d]
    row = db.execute("SELECT id, ios, bytes, clat_mean_ns, clat_min_ns, clat_max_ns, pct_kind FROM result "
                     "WHERE run_id = ? AND host = 'localhost' AND ddir = ?", (rid, name)).fetchone()
    if row is None: fails.append(f"gen {name}: no result"); continue
    resid, ios, nbytes, mean, mn, mx, kind = row
    if (ios, mn, mx, kind) != (len(vals), min(vals), max(vals), "clat"): fails.append(f"gen {name}: {row}")
    if abs(mean - sum(vals) / len(vals)) > 1e-9 * mean: fails.append(f"gen {name}: mean {mean}")
    hist = {}
    for v in vals: hist[idx(v)] = hist.get(idx(v), 0) + 1
    cum = 0; want = {}
    for p in (50.0, 99.0, 99.9):
        cum = 0
        for i in sorted(hist):
            cum += hist[i]
            if cum >= p / 100 * len(vals): want[p] = val(i); break
    for p, w in want.items():
        got = db.execute("SELECT value_ns FROM result_pct WHERE result_id = ? AND pct = ?", (resid, p)).fetchone()
        if not got or got[0] != w: fails.append(f"gen {name} p{p}: stored {got}, want {w}")
    iops = db.execute("SELECT sum(value) FROM sample WHERE run_id = ? AND metric = ?", (rid, "iops." + name)).fetchone()[0]
    if iops != len(vals): fails.append(f"gen {name}: IOPS samples add to {iops}, want {len(vals)}")
if fails:
    print("FAIL:\n  " + "\n  ".join(fails[:20]), file=sys.stderr); sys.exit(1)
print("ok: log samples, results and percentiles match")
PY
# --run attached samples only: same results as before, twice the samples of the generated log's run target
after=$(sqlite3 t.db "SELECT count(*) FROM result WHERE run_id = $run1")
[ "$after" = "$before" ] || { echo "FAIL: --run changed the results of run $run1" >&2; exit 1; }
n=$(sqlite3 t.db "SELECT count(*) FROM sample WHERE run_id = $run1 AND metric LIKE 'clat_ns.%'")
[ "$n" -gt 0 ] || { echo "FAIL: --run stored no samples" >&2; exit 1; }

# a bad line: exit 3, one line with file:line, nothing stored
printf '1, 100, 0, 4096, 0\n2, 100, 7, 4096, 0\n' >bad_lat.1.log
counts=$(sqlite3 t.db "SELECT (SELECT count(*) FROM run), (SELECT count(*) FROM sample)")
rc=0; "$BENCH" import --db t.db bad_lat.1.log 2>err.txt || rc=$?
[ "$rc" -eq 3 ] || { echo "FAIL: bad log: exit $rc" >&2; exit 1; }
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "bad_lat.1.log:2:" err.txt || { echo "FAIL: bad log message: $(cat err.txt)" >&2; exit 1; }
[ "$(sqlite3 t.db "SELECT (SELECT count(*) FROM run), (SELECT count(*) FROM sample)")" = "$counts" ] || { echo "FAIL: bad log changed the database" >&2; exit 1; }
echo "import_logs: ok ($(cat err.txt))"
