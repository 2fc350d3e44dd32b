#!/usr/bin/env bash
# run_store_flags: the command table's flags make main prepare the store (bench/cli.c cli_prepare): `bench run`
# (CMD_STORE_RW | CMD_STORE_LATE) opens --db only after its input is checked, with one error path (exit 5, one
# line); --help opens nothing; `bench plan` (no store flag) never creates a database.
. "$BENCH_SRC/tests/lib/common.sh"

printf '[j]\nioengine=null\nrw=read\nsize=1m\nruntime=1\n' > q.fio
"$BENCH" run q.fio --engine null --db "$T/no/such/dir/x.db" -q >out.txt 2>err.txt
expect_eq "unopenable --db: exit code" "$?" 5
expect_eq "unopenable --db: stderr lines" "$(wc -l <err.txt)" 1
grep -q "database .*no/such/dir/x.db.*No such file or directory" err.txt && ok "says which database and why" || fail "message: $(cat err.txt)"
"$BENCH" run --help --db "$T/no/such/dir/x.db" >out.txt 2>err.txt
expect_eq "run --help with a bad --db: exit code" "$?" 0
"$BENCH" run nosuch.fio --db late.db >/dev/null 2>&1
[ ! -e late.db ] && ok "a refused profile creates no database (CMD_STORE_LATE)" || fail "late.db created"
"$BENCH" run q.fio --engine null --db=eq.db -q >/dev/null 2>err.txt
expect_eq "--db=PATH form: exit code" "$?" 0
expect_eq "--db=PATH: one run stored" "$(q eq.db 'SELECT count(*) FROM run WHERE status = '"'done'")" 1
"$BENCH" plan q.fio >/dev/null 2>&1
[ ! -e bench.db ] && ok "bench plan opens no database" || fail "bench plan created bench.db"
finish
