#!/usr/bin/env bash
# config_btrfs: configurations built by recipes (issue 16, acceptance 1-3) on real loop devices with btrfs.
#  1. three [config] sections (btrfs-raid0, -raid5, -raid10 over 8 loop devices on sparse 256 MiB files) x a
#     4k random write and a 64k sequential read (mounted nodatacow: overwrites in place, so RAID5 pays its
#     read-modify-write, as md RAID5 would): 6 runs done, nothing of the recipes left (mounts, mount
#     points), the stored record holds `btrfs filesystem show`, `bench report --compare config=raid5:raid0`
#     and `--compare stack=btrfs-raid5:btrfs-raid0` print one matched row per workload (write IOPS ratio below
#     1), the cfg.* record under the table (issue 29 acceptance 1);
#  2. kill -9 during the second configuration's workloads, then --resume: the leftover stack is torn down
#     first (never adopted), the rest completes, done = planned, no mount left;
#  3. a setup step that fails: its configuration's runs are 'failed' with the step's output stored, its
#     teardown runs, the next configuration runs; with --stop-on-config-failure the suite stops there.
# Needs root, losetup, mkfs.btrfs and fio; only the loop devices attached here are detached (trap).
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.btrfs >/dev/null ||
	! command -v fio >/dev/null; then
	echo "SKIP: needs root, losetup, mkfs.btrfs and fio"
	exit 77
fi
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
detach_all() {
	findmnt -rn -o TARGET | grep "^$T/" | sort -r | while read -r m; do umount "$m"; done
	[ -f "$T/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/loops"
}
cleanup_hooks+=("detach_all")
suite_head() { # suite_head NAME RAMP RUNTIME SIZE: the [suite] section of a quick suite
	printf '[suite]\nname = %s\nquick.ramp = %s\nquick.runtime = %s\nquick.size = %s\n' "$1" "$2" "$3" "$4"
}
for i in 0 1 2 3 4 5 6 7; do
	truncate -s 256M "$T/d$i.img"
	losetup -f --show "$T/d$i.img" >>"$T/loops" || { fail "losetup"; finish; }
done
DEVS=$(paste -sd, "$T/loops")

suite_head btrfs-study 1 3 64m >btrfs.suite
cat >>btrfs.suite <<EOF2

[config raid0]
label = stack=btrfs-raid0
recipe = btrfs-raid0 devices=$DEVS mountpoint=$T/mnt0 options=nodatacow
[config raid5]
label = stack=btrfs-raid5
recipe = btrfs-raid5 devices=$DEVS mountpoint=$T/mnt5 options=nodatacow
[config raid10]
label = stack=btrfs-raid10
recipe = btrfs-raid10 devices=$DEVS mountpoint=$T/mnt10 options=nodatacow

[workload randwrite-4k]
rw=randwrite
bs=4k
iodepth=16
ioengine=libaio
direct=1
size=64m
runtime=3
[workload seqread-64k]
rw=read
bs=64k
iodepth=8
ioengine=libaio
direct=1
size=64m
runtime=3
EOF2
left_mounts() { findmnt -rn -o TARGET | grep -c "^$T/"; }

# ---- 1: three configurations, two workloads each
"$BENCH" run btrfs.suite --quick --db a.db -q 2>a.err
expect_eq "three configurations: exit" "$?" 0
expect_eq "runs done" "$(q a.db "SELECT count(*) FROM run WHERE status = 'done'")" 6
expect_eq "runs per configuration" "$(q a.db "SELECT group_concat(n) FROM (SELECT count(*) n FROM run_label WHERE key = 'config' GROUP BY value ORDER BY value)")" "2,2,2"
expect_eq "mounts left" "$(left_mounts)" 0
expect_eq "mount points left" "$(ls -d "$T"/mnt* 2>/dev/null | wc -l)" 0
expect_eq "btrfs signatures left on the members" "$(blkid $(cat "$T/loops") 2>/dev/null | grep -c btrfs)" 0
rec=$(q a.db "SELECT CAST(content AS TEXT) FROM artifact a JOIN run_label l ON l.run_id = a.run_id WHERE a.name = 'config.record' AND l.key = 'config' AND l.value = 'raid5' LIMIT 1")
case $rec in *"Label: 'bench-raid5'"*"Total devices 8"*) ok "record holds btrfs filesystem show";; *) fail "record: $rec";; esac
case $rec in *"Data, RAID5"*) ok "record holds btrfs filesystem df";; *) fail "no 'Data, RAID5' in the record";; esac
expect_eq "kernel label" "$(q a.db "SELECT value FROM run_label WHERE key = 'cfg.kernel' LIMIT 1")" "$(uname -r)"
expect_eq "members label" "$(q a.db "SELECT value FROM run_label WHERE key = 'cfg.members' LIMIT 1")" 8
# the host tuning (issue 29): network sysctls and hugepages as this host has them
expect_eq "sysctl rmem_max label" "$(q a.db "SELECT value FROM run_label WHERE key = 'cfg.sysctl.net.core.rmem_max' LIMIT 1")" "$(sysctl -n net.core.rmem_max)"
expect_eq "tcp_rmem label" "$(q a.db "SELECT value FROM run_label WHERE key = 'cfg.sysctl.net.ipv4.tcp_rmem' LIMIT 1")" "$(sysctl -n net.ipv4.tcp_rmem | tr '\t' ' ')"
expect_eq "hugepages label" "$(q a.db "SELECT value FROM run_label WHERE key = 'cfg.hugepages' LIMIT 1")" "$(awk '/^HugePages_Total:/ { print $2 }' /proc/meminfo)"
td=$(q a.db "SELECT count(*) FROM artifact WHERE name = 'config.teardown' AND CAST(content AS TEXT) LIKE '%umount%exit 0%'")
expect_eq "teardown logs stored" "$td" 3
# issue 29 acceptance 1: with no other option, one matched row per workload (stack changes with config and the
# cfg.* record is metadata, neither keeps the sides apart); the same keyed by stack
for c in config=raid5:raid0 stack=btrfs-raid5:btrfs-raid0; do
	"$BENCH" report --db a.db --compare "$c" >cmp.txt 2>&1
	expect_eq "compare $c: exit" "$?" 0
	grep -q "^2 matched rows, 0 only" cmp.txt && ok "compare $c: 2 matched rows" || { fail "compare $c"; cat cmp.txt; }
	wr=$(awk '$1 == "randwrite-4k" { print $2 }' cmp.txt)
	echo "$c: raid5/raid0 write IOPS ratio: $wr"
	if awk -v r="$wr" 'BEGIN { exit !(r + 0 > 0 && r + 0 < 1) }'; then ok "write IOPS ratio $wr < 1"; else fail "write IOPS ratio '$wr'"; cat cmp.txt; fi
	grep -q "^Configuration record, same on every side: .*cfg.kernel=$(uname -r)" cmp.txt && ok "cfg.kernel under the table" ||
		fail "no cfg.kernel line"
	grep -q "^-- .*cfg\." cmp.txt && fail "cfg.* in a group heading"
done

"$BENCH" db diff-config raid5 raid0 --db a.db >diff.txt 2>&1
expect_eq "diff-config: exit" "$?" 0
grep -q "^  - Data, RAID5" diff.txt && grep -q "^  + Data, RAID0" diff.txt && ok "diff-config shows the layouts" ||
	{ fail "diff-config"; cat diff.txt; }

# ---- 2: kill -9 during the second configuration, then --resume
"$BENCH" run btrfs.suite --quick --db k.db -q 2>k.err &
pid=$!
for _ in $(seq 1 600); do
	[ "$(q k.db "SELECT count(*) FROM run WHERE seq = 3 AND status = 'running'" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
expect_eq "raid5 left mounted by kill -9" "$(left_mounts)" 1
"$BENCH" run btrfs.suite --quick --db k.db --resume 2>r.err
rc=$?
expect_eq "resume: exit" "$rc" 0
[ "$rc" = 0 ] || { cat r.err; q k.db "SELECT seq, status, error FROM run"; }
grep "leftover teardown, attempt" r.err || true
grep -q "configuration 'raid5' was left built" r.err && ok "resume tears the leftover down first" || { fail "no leftover teardown"; cat r.err; }
expect_eq "resume: done = planned" "$(q k.db "SELECT count(*) FROM run WHERE status = 'done'")" "$(q k.db "SELECT planned_runs FROM suite")"
expect_eq "resume: mounts left" "$(left_mounts)" 0
expect_eq "resume: state files left" "$(ls "$T"/bench-*/config-*.state 2>/dev/null | wc -l)" 0

# ---- 3: a failing setup step
suite_head failing-setup 0 1 8m >fail.suite
cat >>fail.suite <<EOF2
[config broken]
setup = sh -c 'echo no such stack here >&2; exit 3'
setup = touch $T/never
teardown = touch $T/teardown-broken
[config fine]
setup = true
teardown = touch $T/teardown-fine
[workload r]
rw=randread
bs=4k
ioengine=psync
size=8m
runtime=1
EOF2
"$BENCH" run fail.suite --quick --target "$T/f.dat" --db f.db -q 2>f.err
expect_eq "failing setup: exit" "$?" 4
expect_eq "broken: run failed" "$(q f.db "SELECT r.status FROM run r JOIN run_label l ON l.run_id = r.id WHERE l.key = 'config' AND l.value = 'broken'")" failed
case $(q f.db "SELECT error FROM run WHERE seq = 1") in
*"setup step 'sh -c"*"exited 3: no such stack here"*) ok "the run's error names the step and its output";;
*) fail "error: $(q f.db "SELECT error FROM run WHERE seq = 1")";;
esac
case $(q f.db "SELECT CAST(content AS TEXT) FROM artifact WHERE run_id = 1 AND name = 'config.steps'") in
*"exit 3"*"| no such stack here"*) ok "step output stored (config.steps)";; *) fail "config.steps";; esac
[ ! -e "$T/never" ] && ok "no step after the failed one" || fail "a step ran after the failure"
[ -e "$T/teardown-broken" ] && ok "teardown of the failed configuration ran" || fail "no teardown"
expect_eq "next configuration done" "$(q f.db "SELECT status FROM run WHERE seq = 2")" done
rm -f "$T/teardown-broken" "$T/teardown-fine"
"$BENCH" run fail.suite --quick --target "$T/f.dat" --db s.db -q --stop-on-config-failure 2>s.err
expect_eq "--stop-on-config-failure: exit" "$?" 4
expect_eq "--stop-on-config-failure: runs of 'fine'" "$(q s.db "SELECT count(*) FROM run WHERE seq = 2")" 0
[ -e "$T/teardown-broken" ] && ok "teardown ran before stopping" || fail "no teardown before stopping"
[ ! -e "$T/teardown-fine" ] && ok "'fine' was not built" || fail "'fine' was built"
grep -q "stop-on-config-failure" s.err && ok "stderr says why it stopped" || fail "stderr: $(cat s.err)"
finish
