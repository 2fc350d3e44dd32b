#!/usr/bin/env bash
# config_suite: [config NAME] sections (docs/suite-format.md): what `bench plan` shows of them (runs crossed
# with configurations, labels, every step with host and timeout, JSON), the errors a bad section gives
# (file:line), a run with real fio whose steps run in order with their output stored, teardown after a failing
# check, teardown after Ctrl-C, and `bench db diff-config A B` on the stored records.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
# the workload of the suites below: 1 s of 4k random reads
workload_r=$(printf '%s\n' '[workload r]' rw=randread bs=4k ioengine=psync size=4m runtime=1)
cat >c.suite <<EOF2
[suite]
name = configs
label = suite=configs
[config alpha]
label = layout=wide
setup = touch $T/alpha.built
check = test -e $T/alpha.built
record = echo 'layout: wide, 8 members'
record = sh -c 'echo same line; echo chunk 512k'
teardown = timeout=10s rm -f $T/alpha.built
precondition.trim = full
[config beta]
label = layout=narrow
timeout = 1m
setup = touch "$T/beta built"
record = echo 'layout: narrow, 4 members'
record = sh -c 'echo same line; echo chunk 64k'
teardown = rm -f "$T/beta built"
$workload_r
EOF2
plan_runs plan 2 c.suite --target "$T/t.dat"
grep -q "^configuration alpha (c.suite:4): runs 1-1" plan.txt && ok "plan names alpha's runs" || fail "$(cat plan.txt)"
grep -q "^  teardown  \[10s\] rm -f $T/alpha.built" plan.txt && ok "a step's own timeout" || fail "teardown line"
grep -q "^  setup     \[60s\] touch '$T/beta built'" plan.txt && ok "the configuration's timeout, quoting kept" || fail "beta setup line"
grep -q "^  precondition.trim = full" plan.txt && ok "precondition settings shown" || fail "precondition"
"$BENCH" plan c.suite --target "$T/t.dat" --format json >plan.json
expect_eq "json: labels and steps" "$(python3 -c '
import json; d = json.load(open("plan.json"))
r = d["runs"][1]["labels"]; c = d["configurations"][1]
print(r["config"], r["layout"], c["setup"][0]["argv"][1].endswith("beta built"), c["setup"][0]["timeout_s"], d["configurations"][0]["precondition"]["trim"])')" "beta narrow True 60 full"

bad() { # bad WHAT TEXT WANT: the suite is refused (exit 3) with WANT in the message
	printf '%b' "$2" >bad.suite
	"$BENCH" plan bad.suite >/dev/null 2>err.txt
	local rc=$?
	if [ $rc = 3 ] && grep -qF -- "$3" err.txt; then ok "$1"; else fail "$1: exit $rc, $(cat err.txt)"; fi
}
W='[workload w]\nrw=read\nsize=1m\n'
bad "unknown config key" "[config a]\ncolour = red\n$W" "bad.suite:2: unknown config key 'colour'"
bad "setup without teardown" "[config a]\nsetup = true\n$W" "bad.suite:1: [config a] has setup steps but no teardown"
bad "duplicate configuration" "[config a]\n[config a]\n$W" "bad.suite:2: duplicate section [config a] (first at line 1)"
bad "nameless configuration" "[config]\n$W" "bad.suite:1: [config NAME] needs a name"
bad "unterminated quote" "[config a]\nsetup = echo 'x\nteardown = true\n$W" "bad.suite:2: unterminated quote"
bad "step without a command" "[config a]\nsetup = @host1 timeout=5s\n$W" "bad.suite:2: step '@host1 timeout=5s' has no command"
bad "bad timeout" "[config a]\nsetup = timeout=0s true\n$W" "timeout must be 1s..24h, got '0s'"
bad "config label" "[config a]\nlabel = config=b\n$W" "not config=, bench sets it"
bad "unknown recipe" "[config a]\nrecipe = nope devices=/dev/x\n$W" "bad.suite:2: no recipe 'nope'"
bad "recipe parameter missing" "[config a]\nrecipe = btrfs-raid0\n$W" "bad.suite:2: recipe 'btrfs-raid0' needs devices="

# a run: steps in order, record stored, teardown done
"$BENCH" run c.suite --target "$T/t.dat" --db r.db -q 2>run.err
expect_eq "run: exit" "$?" 0
expect_eq "run: both done" "$(q r.db "SELECT group_concat(status) FROM run")" "done,done"
[ ! -e "$T/alpha.built" ] && [ ! -e "$T/beta built" ] && ok "teardowns removed what setups made" || fail "left: $(ls "$T")"
case $(q r.db "SELECT CAST(content AS TEXT) FROM artifact WHERE run_id = 1 AND name = 'config.steps'") in
*"[setup] \$ touch $T/alpha.built"*"exit 0"*"[check] \$ test -e"*"[record] \$ echo 'layout: wide, 8 members'"*) ok "step log stored in order";;
*) fail "config.steps of run 1";;
esac
expect_eq "precondition: not a label" "$(q r.db "SELECT count(*) FROM run_label WHERE key LIKE 'precondition%'")" 0
expect_eq "precondition: in the record" "$(q r.db "SELECT count(*) FROM artifact WHERE run_id = 1 AND name = 'config.record' AND CAST(content AS TEXT) LIKE '%precondition.trim = full%'")" 1
"$BENCH" db diff-config alpha beta --db r.db >diff.txt 2>err.txt
expect_eq "diff-config: exit" "$?" 0
grep -q "^  - layout: wide, 8 members" diff.txt && grep -q "^  + layout: narrow, 4 members" diff.txt &&
	grep -q "^  - chunk 512k" diff.txt && ! grep -q "^  [-+] same line$" diff.txt && ok "record lines diffed" || fail "$(cat diff.txt)"
grep -qE "^  layout +- wide" diff.txt && grep -qE "^ +\+ narrow" diff.txt && ok "labels side by side" || fail "labels: $(cat diff.txt)"
"$BENCH" db diff-config alpha gamma --db r.db >/dev/null 2>err.txt
expect_eq "diff-config unknown: exit" "$?" 3
grep -q "no stored run of configuration 'gamma'" err.txt && ok "unknown configuration named" || fail "$(cat err.txt)"

# a check that fails: the runs fail, the teardown still runs
sed 's|^check = test -e .*|check = test -e /nonexistent/never|' c.suite >f.suite
"$BENCH" run f.suite --target "$T/t.dat" --db f.db -q 2>f.err
expect_eq "failing check: exit" "$?" 4
expect_eq "failing check: statuses" "$(q f.db "SELECT group_concat(status) FROM run")" "failed,done"
[ ! -e "$T/alpha.built" ] && ok "teardown after a failed check" || fail "alpha left built"

# a member that holds data is refused before any step or run, and nothing is torn down
echo precious >"$T/precious.txt"
cat >m.suite <<EOF2
[suite]
name = members
[config m]
members = $T/precious.txt
setup = touch $T/m.setup
teardown = touch $T/m.teardown
$workload_r
EOF2
# (issue 26: refused before anything is stored, exit 3, no database made)
"$BENCH" run m.suite --target "$T/t.dat" --db mm.db -q 2>mm.err
expect_eq "member with data: exit" "$?" 3
case $(cat mm.err) in
*"configuration 'm': member $T/precious.txt:"*"--overwrite-files"*) ok "member refusal names the file";;
*) fail "error: $(cat mm.err)";;
esac
[ ! -e mm.db ] && ok "member with data: no database made" || fail "member with data: mm.db was made"
[ ! -e "$T/m.setup" ] && [ ! -e "$T/m.teardown" ] && ok "no step ran" || fail "a step ran for a refused member"
expect_eq "member: file unchanged" "$(cat "$T/precious.txt")" precious

# with the sim engine no step runs: the configuration's sim options model it
"$BENCH" run c.suite --engine sim --db m.db -q 2>m.err
expect_eq "sim: exit" "$?" 0
expect_eq "sim: runs done" "$(q m.db "SELECT count(*) FROM run WHERE status = 'done'")" 2
expect_eq "sim: no step artifacts" "$(q m.db "SELECT count(*) FROM artifact WHERE name LIKE 'config.%'")" 0
[ ! -e "$T/alpha.built" ] && ok "sim: setup not run" || fail "sim ran a setup step"

# Ctrl-C during a workload: the run is aborted, the teardown runs, exit 130
cat >i.suite <<EOF2
[suite]
name = interrupted
[config a]
setup = touch $T/int.built
teardown = rm $T/int.built
${workload_r/runtime=1/runtime=30}
time_based=1
EOF2
"$BENCH" run i.suite --target "$T/t.dat" --db i.db 2>i.err &
pid=$!
for _ in $(seq 1 100); do grep -q "r: running" i.err 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
expect_eq "Ctrl-C: exit" "$?" 130
expect_eq "Ctrl-C: run" "$(q i.db "SELECT status FROM run")" aborted
[ ! -e "$T/int.built" ] && grep -q "configuration 'a': teardown" i.err && ok "teardown after Ctrl-C" || fail "$(cat i.err)"
finish
