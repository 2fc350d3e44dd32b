#!/usr/bin/env bash
# Every command listed by `bench help` answers --help on stdout with exit 0, and `bench help CMD` shows the
# same text; an unknown command is a usage error (exit 2) with one line.
. "$BENCH_SRC/tests/lib/common.sh"

cmds=$("$BENCH" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
[ -n "$cmds" ] && ok "bench help lists commands: $(echo $cmds)" || fail "bench help lists no commands"
for c in $cmds; do
  "$BENCH" "$c" --help >out.txt 2>err.txt
  rc=$?
  expect_eq "bench $c --help exit code" "$rc" 0
  [ -s out.txt ] && ok "bench $c --help prints help" || fail "bench $c --help printed nothing"
  [ -s err.txt ] && fail "bench $c --help wrote to stderr: $(head -1 err.txt)" || ok "bench $c --help: nothing on stderr"
  "$BENCH" help "$c" >out2.txt 2>/dev/null
  cmp -s out.txt out2.txt && ok "bench help $c = bench $c --help" || fail "bench help $c differs from bench $c --help"
done
"$BENCH" nosuchcommand >out.txt 2>err.txt
expect_eq "unknown command exit code" "$?" 2
expect_eq "unknown command: lines on stderr" "$(wc -l < err.txt)" 1
"$BENCH" >out.txt 2>err.txt
expect_eq "no command: exit code" "$?" 2
"$BENCH" --version >out.txt
grep -q '^bench [0-9]' out.txt && ok "bench --version" || fail "bench --version: $(cat out.txt)"
# stdout errors are not silent: writing the help to a full device fails with a non-zero exit.
if [ -w /dev/full ]; then
  "$BENCH" help >/dev/full 2>err.txt
  rc=$?
  [ "$rc" -eq 5 ] && ok "help to /dev/full exits 5 (a storage error, not a bug)" || fail "help to /dev/full exited $rc, want 5"
  grep -q "cannot write to standard output" err.txt && ok "says it cannot write" || fail "no message for /dev/full: $(cat err.txt)"
fi
finish
