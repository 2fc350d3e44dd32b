#!/usr/bin/env bash
# explain_baseline: `bench baseline` and the member-devices ceiling from baselines (issue 32). Three sim member
# "devices" (1 unit x 1 ms: 1,000 IOPS each at iodepth 16, device-bound whatever the machine's load) are
# measured alone by `bench baseline` (3 runs, labelled phase=baseline and baseline.member=NAME); a raid5 run
# over 3 members labelled stack=sim-raid5 then gets a baselines check of 3 x 1,000 / 3 member ops per write
# (reconstruct-write over 3) = 1,000 IOPS, within 5 %, beside the sim model's own 1,000; the same run without a
# layout label gets none. `bench baseline` without --target is a usage error (exit 2) and runs nothing.
# About 8 s.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
if [ ! -f "$BENCH_BUILD/engines/sim/bench_sim.so" ]; then
	echo "explain_baseline: no sim engine (built with -DBENCH_SIM=OFF): nothing to test (skipped)"
	exit 77
fi
printf '[suite]\nname = w\n[options]\nrw=randwrite\nbs=4k\nsize=64m\ntime_based\nruntime=1\niodepth=16\n[workload rw4k]\n' >w.suite
DEV=(--engine sim --engine-opt sim_units=1 --engine-opt sim_lat=1ms --engine-opt sim_spin=0 --no-collectors -q)

"$BENCH" baseline w.suite "${DEV[@]}" --db b.db >out.txt 2>err.txt
expect_eq "baseline without --target: exit" "$?" 2
grep -q "^bench: error: baseline: give the member devices with --target" err.txt && ok "baseline without --target: says so" ||
	fail "baseline without --target: $(cat err.txt)"
[ ! -s b.db ] || expect_eq "baseline without --target: runs" "$(q b.db 'SELECT count(*) FROM run')" 0
# its option errors are its own (OPT_BASELINE in bench/options.h), and run's --resume is not one of them
"$BENCH" baseline w.suite "${DEV[@]}" --target "$T/m1" --grace abc --db b.db >out.txt 2>err.txt
expect_eq "baseline --grace abc: exit" "$?" 2
expect_eq "baseline --grace abc: says baseline" "$(head -1 err.txt)" \
	"bench: error: baseline: --grace wants seconds 0..86400, got 'abc' (see 'bench baseline --help')"
"$BENCH" baseline w.suite "${DEV[@]}" --target "$T/m1" --resume --db b.db >out.txt 2>err.txt
expect_eq "baseline --resume: exit" "$?" 2
grep -q "^bench: error: baseline: unknown option '--resume'" err.txt && ok "baseline --resume: refused" ||
	fail "baseline --resume: $(cat err.txt)"
[ ! -s b.db ] || expect_eq "baseline refused: runs" "$(q b.db 'SELECT count(*) FROM run')" 0

"$BENCH" baseline w.suite "${DEV[@]}" --target "$T/m1" --target "$T/m2" --target "$T/m3" --db b.db 2>err.txt
expect_eq "baseline: exit" "$?" 0
expect_eq "baseline: one run per member, done" \
	"$(q b.db "SELECT group_concat(v, ' ') FROM (SELECT l.value AS v FROM run r JOIN run_label l ON l.run_id = r.id
	   WHERE l.key = 'baseline.member' AND r.status = 'done' ORDER BY r.id)")" "m1 m2 m3"
expect_eq "baseline: labelled phase=baseline" \
	"$(q b.db "SELECT count(*) FROM run_label WHERE key = 'phase' AND value = 'baseline'")" 3

"$BENCH" run w.suite "${DEV[@]}" --engine-opt sim_raid=raid5 --engine-opt sim_members=3 --label stack=sim-raid5 \
	--target "$T/r5" --db b.db 2>err.txt || fail "run raid5: $(tail -1 err.txt)"
"$BENCH" run w.suite "${DEV[@]}" --engine-opt sim_raid=raid5 --engine-opt sim_members=3 --label stack=plain \
	--target "$T/r5b" --db b.db 2>err.txt || fail "run plain: $(tail -1 err.txt)"
checks() { # checks STACK: "LIMIT CEILING" of the baselines checks of that stack's row
	"$BENCH" report --db b.db --explain --where stack="$1" --format json 2>>err.txt | tail -1 | python3 -c '
import json, sys
for r in json.loads(sys.stdin.read())["explain"]:
    for c in r["checks"]:
        if "member baselines" in c["evidence"]:
            print(c["limit"], c["ceiling_iops"], c["evidence"])'
}
got=$(checks sim-raid5)
python3 -c "import sys; w = '''$got'''.split(); sys.exit(not (w and w[0] == 'devices' and abs(float(w[1]) - 1000) <= 50))" &&
	ok "raid5 over 3 baselines: ceiling within 5 % of 1,000 ($(echo "$got" | cut -c1-40))" || fail "raid5 baselines: '$got'"
case "$got" in *"over 3 members; raid5 costs 3.00 member ops per IO"*) ok "evidence: members and geometry" ;;
*) fail "evidence: '$got'" ;; esac
expect_eq "no layout label: no baselines check" "$(checks plain)" ""
finish
