#!/usr/bin/env bash
# run_workdir (issue 11): work directories live under $TMPDIR/bench-<uid>/run-<pid>-*; the one of a
# `bench run` killed with -9 (which cannot clean up) is removed by the next `bench run`; a finished run
# leaves nothing behind.
. "$BENCH_SRC/tests/lib/common.sh"

export TMPDIR="$T/tmp"
mkdir -p "$TMPDIR"
root="$TMPDIR/bench-$(id -u)"
write_lines slow.fio '[slow]' ioengine=null rw=randread bs=4k size=16m time_based runtime=3
write_lines quick.fio '[quick]' ioengine=null rw=read bs=4k size=1m runtime=1

"$BENCH" run slow.fio --db k.db -q --no-collectors >/dev/null 2>&1 &
pid=$!
cleanup_hooks+=("kill -9 $pid 2>/dev/null")
for _ in $(seq 50); do
  compgen -G "$root/run-$pid-*" >/dev/null && break
  sleep 0.1
done
left=$(compgen -G "$root/run-$pid-*" | head -1)
[ -n "$left" ] && ok "running bench has its work directory under $root" || fail "no $root/run-$pid-* while running"
[ "$(stat -c %a "$root")" = 700 ] && ok "work folder is mode 700" || fail "work folder mode $(stat -c %a "$root")"
kill -9 "$pid"
wait "$pid" 2>/dev/null
sleep 3.5 # fio (its own process group) finishes its 3 s
[ -n "$left" ] && [ -d "$left" ] && ok "killed run left $left" || fail "killed run left nothing to clean (test proves nothing)"

# a live process's directory is kept: make one for this shell's PID
mkdir -p "$root/run-$$-keep"
"$BENCH" run quick.fio --db k.db -q --no-collectors >out.txt 2>err.txt
expect_eq "next bench run exit code" "$?" 0
[ -n "$left" ] && [ ! -e "$left" ] && ok "next run removed the killed run's directory" || fail "$left still there"
[ -d "$root/run-$$-keep" ] && ok "directory of a live process kept" || fail "directory of a live process removed"
rmdir "$root/run-$$-keep"
n=$(find "$root" -mindepth 1 -maxdepth 1 | wc -l)
expect_eq "entries left in $root after a finished run" "$n" 0
finish
