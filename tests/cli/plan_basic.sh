#!/bin/bash
# plan_basic: `bench plan` as a user meets it. --help (stdout, exit 0); usage errors (exit 2); the built-in
# hcibench-easyrun suite: its six workloads in HCIbench's order with HCIbench's options, --quick fitting in
# about 90 s, --target, the default target file in --workdir, --repeat; text and JSON agree; a suite file
# with labels, per-group targets, repetitions and a job file reference; fio job files with ${VAR} given as
# NAME=value.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
cd "$T"

"$BENCH" plan --help >help.txt || fail "--help exited $?"
grep -q -- "--matrix" help.txt && grep -q -- "--quick" help.txt || fail "--help does not describe the options"
rc=0; "$BENCH" plan >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "no profile: exit $rc, want 2"
rc=0; "$BENCH" plan --bogus hcibench-easyrun >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "unknown option: exit $rc"
rc=0; "$BENCH" plan no-such-suite >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 3 ] && grep -q "no-such-suite" err.txt || fail "unknown profile: exit $rc $(cat err.txt)"

# hcibench-easyrun: the six workloads, in order, HCIbench's options
"$BENCH" plan hcibench-easyrun --quick --target "$T/disk.dat" --format json >q.json
"$BENCH" plan hcibench-easyrun --quick --target "$T/disk.dat" >q.txt
python3 - q.json q.txt "$T/disk.dat" <<'PY' || fail "hcibench-easyrun --quick"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
want = [("4k", 100, 100), ("4k", 0, 100), ("256k", 0, 0), ("256k", 100, 0), ("4k", 70, 100), ("8k", 50, 100)]
assert [(r["bs"], r["read_pct"], r["random_pct"]) for r in runs] == want, runs
for r in runs:
    o = {x["name"]: x["value"] for x in r["fio_options"]}
    for k, v in [("ioengine", "libaio"), ("direct", "1"), ("lat_percentiles", "1"), ("continue_on_error", "all"),
                 ("random_generator", "tausworthe64"), ("rw", "randrw"), ("time_based", None)]:
        assert k in o and o[k] == v, (k, o)
    assert "group_reporting" in o
    assert o["rwmixread"] == str(r["read_pct"]) and o["percentage_random"] == str(r["random_pct"])
    assert o["iodepth"] == str(r["iodepth"]) and r["numjobs"] == 1
    assert r["targets"] == [sys.argv[3]], r["targets"]
    assert (r["ramp_s"], r["runtime_s"], r["size"]) == (2, 10, "256m"), r
    assert o["ramp_time"] == "2" and o["runtime"] == "10" and o["size"] == "256m", o
    assert r["name"] == "fio-1vmdk-100ws-%s-%drdpct-%drandompct-%dthreads" % (r["bs"], r["read_pct"],
        r["random_pct"], r["iodepth"]), r["name"]
assert 60 <= d["estimated_s"] <= 120, d["estimated_s"]
text = open(sys.argv[2]).read()
for r in runs:
    assert r["name"] in text
assert "6 runs, estimated wall time" in text
PY

# the full form: HCIbench's 1800 s warm-up and 3600 s run, size=100%, default target in --workdir
"$BENCH" plan hcibench-easyrun --workdir "$T/wd" --repeat 2 --format json >full.json
python3 - full.json "$T/wd/bench-target.dat" <<'PY' || fail "hcibench-easyrun full form"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 12
assert [r["repetition"] for r in runs] == [1] * 6 + [2] * 6
assert [r["seq"] for r in runs] == list(range(1, 13))
for r in runs:
    assert (r["ramp_s"], r["runtime_s"], r["size"]) == (1800, 3600, "100%"), r
    assert r["targets"] == [sys.argv[2]], r["targets"]
PY

# a suite file: labels, repeat, a job file with ${VAR}, a name alone
cat >job.fio <<'F'
[global]
ioengine=libaio
direct=1
[seqread]
rw=read
bs=1m
filename=${DEV}
F
cat >my.suite <<'S'
# a comment
[suite]
name = mine
label = stack=mdadm-raid5
label = kernel=6.8
repeat = 2
runtime = 30s
ramp = 5
profile = job.fio
profile = fio-2vmdk-100ws-8k-50rdpct-100randompct-8threads
[workload w4k]
bench.label.tier = hot
rw=randwrite
bs=4k
iodepth=32
S
"$BENCH" plan my.suite DEV=/dev/sdq --format json >s.json
python3 - s.json <<'PY' || fail "suite file"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["suite"] == "mine" and d["labels"] == {"stack": "mdadm-raid5", "kernel": "6.8"}, d["labels"]
runs = d["runs"]
assert len(runs) == 6 and [r["repetition"] for r in runs] == [1, 1, 1, 2, 2, 2]
# a job file's job keeps its section name; a name alone and the suite's own workload name are kept as given
assert [r["name"] for r in runs[:3]] == ["seqread",
                                         "fio-2vmdk-100ws-8k-50rdpct-100randompct-8threads", "w4k"], runs
assert runs[0]["targets"] == ["/dev/sdq"], runs[0]["targets"]
assert len(runs[1]["targets"]) == 2
assert runs[2]["labels"] == {"tier": "hot"}, runs[2]["labels"]
for r in runs:
    assert (r["ramp_s"], r["runtime_s"]) == (5, 30), r
PY
rc=0; "$BENCH" plan my.suite >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 3 ] && grep -q 'job.fio:7:.*DEV' err.txt || fail "unset \${DEV}: exit $rc $(cat err.txt)"
echo "plan_basic: ok"
