#!/bin/bash
# ss_fio_run: `bench run` of fio jobs with fio's own steady-state detection (ss=), issue 15 acceptance 4
# (docs/fio-facts.md "Steady-state labels", docs/gate.md "Steady state").
#
# 1. A time_based fio job with runtime=30, ss=iops:0.5% ss_dur=2 ss_ramp=1 on the null ioengine at
#    rate_iops=2000 (the IOPS per second are fio's rate, so fio attains the criterion after about 4 s and stops
#    the job): `bench run` stores it done, with fio.ss=attained and the criterion, window and ramp, and a
#    stored runtime well under 30 s that fio.ss.after_s gives. `bench import` of the fio output bench kept
#    (artifact fio-output.json) gives the very same fio.ss labels: both paths read fio's JSON alike.
# 2. The gate over a baseline and a candidate of such runs, 4 each, interleaved A B: every run valid (not
#    "ran short"), the gate PASSes (exit 0) and says each run was stopped early by fio. These runs use the sim
#    ioengine (a modelled 1 ms device at rate_iops=500), whose latency is set by the model: on the null
#    ioengine the mean latency of a run is well under a microsecond and varies by 100% from run to run, which
#    no gate can call equivalent. The threshold is 60% at 90% intervals: what is under test is that the runs
#    count, and this shared machine's late wake-ups move a 4-second run's latency by up to 20%.
. "$BENCH_SRC/tests/lib/common.sh"
: "${BENCH_BUILD:?BENCH_BUILD is not set (run under ctest)}"
command -v fio >/dev/null || { fail "fio is not installed"; finish; }

printf '[global]\nioengine=null\nsize=1g\nbs=4k\ntime_based\nruntime=30\nrate_iops=2000\nss=iops:0.5%%\nss_dur=2\nss_ramp=1\n\n[ss]\nrw=randread\n' >ss.fio
"$BENCH" run ss.fio --db r.db -q --label side=run >run.out 2>&1 || fail "bench run ss.fio: $(cat run.out)"
label() { # label DB KEY: the value of KEY on the only run of DB
  q "$1" "SELECT value FROM run_label WHERE key = '$2'"
}
expect_eq "status" "$(q r.db "SELECT status FROM run")" done
expect_eq "fio.ss" "$(label r.db fio.ss)" attained
expect_eq "fio.ss.criterion" "$(label r.db fio.ss.criterion)" "iops:0.5%"
expect_eq "fio.ss.window_s" "$(label r.db fio.ss.window_s)" 2
expect_eq "fio.ss.ramp_s" "$(label r.db fio.ss.ramp_s)" 1
ms=$(q r.db "SELECT runtime_ms FROM result WHERE host = '*' AND ddir = 'read'")
after=$(label r.db fio.ss.after_s)
awk -v ms="$ms" 'BEGIN { exit !(ms > 0 && ms < 25000) }' && ok "stopped early: stored runtime $ms ms of 30 s" ||
  fail "stored runtime '$ms' ms is not well under 30 s"
awk -v ms="$ms" -v a="$after" 'BEGIN { exit !(a * 1000 >= ms - 1 && a * 1000 <= ms + 1) }' &&
  ok "fio.ss.after_s $after s is the stored runtime" || fail "fio.ss.after_s '$after' is not the stored runtime $ms ms"

q r.db "SELECT writefile('kept.json', content) FROM artifact WHERE name = 'fio-output.json'" >/dev/null
"$BENCH" import kept.json --db i.db >imp.out 2>&1 || fail "bench import of the kept fio output: $(cat imp.out)"
ss_labels() { q "$1" "SELECT key || '=' || value FROM run_label WHERE key LIKE 'fio.ss%' ORDER BY key" | tr '\n' ' '; }
expect_eq "bench import of the same fio output: the same labels" "$(ss_labels i.db)" "$(ss_labels r.db)"

# --- the gate over such runs ---------------------------------------------------------------------------------
if [ ! -f "$BENCH_BUILD/engines/sim/bench_sim.so" ]; then
  grep -q '^BENCH_SIM:BOOL=OFF' "$BENCH_BUILD/CMakeCache.txt" 2>/dev/null && { echo "built without sim: no gate part"; finish; }
  fail "$BENCH_BUILD/engines/sim/bench_sim.so is missing"
  finish
fi
printf '[global]\nsize=64g\nbs=4k\niodepth=1\ntime_based\nruntime=30\nrate_iops=500\nss=iops:0.5%%\nss_dur=2\nss_ramp=1\nsim_lat=1ms\n\n[ss]\nrw=randread\n' >sim.fio
for i in 1 2 3 4; do
  for side in A B; do
    "$BENCH" run sim.fio --engine sim --db g.db -q --label "side=$side" >run.out 2>&1 || fail "bench run sim.fio ($side): $(cat run.out)"
  done
done
q g.db "SELECT l.value, group_concat(x.runtime_ms, ' ') FROM result x JOIN run_label l ON l.run_id = x.run_id
  AND l.key = 'side' WHERE x.host = '*' AND x.ddir = 'read' GROUP BY l.value"
expect_eq "sim runs fio stopped early (attained)" "$(q g.db "SELECT count(*) FROM run_label WHERE key = 'fio.ss' AND value = 'attained'")" 8
# Under test is whether the gate takes these runs (valid, not short), not this machine's latency noise: a
# tail-latency cell the noise leaves undecided passes (--on-inconclusive pass); no cell may be INVALID.
"$BENCH" gate --db g.db --baseline side=A --candidate side=B --threshold 60 --confidence 90 \
  --on-inconclusive pass --junit g.xml >gate.out 2>&1
rc=$?
cat gate.out
expect_eq "gate exit over runs stopped early by ss=" "$rc" 0
grep -qE '^gate: (PASS|INCONCLUSIVE \(accepted: --on-inconclusive pass\)): 0 regressions, .* 0 invalid$' gate.out && ok "headline: accepted, 0 invalid" ||
  fail "headline: $(tail -1 gate.out)"
grep -q "^baseline 'side=A' (4 runs, 4 valid), candidate 'side=B' (4 runs, 4 valid)" gate.out &&
  ok "every run valid" || fail "not every run valid: $(head -1 gate.out)"
grep -q 'ran short' gate.out && fail "a run was called short" || ok "no run called short"
expect_eq "every run said to be stopped early by fio" \
  "$(grep -c "^note: .* run [0-9]* (ss, repetition 1): fio's ss=iops:0.5% attained after [0-9.]* s (stopped early by fio: complete, not short)$" gate.out)" 8
grep -q "<system-out>.*attained after" g.xml && ok "JUnit says it too" || fail "JUnit: no steady-state note"
finish
