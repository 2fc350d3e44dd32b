#!/bin/bash
# gate_sim_verdicts: the gate's verdicts as a CI user meets them, on real fio with the sim ioengine (acceptance
# 1 and 3 of the "a gate you can trust" issue).
#
# A: a modelled device with 1 ms lognormal service time (CV 0.2), 4k random reads at iodepth 32 on one unit
# (about 1000 IOPS; at 1 ms the late wake-ups of a shared machine weigh less than at 100 us, and 32 ms of queued
# work keep the device busy through the machine's short holds: tests/lib/sim.sh, sim_rr_job).
# B: the same at 1.33 ms (33% slower). A2: A again. C: A with rate_iops=500 (a candidate capped at half).
# Four interleaved blocks A B A2 C (rotating), one-second runs:
#   A -> B --allow-diff sim_lat (the sides differ in the model on purpose), 4 pairs, --paired and unpaired:
#          REGRESSION, exit 1 (4 pairs used to be "PASS": the exact
#          signed-rank interval cannot reach 95% with 4 pairs; the t interval can);
#   A -> A2, 4 pairs, paired and unpaired: never exit 1;
#   A -> C: INVALID naming rate_iops (exit 3); with --allow-diff rate_iops it is judged (IOPS REGRESSION).
# The runs are recorded (tests/fixtures/gate/README.md; live: scripts/perf/gate_live.sh): about a second.
. "$BENCH_SRC/tests/lib/failfast.sh"
. "$BENCH_SRC/tests/lib/sim.sh"
sim_gate_begin gate_sim_verdicts

sim_rr_job a.fio 1 0.2 1000us
sim_rr_job b.fio 1 0.2 1330us
sim_rr_job c.fio 1 0.2 1000us rate_iops=500
sim_recorded gate_sim_verdicts || { sim_blocks "$db" 4 "A:a.fio B:b.fio A2:a.fio C:c.fio" "C:c.fio A2:a.fio B:b.fio A:a.fio" && sim_record gate_sim_verdicts; }

# --- acceptance 1: 33% slower, 4 pairs: REGRESSION paired and unpaired --------------------------------------
for mode in --paired ""; do
	# shellcheck disable=SC2086
	sim_gate b.out $mode --baseline cfg=A --candidate cfg=B --allow-diff sim_lat --markdown b.md
	[ $rc -eq 1 ] || fail "A -> B ${mode:-unpaired}: expected exit 1, got $rc"
	grep -q '^REGRESSION  *rr  *read IOPS ' b.out || fail "A -> B ${mode:-unpaired}: read IOPS is not a REGRESSION"
	grep -q '^### bench gate: REGRESSION' b.md || fail "A -> B ${mode:-unpaired}: the Markdown headline"
	grep -q 'baseline runs .*show them: bench report' b.out || fail "A -> B: no next steps with the runs"
	echo "ok: A -> B ${mode:-unpaired}: REGRESSION, exit 1"
done

# --- the same configuration, 4 pairs: never exit 1 -----------------------------------------------------------
for mode in --paired ""; do
	# shellcheck disable=SC2086
	sim_gate a.out $mode --baseline cfg=A --candidate cfg=A2
	[ $rc -eq 1 ] && fail "A -> A2 ${mode:-unpaired} (same model): exit 1"
	[ $rc -eq 0 ] || [ $rc -eq 6 ] || fail "A -> A2 ${mode:-unpaired}: expected exit 0 or 6, got $rc"
	grep -Eq '^(REGRESSION|INVALID) ' a.out && fail "A -> A2 ${mode:-unpaired}: a REGRESSION or INVALID cell"
	echo "ok: A -> A2 ${mode:-unpaired}: exit $rc"
done

# --- acceptance 3: rate_iops on the candidate only -----------------------------------------------------------
if ! grep -q 'gate_run_set_like' "$BENCH_SRC/report/gate/gate_select.c"; then
	echo "SKIP: like-for-like on stored runs (gate_select_load does not call gate_run_set_like yet)"
else
	"$BENCH" gate --db "$db" --paired --baseline cfg=A --candidate cfg=C >c.out 2>c.err
	rc=$?
	cat c.out c.err
	[ $rc -eq 3 ] || fail "A -> C (rate_iops on one side): expected exit 3, got $rc"
	grep -q '^INVALID  *rr  *read IOPS .*rate_iops: baseline -, candidate 500' c.out ||
		fail "A -> C: the cell is not INVALID naming rate_iops"
	sim_gate c.out --paired --baseline cfg=A --candidate cfg=C --allow-diff rate_iops
	[ $rc -eq 1 ] || fail "A -> C --allow-diff rate_iops: expected exit 1 (IOPS capped), got $rc"
	grep -q '^REGRESSION  *rr  *read IOPS ' c.out || fail "A -> C --allow-diff rate_iops: IOPS not judged"
	echo "ok: A -> C INVALID naming rate_iops; judged with --allow-diff rate_iops"
fi
echo "gate_sim_verdicts: ok in $(($(date +%s) - start)) s"
