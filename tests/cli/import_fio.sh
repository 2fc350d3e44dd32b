#!/bin/bash
# import_fio: `bench import` of fio JSON+ output stores fio's own figures (issue 2, acceptance 2).
# Generates fio 3.33 json+ output here (randrw 70/30, 2 jobs, with and without group_reporting, ioengine=null
# so it takes a second), imports it, and checks with sqlite3/python that read and write IOPS, bandwidth,
# mean latency, p99 and p99.9 equal the JSON's (integers exact, floats 1e-9 relative), on the host row and
# on the aggregate row. Then every real fio output in the shared fixtures must import, with one run per job
# (per group for client/server output) and each job's IOs and bytes as the file says.
set -euo pipefail
: "${BENCH:?}" "${BENCH_SHARED:?}"
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"

common=(--ioengine=null --size=16m --bs=4k --rw=randrw --rwmixread=70 --numjobs=2 --iodepth=4
	--output-format=json+)
fio --name=gr "${common[@]}" --group_reporting --output=grouped.json >/dev/null
fio --name=pj "${common[@]}" --lat_percentiles=1 --output=perjob.json >/dev/null

out=$("$BENCH" import --db t.db --label origin=test grouped.json perjob.json)
echo "$out"
grep -qx "imported 1 run from grouped.json" <<<"$out" || { echo "FAIL: summary for grouped.json: $out" >&2; exit 1; }
grep -qx "imported 2 runs from perjob.json" <<<"$out" || { echo "FAIL: summary for perjob.json: $out" >&2; exit 1; }

python3 - t.db grouped.json perjob.json <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
fails = []
def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
def exact(what, want, got):
    if int(want) != got:
        fails.append(f"{what}: want {want} got {got}")
def flt(what, want, got):
    if got is None or not close(float(want), float(got)):
        fails.append(f"{what}: want {want!r} got {got!r}")
checked = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    runs = db.execute("SELECT r.id, r.name, r.status, r.read_pct, r.random_pct, r.bs_bytes, r.numjobs "
                      "FROM run r JOIN suite s ON s.id = r.suite_id WHERE s.name = ? ORDER BY r.seq",
                      (path,)).fetchall()
    if len(runs) != len(doc["jobs"]):
        fails.append(f"{path}: {len(runs)} runs stored, {len(doc['jobs'])} jobs in the file")
        continue
    for (rid, name, status, rdpct, randpct, bs, numjobs), job in zip(runs, doc["jobs"]):
        if name != job["jobname"] or status != "done":
            fails.append(f"{path}: run {rid} name/status {name}/{status}")
        if (rdpct, randpct, bs, numjobs) != (70, 100, 4096, 2):
            fails.append(f"{path}: run {rid} workload {rdpct} {randpct} {bs} {numjobs}")
        labels = dict(db.execute("SELECT key, value FROM run_label WHERE run_id = ?", (rid,)).fetchall())
        if labels.get("origin") != "test":
            fails.append(f"{path}: run {rid} labels {labels}")
        kind = "lat" if "percentile" in job["read"]["lat_ns"] else "clat"
        for host in ("localhost", "*"):
            for d in ("read", "write"):
                j = job[d]
                row = db.execute("SELECT id, ios, bytes, iops, bw_bytes, lat_mean_ns, clat_mean_ns, lat_n, "
                                 "clat_max_ns, pct_kind FROM result WHERE run_id = ? AND host = ? AND ddir = ?",
                                 (rid, host, d)).fetchone()
                w = f"{path} job {job['jobname']} host {host} {d}"
                if row is None:
                    fails.append(f"{w}: no result row"); continue
                resid, ios, nbytes, iops, bw, latm, clatm, latn, clatmax, pk = row
                exact(w + " ios", j["total_ios"], ios)
                exact(w + " bytes", j["io_bytes"], nbytes)
                flt(w + " iops", j["iops"], iops)
                flt(w + " bw_bytes", j["bw_bytes"], bw)
                flt(w + " lat mean", j["lat_ns"]["mean"], latm)
                flt(w + " clat mean", j["clat_ns"]["mean"], clatm)
                exact(w + " lat N", j["lat_ns"]["N"], latn)
                exact(w + " clat max", j["clat_ns"]["max"], clatmax)
                if pk != kind:
                    fails.append(f"{w}: pct_kind {pk}, want {kind}")
                pcts = dict(db.execute("SELECT pct, value_ns FROM result_pct WHERE result_id = ?", (resid,)).fetchall())
                for p in ("99.000000", "99.900000"):
                    exact(w + " p" + p, job[d][kind + "_ns"]["percentile"][p], pcts.get(float(p)))
                nbins = db.execute("SELECT count(*), sum(count) FROM result_bin WHERE result_id = ?", (resid,)).fetchone()
                bins = job[d][kind + "_ns"]["bins"]
                exact(w + " bins", len(bins), nbins[0])
                exact(w + " bin counts", sum(bins.values()), nbins[1])
                checked += 1
        art = db.execute("SELECT length(content) FROM artifact WHERE run_id = ? AND name = 'fio-output.json'", (rid,)).fetchone()
        import os
        if not art or art[0] != os.path.getsize(path):
            fails.append(f"{path}: run {rid} artifact fio-output.json missing or wrong size")
if fails:
    print("FAIL:\n  " + "\n  ".join(fails[:30]), file=sys.stderr)
    sys.exit(1)
print(f"ok: {checked} stored results equal fio's figures")
PY

# Every real fio output imports, one run per job (per job name and group for client/server).
shopt -s nullglob
files=("$BENCH_SHARED"/fixtures/fio/json/*)
[ ${#files[@]} -ge 7 ] || { echo "FAIL: fixtures missing in $BENCH_SHARED/fixtures/fio/json" >&2; exit 1; }
"$BENCH" import --db fx.db "${files[@]}" >fx.out
python3 - fx.db "${files[@]}" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
fails = []
def last_doc(text):
    dec = json.JSONDecoder(); last = None; i = 0
    while True:
        j = text.find("{", i)
        if j < 0: return last
        try:
            d, e = dec.raw_decode(text, j)
            if isinstance(d, dict) and "fio version" in d: last = d
            i = e
        except ValueError:
            i = j + 1
for path in sys.argv[2:]:
    doc = last_doc(open(path, errors="replace").read())
    ver = doc["fio version"]
    old_kib = ver.startswith("fio-2.") and int(ver.split(".")[1]) < 21
    runs = db.execute("SELECT r.id FROM run r JOIN suite s ON s.id = r.suite_id WHERE s.name = ? ORDER BY r.seq",
                      (path,)).fetchall()
    if "jobs" in doc:
        jobs = doc["jobs"]
        if len(runs) != len(jobs):
            fails.append(f"{path}: {len(runs)} runs for {len(jobs)} jobs"); continue
        for (rid,), job in zip(runs, jobs):
            for d in ("read", "write", "trim"):
                j = job.get(d)
                if not j: continue
                b = j["io_bytes"] * (1024 if old_kib and "io_kbytes" not in j else 1)
                row = db.execute("SELECT bytes, iops FROM result WHERE run_id = ? AND host = 'localhost' AND ddir = ?",
                                 (rid, d)).fetchone()
                if b == 0 and row is None: continue
                if row is None or row[0] != b or row[1] != j["iops"]:
                    fails.append(f"{path} {job['jobname']} {d}: stored {row}, file bytes {b} iops {j['iops']}")
    else:
        entries = [c for c in doc["client_stats"] if c["jobname"] != "All clients"]
        groups = {(c["jobname"], c["groupid"]) for c in entries}
        if len(runs) != len(groups):
            fails.append(f"{path}: {len(runs)} runs for {len(groups)} client groups"); continue
        for (rid,) in runs:
            hosts = sorted(h for (h,) in db.execute("SELECT host FROM run_host WHERE run_id = ?", (rid,)))
            want = sorted({c["hostname"] for c in entries} | {"*"})
            if hosts != want:
                fails.append(f"{path}: hosts {hosts}, want {want}")
            for h in {c["hostname"] for c in entries}:
                ios = sum(c["read"]["total_ios"] for c in entries if c["hostname"] == h)
                got = db.execute("SELECT ios FROM result WHERE run_id = ? AND host = ? AND ddir = 'read'", (rid, h)).fetchone()
                if not got or got[0] != ios:
                    fails.append(f"{path} host {h}: read ios {got}, want {ios}")
            tot = sum(c["read"]["total_ios"] for c in entries)
            got = db.execute("SELECT ios FROM result WHERE run_id = ? AND host = '*' AND ddir = 'read'", (rid,)).fetchone()
            if not got or got[0] != tot:
                fails.append(f"{path} aggregate: read ios {got}, want {tot}")
if fails:
    print("FAIL:\n  " + "\n  ".join(fails[:30]), file=sys.stderr); sys.exit(1)
print(f"ok: {len(sys.argv) - 2} fixture files imported with the file's figures")
PY
n=$(wc -l <fx.out)
[ "$n" -eq ${#files[@]} ] || { echo "FAIL: $n summary lines for ${#files[@]} files" >&2; cat fx.out >&2; exit 1; }
echo "import_fio: ok"
