#!/usr/bin/env bash
# terminal_escape (hardening issue): names bench prints on the terminal come from users (job file names, job
# sections, labels); their control characters (ESC sequences that clear the screen or recolour it) never reach
# stderr raw: progress lines, the suite summary, warnings and errors show them as '?'.
. "$BENCH_SRC/tests/lib/common.sh"
esc=$(printf '\033')
f="e${esc}[2J${esc}[31mvil.fio"
printf '[global]\nioengine=null\nsize=1m\nruntime=1\ntime_based\n[j%s[1mx]\nrw=read\n' "$esc" >"$f"
"$BENCH" run "$f" --engine null --target t.dat --db d.db >out.txt 2>err.txt
rc=$?
[ "$rc" = 0 ] && ok "run of a job file with ESC in its names exits 0" || fail "run exited $rc: $(cat err.txt)"
if grep -q "$esc" err.txt out.txt; then fail "an ESC byte reached the terminal: $(od -c err.txt | head -3)"; else ok "no ESC byte on stdout or stderr"; fi
grep -q "e?\[2J?\[31mvil" err.txt && ok "the suite name is shown with '?' for ESC" || fail "suite line: $(cat err.txt)"
"$BENCH" plan "missing${esc}[2J.fio" >out.txt 2>err.txt
expect_eq "plan of a missing file: exit" "$?" 3
if grep -q "$esc" err.txt; then fail "the error line carries ESC"; else ok "the error line has no ESC byte"; fi
finish
