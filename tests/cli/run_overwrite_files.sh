#!/usr/bin/env bash
# run_overwrite_files: `--overwrite-files` reaches the run (docs/safety.md). An existing file bench did not make
# is refused as a target of a writing workload (exit 3, unchanged, no database); with --overwrite-files the run
# writes it and is stored done. Until the engine was given the flag, the preflight let such a run through and
# the engine's own check refused it: every run failed (exit 4, "needs --overwrite-files" with the flag given).
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { echo "SKIP: fio is not installed: nothing runs"; exit 77; }
printf 'my notes\n' >"$T/user.dat"
write_lines w.fio '[w]' ioengine=psync rw=randwrite bs=4k size=1m time_based runtime=1
"$BENCH" run w.fio --target "$T/user.dat" --db a.db -q 2>a.err
expect_eq "existing file without --overwrite-files: exit" "$?" 3
expect_eq "existing file without --overwrite-files: unchanged" "$(cat "$T/user.dat")" "my notes"
[ ! -e a.db ] && ok "refused before a database is made" || fail "a.db was made"
"$BENCH" run w.fio --target "$T/user.dat" --overwrite-files --db b.db -q 2>b.err
expect_eq "with --overwrite-files: exit (stderr: $(head -c 300 b.err))" "$?" 0
expect_eq "with --overwrite-files: the run is done" "$(sqlite3 b.db 'SELECT status FROM run')" done
expect_eq "with --overwrite-files: the file was written to the working set" "$(stat -c %s "$T/user.dat")" 1048576
finish
