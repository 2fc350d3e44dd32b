#!/usr/bin/env bash
# explain_baseline_suite: `baseline = on` in a suite (issue 32): baselines per configuration, reused while the
# members and the workload are the same, redone when a member changes, and read by `bench report --explain`.
# Real fio (psync) on files in the test's own directory: configuration 'a' (members a1, a2, labelled
# stack=raid0) and 'b' (member b1), one 4k random-write workload of 1 s.
#  1. the first run stores, per configuration, one member baseline per member (phase=baseline,
#     baseline.kind=member, baseline.member=NAME, config=NAME, baseline.key) and one initiator CPU baseline
#     (baseline.kind=cpu, on fio's null engine), and for a (2 members) one run of both members at once
#     (baseline.kind=members): 3 + 1 + 2 = 6 baseline runs, outside the suite's 2 runs;
#  2. a second run stores no baseline run and says "configuration 'X': baseline reused (run N)" for each;
#  3. b's member changed (b2 instead of b1): b's member baseline is measured again (one new run), everything
#     else reused;
#  4. `bench report --explain --format json` names the baseline runs it used (checks[].baseline_runs): for a,
#     its two member baselines (member devices, raid0: their IOPS added), or the members-together run when
#     that did less than the two alone added, and its CPU baseline (initiator CPU);
#  5. bad input: `baseline = maybe` and a misspelt `baselin` are refused with file:line (exit 3, "did you mean"),
#     the database unchanged.
# About 20 s.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
command -v fio >/dev/null || { echo "explain_baseline_suite: no fio (skipped)"; exit 77; }
suite() { # suite MEMBER-OF-B: the suite file s.suite
	write_lines s.suite "[suite]" "name = bl" "baseline = on" \
		"[config a]" "label = stack=raid0" "members = $T/a1.dat $T/a2.dat" "targets = $T/ta.dat" \
		"setup = true" "teardown = true" \
		"[config b]" "members = $T/$1" "targets = $T/tb.dat" "setup = true" "teardown = true" \
		"[workload w]" "rw=randwrite" "bs=4k" "size=16m" "ioengine=psync" "runtime=1"
}
nbase() { q t.db "SELECT count(*) FROM run r JOIN run_label l ON l.run_id = r.id WHERE l.key = 'phase' AND l.value = 'baseline' $*"; }
label_of() { q t.db "SELECT value FROM run_label WHERE run_id = $1 AND key = '$2'"; }

suite b1.dat
"$BENCH" run s.suite --db t.db 2>err1.txt
expect_eq "first run: exit" "$?" 0
expect_eq "first run: baseline runs" "$(nbase)" 6
expect_eq "first run: all done" "$(nbase "AND r.status = 'done'")" 6
expect_eq "first run: members per configuration" "$(q t.db "SELECT group_concat(c.value || ':' || m.value, ' ') FROM run_label c JOIN run_label m ON m.run_id = c.run_id AND m.key = 'baseline.member' WHERE c.key = 'config' ORDER BY c.run_id")" "a:a1.dat a:a2.dat b:b1.dat"
expect_eq "first run: a's members together" "$(q t.db "SELECT group_concat(c.value || ':' || m.value || ':' || json_array_length(json_extract(r.spec, '\$.targets')), ' ') FROM run_label c JOIN run_label m ON m.run_id = c.run_id AND m.key = 'baseline.members' JOIN run r ON r.id = c.run_id WHERE c.key = 'config'")" "a:2:2"
expect_eq "first run: CPU baselines" "$(q t.db "SELECT group_concat(c.value, ' ') FROM run_label c JOIN run_label k ON k.run_id = c.run_id AND k.key = 'baseline.kind' AND k.value = 'cpu' WHERE c.key = 'config'")" "a b"
expect_eq "first run: every baseline keyed" "$(nbase "AND r.id IN (SELECT run_id FROM run_label WHERE key = 'baseline.key')")" 6
expect_eq "first run: the suite's own runs" "$(q t.db "SELECT planned_runs FROM suite WHERE id = 1")" 2
grep -q "reused" err1.txt && fail "first run: something reused: $(grep reused err1.txt)"

"$BENCH" run s.suite --db t.db 2>err2.txt
expect_eq "second run: exit" "$?" 0
expect_eq "second run: no new baseline run" "$(nbase)" 6
expect_eq "second run: says so" "$(grep -c "^configuration '[ab]': baseline reused (run [0-9]*)" err2.txt)" 6
cpu_a=$(q t.db "SELECT c.run_id FROM run_label c JOIN run_label k ON k.run_id = c.run_id AND k.key = 'baseline.kind' AND k.value = 'cpu' WHERE c.key = 'config' AND c.value = 'a'")
grep -q "^configuration 'a': baseline reused (run $cpu_a): initiator CPU, workload 'w'" err2.txt &&
	ok "second run: names the reused run ($cpu_a)" || fail "second run: $(cat err2.txt)"

suite b2.dat
"$BENCH" run s.suite --db t.db 2>err3.txt
expect_eq "changed member: exit" "$?" 0
expect_eq "changed member: one new baseline run" "$(nbase)" 7
expect_eq "changed member: it is b2's" "$(q t.db "SELECT value FROM run_label WHERE key = 'baseline.member' ORDER BY run_id DESC LIMIT 1")" b2.dat
expect_eq "changed member: the rest reused" "$(grep -c "baseline reused" err3.txt)" 5

"$BENCH" report --db t.db --explain --format json 2>rep.err | tail -1 >x.json
python3 - "$T/t.db" <<'EOF' >checks.txt
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def label(run, key):
    r = db.execute("SELECT value FROM run_label WHERE run_id = ? AND key = ?", (run, key)).fetchone()
    return r[0] if r else None
for row in json.load(open("x.json"))["explain"]:
    cfg = label(row["run"], "config")
    for c in row["checks"]:
        for b in c.get("baseline_runs", []):
            print(cfg, c["limit"], label(b, "phase"), label(b, "config"), label(b, "baseline.kind"), label(b, "baseline.member"))
EOF
sort checks.txt >c.txt
iops() { q t.db "SELECT iops FROM result r JOIN run_label c ON c.run_id = r.run_id AND c.key = 'config' AND c.value = 'a' JOIN run_label k ON k.run_id = r.run_id AND k.key = '$1' AND k.value = '$2' WHERE r.host = '*' AND r.ddir = 'total'"; }
alone=$(python3 -c "print(sum(float(x) for x in '''$(iops baseline.member a1.dat) $(iops baseline.member a2.dat)'''.split()))")
together=$(iops baseline.kind members)
if python3 -c "import sys; sys.exit(0 if $together < $alone else 1)"; then
	want="a devices baseline a members None;a initiator_cpu baseline a cpu None;"
else
	want="a devices baseline a member a1.dat;a devices baseline a member a2.dat;a initiator_cpu baseline a cpu None;"
fi
echo "members alone added $alone IOPS, together $together"
expect_eq "explain a: the member ceiling's baselines (the lower of alone added and together) and CPU baseline" \
	"$(grep '^a ' c.txt | tr '\n' ';')" "$want"
expect_eq "explain b: its own CPU baseline" "$(grep -c '^b initiator_cpu baseline b cpu' c.txt)" 1
grep -q "initiator CPU baseline (run $cpu_a: the workload on fio's ioengine=null" x.json &&
	ok "explain: the evidence names the CPU baseline run" || fail "explain evidence: $(head -c 600 x.json)"

sum=$(q t.db "SELECT count(*) || '/' || (SELECT count(*) FROM run_label) FROM run")
for bad in "baseline = maybe|s.suite:3: 'baseline' must be on or off, got 'maybe'" \
	"baselin = on|s.suite:3: unknown suite key 'baselin': did you mean 'baseline'?"; do
	sed -i "3s/.*/${bad%%|*}/" s.suite
	"$BENCH" run s.suite --db t.db >out.txt 2>err.txt
	expect_eq "'${bad%%|*}': exit" "$?" 3
	case $(head -1 err.txt) in "bench: error: ${bad#*|}"*) ok "'${bad%%|*}': says where" ;;
	*) fail "'${bad%%|*}': $(head -1 err.txt)" ;; esac
	expect_eq "'${bad%%|*}': database unchanged" "$(q t.db "SELECT count(*) || '/' || (SELECT count(*) FROM run_label) FROM run")" "$sum"
done
finish
