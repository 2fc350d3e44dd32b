#!/usr/bin/env bash
# bench run: bad input gives one clear line, the documented exit code, and leaves the database as it was;
# the run loop stores runs with the null engine (no fio) with labels and suite rows.
. "$BENCH_SRC/tests/lib/common.sh"

cat > s.fio <<'JOB'
[global]
; the jobs one after another, one run each (without stonewall fio runs them together)
stonewall
rw=randread
bs=4k
runtime=1
[a]
[b]
JOB

check_err() { # check_err CODE PATTERN -- args...
  local want=$1 pat=$2; shift 3
  "$BENCH" "$@" >out.txt 2>err.txt
  local rc=$?
  expect_eq "exit code of: bench $*" "$rc" "$want"
  expect_eq "stderr lines of: bench $*" "$(wc -l < err.txt)" 1
  if grep -q -- "$pat" err.txt; then ok "message names '$pat'"; else fail "message '$(cat err.txt)' lacks '$pat'"; fi
}

check_err 3 "is a directory" -- run s.fio --target /tmp --db d.db
[ -e d.db ] && fail "database created by a refused run" || ok "no database created by a refused run"
check_err 3 "does not exist" -- run s.fio --target /nonexistent-dir/x --db d.db
check_err 3 "unknown engine 'bogus'" -- run s.fio --engine bogus --db d.db
check_err 3 "nosuch-profile" -- run nosuch-profile --db d.db
check_err 2 "--repeat" -- run s.fio --repeat zero --db d.db
check_err 2 "--label" -- run s.fio --label "bad key=1" --db d.db
check_err 2 "unknown option" -- run s.fio --frobnicate --db d.db
check_err 2 "name a suite" -- run --db d.db
check_err 2 "is a directory" -- run s.fio --engine null --db /tmp
check_err 2 "unknown command" -- frobnicate

"$BENCH" run s.fio --engine null --db d.db --label stack=mdadm-raid5 --label transport=nvmeof -q
expect_eq "null engine run exit code" "$?" 0
expect_eq "runs done" "$(q d.db "SELECT count(*) FROM run WHERE status = 'done'")" 2
expect_eq "suite labels" "$(q d.db "SELECT group_concat(key || '=' || value, ',') FROM (SELECT * FROM suite_label ORDER BY key)")" "stack=mdadm-raid5,transport=nvmeof"
expect_eq "run labels" "$(q d.db "SELECT count(*) FROM run_label WHERE key = 'stack' AND value = 'mdadm-raid5'")" 2
expect_eq "aggregate rows" "$(q d.db "SELECT count(*) FROM result WHERE host = '*' AND ddir = 'total'")" 2
before=$(q d.db "SELECT count(*) FROM run")
check_err 3 "is a directory" -- run s.fio --target /tmp --db d.db
expect_eq "runs unchanged after a refused run" "$(q d.db "SELECT count(*) FROM run")" "$before"

# --interleave: A B, B A, A B blocks, each run labelled with its profile.
cp s.fio t.fio
"$BENCH" run s.fio t.fio --interleave --repeat 3 --engine null --db il.db -q
expect_eq "interleave exit code" "$?" 0
expect_eq "interleaved order" "$(q il.db "SELECT group_concat(v, ' ') FROM (SELECT r.repetition || ':' || l.value AS v FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'profile' WHERE r.seq % 2 = 1 ORDER BY r.seq)")" "1:s.fio 1:t.fio 2:t.fio 2:s.fio 3:s.fio 3:t.fio"
check_err 2 "--interleave needs two" -- run s.fio --interleave --engine null --db il.db

"$BENCH" run --help > help.txt
expect_eq "run --help exit code" "$?" 0
grep -q -- "--resume" help.txt && ok "help mentions --resume" || fail "help lacks --resume"
"$BENCH" help > help.txt && grep -q "^  run " help.txt && ok "bench help lists run" || fail "bench help"
"$BENCH" --version | grep -q "^bench " && ok "version" || fail "version"
finish
