#!/usr/bin/env bash
# plan_targets_warn (issue 28): a workload of N disks (HCIbench Nvmdk) planned with fewer --target paths is said,
# not collapsed onto one file without a word: one warning naming the run, its disks and the targets given; with
# as many targets as disks, no warning. A job that names its files by filename_format= under directory= (issue 26)
# runs as fio runs it: its own files there, not bench's default target put in their place.
. "$BENCH_SRC/tests/lib/common.sh"
name=fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads
"$BENCH" plan "$name" --target a.dat --no-fio-check >plan.txt 2>err.txt
expect_eq "plan with one target: exit" "$?" 0
if grep -q "^bench: warning: run '$name': 8 disks in its workload (HCIbench 8vmdk), 1 --target" err.txt; then
	ok "the collapse is said"
else
	fail "no warning: $(cat err.txt)"
fi
targets=()
for i in 1 2 3 4 5 6 7 8; do targets+=(--target "t$i.dat"); done
"$BENCH" plan "$name" "${targets[@]}" --no-fio-check >plan.txt 2>err.txt
expect_eq "plan with eight targets: exit" "$?" 0
expect_eq "plan with eight targets: warnings about disks" "$(grep -c 'disks in its workload' err.txt)" 0

mkdir d
write_lines f.fio '[a]' rw=randwrite bs=4k size=1m runtime=1 "directory=$T/d" 'filename_format=own.$jobnum' numjobs=2
"$BENCH" plan f.fio >plan.txt 2>err.txt
expect_eq "plan of a filename_format job: exit" "$?" 0
grep -q 'bench-target.dat' plan.txt && fail "bench's default target planned: $(cat plan.txt)" || ok "no default target"
if command -v fio >/dev/null; then
	"$BENCH" run f.fio --db d.db -q >/dev/null 2>err.txt
	expect_eq "run of a filename_format job: exit (err: $(head -c 300 err.txt))" "$?" 0
	expect_eq "files fio made in directory=" "$(ls d | tr '\n' ' ')" "own.0 own.1 "
fi
finish
