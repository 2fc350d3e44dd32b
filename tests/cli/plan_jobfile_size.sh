#!/bin/bash
# plan_jobfile_size: issue 26, defect 1. A fio job file of 1,000,000 sections made `bench plan` run for ever
# (reading and planning were quadratic in the sections: every job walked back over all sections for its
# [global]s and their locations, every job name was compared with all before it). Checked here:
#  - a file over the limit of 100000 sections is refused within seconds: exit 3, one line naming the file, the
#    line of the first section past the limit and the limit;
#  - planning is linear: 40000 stonewalled sections take less than 8 times the CPU time of 10000 (quadratic
#    code took 16 times), and 20000 plan (20000 runs) in under 5 s of CPU;
#  - more than 4088 jobs that run together (fio 3.33's ceiling) are refused naming the job and the group start;
#  - job names of one run stay unique also when a position name is taken ([a] [a.3] [a] once looped for ever).
. "$BENCH_SRC/tests/lib/common.sh"

gen() { # gen N MODE > FILE: a [global] and N job sections; MODE sw: each with stonewall, together: none
	/usr/bin/python3 - "$1" "$2" <<'EOF'
import sys
n, mode = int(sys.argv[1]), sys.argv[2]
out = ['[global]', 'rw=randread', 'bs=4k', 'size=1m', 'filename=/tmp/bench-never-written.dat']
for i in range(n):
    out += ['[j%d]' % i, 'offset=%d' % (i * 4096)]
    if mode == 'sw':
        out.append('stonewall')
print('\n'.join(out))
EOF
}
cpu_s() { # cpu_s ARGS...: "MS RC": user+system CPU milliseconds and exit code of `bench plan ARGS`
	local t0 t1 rc=0 me=$BASHPID
	t0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$me/stat)
	"$BENCH" plan "$@" >/dev/null 2>cpu.err || rc=$?
	t1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$me/stat)
	echo "$(( (t1 - t0) * 1000 / $(getconf CLK_TCK) )) $rc"
}

# over the limit: refused within seconds (timeout 20 s: the old code never returned)
gen 1000000 together >big.fio
rc=0
timeout 20 "$BENCH" plan big.fio >out.txt 2>err.txt || rc=$?
expect_eq "1,000,000 sections: exit (124 = still running after 20 s)" "$rc" 3
expect_eq "1,000,000 sections: one error line" "$(wc -l <err.txt)" 1
expect_eq "1,000,000 sections: the message" "$(cat err.txt)" \
	"bench: error: big.fio:200004: more than 100000 sections in one job file (bench's limit)"
expect_eq "1,000,000 sections: nothing on stdout" "$(wc -c <out.txt)" 0

# linear: CPU time of 40000 sections against 10000
gen 10000 sw >s10k.fio
gen 40000 sw >s40k.fio
gen 20000 sw >s20k.fio
read -r a rc < <(cpu_s s10k.fio)
expect_eq "10000 stonewalled sections: exit" "$rc" 0
read -r b rc < <(cpu_s s40k.fio)
expect_eq "40000 stonewalled sections: exit" "$rc" 0
if [ "$b" -lt $((8 * a + 200)) ]; then
	ok "40000 sections took ${b} ms of CPU, 10000 took ${a} ms: less than 8 times"
else
	fail "40000 sections took ${b} ms of CPU, 10000 took ${a} ms: 8 times or more (quadratic?)"
fi
read -r c rc < <(cpu_s s20k.fio)
expect_eq "20000 stonewalled sections: exit" "$rc" 0
if [ "$c" -lt 5000 ]; then ok "20000 sections planned in ${c} ms of CPU"; else fail "20000 sections took ${c} ms of CPU"; fi
"$BENCH" plan s20k.fio >plan.txt 2>/dev/null
expect_eq "20000 stonewalled sections: runs" "$(tail -1 plan.txt | cut -d' ' -f1)" 20000

# fio's own ceiling of jobs run together
gen 4088 together >t4088.fio
rc=0
"$BENCH" plan t4088.fio >plan.txt 2>err.txt || rc=$?
expect_eq "4088 jobs together: exit (err: $(head -c 300 err.txt))" "$rc" 0
expect_eq "4088 jobs together: one run" "$(tail -1 plan.txt | cut -d' ' -f1,2)" "1 run,"
gen 4089 together >t4089.fio
rc=0
"$BENCH" plan t4089.fio >plan.txt 2>err.txt || rc=$?
expect_eq "4089 jobs together: exit" "$rc" 3
expect_eq "4089 jobs together: the message" "$(cat err.txt)" \
	"bench: error: t4089.fio:8182: more than 4088 jobs (numjobs counted) run together from line 6 on: fio runs at most 4088 in one go (add stonewall between groups)"

# a position name that is taken
write_lines names.fio '[global]' 'rw=read' 'size=1m' 'filename=/tmp/bench-never-written.dat' \
	'[a]' 'offset=0' '[a.3]' 'offset=4096' '[a]' 'offset=8192'
rc=0
timeout 10 "$BENCH" plan names.fio --format json >plan.json 2>err.txt || rc=$?
expect_eq "[a] [a.3] [a]: exit (err: $(cat err.txt))" "$rc" 0
expect_eq "[a] [a.3] [a]: job names" \
	"$(/usr/bin/python3 -c 'import json,sys; print(" ".join(j["name"] for j in json.load(sys.stdin)["runs"][0]["jobs"]))' <plan.json)" \
	"a a.3 a.3.2"
finish
