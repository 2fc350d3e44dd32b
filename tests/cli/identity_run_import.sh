#!/bin/bash
# identity_run_import: one fio-option normaliser and one workload identity (issue 12, acceptance 1). Three fio
# job files (bs=4KiB, which fio 3.33 reads as 4000 bytes with its default kb_base=1024; bs=1536, the nearest
# to 1.5k that fio reads as written, since fio reads "1.5k" as 1 byte; and a bssplit) are run by bench
# (label side=bench) and by fio itself, whose JSON is imported (label side=fio). The workload bench planned
# must equal the imported one field for field, the identity must be equal, the pairs must match in
# `bench report --compare` and in `bench gate`. Also: bench refuses bs=1.5k in a plan, and the import of fio's
# JSON of a bs=1.5k job stores what fio ran (1-byte IOs); the import carries fio's own timestamp.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
need fio
cd "$T"

job() { null_job "$1.fio" "$@"; } # name, then option lines
job k4kib bs=4KiB rw=randread
job b1536 bs=1536 rw=randrw rwmixwrite=30
job split bssplit=4k/50:64k/50 rw=randwrite

"$BENCH" run --db t.db --label side=bench --no-collectors -q k4kib.fio b1536.fio split.fio
for n in k4kib b1536 split; do
	fio "$n.fio" --output-format=json --output="$n.json" >/dev/null
done
"$BENCH" import --db t.db --label side=fio k4kib.json b1536.json split.json >/dev/null

# Field for field: the planned workload (bench's run) and the imported one.
python3 - t.db <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cols = "tool, rw, bs_bytes, bssplit, read_pct, random_pct, iodepth, numjobs, runtime_s, size, compress_pct, dedupe_pct"
fields = ["tool", "rw", "bs_bytes", "bssplit", "read_pct", "random_pct", "iodepth", "numjobs", "runtime_s",
          "size", "compress_pct", "dedupe_pct"]
def side(label):
    q = (f"SELECT r.name, {cols}, r.spec FROM run r JOIN run_label l ON l.run_id = r.id "
         "WHERE l.key = 'side' AND l.value = ? ORDER BY r.name")
    return {row[0]: row[1:] for row in db.execute(q, (label,))}
bench, fio = side("bench"), side("fio")
want = {"k4kib": ("randread", 4000, None, 100, 100), "b1536": ("randrw", 1536, None, 70, 100),
        "split": ("randwrite", None, "4k/50:64k/50", 0, 100)}
fails = []
for name, (rw, bs, split, rd, rnd) in want.items():
    b, f = bench.get(name), fio.get(name)
    if not b or not f:
        fails.append(f"{name}: bench run {b is not None}, import {f is not None}")
        continue
    if b[:-1] != f[:-1]:
        diff = [(k, x, y) for k, x, y in zip(fields, b, f) if x != y]
        fails.append(f"{name}: planned and imported workloads differ: {diff}")
    got = (b[1], b[2], b[3], b[4], b[5])
    if got != (rw, bs, split, rd, rnd):
        fails.append(f"{name}: workload {got}, want {(rw, bs, split, rd, rnd)}")
    wb, wf = json.loads(b[-1])["workload"], json.loads(f[-1])["workload"]
    for k in ("tool", "rw", "bs_bytes", "bssplit", "read_pct", "random_pct", "iodepth", "numjobs", "size",
              "compress_pct", "dedupe_pct"):
        if wb.get(k) != wf.get(k):
            fails.append(f"{name}: stored spec field {k}: bench {wb.get(k)!r}, import {wf.get(k)!r}")
if fails:
    print("\n".join(fails), file=sys.stderr)
    sys.exit(1)
print("planned == imported, field for field, for", ", ".join(sorted(want)))
PY

# The identities are equal: --compare pairs all three rows by identity (JSON carries the match key).
"$BENCH" report --db t.db --compare side=fio:bench --format json >cmp.json
python3 - cmp.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = json.dumps(doc)
def find(o, key):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == key:
                yield v
            yield from find(v, key)
    elif isinstance(o, list):
        for v in o:
            yield from find(v, key)
matched = list(find(doc, "matched"))
ua, ub = list(find(doc, "unmatched_a")), list(find(doc, "unmatched_b"))
if matched != [3] or ua != [0] or ub != [0]:
    print(f"FAIL: --compare matched {matched}, only fio {ua}, only bench {ub}", file=sys.stderr)
    sys.exit(1)
print("compare: 3 matched, 0 unmatched")
PY
out=$("$BENCH" report --db t.db --compare side=fio:bench)
grep -q "3 matched rows, 0 only side=fio, 0 only side=bench" <<<"$out" || fail "compare text: $out"

# The gate pairs them too: every workload has one run on each side, none only on one side.
set +e
"$BENCH" gate --db t.db --baseline side=bench --candidate side=fio --min-runs 1 --allow-invalid >gate.txt 2>&1
rc=$?
set -e
[ "$rc" -le 1 ] || [ "$rc" -eq 6 ] || { cat gate.txt >&2; fail "gate exit $rc"; }
for n in k4kib b1536 split; do
	grep -Eq "^[A-Z]+ +$n .* 1/1 " gate.txt || { cat gate.txt >&2; fail "gate did not pair $n"; }
done
if grep -qi "only in\|no counterpart\|unmatched" gate.txt; then
	cat gate.txt >&2
	fail "gate left a workload unpaired"
fi
echo "gate: k4kib, b1536 and split paired (1/1 runs)"

# bs=1.5k: bench refuses it in a plan (fio would read 1 byte) ...
job frac bs=1.5k rw=read
set +e
err=$("$BENCH" plan frac.fio 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "plan of bs=1.5k: exit $rc, want 3 ($err)"
grep -q "frac.fio:8: 'bs' is not a block size fio reads.*got '1.5k'" <<<"$err" || fail "plan of bs=1.5k: $err"
# ... and the import of what fio ran stores fio's reading: IOs of 1 byte.
printf '[global]\nioengine=null\nsize=64k\n\n[frac]\nbs=1.5k\nrw=read\n' >frac.fio
fio frac.fio --output-format=json --output=frac.json >/dev/null
"$BENCH" import --db f.db frac.json >/dev/null
python3 - f.db frac.json <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
doc = json.load(open(sys.argv[2]))
job = doc["jobs"][0]
if job["read"]["io_bytes"] != job["read"]["total_ios"]:
    sys.exit(f"FAIL: fio did not run 1-byte IOs for bs=1.5k: {job['read']['io_bytes']} bytes in "
             f"{job['read']['total_ios']} IOs")
bs, spec = db.execute("SELECT bs_bytes, spec FROM run").fetchone()
if bs != 1:
    sys.exit(f"FAIL: imported bs=1.5k as {bs} bytes, fio ran 1")
# fio's own clock: a local document is stamped when the jobs end (timestamp_ms); the run's measured time
# is before that.
import datetime
s = json.loads(spec)
end = datetime.datetime.fromtimestamp(doc["timestamp_ms"] / 1000, datetime.timezone.utc)
want_end = end.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (doc["timestamp_ms"] % 1000)
if s.get("finished_at") != want_end or not s.get("started_at") or s["started_at"] > s["finished_at"]:
    sys.exit(f"FAIL: times {s.get('started_at')} .. {s.get('finished_at')}, fio stamped {want_end}")
print("bs=1.5k: imported as fio ran it (1 byte); times from fio's timestamp_ms", s["started_at"], s["finished_at"])
PY
echo "identity_run_import: ok"
