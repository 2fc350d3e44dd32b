#!/bin/bash
# profiles_library: `bench profiles list|show` and the built-in suites (issue 3). list names the four suites
# with run counts and wall times; show prints a suite's runs; nvmeof-vs-iser plans the 9 workloads of
# examples/README.md under their article names (read from that list here),
# 4 fio + 5 vdbench, with the article's parameters, and its --quick form (what `bench run nvmeof-vs-iser --quick
# --target FILE` executes) puts all 9 on the one target in a few minutes; kernel-compare has the 6 published jobs,
# cinder-lvm-vs-iscsi its 2; every suite has a --quick form well under 5 minutes.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
cd "$T"

"$BENCH" profiles --help >/dev/null || fail "--help"
"$BENCH" profiles list >list.txt || fail "list exited $?"
for s in hcibench-easyrun nvmeof-vs-iser kernel-compare cinder-lvm-vs-iscsi; do
	grep -qE "^$s +[0-9]+ " list.txt || fail "list does not show $s"
done
[ "$(awk '$1=="nvmeof-vs-iser" {print $2}' list.txt)" -eq 9 ] || fail "nvmeof-vs-iser is not 9 runs"
[ "$(awk '$1=="hcibench-easyrun" {print $2}' list.txt)" -eq 6 ] || fail "hcibench-easyrun is not 6 runs"
[ "$(awk '$1=="kernel-compare" {print $2}' list.txt)" -eq 6 ] || fail "kernel-compare is not 6 runs"
[ "$(awk '$1=="cinder-lvm-vs-iscsi" {print $2}' list.txt)" -eq 2 ] || fail "cinder-lvm-vs-iscsi is not 2 runs"
"$BENCH" profiles show kernel-compare >show.txt || fail "show exited $?"
grep -q '100%_write128k_sequential' show.txt || fail "show lacks a run"
rc=0; "$BENCH" profiles show nope >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 3 ] || fail "show nope: exit $rc"
rc=0; "$BENCH" profiles frob >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "profiles frob: exit $rc"

grep -E '^(fio|vdb)-[0-9]+vmdk-' "$BENCH_SRC/examples/README.md" >article-names.txt
[ "$(wc -l <article-names.txt)" -eq 9 ] || fail "examples/README.md does not list 9 names?"
"$BENCH" plan nvmeof-vs-iser --format json >full.json
"$BENCH" plan nvmeof-vs-iser --quick --target "$T/target.dat" --format json >quick.json
python3 - full.json quick.json article-names.txt "$T/target.dat" <<'PY' || fail "nvmeof-vs-iser"
import json, sys
full = json.load(open(sys.argv[1]))["runs"]
quick = json.load(open(sys.argv[2]))
names = [l.strip() for l in open(sys.argv[3])]
assert [r["name"] for r in full] == [r["name"] for r in quick["runs"]] == names, [r["name"] for r in full]
assert [r["tool"] for r in full] == ["fio"] * 4 + ["vdbench"] * 5
# the article's parameters, spelled out in the names
for r in full:
    n = r["name"].split("-")
    disks, bs, rd, rnd, th = int(n[1][:-4]), n[3], int(n[4][:-5]), int(n[5][:-9]), int(n[6][:-7])
    assert (r["bs"], r["read_pct"], r["random_pct"], r["iodepth"]) == (bs, rd, rnd, th), r
    assert len(r["targets"]) == disks and all("/dev/" not in t for t in r["targets"]), r["targets"]
    o = {x["name"]: x["value"] for x in r["fio_options"]}
    assert o.get("direct") == "1" and o.get("ioengine") == "libaio", o
    if r["tool"] == "fio":
        assert (r["ramp_s"], r["runtime_s"]) == (360, 600) and "group_reporting" in o and o["lat_percentiles"] == "1"
        if "compress" in r["name"]:
            assert (r["compress_pct"], r["dedupe_pct"]) == (50, 50)
    else:
        assert (r["ramp_s"], r["runtime_s"]) == (0, 300), r
for r in quick["runs"]:
    assert r["targets"] == [sys.argv[4]] and (r["ramp_s"], r["runtime_s"]) == (2, 10) and r["size"] == "256m", r
assert quick["estimated_s"] < 300, quick["estimated_s"]
PY

for s in kernel-compare cinder-lvm-vs-iscsi hcibench-easyrun; do
	"$BENCH" plan "$s" --quick --target "$T/t.dat" --format json >q.json
	python3 - q.json <<'PY' || fail "$s --quick"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["estimated_s"] < 300 and all(r["runtime_s"] <= 10 for r in d["runs"]), d["estimated_s"]
PY
done
"$BENCH" plan kernel-compare --format json >k.json
python3 - k.json <<'PY' || fail "kernel-compare"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
got = [(r["name"], r["rw"], r["bs"], r["iodepth"], r["numjobs"], r["runtime_s"], len(r["targets"])) for r in runs]
want = [("100%_read_4k_sequential", "read", "4k", 128, 16, 2400, 8), ("100%_write_4k_sequential", "write", "4k", 128, 16, 2400, 8),
        ("100%_read_4k_random", "randread", "4k", 64, 2, 2400, 8), ("100%_write_4k_random", "randwrite", "4k", 16, 2, 2400, 8),
        ("100%_read_128k_sequential", "read", "128k", 128, 16, 2400, 8), ("100%_write128k_sequential", "write", "128k", 16, 2, 2400, 8)]
assert got == want, got
PY
echo "profiles_library: ok"
