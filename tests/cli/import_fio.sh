#!/bin/bash
# import_fio: `bench import` of fio JSON+ output stores fio's own figures (issue 2, acceptance 2).
# Generates fio 3.33 json+ output here (randrw 70/30, 2 jobs, with and without group_reporting, ioengine=null
# so it takes a second), imports it, and checks with sqlite3/python that read and write IOPS, bandwidth,
# mean latency, p99 and p99.9 equal the JSON's (integers exact, floats 1e-9 relative), on the host row and
# on the aggregate row. Then every fio output in tests/fixtures/fio/json must import, with one run per job
# (per group for client/server output), each job's IOs and bytes as the file says and a job with fio's
# "error" set stored as failed; and the fixtures must still hold the quirks they are there for (SOURCES.md).
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
need fio
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

# Every fio output of the fixtures imports, one run per job (per job name and group for client/server).
shopt -s nullglob
FX="$BENCH_SRC/tests/fixtures/fio/json"
files=("$FX"/*.json "$FX"/*.txt)
[ ${#files[@]} -ge 8 ] || { echo "FAIL: fixtures missing in $FX" >&2; exit 1; }
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
            status = db.execute("SELECT status FROM run WHERE id = ?", (rid,)).fetchone()[0]
            if status != ("failed" if job.get("error", 0) else "done"):
                fails.append(f"{path} {job['jobname']}: error {job.get('error')} stored as {status}")
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
            # the entries of this run's group: same job name (bench names the run after it)
            name = db.execute("SELECT name FROM run WHERE id = ?", (rid,)).fetchone()[0]
            group = [c for c in entries if c["jobname"] == name]
            hosts = sorted(h for (h,) in db.execute("SELECT host FROM run_host WHERE run_id = ?", (rid,)))
            want = sorted({c["hostname"] for c in group} | {"*"})
            if not group or hosts != want:
                fails.append(f"{path} {name}: hosts {hosts}, want {want}")
            for d in ("read", "write"):
                for h in sorted({c["hostname"] for c in group}) + ["*"]:
                    ios = sum(c[d]["total_ios"] for c in group if h in ("*", c["hostname"]))
                    got = db.execute("SELECT ios FROM result WHERE run_id = ? AND host = ? AND ddir = ?",
                                     (rid, h, d)).fetchone()
                    if ios == 0 and got is None: continue
                    if not got or got[0] != ios:
                        fails.append(f"{path} {name} host {h}: {d} ios {got}, want {ios}")
# the quirks the fixtures are kept for (tests/fixtures/fio/json/SOURCES.md), so that none is lost unnoticed
texts = {p: open(p, errors="replace").read() for p in sys.argv[2:]}
def has_dup_keys(text):
    seen = []
    def hook(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)): seen.append(keys)
        return dict(pairs)
    dec = json.JSONDecoder(object_pairs_hook=hook)
    for i in [0] + [k + 1 for k in range(len(text)) if text[k] == "\n"]:
        if text.startswith("{", i):
            try: dec.raw_decode(text, i)
            except ValueError: pass
    return bool(seen)
docs = {p: last_doc(t) for p, t in texts.items()}
quirks = {
    "text before the JSON": any(t.lstrip().startswith("fio: terminating on signal 2") for t in texts.values()),
    "several documents": any(t.count('"fio version"') >= 4 for t in texts.values()),
    "client/server with hostname= lines": any(t.startswith("hostname=") and "client_stats" in docs[p]
                                              for p, t in texts.items()),
    "All clients": any(c["jobname"] == "All clients" for d in docs.values() for c in d.get("client_stats", [])),
    "duplicate keys": any(has_dup_keys(t) for t in texts.values()),
    "json+ bins": any("bins" in j["read"]["clat_ns"] for d in docs.values() for j in d.get("jobs", [])
                      if "clat_ns" in j["read"]),
    "12 groups": any(len({j["groupid"] for j in d.get("jobs", [])}) == 12 for d in docs.values()),
    # group_reporting: one entry stands for numjobs > 1 clones
    "group_reporting": any(int(j.get("job options", {}).get("numjobs", "1")) > 1 and
                           [x["jobname"] for x in d["jobs"]].count(j["jobname"]) == 1
                           for d in docs.values() for j in d.get("jobs", [])),
    "randrw": any(j.get("job options", {}).get("rw") == "randrw" for d in docs.values() for j in d.get("jobs", [])),
    "error job": any(j.get("error") for d in docs.values() for j in d.get("jobs", [])),
    "steady state": any("steadystate" in j for d in docs.values() for j in d.get("jobs", [])),
    "fio 2.x": any(d["fio version"].startswith("fio-2.") for d in docs.values()),
}
fails += [f"no fixture has the quirk: {q}" for q, ok in quirks.items() if not ok]
if fails:
    print("FAIL:\n  " + "\n  ".join(fails[:30]), file=sys.stderr); sys.exit(1)
print(f"ok: {len(sys.argv) - 2} fixture files imported with the file's figures; {len(quirks)} quirks present")
PY
n=$(wc -l <fx.out)
[ "$n" -eq ${#files[@]} ] || { echo "FAIL: $n summary lines for ${#files[@]} files" >&2; cat fx.out >&2; exit 1; }
echo "import_fio: ok"
