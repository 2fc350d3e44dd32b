#!/bin/bash
# gate_run_input: what `bench gate --run SUITE` refuses before it runs anything (issue 30): a suite that does
# not name exactly two profiles (exit 3, one line with file:line), a missing suite file (exit 3), --budget
# below 3 pairs or not a number or duration (exit 2), --budget without --run and --run with --baseline (exit 2).
# None of them may create the database. A time budget shorter than one pair runs nothing: exit 3.
. "$BENCH_SRC/tests/lib/common.sh"

write_lines "$T/a.fio" "[rr]" "rw=randread" "size=1m" "rate_iops=100"
write_lines "$T/one.suite" "[suite]" "name = one" "profile = a.fio"
write_lines "$T/three.suite" "[suite]" "profile = a.fio" "profile = a.fio" "[workload w]" "rw=read"
write_lines "$T/two.suite" "[suite]" "profile = a.fio" "profile = a.fio"
db=$T/g.db

check() { # check WHAT WANT-EXIT WANT-STDERR-REGEX ARGS...
	local what=$1 want=$2 re=$3
	shift 3
	"$BENCH" gate --db "$db" "$@" >"$T/out" 2>"$T/err"
	expect_eq "$what: exit" "$?" "$want"
	expect_eq "$what: one error line" "$(wc -l <"$T/err")" 1
	grep -qE -e "$re" "$T/err" && ok "$what: says why" || fail "$what: $(cat "$T/err")"
	[ -e "$db" ] && fail "$what: created the database" || ok "$what: no database"
}
check "one profile" 3 "^bench: error: .*one\.suite:3: a gate suite names its two sides as 'profile =' lines.*found 1 item" \
	--run "$T/one.suite"
check "three items" 3 "three\.suite:[0-9]+: a gate suite .*found 3 item\(s\), 2 of them" --run "$T/three.suite"
check "missing suite" 3 "^bench: error: .*nothing\.suite" --run "$T/nothing.suite"
check "budget 2" 2 "^bench: error: .*--budget wants a number of pairs 3\.\.1000 or a duration" --run "$T/two.suite" --budget 2
check "budget words" 2 "--budget wants .* got 'soon'" --run "$T/two.suite" --budget soon
check "budget alone" 2 "--budget goes with --run SUITE" --baseline a=b --candidate a=c --budget 5
check "run and baseline" 2 "--run SUITE chooses the sides itself" --run "$T/two.suite" --baseline a=b

# the suite's own gate settings (gate.metric, gate.threshold, gate.budget): checked with their file:line
write_lines "$T/keys.suite" "[suite]" "profile = a.fio" "profile = a.fio" "gate.metric = iops,speed"
check "suite gate.metric" 3 "keys\.suite:4: gate\.metric: .*speed" --run "$T/keys.suite"
write_lines "$T/thr.suite" "[suite]" "profile = a.fio" "gate.threshold = 500" "profile = a.fio"
check "suite gate.threshold" 3 "thr\.suite:3: gate\.threshold" --run "$T/thr.suite"
write_lines "$T/bud.suite" "[suite]" "profile = a.fio" "profile = a.fio" "gate.budget = 2"
check "suite gate.budget" 2 "--budget wants a number of pairs 3\.\.1000 .* got '2'" --run "$T/bud.suite"
write_lines "$T/unk.suite" "[suite]" "profile = a.fio" "profile = a.fio" "gate.metrics = iops"
check "suite gate key unknown" 3 "unk\.suite:4: unknown gate key 'gate\.metrics' \(gate\.metric, gate\.threshold" \
	--run "$T/unk.suite"
# the command line wins over the suite: --metric iops makes the suite's bad gate.metric unused
"$BENCH" gate --db "$db" --run "$T/keys.suite" --metric iops --budget 2 >"$T/out" 2>"$T/err"
grep -q "gate.metric" "$T/err" && fail "command line --metric did not win: $(cat "$T/err")" ||
	ok "command line --metric wins over the suite's gate.metric"

# a time budget shorter than a pair: nothing runs, and a gate without 3 pairs is no verdict (exit 3)
if command -v fio >/dev/null; then
	write_lines "$T/time.suite" "[suite]" "name = t" "targets = $T/t.dat" "profile = a.fio" "profile = a.fio"
	"$BENCH" gate --db "$db" --run "$T/time.suite" --budget 1s >"$T/out" 2>"$T/err"
	expect_eq "budget 1s: exit" "$?" 3
	grep -q "^bench: error: gate: 0 valid pair(s) stored for 't' and the budget is spent; the gate needs 3" "$T/err" &&
		ok "budget 1s: says why" || fail "budget 1s: $(cat "$T/err")"
	expect_eq "budget 1s: no run stored" "$(q "$db" "SELECT count(*) FROM run")" 0
else
	skip "fio is not installed: the time budget is not checked"
fi
finish
