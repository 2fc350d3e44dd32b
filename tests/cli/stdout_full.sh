#!/usr/bin/env bash
# stdout_full: every command that prints exits 5 (design.md: a storage error, not a bug) with one line naming
# standard output when standard output cannot be written (/dev/full), and leaves the database as it was.
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
[ -w /dev/full ] || { echo "stdout_full: no /dev/full here: nothing to test (skipped)"; exit 77; }
printf '[r]\nrw=randread\nbs=4k\nsize=1m\nioengine=null\nruntime=1\n' >r.fio
"$BENCH" run r.fio --db f.db --engine null -q >/dev/null 2>&1 || fail "bench run r.fio"
before=$(sqlite3 f.db "SELECT count(*) FROM run; SELECT count(*) FROM result; SELECT count(*) FROM run_label")
while IFS= read -r cmd; do
  rc=0; eval "\"\$BENCH\" $cmd" >/dev/full 2>err.txt || rc=$?
  [ "$rc" -eq 5 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'standard output' err.txt &&
    ok "$cmd > /dev/full: exit 5, one line" || fail "$cmd > /dev/full: exit $rc, '$(cat err.txt)'"
done <<'CMDS'
report --db f.db
report --db f.db --format json
db show 1 --db f.db
export --db f.db --format csv
plan r.fio
profiles list
CMDS
expect_eq "database unchanged" "$(sqlite3 f.db "SELECT count(*) FROM run; SELECT count(*) FROM result; SELECT count(*) FROM run_label")" "$before"
finish
