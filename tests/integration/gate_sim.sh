#!/bin/bash
# gate_sim: the CI gate on real fio with the sim ioengine, whose true behaviour is known (acceptance 2 of the
# gate issue, known-answer form).
#
# A: a modelled device with 500 us lognormal service time (CV 0.3), 4k random reads at iodepth 32 on one unit
# (16 ms of queued work keep the device busy through the machine's short holds: tests/lib/sim.sh, sim_rr_job).
# B: the same with 700 us (a device 40% slower: IOPS about x0.71, latency about x1.4). A2: A again.
# Ten blocks, each running the three once in rotating order (A B A2, A2 B A, ...) so that drift of the shared
# machine falls on all three alike; --paired pairs the k-th run of one side with the k-th of the other (same
# repetition number, in the order stored) and uses the signed-rank interval of the paired differences.
#   gate A -> B: read IOPS REGRESSION with the ratio near the model's, mean latency REGRESSION, exit 1;
#   gate A -> A2: EQUIVALENT or INCONCLUSIVE everywhere, exit 0 (pass) or 6 (inconclusive), never 1.
# The sim's timing still feels this machine's load (late wake-ups: 5-10% run to run), so the gates use 99%
# intervals: with 10 pairs a false A/A alarm needs all ten pairs to differ the same way (p = 0.2%).
# The default threshold (5%) is used. A and B differ in the sim model (sim_lat) on purpose: --allow-diff sim_lat
# says so (without it the cells are INVALID, not like for like). The runs are recorded (tests/fixtures/gate/README.md;
# live, about a minute: scripts/perf/gate_live.sh): a few seconds.
. "$BENCH_SRC/tests/lib/failfast.sh"
. "$BENCH_SRC/tests/lib/sim.sh"
sim_gate_begin gate_sim

sim_rr_job a.fio 1 0.3 500us
sim_rr_job b.fio 1 0.3 700us
sim_recorded gate_sim || { sim_blocks "$db" 10 "A:a.fio B:b.fio A2:a.fio" "A2:a.fio B:b.fio A:a.fio" && sim_record gate_sim; }

sim_gate b.out --confidence 99 --paired --baseline cfg=A --candidate cfg=B --allow-diff sim_lat --json b.json
[ $rc -eq 1 ] || fail "A -> B (device 40% slower): expected exit 1, got $rc"
grep -q '^REGRESSION  *rr  *read IOPS ' b.out || fail "A -> B: read IOPS is not a REGRESSION"
grep -q '^REGRESSION  *rr  *read mean latency ' b.out || fail "A -> B: mean latency is not a REGRESSION"
grep -q 'paired by repetition' b.out || fail "A -> B: not paired"
python3 - b.json <<'EOF' || fail "A -> B: the estimate is not the model's"
import json, sys
cells = {c["metric"]: c for c in json.load(open(sys.argv[1]))["cells"]}
iops, lat = cells["iops.read"], cells["lat_mean_us.read"]
# the model: 500 -> 700 us per IO on one unit; fio's and the sleeps' own overhead pulls the ratio towards 1
assert 0.64 < iops["ratio"] < 0.86, iops["ratio"]
assert 1.18 < lat["ratio"] < 1.55, lat["ratio"]
assert len(iops["baseline_samples"]) == 10 and len(iops["candidate_samples"]) == 10
print("model 0.714, measured IOPS ratio %.3f [%.3f, %.3f]; latency ratio %.3f" %
      (iops["ratio"], iops["ci_low"], iops["ci_high"], lat["ratio"]))
EOF

sim_gate a.out --confidence 99 --paired --baseline cfg=A --candidate cfg=A2
[ $rc -eq 0 ] || [ $rc -eq 6 ] || fail "A -> A2 (same model): expected exit 0 or 6, got $rc"
grep -Eq '^(REGRESSION|IMPROVEMENT|INVALID) ' a.out && fail "A -> A2: a cell is neither EQUIVALENT nor INCONCLUSIVE"
grep -Eq '^(EQUIVALENT|INCONCLUSIVE)  *rr  *read IOPS ' a.out || fail "A -> A2: no read IOPS cell"

echo "gate_sim: ok in $(($(date +%s) - start)) s"
