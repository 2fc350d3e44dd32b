#!/usr/bin/env bash
# Acceptance (issue 12, "a fio job file runs as fio runs it"): a job file with a reader and a writer and no
# stonewall is one run whose two jobs ran at the same time (their stored start times overlap), each job's
# stored figures equal fio's own JSON of the job file bench wrote (the stored fio-output.json artifact); with
# a stonewall between them, two runs; --each-job gives one run per section. Real fio, psync, small files.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T

job_file() { # job_file NAME [WRITER-OPTION]
  cat > "$1" <<JOB
[global]
ioengine=psync
bs=4k
size=8m
time_based
runtime=3
[reader]
rw=randread
filename=$T/r.dat
[writer]
${2:-}
rw=randwrite
filename=$T/w.dat
JOB
}

# ---- together: one run, two jobs ------------------------------------------------------------------------
job_file rw.fio
"$BENCH" plan rw.fio --format json > plan.json || fail "bench plan rw.fio"
expect_eq "planned runs" "$(python3 -c 'import json,sys; print(len(json.load(open("plan.json"))["runs"]))')" 1
"$BENCH" run rw.fio --db j.db -q || fail "bench run rw.fio"
expect_eq "runs stored" "$(q j.db 'SELECT count(*) FROM run')" 1
expect_eq "run name" "$(q j.db 'SELECT name FROM run')" "reader+writer"
expect_eq "run status" "$(q j.db 'SELECT status FROM run')" done
expect_eq "jobs stored (all hosts)" "$(q j.db "SELECT group_concat(job) FROM (SELECT DISTINCT job FROM result
  WHERE host = '*' AND job <> '*' ORDER BY job)")" "reader,writer"
expect_eq "the run's total = the jobs' totals added" \
  "$(q j.db "SELECT ios FROM result WHERE host = '*' AND job = '*' AND ddir = 'total'")" \
  "$(q j.db "SELECT sum(ios) FROM result WHERE host = '*' AND job <> '*' AND ddir = 'total'")"
q j.db "SELECT content FROM artifact WHERE name = 'fio-output.json'" > fio-output.json
q j.db "SELECT content FROM artifact WHERE name = 'jobfile'" > jobfile.fio
grep -q '^stonewall' jobfile.fio && fail "the job file bench wrote has a stonewall" || ok "no stonewall in bench's job file"

# Start times: each job's measured time began within the other's (stored job_start_ms + runtime_ms).
python3 - j.db <<'PY' && ok "the jobs' stored time windows overlap" || fail "the jobs' stored time windows do not overlap"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
w = {j: (s, s + r) for j, s, r in db.execute(
    "SELECT job, job_start_ms, runtime_ms FROM result WHERE host = 'localhost' AND job <> '*' AND ddir = 'total'")}
print("job windows (ms since the epoch):", w)
(a0, a1), (b0, b1) = w["reader"], w["writer"]
assert None not in (a0, b0)
sys.exit(0 if a0 < b1 and b0 < a1 and abs(a0 - b0) < 1000 else 1)
PY

# Figures: each job's stored row equals fio's own JSON for that job (its reporting group), field for field.
python3 - j.db fio-output.json <<'PY' && ok "each job's figures equal fio's JSON" || fail "job figures differ from fio's JSON"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
doc = json.load(open(sys.argv[2]))
jobs = {j["jobname"]: j for j in doc["jobs"]}
assert sorted(jobs) == ["reader", "writer"], sorted(jobs)
bad = 0
for job, ddir in (("reader", "read"), ("writer", "write")):
    f = jobs[job][ddir]
    for host in ("localhost", "*"):
        ios, byt, rt, iops, bw, clat = db.execute(
            "SELECT ios, bytes, runtime_ms, iops, bw_bytes, clat_mean_ns FROM result WHERE host = ? AND job = ? "
            "AND ddir = ?", (host, job, ddir)).fetchone()
        want = (f["total_ios"], f["io_bytes"], f["runtime"], f["iops"], f["bw_bytes"], f["clat_ns"]["mean"])
        got = (ios, byt, rt, iops, bw, clat)
        print(job, host, ddir, "stored", got, "fio", want)
        bad += got != want
        p99 = db.execute("SELECT value_ns FROM result_pct JOIN result ON result.id = result_id WHERE host = ? "
                         "AND job = ? AND ddir = ? AND abs(pct - 99) < 1e-6", (host, job, ddir)).fetchone()[0]
        print("  p99", p99, "fio", f["clat_ns"]["percentile"]["99.000000"])
        bad += p99 != f["clat_ns"]["percentile"]["99.000000"]
    other = "write" if ddir == "read" else "read"
    bad += db.execute("SELECT ios FROM result WHERE host = '*' AND job = ? AND ddir = ?", (job, other)).fetchone() \
        not in (None, (0,))
sys.exit(1 if bad else 0)
PY

# fio itself, on the job file bench wrote: two jobs in two groups, running at once (one group's time is not
# added to the other's: one after the other they would take at least 2 x 3 s).
start=$(date +%s%N)
fio --output-format=json jobfile.fio > own.json 2>own.err || fail "fio on bench's job file: $(cat own.err)"
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "fio's own groups of bench's job file" \
  "$(python3 -c 'import json; print(" ".join("%s:%d" % (j["jobname"], j["groupid"]) for j in json.load(open("own.json"))["jobs"]))')" \
  "reader:0 writer:1"
[ "$took_ms" -lt 6000 ] && ok "fio ran both jobs at once ($took_ms ms for two 3 s jobs)" ||
  fail "fio took $took_ms ms for two 3 s jobs: not at once"

# ---- a stonewall between them: two runs, one job each -----------------------------------------------------
job_file sw.fio stonewall
"$BENCH" run sw.fio --db s.db -q || fail "bench run sw.fio"
expect_eq "runs with a stonewall" "$(q s.db 'SELECT group_concat(name) FROM (SELECT name FROM run ORDER BY seq)')" \
  "reader,writer"
expect_eq "per-job rows of runs of one job" "$(q s.db "SELECT count(*) FROM result WHERE job <> '*'")" 0
expect_eq "the second run started after the first ended" \
  "$(q s.db "SELECT (SELECT started_at FROM run WHERE seq = 2) >= (SELECT finished_at FROM run WHERE seq = 1)")" 1

# ---- --each-job: one run per section, also without a stonewall -------------------------------------------
"$BENCH" plan rw.fio --each-job > each.txt || fail "bench plan --each-job"
expect_eq "planned runs with --each-job" "$(grep -cE '^ +[0-9]+ +(reader|writer) ' each.txt)" 2
"$BENCH" run rw.fio --each-job --db e.db -q || fail "bench run --each-job"
expect_eq "runs with --each-job" "$(q e.db 'SELECT group_concat(name) FROM (SELECT name FROM run ORDER BY seq)')" \
  "reader,writer"
finish
