#!/usr/bin/env bash
# plan_run_agree: issue 12 acceptance 4. Every option `bench run --help` lists as changing what runs is
# accepted by `bench plan` (and run-only options are refused by plan as such); for five varied command lines
# (fio job file, vdbench parameter file, suite file, --matrix, --repeat with --interleave) `bench plan
# --format json` equals what `bench run` then stores: names, workloads, targets, labels, engine options,
# order (sqlite3 on the database after a real run: fio with ioengine=null, or the null engine).
. "$BENCH_SRC/tests/lib/common.sh"

cat > a.fio <<'JOB'
[global]
ioengine=null
size=1m
runtime=1
[randr]
rw=randread
bs=4k
iodepth=4
[mixed]
rw=randrw
rwmixread=70
bssplit=4k/60:64k/40
JOB
write_lines b.fio '[seqw]' ioengine=null rw=write bs=128k size=1m runtime=1
cat > c.vdb <<'VDB'
sd=sd1,lun=t1.dat,size=1m
wd=wd1,sd=sd1,xfersize=(4k,60,8k,40),rdpct=70,seekpct=100
rd=rd1,wd=wd1,iorate=max,elapsed=1,interval=1,forthreads=(1,4)
VDB
cat > d.suite <<'SUITE'
[suite]
name = agree
label = stack=mdadm
engine = null
runtime = 1
[options]
size=1m
[matrix]
bs = 4k,16k
[workload w1]
bench.label.tier = hot
rw=randwrite
[workload w2]
rw=read
SUITE
printf 'h1 127.0.50.1 target=/tmp/x\n' > hosts.txt
mkdir -p wd

# 1. every option of run --help that changes what runs is accepted by plan
sect=$("$BENCH" run --help | awk '/^options that change what runs|^the measurement method/ {on = 1; next} /^$/ {on = 0} on')
opts=$(printf '%s\n' "$sect" | sed -n 's/^  \(-., \)\{0,1\}--\([a-z-]*\).*/\2/p')
[ "$(echo $opts | wc -w)" -ge 10 ] && ok "run --help lists $(echo $opts | wc -w) plan options: $(echo $opts)" ||
  fail "run --help lists too few plan options: $opts"
for o in target quick matrix repeat engine engine-opt hosts label workdir interleave curve sweep until \
  precondition max-rounds round-time; do
  echo " $(echo $opts) " | grep -q " $o " && ok "run --help lists --$o as changing the plan" || fail "--$o missing from run --help's plan options"
done
value_for() {
  case "$1" in
    target) echo "$T/t0.dat" ;; matrix) echo "iodepth=1,2" ;; repeat) echo 2 ;; engine) echo null ;;
    engine-opt) echo "thinktime=0" ;; hosts) echo hosts.txt ;; label) echo "x=y" ;; workdir) echo wd ;;
    curve) echo 50,100 ;; sweep) echo iodepth=1,2 ;; until) echo 'p99>1ms' ;; max-rounds) echo 5 ;;
    round-time) echo 1s ;; runtime) echo 2s ;; ramp) echo 1s ;; size) echo 8m ;; iodepth) echo 2 ;;
    numjobs) echo 1 ;;
  esac
}
for o in $opts; do
  v=$(value_for "$o")
  extra=(); [ "$o" = until ] && extra=(--sweep iodepth=1,2) # a limit needs a sweep to stop
  rc=0; "$BENCH" plan a.fio b.fio "${extra[@]}" "--$o" ${v:+"$v"} >/dev/null 2>err.txt || rc=$?
  expect_eq "bench plan accepts --$o ${v}" "$rc" 0
  [ -n "$v" ] || continue
  rc=0; "$BENCH" plan a.fio b.fio "${extra[@]}" "--$o=$v" >/dev/null 2>err.txt || rc=$?
  expect_eq "bench plan accepts --$o=$v" "$rc" 0
done
"$BENCH" plan a.fio X_VAR=1 >/dev/null 2>&1 && ok "plan accepts NAME=value" || fail "plan refuses NAME=value"
runonly=$("$BENCH" run --help | awk "/^options of 'bench run' only/ {on = 1; next} /^$/ {on = 0} on" |
  sed -n 's/^  \(-., \)\{0,1\}--\([a-z-]*\).*/\2/p' | grep -v '^help$')
for o in $runonly; do
  rc=0; "$BENCH" plan a.fio "--$o" x >/dev/null 2>err.txt || rc=$?
  [ "$rc" -eq 2 ] && grep -q "of 'bench run' only" err.txt && ok "plan refuses run-only --$o" ||
    fail "plan --$o: exit $rc $(cat err.txt)"
done
# same syntax, same checks: what one refuses, the other refuses the same way
for bad in "--matrix=b s=4k" "--repeat=0" "--label=bad key=1" "--engine=warp" "--engine-opt==v"; do
  rp=0; "$BENCH" plan a.fio "$bad" >/dev/null 2>ep.txt || rp=$?
  rr=0; "$BENCH" run a.fio "$bad" --db refused.db >/dev/null 2>er.txt || rr=$?
  [ "$rp" -ne 0 ] && [ "$rp" -eq "$rr" ] && [ "$(sed 's/bench run/bench plan/; s/ run: / plan: /' er.txt)" = "$(cat ep.txt)" ] &&
    ok "plan and run refuse '$bad' alike (exit $rp)" || fail "'$bad': plan exit $rp '$(cat ep.txt)', run exit $rr '$(cat er.txt)'"
done
[ ! -e refused.db ] && ok "refused runs created no database" || fail "a refused run created refused.db"

# 2. five command lines: plan JSON = what the store holds after the run
compare() { # compare NAME ARGS...
  local name=$1; shift
  local rc=0
  "$BENCH" plan "$@" --format json >"$name.json" 2>"$name.plan.err" || rc=$?
  expect_eq "$name: plan exit code" "$rc" 0
  rc=0
  "$BENCH" run "$@" --db "$name.db" -q --no-collectors >"$name.out" 2>"$name.err" || rc=$?
  expect_eq "$name: run exit code" "$rc" 0
  [ "$rc" -eq 0 ] || cat "$name.err"
  if python3 - "$name.json" "$name.db" <<'PY'; then ok "$name: plan JSON = stored runs"; else fail "$name: plan JSON differs from stored runs"; fi
import json, sqlite3, sys
plan = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
suite = db.execute("SELECT id, name, planned_runs FROM suite").fetchall()
assert len(suite) == 1, suite
sid, sname, planned = suite[0]
assert sname == plan["suite"], (sname, plan["suite"])
assert planned == plan["count"] == len(plan["runs"]), (planned, plan["count"])
slabels = dict(db.execute("SELECT key, value FROM suite_label WHERE suite_id=?", (sid,)).fetchall())
assert slabels == plan["labels"], (slabels, plan["labels"])
rows = db.execute("SELECT id, seq, repetition, name, engine, status, tool, rw, bs_bytes, bssplit, read_pct, "
                  "random_pct, iodepth, numjobs, runtime_s, ramp_s, size, compress_pct, dedupe_pct, spec "
                  "FROM run WHERE suite_id=? ORDER BY id", (sid,)).fetchall()
assert len(rows) == len(plan["runs"]), (len(rows), len(plan["runs"]))
for row, p in zip(rows, plan["runs"]):
    (rid, seq, rep, name, engine, status, tool, rw, bs, bssplit, rd, rnd, qd, nj, rt, ramp, size, cp, dp,
     spec) = row
    spec = json.loads(spec)
    want = (p["seq"], p["repetition"], p["name"], p["engine"], "done", p["tool"], p["rw"], p["bs_bytes"],
            p.get("bssplit"), p["read_pct"], p["random_pct"], p["iodepth"], p["numjobs"], p["runtime_s"],
            p["ramp_s"], p["size"], p["compress_pct"], p["dedupe_pct"])
    # the store keeps no block size (NULL) for a bssplit-only workload: the plan says 0
    got = (seq, rep, name, engine, status, tool, rw, bs or 0, bssplit, rd, rnd, qd, nj, rt, ramp, size, cp, dp)
    assert got == want, (got, want)
    assert spec["targets"] == p["targets"], (spec["targets"], p["targets"])
    opts = [[o["name"], o["value"]] for o in p["fio_options"]]
    sopts = spec["workload"]["opts"]
    sopts = [[k, v] for k, v in (sopts.items() if isinstance(sopts, dict) else
             [(o["key"], o.get("value")) if isinstance(o, dict) else tuple(o) for o in sopts])]
    assert sopts == opts, (sopts, opts)
    pairs = lambda v: [list(x) for x in (v.items() if isinstance(v, dict) else v)]
    assert pairs(spec["engine_opts"]) == pairs(p.get("engine_options", {})), (spec["engine_opts"], p.get("engine_options"))
    labels = dict(p["labels"]); labels.update(plan["labels"])
    stored = dict(db.execute("SELECT key, value FROM run_label WHERE run_id=?", (rid,)).fetchall())
    assert stored == labels, (stored, labels)
print(f"{len(rows)} runs agree")
PY
}
start=$(date +%s)
compare fiojob a.fio --target "$T/t1.dat" --label case=fio
compare vdbench c.vdb --engine null
compare suite d.suite --label run=3
compare matrix b.fio --matrix bs=4k,64k --matrix iodepth=1,8 --engine null --engine-opt sim_x=1 --workdir wd
compare interleave a.fio b.fio --repeat 2 --interleave --engine null --label side=x
echo "five command lines in $(( $(date +%s) - start )) s"
finish
