#!/bin/bash
# run_failure_lines: issue 26, defects 2 and 3, with real fio (1 s runs on a file in the test's own directory).
#  - a [config] whose teardown fails (`teardown = false`) made `bench run` exit 0: it exits 4 and one error line
#    names the step where it is written (file:line), its argv and its exit code;
#  - `bench run -q` printed nothing when runs failed: exit 4 and exactly one line on stderr, `bench: error: ...`.
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { echo "SKIP: fio is not installed (the runs need it)"; exit 77; }
export TMPDIR=$T
workload=$(printf '%s\n' '[workload r]' rw=randread bs=4k ioengine=psync size=4m runtime=1)

# teardown fails
cat >td.suite <<EOF
[suite]
name = teardown-fails
[config c]
setup = touch $T/c.built
teardown = rm -f $T/c.built
teardown = false
$workload
EOF
rc=0
"$BENCH" run --db td.db td.suite --target "$T/t.dat" >out.txt 2>err.txt || rc=$?
expect_eq "failing teardown: exit" "$rc" 4
expect_eq "failing teardown: the error line" "$(grep '^bench: error:' err.txt)" \
	"bench: error: td.suite:6: configuration 'c': teardown step 'false' exited 1 (the stack may be left built: check it before the next run)"
expect_eq "failing teardown: the other teardown step ran" "$([ -e "$T/c.built" ] && echo left || echo removed)" removed
expect_eq "failing teardown: the run itself is done" "$(q td.db "SELECT status FROM run")" done
rc=0
"$BENCH" run -q --db td2.db td.suite --target "$T/t.dat" >out.txt 2>err.txt || rc=$?
expect_eq "failing teardown, -q: exit" "$rc" 4
expect_eq "failing teardown, -q: stderr is the one error line" "$(wc -l <err.txt) $(grep -c '^bench: error: td.suite:6: ' err.txt)" "1 1"

# -q and failed runs: a setup that fails leaves the configuration's runs failed
cat >sf.suite <<EOF
[suite]
name = setup-fails
[config c]
setup = false
teardown = true
$workload
EOF
rc=0
"$BENCH" run -q --db sf.db sf.suite --target "$T/t.dat" >out.txt 2>err.txt || rc=$?
expect_eq "-q, failed run: exit" "$rc" 4
expect_eq "-q, failed run: one line on stderr (got: $(cat err.txt))" "$(wc -l <err.txt)" 1
expect_eq "-q, failed run: it is an error line" "$(grep -c "^bench: error: suite 1 'setup-fails': 1 of 1 runs failed, 0 partial; stored in sf.db$" err.txt)" 1
expect_eq "-q, failed run: nothing on stdout" "$(wc -c <out.txt)" 0
expect_eq "-q, failed run: stored failed" "$(q sf.db "SELECT status FROM run")" failed
# -q and a successful run: still silent
rc=0
write_lines ok.fio '[r]' rw=randread bs=4k ioengine=psync size=4m runtime=1 "filename=$T/t.dat"
"$BENCH" run -q --db ok.db ok.fio >out.txt 2>err.txt || rc=$?
expect_eq "-q, a run that is done: exit" "$rc" 0
expect_eq "-q, a run that is done: stderr" "$(wc -c <err.txt)" 0
finish
