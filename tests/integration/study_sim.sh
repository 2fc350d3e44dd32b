#!/usr/bin/env bash
# study_sim: the built-in nvmeof-vs-iser-study (issue 16, acceptance 5) with the sim engine on one machine:
# 12 configurations x 9 workloads --quick complete without running a step, and
# `bench report --compare transport=nvmeof:iser --by stack` pairs all 6 stacks x 9 workloads. About 5 minutes.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
if ! command -v fio >/dev/null; then echo "SKIP: needs fio"; exit 77; fi
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
"$BENCH" run nvmeof-vs-iser-study --engine sim --quick --db s.db -q 2>run.err
expect_eq "study: exit" "$?" 0
expect_eq "study: runs done" "$(q s.db "SELECT count(*) FROM run WHERE status = 'done'")" 108
expect_eq "study: configurations" "$(q s.db "SELECT count(DISTINCT value) FROM run_label WHERE key = 'config'")" 12
expect_eq "study: no step ran" "$(q s.db "SELECT count(*) FROM artifact WHERE name LIKE 'config.%'")" 0
"$BENCH" report --db s.db --compare transport=nvmeof:iser --by stack >cmp.txt 2>&1
expect_eq "compare: exit" "$?" 0
expect_eq "compare: stacks" "$(grep -c '^-- stack=' cmp.txt)" 6
grep -q "^54 matched rows, 0 only transport=nvmeof, 0 only transport=iser" cmp.txt && ok "6 stacks x 9 workloads matched" || fail "$(tail -3 cmp.txt)"
for s in mdadm-raid0 mdadm-raid5 lvm-raid0 lvm-raid5 zfs-stripe zfs-raidz; do
	n=$(awk -v s="-- stack=$s" '$0 == s { on = 1; next } /^-- / { on = 0 } on && /^  (fio|vdb)-/ { n++ } END { print n + 0 }' cmp.txt)
	expect_eq "stack $s: workloads with a ratio" "$n" 9
done
finish
