#!/bin/bash
# plan_matrix: issue 3 acceptance 4. `bench plan --matrix bs=4k,8k,64k,256k --matrix rdpct=0,70,100
# --matrix randpct=0,100 <base>` plans 24 runs in the documented order (first --matrix outermost, last
# innermost; docs/profiles.md), and `--format json` is valid JSON with the same runs in the same order.
# Also: a matrix over any fio option, the suite file's [matrix] crossed before --matrix, and bad values.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
cd "$T"

base=fio-1vmdk-100ws-4k-100rdpct-100randompct-4threads
args=(--matrix bs=4k,8k,64k,256k --matrix rdpct=0,70,100 --matrix randpct=0,100 "$base")
"$BENCH" plan "${args[@]}" >plan.txt || fail "bench plan exited $?"
"$BENCH" plan "${args[@]}" --format json >plan.json || fail "bench plan --format json exited $?"
grep -q '^24 runs, estimated wall time' plan.txt || fail "not 24 runs: $(tail -1 plan.txt)"

# the documented order, computed here independently: bs outermost, then rdpct, then randpct
want=""
for bs in 4k 8k 64k 256k; do for rd in 0 70 100; do for rnd in 0 100; do
	want+="fio-1vmdk-100ws-$bs-${rd}rdpct-${rnd}randompct-4threads $bs $rd $rnd"$'\n'
done; done; done
got_text=$(awk 'NR>1 && NF >= 10 && $1 ~ /^[0-9]+$/ {print $2, $4, $5, $6}' plan.txt)
[ "$got_text" == "${want%$'\n'}" ] || { diff <(echo "$got_text") <(printf '%s' "$want") >&2; fail "text order differs"; }

python3 - plan.json "$want" <<'PY' || fail "JSON check failed"
import json, sys
d = json.load(open(sys.argv[1]))
want = [l.split() for l in sys.argv[2].strip().split("\n")]
runs = d["runs"]
assert d["count"] == 24 == len(runs), (d["count"], len(runs))
for i, (r, w) in enumerate(zip(runs, want)):
    assert r["seq"] == i + 1, r["seq"]
    got = [r["name"], r["bs"], str(r["read_pct"]), str(r["random_pct"])]
    assert got == w, (i, got, w)
    opts = {o["name"]: o["value"] for o in r["fio_options"]}
    assert opts["rw"] == "randrw" and opts["rwmixread"] == w[2] and opts["percentage_random"] == w[3], opts
    assert opts["bs"] == w[1], opts
print("json: 24 runs in order")
PY

# any fio option, and numjobs/iodepth, cross too; the result is in the fio options
"$BENCH" plan --matrix iodepth=1,32 --matrix numjobs=1,4 --matrix ioengine=psync,libaio "$base" --format json >m2.json
python3 - m2.json <<'PY' || fail "matrix over fio options"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 8, len(runs)
got = [(r["iodepth"], r["numjobs"], {o["name"]: o["value"] for o in r["fio_options"]}["ioengine"]) for r in runs]
want = [(q, j, e) for q in (1, 32) for j in (1, 4) for e in ("psync", "libaio")]
assert got == want, got
PY

# a suite file's [matrix] is crossed first, then --matrix
cat >m.suite <<'S'
[suite]
name = m
[matrix]
bs = 4k,8k
[workload w]
rw=randread
iodepth=1
S
"$BENCH" plan m.suite --matrix iodepth=1,2 >m.txt
got=$(awk 'NR>1 && NF >= 10 && $1 ~ /^[0-9]+$/ {print $2}' m.txt | tr '\n' ' ')
[ "$got" == "w-bs4k-iodepth1 w-bs4k-iodepth2 w-bs8k-iodepth1 w-bs8k-iodepth2 " ] || fail "suite matrix order: $got"

# bad matrix values: exit 3 (bad input) or 2 (usage), one line
rc=0; "$BENCH" plan --matrix rdpct=0,170 "$base" >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 3 ] && grep -q "170" err.txt || fail "rdpct=170: exit $rc $(cat err.txt)"
rc=0; "$BENCH" plan --matrix bs=4k,,8k "$base" >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 3 ] || fail "empty matrix item: exit $rc $(cat err.txt)"
rc=0; "$BENCH" plan --matrix bs "$base" >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 2 ] || fail "--matrix without '=': exit $rc"
echo "plan_matrix: ok (24 runs in order, text and JSON)"
