#!/usr/bin/env bash
# method_resume: a curve and a sweep cut short and finished with `bench run --resume` (docs/method.md: every
# figure the run loop needs is read back from the store). On sim (8 units x 1 ms, 1 s runs):
#   curve: run --curve 50,90, delete the two points (as a suite cut after its max run leaves them missing), then
#     --resume: the max run is not run again (same id, same start), the points run with curve.target_iops =
#     50 % / 90 % of the max run's stored total IOPS.
#   sweep: a sweep that stopped at its first point (--until 'iops_gain<-1000%' never passes; 'lat>0.001ms' always
#     does) is resumed: no later point runs.
#   bad values: one error line, exit 2, nothing stored.
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
[ -f "$BENCH_BUILD/engines/sim/bench_sim.so" ] || { echo "method_resume: no sim engine (-DBENCH_SIM=OFF): nothing to test (skipped)"; exit 77; }
printf '%s\n' '[c]' rw=randread bs=4k iodepth=8 size=16m runtime=1 time_based "filename=$T/c.dat" >c.fio
sim=(--engine sim --engine-opt sim_units=8 --engine-opt sim_lat=1ms --no-collectors -q)

"$BENCH" run --db c.db c.fio --curve 50,90 "${sim[@]}" 2>run1.err || { cat run1.err; fail "curve run"; }
max_before=$(q c.db "SELECT r.id || ' ' || r.started_at FROM run r JOIN run_label l ON l.run_id = r.id
                     WHERE l.key = 'curve_pct' AND l.value = 'max'")
points=$(q c.db "SELECT r.id FROM run r JOIN run_label l ON l.run_id = r.id WHERE l.key = 'curve_pct' AND l.value != 'max'")
"$BENCH" db rm --db c.db $points >/dev/null
expect_eq "points deleted" "$(q c.db "SELECT COUNT(*) FROM run")" 1
"$BENCH" run --db c.db c.fio --curve 50,90 "${sim[@]}" --resume 2>run2.err || { cat run2.err; fail "resume"; }
expect_eq "the max run was not run again" "$(q c.db "SELECT r.id || ' ' || r.started_at FROM run r JOIN run_label l
  ON l.run_id = r.id WHERE l.key = 'curve_pct' AND l.value = 'max'")" "$max_before"
max=$(q c.db "SELECT x.iops FROM result x JOIN run_label l ON l.run_id = x.run_id AND l.key = 'curve_pct' AND l.value = 'max'
              WHERE x.host = '*' AND x.job = '*' AND x.ddir = 'total'")
for pct in 50 90; do
  expect_eq "point $pct %: target from the stored max run ($max IOPS)" \
    "$(q c.db "SELECT t.value FROM run_label p JOIN run_label t ON t.run_id = p.run_id AND t.key = 'curve.target_iops'
               WHERE p.key = 'curve_pct' AND p.value = '$pct'")" \
    "$(python3 -c "print('%.0f' % ($max * $pct / 100))")"
done

"$BENCH" run --db s.db c.fio --sweep iodepth=1,2,4 --until 'lat>0.001ms' "${sim[@]}" 2>s1.err || { cat s1.err; fail "sweep"; }
expect_eq "sweep: stopped at its first point" "$(q s.db "SELECT COUNT(*) FROM run")" 1
grep -q "sweep stopped at run 1 .*(iodepth=1): lat>0.001ms passed" s1.err && ok "stderr says where and why" ||
  fail "no stop line: $(cat s1.err)"
"$BENCH" run --db s.db c.fio --sweep iodepth=1,2,4 --until 'lat>0.001ms' "${sim[@]}" --resume 2>s2.err ||
  { cat s2.err; fail "sweep resume"; }
expect_eq "sweep resumed: still no point after the stop" "$(q s.db "SELECT COUNT(*) FROM run")" 1

# the suite keys: precondition = on plans the phases, sweep/until the points (as the options do)
printf '%s\n' '[suite]' 'engine = sim' 'precondition = on' 'sweep = iodepth=1,2' 'until = p99>5ms' '[workload w]' \
  rw=randwrite bs=4k size=16m runtime=1 time_based >k.suite
"$BENCH" plan k.suite --max-rounds 5 --format json >k.json
expect_eq "suite keys: phases and points planned" "$(python3 -c 'import json; print(" ".join(r["labels"].get("precondition",
  r["labels"].get("sweep.iodepth", "?")) for r in json.load(open("k.json"))["runs"]))')" "purge wipc wdpc wdpc wdpc wdpc wdpc 1 2"
expect_eq "suite keys: the sweep's limit on its points" "$(python3 -c 'import json; print(json.load(open("k.json"))["runs"][-1]["run_method"]["until"][0])')" "p99>5ms"

for bad in "--curve 0,50" "--curve 50,50" "--sweep depth=1,2" "--until p99=1ms" "--max-rounds 3" "--round-time 0s"; do
  rc=0
  # shellcheck disable=SC2086
  "$BENCH" run --db bad.db c.fio $bad "${sim[@]}" 2>bad.err || rc=$?
  expect_eq "$bad: exit" "$rc" 2
  expect_eq "$bad: one error line" "$(grep -c 'bench: error:' bad.err)" 1
done
[ ! -s bad.db ] || expect_eq "bad values: nothing stored" "$(q bad.db "SELECT COUNT(*) FROM run")" 0
"$BENCH" run --db bad.db c.fio --until 'p99>1ms' "${sim[@]}" 2>bad.err && fail "--until without a sweep accepted" ||
  ok "--until without a sweep refused: $(cat bad.err)"
finish
