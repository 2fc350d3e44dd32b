#!/usr/bin/env bash
# install: `cmake --install` of this build into a temporary prefix gives a bench that stands on its own: the
# binary, the sim ioengine, the built-in suites, the man pages and the bash completion land where the README
# says; run from another directory (no build-tree environment), the installed bench lists and plans the
# built-in suites from its own share/bench/library, runs a fio job and a sim-engine job and stores them
# 'done', the sim run using the installed engine; the tree still works after being moved; the man pages
# render without warnings and carry every option of every command's --help; the installed completion works.
. "$BENCH_SRC/tests/lib/common.sh"
: "${BENCH_BUILD:?BENCH_BUILD must name the build directory (ctest sets it)}"
unset BENCH_LIBRARY BENCH_SIM_SO

P=$T/prefix
cmake --install "$BENCH_BUILD" --prefix "$P" >install.log 2>&1
rc=$?
expect_eq "cmake --install exit code" "$rc" 0
[ "$rc" -eq 0 ] || { cat install.log; finish; }
sim_built=0
[ -f "$BENCH_BUILD/engines/sim/bench_sim.so" ] && sim_built=1
files="bin/bench share/man/man1/bench.1 share/man/man1/bench-run.1 share/bash-completion/completions/bench"
[ "$sim_built" -eq 1 ] && files="$files lib/bench/bench_sim.so"
for f in $files; do
  [ -s "$P/$f" ] && ok "installed $f" || fail "missing $P/$f"
done
[ -x "$P/bin/bench" ] && ok "bin/bench is executable" || fail "bin/bench is not executable"
# the whole library directory, as in the source tree
diff -r "$BENCH_SRC/profiles/library" "$P/share/bench/library" >diff.txt && ok "share/bench/library = profiles/library" ||
  fail "installed library differs: $(head -3 diff.txt)"

mkdir elsewhere
cd elsewhere || exit 1
B=$P/bin/bench
"$B" profiles --help >help.txt
grep -qF "files in $P/share/bench/library " help.txt && ok "installed bench reads its own library" ||
  fail "installed bench names another library: $(grep 'files in' help.txt)"
"$B" profiles list >list.txt
expect_eq "profiles list exit code" "$?" 0
for s in "$BENCH_SRC"/profiles/library/*.suite; do
  s=$(basename "$s" .suite)
  grep -qE "^$s +[0-9]+ " list.txt && ok "profiles list shows $s" || fail "profiles list lacks $s"
done
"$B" plan hcibench-easyrun --quick --target x.dat >plan.txt 2>err.txt
expect_eq "plan hcibench-easyrun --quick exit code" "$?" 0
grep -q "^6 runs, estimated wall time" plan.txt && ok "plan: 6 runs" || fail "plan: $(tail -1 plan.txt) $(cat err.txt)"

cat >q.fio <<'JOB'
[q]
rw=randread
bs=4k
size=8m
runtime=1
time_based=1
JOB
"$B" run q.fio --target t.dat --db r.db -q --no-collectors >run.txt 2>&1
expect_eq "fio run exit code" "$?" 0
expect_eq "fio run stored done" "$(q r.db "SELECT status FROM run")" "done"
expect_eq "fio run has IOPS" "$(q r.db "SELECT iops > 0 FROM result WHERE host = '*' AND ddir = 'read'")" 1
if [ "$sim_built" -eq 1 ]; then
  "$B" run q.fio --engine sim --target s.dat --db sim.db -q --no-collectors >sim.txt 2>&1
  expect_eq "sim run exit code" "$?" 0
  expect_eq "sim run stored done" "$(q sim.db "SELECT status || ':' || engine FROM run")" "done:sim"
  used=$(q sim.db "SELECT content FROM artifact" | grep -o 'external:[^" ]*' | sort -u)
  expect_eq "sim run used the installed engine" "$used" "external:$P/lib/bench/bench_sim.so"
fi

# The installed tree can be moved: the lookups are relative to the binary.
mv "$P" "$T/moved"
"$T/moved/bin/bench" profiles --help | grep -qF "files in $T/moved/share/bench/library " &&
  ok "moved tree reads its own library" || fail "moved tree: $("$T/moved/bin/bench" profiles --help | grep 'files in')"
"$T/moved/bin/bench" plan kernel-compare --quick --target x.dat >/dev/null 2>&1
expect_eq "moved tree plans a built-in suite" "$?" 0
mv "$T/moved" "$P"

# Man pages: render without warnings, name every command, carry every option of each command's --help.
man_txt() { LC_ALL=C MANWIDTH=200 man -l -P cat "$1" 2>/dev/null; }
LC_ALL=C man --warnings -l "$P/share/man/man1/bench.1" >/dev/null 2>warn.txt
[ ! -s warn.txt ] && ok "man bench.1: no warnings" || fail "man bench.1 warnings: $(head -3 warn.txt)"
man_txt "$P/share/man/man1/bench.1" >bench.txt
grep -q "^NAME" bench.txt && grep -q "^ *bench - " bench.txt && ok "bench.1 renders NAME" || fail "bench.1: $(head -5 bench.txt)"
cmds=$("$B" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
for c in $cmds; do
  grep -qE "^ +$c( |$)" bench.txt && ok "bench.1 lists $c" || fail "bench.1 lacks command $c"
  "$B" "$c" --help >h.txt
  head -1 h.txt | grep -q "^usage: bench $c " || continue
  page=$P/share/man/man1/bench-$c.1
  [ -f "$page" ] || { fail "no man page bench-$c.1"; continue; }
  LC_ALL=C man --warnings -l "$page" >/dev/null 2>warn.txt
  [ ! -s warn.txt ] && ok "man bench-$c.1: no warnings" || fail "man bench-$c.1 warnings: $(head -3 warn.txt)"
  man_txt "$page" >page.txt
  missing=""
  for o in $(grep -oE '^ +(-[a-zA-Z], )?--?[a-z][-a-z]*' h.txt | grep -oE -- '--?[a-z][-a-z]*'); do
    grep -qF -- "$o" page.txt || missing="$missing $o"
  done
  expect_eq "bench-$c.1: options of 'bench $c --help' missing" "$missing" ""
  grep -qF "$(sed -n 's/^usage: //p' h.txt)" page.txt && ok "bench-$c.1 has the synopsis" || fail "bench-$c.1 lacks the synopsis"
done
grep -q "files in $P/" "$P/share/man/man1/bench-profiles.1" && fail "man page names the test prefix (generated at install?)" ||
  ok "bench-profiles.1 generated at build time"

# The installed completion, with the installed bench on PATH.
PATH=$P/bin:$PATH
. "$P/share/bash-completion/completions/bench"
complete -p bench | grep -q -- "-F _bench" && ok "installed completion registers _bench" || fail "complete -p: $(complete -p bench 2>&1)"
COMP_WORDS=(bench rep) COMP_CWORD=1
_bench bench rep bench
expect_eq "installed completion of 'bench rep'" "${COMPREPLY[*]}" "report"
COMP_WORDS=(bench run "") COMP_CWORD=2
_bench bench "" run
printf '%s\n' "${COMPREPLY[@]}" | grep -qx hcibench-easyrun && ok "installed completion offers suites" ||
  fail "installed completion after 'bench run': ${COMPREPLY[*]}"
finish
