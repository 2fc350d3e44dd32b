#!/usr/bin/env bash
# kill_resume_random (hardening issue, acceptance 2): 20 kill -9 of `bench run` at seeded random moments of one
# suite, each followed by `bench run --resume`, which is itself killed in turn until the 20 kills are spent; then
# one last --resume finishes the suite. After every kill: the database passes integrity_check, no run that was
# done stops being done, no (seq, repetition) has two rows, no fio process is left 3 s later (fio gets SIGTERM
# at once and SIGKILL 2 s later: docs/safety.md "Programs bench starts"), and the suite lock of the killed
# process does not stop the next --resume (a dead PID's lock is taken over). At the end: done = planned.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T

write_lines suite.fio '[global]' ioengine=null rw=randread bs=4k size=8m runtime=1 time_based \
  '[j1]' '[j2]' '[j3]' '[j4]' '[j5]' '[j6]' '[j7]' '[j8]'
"$BENCH" plan suite.fio --each-job --target t.dat >/dev/null 2>&1 && each=--each-job || each=
planned=8
late=0 # kills after which fio was still there 1 s later (a fio that did not end on SIGTERM)

RANDOM=20261201 # seeded: the same 20 moments every time
prev_done=0
kills=0
args=(run suite.fio $each --target t.dat --db k.db -q)
while [ "$kills" -lt 20 ]; do
	if [ -e k.db ]; then "$BENCH" "${args[@]}" --resume 2>>err.txt & else "$BENCH" "${args[@]}" 2>>err.txt & fi
	pid=$!
	# 0.05 .. 2.5 s: before the first run is stored, in the middle of a run, between runs
	sleep "$(printf '0.%02d' $((RANDOM % 100)))"
	[ $((RANDOM % 2)) = 1 ] && sleep "$((RANDOM % 2)).$((RANDOM % 10))"
	if ! kill -9 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		break # the suite finished before this kill: nothing left to interrupt
	fi
	wait "$pid" 2>/dev/null
	kills=$((kills + 1))
	sleep 0.3
	[ -e k.db ] || continue
	ic=$(q k.db 'PRAGMA integrity_check')
	[ "$ic" = ok ] || fail "kill $kills: integrity_check says '$ic'"
	if [ "$(q k.db "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'run'")" = 0 ]; then
		# killed after the file was made and before the schema's transaction committed: an empty database
		[ "$prev_done" = 0 ] || fail "kill $kills: the run table is gone ($prev_done runs were done)"
	else
		d=$(q k.db "SELECT count(*) FROM run WHERE status = 'done'")
		[ "$d" -ge "$prev_done" ] || fail "kill $kills: done runs fell from $prev_done to $d"
		prev_done=$d
		dup=$(q k.db "SELECT count(*) FROM (SELECT seq, repetition FROM run GROUP BY 1, 2 HAVING count(*) > 1)")
		[ "$dup" = 0 ] || fail "kill $kills: $dup (seq, repetition) pairs have two rows"
	fi
	if fio_gone; then
		[ "$fio_waited" -gt 10 ] && late=$((late + 1))
	else
		fail "kill $kills: $(fio_left) fio processes still there after 3 s"
	fi
done
ok "$kills kill -9 moments survived (done runs after the last one: $prev_done of $planned; fio still there 1 s after $late of them, ended by bench's guard)"
[ "$kills" -ge 10 ] || fail "only $kills kills landed before the suite finished (the harness needs slower runs)"

"$BENCH" "${args[@]}" --resume 2>>err.txt
expect_eq "final --resume exit code" "$?" 0
expect_eq "integrity_check at the end" "$(q k.db 'PRAGMA integrity_check')" ok
expect_eq "done runs = planned runs" "$(q k.db "SELECT count(*) FROM run WHERE status = 'done'")" "$planned"
expect_eq "one suite" "$(q k.db "SELECT count(*) FROM suite")" 1
expect_eq "no duplicate runs" \
	"$(q k.db "SELECT count(*) FROM (SELECT seq, repetition FROM run GROUP BY 1, 2 HAVING count(*) > 1)")" 0
expect_eq "fio processes left" "$(fio_left)" 0
if grep -q "locked by" err.txt; then
	fail "a --resume after a kill was refused by the dead process's lock: $(grep -m1 'locked by' err.txt)"
else
	ok "no --resume was refused by a dead process's suite lock"
fi
finish
