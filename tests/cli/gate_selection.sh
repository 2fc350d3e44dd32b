#!/bin/bash
# gate_selection: bad selections never pass (acceptance 4 of the gate issue).
#
# A selection matching no runs, a `latest:` label no suite has, sides with no workload in common and cells
# with too few valid runs each give exit 3 and one clear line on stderr; malformed selections and options
# exit 2; a missing database exits 5; --help prints to stdout and exits 0. Nothing is written to the database.
. "$(dirname "$0")/gate_db.bash"

gate_db_scratch
gate_db_suite "$db" 1 git abc
gate_db_runs "$db" 1 1 rr-4k randread 4096 100 5 10000 2 1
gate_db_suite "$db" 2 git def
gate_db_runs "$db" 2 1 rr-4k randread 4096 100 5 9900 2 2
gate_db_suite "$db" 3 git xyz
gate_db_runs "$db" 3 1 seq-write write 1048576 0 5 800 2 3
# a candidate with only 2 good runs: 3 more failed, partial, aborted
gate_db_suite "$db" 4 git few
gate_db_runs "$db" 4 1 rr-4k randread 4096 100 2 9900 2 4
gate_db_runs "$db" 4 2 rr-4k randread 4096 100 1 9900 2 5 failed
gate_db_runs "$db" 4 3 rr-4k randread 4096 100 1 9900 2 6 partial
gate_db_runs "$db" 4 4 rr-4k randread 4096 100 1 9900 2 7 aborted
before=$(sqlite3 "$db" "SELECT count(*) FROM run; SELECT count(*) FROM result;" | md5sum)

# expect CODE PATTERN ARGS...: exit code, one line on stderr matching PATTERN, nothing claiming a pass
expect() {
	local code=$1 pattern=$2 rc lines
	shift 2
	"$BENCH" gate --db "$db" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ $rc -eq "$code" ] || fail "gate $*: expected exit $code, got $rc; stderr: $(cat "$work/err")"
	lines=$(grep -c . "$work/err")
	[ "$lines" -eq 1 ] || fail "gate $*: expected one line on stderr, got $lines: $(cat "$work/err")"
	grep -q "^bench: error: .*$pattern" "$work/err" || fail "gate $*: stderr does not say '$pattern': $(cat "$work/err")"
	grep -q 'gate: PASS' "$work/out" && fail "gate $*: claims a pass"
	echo "ok: exit $code: $(cat "$work/err")"
}

expect 3 "baseline 'git=nope' matches no runs" --baseline git=nope --candidate git=def
expect 3 "candidate 'suite:99' matches no runs" --baseline git=abc --candidate suite:99
expect 3 "no suite has runs with this label" --baseline latest:git=nope --candidate git=def
expect 3 "have no workload in common" --baseline git=abc --candidate git=xyz
expect 3 "at least 3" --baseline git=abc --candidate git=few
grep -q '^INVALID' "$work/out" || fail "the cell with too few runs is not shown as INVALID"
grep -q 'excluded: candidate run 4201 .*status failed' "$work/out" || fail "the failed run is not listed"
grep -q 'excluded: candidate run 4301 .*status partial' "$work/out" || fail "the partial run is not listed"
grep -q 'excluded: candidate run 4401 .*status aborted' "$work/out" || fail "the aborted run is not listed"
expect 2 "selection 'main'" --baseline main --candidate git=def
expect 2 "suite: wants a suite id" --baseline suite:abc --candidate git=def
expect 2 "both --baseline and --candidate are required" --baseline git=abc
expect 2 "threshold wants a percentage" --baseline git=abc --candidate git=def --threshold 0
expect 2 "unknown option '--frobnicate'" --baseline git=abc --candidate git=def --frobnicate

# accepting invalid cells on purpose: with no other cell nothing is judged, which is no pass either
# (INCONCLUSIVE, exit 6); the data itself still is INVALID
"$BENCH" gate --db "$db" --baseline git=abc --candidate git=few --allow-invalid >"$work/out" 2>&1
rc=$?
[ $rc -eq 6 ] || fail "--allow-invalid with only INVALID cells: expected exit 6, got $rc"
grep -q '^INVALID' "$work/out" || fail "--allow-invalid hides the INVALID cell"
grep -q 'gate: PASS' "$work/out" && fail "--allow-invalid with nothing judged claims a pass"
"$BENCH" gate --db "$db" --baseline git=abc --candidate git=few --allow-invalid --on-inconclusive pass \
	>"$work/out" 2>&1 || fail "--allow-invalid --on-inconclusive pass: expected exit 0, got $?"

# a good pair passes (the gate itself works on this database)
"$BENCH" gate --db "$db" --baseline git=abc --candidate latest:git=def >"$work/out" 2>&1 ||
	fail "a 1% difference should pass, got exit $?: $(cat "$work/out")"

# missing database: storage error, no file created
"$BENCH" gate --db "$work/none.db" --baseline git=abc --candidate git=def >/dev/null 2>"$work/err"
rc=$?
[ $rc -eq 5 ] || fail "missing database: expected exit 5, got $rc"
[ -e "$work/none.db" ] && fail "a missing database was created"

"$BENCH" gate --help >"$work/out" 2>"$work/err" || fail "--help exits non-zero"
grep -q 'regression' "$work/out" && [ ! -s "$work/err" ] || fail "--help is not on stdout"
"$BENCH" help gate >/dev/null || fail "'bench help gate' fails"

after=$(sqlite3 "$db" "SELECT count(*) FROM run; SELECT count(*) FROM result;" | md5sum)
[ "$before" = "$after" ] || fail "the gate changed the database"
echo "gate_selection: ok"
