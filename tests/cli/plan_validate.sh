#!/usr/bin/env bash
# plan_validate (issue 18): `bench plan` validates what `bench run` validates, with the same exit code and
# message, and `bench run` refuses the same inputs before creating a database: the engine name (from a suite
# or --engine), fio option values fio only fails on at run time (size=150%, bssplit=4k/abc:8k/50), vdbench
# xfersize distributions that cannot be translated exactly; and a plan of more than 100000 runs is refused
# with exit 3 at once, before anything is allocated for it (a 10^8-run --matrix under a 300 MB address-space
# limit), while exactly 100000 runs are planned.
. "$BENCH_SRC/tests/lib/common.sh"

cat > base.fio <<'JOB'
[j]
ioengine=null
rw=randread
size=1m
runtime=1
JOB
cat > warp.suite <<'SUITE'
[suite]
name = w
engine = warp
[workload a]
rw=read
SUITE
printf '[j]\nrw=randread\nsize=150%%\n' > size.fio
printf '[j]\nrw=randread\nbssplit=4k/abc:8k/50\n' > bssplit.fio
printf 'sd=sd1,lun=t.dat,size=1m\nwd=wd1,sd=sd1,xfersize=(4k,60,8k)\nrd=rd1,wd=wd1,iorate=max,elapsed=1\n' > xfer.vdb

same() { # same CODE PATTERN ARGS...: plan and run refuse alike, run creates no database
  local want=$1 pat=$2; shift 2
  local rp=0 rr=0
  "$BENCH" plan "$@" >out.txt 2>ep.txt || rp=$?
  rm -f r.db
  "$BENCH" run "$@" --db r.db >/dev/null 2>er.txt || rr=$?
  expect_eq "bench plan $* exit code" "$rp" "$want"
  expect_eq "bench run $* exit code" "$rr" "$want"
  expect_eq "bench plan $*: stderr lines" "$(wc -l <ep.txt)" 1
  grep -q -- "$pat" ep.txt && ok "plan message names '$pat'" || fail "plan message '$(cat ep.txt)' lacks '$pat'"
  cmp -s ep.txt er.txt && ok "run gives the same message" || fail "run said '$(cat er.txt)', plan '$(cat ep.txt)'"
  [ ! -s out.txt ] && ok "nothing on stdout" || fail "plan printed a plan"
  [ ! -e r.db ] && ok "run created no database" || fail "run created a database"
}
same 3 "warp.suite:3: unknown engine 'warp'" warp.suite
same 3 "unknown engine 'warp'" base.fio --engine warp
same 3 "size.fio:3: 'size'" size.fio
same 3 "bssplit.fio:3: 'bssplit' .*'4k/abc:8k/50'" bssplit.fio
same 3 "xfer.vdb:2: xfersize=(min,max,align)" xfer.vdb
same 3 "'bssplit' percentages add up to 120" base.fio --matrix bssplit=4k/60:8k/60
# --matrix bs with a value fio does not read is refused by plan too
same 3 "'bs'" base.fio --matrix bs=4k,abc

# the run limit: 10^4 x 10^4 = 10^8 runs refused at once under a small address-space limit
v=$(seq -s, 1 10000)
start=$(date +%s%N)
rc=0
( ulimit -v 300000; exec "$BENCH" plan base.fio --matrix iodepth="$v" --matrix numjobs="$v" ) >out.txt 2>err.txt || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "10^8-run matrix: exit code" "$rc" 3
grep -q "more than 100000 runs" err.txt && ok "says the limit: $(cat err.txt)" || fail "message: $(cat err.txt)"
[ "$ms" -lt 3000 ] && ok "refused in $ms ms" || fail "took $ms ms"
rc=0; ( ulimit -v 300000; exec "$BENCH" plan base.fio --matrix iodepth=1,2 --repeat 100000 ) >/dev/null 2>err.txt || rc=$?
expect_eq "2 workloads x --repeat 100000: exit code" "$rc" 3
rc=0; "$BENCH" plan base.fio --repeat 100001 >/dev/null 2>err.txt || rc=$?
expect_eq "--repeat 100001: usage error" "$rc" 2
rc=0; "$BENCH" plan base.fio base.fio --interleave --matrix iodepth="$(seq -s, 1 500)" --repeat 101 >/dev/null 2>err.txt || rc=$?
expect_eq "interleaved profiles over the limit together: exit code" "$rc" 3
# vdbench for-loops count too
printf 'sd=sd1,lun=t.dat,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=1,forthreads=(%s),forrdpct=(%s)\n' \
  "$(seq -s, 1 1000)" "$(seq -s, 0 100)" > big.vdb
rc=0; "$BENCH" plan big.vdb >/dev/null 2>err.txt || rc=$?
expect_eq "vdbench for-loops of 101000 runs: exit code" "$rc" 3
grep -q "big.vdb:3: rd=rd1 expands to 101000 runs (limit 100000)" err.txt && ok "vdbench limit names file:line" ||
  fail "vdbench limit: $(cat err.txt)"
# exactly the limit is a plan
rc=0; "$BENCH" plan base.fio --matrix iodepth="$(seq -s, 1 1000)" --repeat 100 >out.txt 2>err.txt || rc=$?
expect_eq "exactly 100000 runs: exit code" "$rc" 0
grep -q "^100000 runs" out.txt && ok "100000 runs planned" || fail "limit plan: $(tail -1 out.txt)"
finish
