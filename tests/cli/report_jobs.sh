#!/usr/bin/env bash
# report_jobs: `bench report --jobs` lists the per-job figures of a run whose jobs fio ran together (a reader and
# a writer, no stonewall: one run of two jobs, as tests/integration/jobs_together.sh makes it), and each job's
# row equals fio's own JSON for that job (the stored fio-output.json artifact): IOPS, MiB/s, mean latency and
# p99 of the job's direction. A run of one job has no job rows. Real fio, psync, small files.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T

cat > rw.fio <<JOB
[global]
ioengine=psync
bs=4k
size=4m
time_based
runtime=1
[reader]
rw=randread
filename=$T/r.dat
[writer]
rw=randwrite
filename=$T/w.dat
JOB
"$BENCH" run rw.fio --db j.db -q --no-collectors || fail "bench run rw.fio"
expect_eq "one run of two jobs" "$(q j.db "SELECT count(*) || ':' || group_concat(DISTINCT job) FROM run JOIN result
  ON result.run_id = run.id AND host = '*' AND job <> '*' AND ddir = 'total'")" "2:reader,writer"
q j.db "SELECT content FROM artifact WHERE name = 'fio-output.json'" > fio-output.json

"$BENCH" report --db j.db --jobs > text.out || fail "bench report --jobs"
cat text.out
grep -q '^== Jobs (runs of several jobs that fio ran together; all hosts)$' text.out && ok "text: jobs section" ||
  fail "text: no jobs section"
for j in reader writer; do
  grep -Eq "^ +1 +reader\+writer +$j +[0-9]+ " text.out && ok "text: row of job $j" || fail "text: no row of job $j"
done
"$BENCH" report --db j.db > plain.out || fail "bench report"
grep -q '^== Jobs' plain.out && fail "jobs listed without --jobs" || ok "no jobs section without --jobs"

"$BENCH" report --db j.db --jobs --format json > r.json || fail "bench report --jobs --format json"
python3 - r.json fio-output.json <<'PY' && ok "each job's row equals fio's JSON" || fail "job rows differ from fio's JSON"
import json, sys
rows = {r["job"]: r for r in json.load(open(sys.argv[1]))["jobs"]}
fio = {j["jobname"]: j for j in json.load(open(sys.argv[2]))["jobs"]}
assert sorted(rows) == ["reader", "writer"], sorted(rows)
bad = 0
def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)
for job, ddir, lat, p99 in (("reader", "read", "read_lat_ms", "read_p99_ms"),
                            ("writer", "write", "write_lat_ms", "write_p99_ms")):
    f, r = fio[job][ddir], rows[job]
    want = {"iops": f["iops"], "mbps": f["bw_bytes"] / 1048576.0,
            lat: (f["lat_ns"]["mean"] if f["lat_ns"]["mean"] > 0 else f["clat_ns"]["mean"]) / 1e6,
            p99: f["clat_ns"]["percentile"]["99.000000"] / 1e6}
    for k, v in want.items():
        print(f"{job} {k}: report {r[k]}, fio {v}")
        bad += r[k] is None or not close(r[k], v)
    other = "write_lat_ms" if ddir == "read" else "read_lat_ms"
    bad += r[other] is not None
sys.exit(1 if bad else 0)
PY

"$BENCH" report --db j.db --jobs --format csv | tr -d '\r' > r.csv || fail "bench report --jobs --format csv"
expect_eq "csv: job rows" "$(grep -c '^job,1,reader+writer,' r.csv)" 2

# a run of one job: no job rows
printf '[one]\nioengine=psync\nbs=4k\nsize=4m\nruntime=1\ntime_based\nrw=randread\nfilename=%s/o.dat\n' "$T" > one.fio
"$BENCH" run one.fio --db o.db -q --no-collectors || fail "bench run one.fio"
"$BENCH" report --db o.db --jobs > one.out || fail "bench report --jobs (one job)"
grep -q 'no selected run has several jobs' one.out && ok "a run of one job: no job rows, said so" ||
  fail "one job: $(cat one.out)"
finish
