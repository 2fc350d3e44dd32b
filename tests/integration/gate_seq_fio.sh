#!/bin/bash
# gate_seq_fio: the sequential gate on real fio (issue 30, acceptance 2): `bench gate --run SUITE` runs the
# suite's baseline and candidate as interleaved pairs on this machine and judges after each pair.
#
# Three fio jobs on a small file in the test's own directory, rate-capped so that a shared machine still
# delivers their rate: base.fio rate_iops=3000, cand.fio 2700 (-10%), same.fio 3000, 2 s each (psync; at 1 s a
# machine loaded 6-fold made single runs lose up to 10% of their IOs at the end and the gates ran out of budget).
#   reg.suite (base, cand), --metric iops --allow-diff rate_iops --budget 8: REGRESSION, exit 1, within the
#   budget; every run stored with the labels gate.suite and gate.side; the same command again finds the stored
#   pairs and gives the same verdict without running another pair (a resumed gate continues).
#   aa.suite (base, same), --metric iops --threshold iops=5% --budget 10: never exit 1; EQUIVALENT for read IOPS
#   within the budget (exit 0).
# What needs fio to deliver its rate is checked only when it did: a gate that did not reach its verdict while
# some run fell below 95% of its rate_iops (a machine too busy: at load 12-18 on 2 cores, 3000 IOPS psync
# threads lost up to a sixth of their IOs) is reported as skipped with that count (exit 77), never passed; a
# wrong verdict (a 10% drop EQUIVALENT or IMPROVEMENT, exit 1 for A/A) fails whatever the machine did.
# About 45 s on a quiet machine (3 pairs for the regression, 4-6 for A/A, ~4 s a pair with the runs' overhead).
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { skip "fio is not installed"; finish; }

# fio's nice=-10 (root only: the tests run as root) keeps the rate-capped thread on time beside the other
# helpers' loads; a late wake-up at the end of a time_based run stretches its runtime without IOs
prio=""
[ "$(id -u)" = 0 ] && prio="nice=-10"
for side in base:3000 cand:2700 same:3000; do
	write_lines "$T/${side%%:*}.fio" "[global]" "ioengine=psync" "rw=randread" "bs=4k" "size=16m" "time_based" \
		"runtime=2" "rate_iops=${side##*:}" $prio "" "[rr]"
done
write_lines "$T/reg.suite" "[suite]" "name = reg" "targets = $T/target.dat" "profile = base.fio" "profile = cand.fio"
write_lines "$T/aa.suite" "[suite]" "name = aa" "targets = $T/target.dat" "profile = base.fio" "profile = same.fio"
db=$T/g.db
start=$(date +%s)

# off_rate SUITE CAND-RATE: the runs of the gate SUITE whose read IOPS fell below 95% of their rate_iops (the
# baseline's 3000, the candidate's CAND-RATE): fio itself did not deliver the load the check is about
off_rate() {
	q "$db" "SELECT count(*) FROM result x JOIN run_label s ON s.run_id = x.run_id AND s.key = 'gate.suite'
		JOIN run_label d ON d.run_id = x.run_id AND d.key = 'gate.side' WHERE s.value = '$1' AND x.host = '*'
		AND x.ddir = 'read' AND x.iops < 0.95 * (CASE d.value WHEN 'candidate' THEN $2 ELSE 3000 END)"
}
# undecided WHAT SUITE CAND-RATE: a gate that did not reach its verdict is a failure, unless fio missed its rate
undecided() {
	local n
	n=$(off_rate "$2" "$3")
	if [ "$n" -gt 0 ]; then
		skip "$1: fio delivered less than 95% of its rate_iops in $n run(s) (a machine too busy for this check)"
	else
		fail "$1, with every run at its rate"
	fi
}
pairs_of() { sed -n "s/^sequential gate '$1': [a-z ]* after \([0-9]*\) pair(s).*/\1/p" "$2"; }

"$BENCH" gate --run "$T/reg.suite" --db "$db" --metric iops --allow-diff rate_iops --budget 8 >"$T/reg.out" 2>&1
rc=$?
cat "$T/reg.out"
grep -Eq '^(EQUIVALENT|IMPROVEMENT)  *rr  *read IOPS ' "$T/reg.out" && fail "a 10% drop judged EQUIVALENT or IMPROVEMENT" ||
	ok "a 10% drop is never EQUIVALENT or IMPROVEMENT"
if [ "$rc" = 1 ] && grep -q '^REGRESSION  *rr  *read IOPS .* -[89]\.[0-9]%\|^REGRESSION  *rr  *read IOPS .* -1[01]\.[0-9]%' "$T/reg.out" &&
	grep -q "^sequential gate 'reg': decided after [0-9]* pair(s) of a budget of 8 " "$T/reg.out"; then
	ok "base 3000 vs cand 2700 IOPS: REGRESSION near -10%, exit 1, within the budget ($(pairs_of reg "$T/reg.out") pairs)"
else
	undecided "base 3000 vs cand 2700 IOPS: exit $rc, not a REGRESSION within the budget" reg 2700
fi
pairs=$(pairs_of reg "$T/reg.out")
runs=$(q "$db" "SELECT count(*) FROM run_label WHERE key = 'gate.suite' AND value = 'reg'")
expect_eq "runs stored with gate.suite=reg" "$runs" "$((2 * ${pairs:-0}))"
expect_eq "baseline runs labelled gate.side=baseline" \
	"$(q "$db" "SELECT count(*) FROM run_label l JOIN run_label p ON p.run_id = l.run_id WHERE l.key = 'gate.side'
		AND l.value = 'baseline' AND p.key = 'profile' AND p.value LIKE '%base.fio'")" "${pairs:-0}"

"$BENCH" gate --run "$T/reg.suite" --db "$db" --metric iops --allow-diff rate_iops --budget 8 >"$T/again.out" 2>&1
expect_eq "resumed: exit as before" "$?" "$rc"
expect_eq "resumed: no new pair run" "$(q "$db" "SELECT count(*) FROM run_label WHERE key = 'gate.suite' AND value = 'reg'")" "$runs"
grep -q "^gate: pair" "$T/again.out" && fail "resumed: ran a pair: $(cat "$T/again.out")" || ok "resumed: judged the stored pairs"

"$BENCH" gate --run "$T/aa.suite" --db "$db" --metric iops --threshold iops=5% --budget 10 >"$T/aa.out" 2>&1
rc=$?
cat "$T/aa.out"
[ "$rc" != 1 ] && ok "A/A: not exit 1 (exit $rc)" || fail "A/A: exit 1"
if [ "$rc" = 0 ] && grep -q '^EQUIVALENT  *rr  *read IOPS ' "$T/aa.out"; then
	ok "A/A: read IOPS EQUIVALENT at 5%, exit 0, within the budget ($(pairs_of aa "$T/aa.out") pairs)"
else
	undecided "A/A: exit $rc, read IOPS not EQUIVALENT within the budget" aa 3000
fi
echo "took $(($(date +%s) - start)) s"
finish
