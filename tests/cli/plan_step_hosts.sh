#!/bin/bash
# plan_step_hosts: issue 26, defect 4. A [config] step `@HOST ...` planned without --hosts (and a run stored a
# failed run for it): `bench plan` and `bench run` check every step host before anything is stored.
#  - no hosts file: exit 3, one line naming the step's file:line;
#  - a name not in the hosts file: exit 3, with "did you mean 'X'" when a close name exists;
#  - `bench run` refuses the same before the database file is made.
. "$BENCH_SRC/tests/lib/common.sh"
printf 'target1 127.0.0.1:8765\ninit1 127.0.0.2:8765\n' >hosts.txt
W='[workload w]\nrw=read\nsize=1m\n'
printf "[config c]\nsetup = @nohost true\nteardown = true\n$W" >nohosts.suite
printf "[config c]\nsetup = true\nteardown = @targt1 true\n$W" >typo.suite
printf "[config c]\nsetup = @zzzzzz true\nteardown = true\n$W" >far.suite
printf "[config c]\nsetup = @target1 true\nteardown = @local true\n$W" >good.suite
check() { # check WHAT WANT-EXIT WANT-STDERR ARGS...
	local what=$1 want=$2 msg=$3 rc=0
	shift 3
	"$BENCH" "$@" >out.txt 2>err.txt || rc=$?
	expect_eq "$what: exit" "$rc" "$want"
	expect_eq "$what: stderr" "$(cat err.txt)" "$msg"
}
check "plan, no hosts file" 3 "bench: error: nohosts.suite:2: step host 'nohost' needs a hosts file naming it (--hosts FILE)" \
	plan nohosts.suite
check "plan, a typo" 3 "bench: error: typo.suite:3: step host 'targt1' is not in the hosts file 'hosts.txt': did you mean 'target1'?" \
	plan typo.suite --hosts hosts.txt
check "plan, nothing close" 3 "bench: error: far.suite:2: step host 'zzzzzz' is not in the hosts file 'hosts.txt'" \
	plan far.suite --hosts hosts.txt
rc=0
"$BENCH" plan good.suite --hosts hosts.txt >/dev/null 2>err.txt || rc=$?
expect_eq "plan, known hosts: exit (err: $(cat err.txt))" "$rc" 0
check "run, no hosts file" 3 "bench: error: nohosts.suite:2: step host 'nohost' needs a hosts file naming it (--hosts FILE)" \
	run --db run.db nohosts.suite
expect_eq "run, no hosts file: no database made" "$([ -e run.db ] && echo made || echo none)" none
finish
