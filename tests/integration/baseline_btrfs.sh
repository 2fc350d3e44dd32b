#!/usr/bin/env bash
# baseline_btrfs: `baseline = on` on real block devices (issue 32): a btrfs raid5 configuration (recipe
# btrfs-raid5, nodatacow) over 3 loop devices of the test's own, one 4k random write of 1 s.
#  1. before the setup each raw member is measured alone (3 member baselines, libaio direct on /dev/loopN),
#     once built the initiator CPU baseline (ioengine=null); `--explain` takes the members' IOPS added over
#     raid5's member operations per write (3 over 3 members: reconstruct-write) and names the 3 runs;
#  2. a second run reuses all 4 (a loop device is known by its size and backing file, which the recipe's
#     teardown, wipefs included, leaves as they were);
#  3. one member grown (truncate, losetup -c): its size is another identity, so the members are measured again
#     (the key covers all members) and the CPU baseline is reused.
# Needs root, losetup, mkfs.btrfs and fio; only the loop devices attached here are detached (trap). About 35 s.
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
for i in 0 1 2; do
	truncate -s 256M "$T/d$i.img"
	losetup -f --show "$T/d$i.img" >>"$T/loops" || { fail "losetup"; finish; }
done
DEVS=$(paste -sd, "$T/loops")
write_lines r5.suite "[suite]" "name = baseline-btrfs" "baseline = on" \
	"[config raid5]" "label = stack=btrfs-raid5" \
	"recipe = btrfs-raid5 devices=$DEVS mountpoint=$T/mnt5 options=nodatacow" \
	"[workload randwrite-4k]" "rw=randwrite" "bs=4k" "iodepth=16" "ioengine=libaio" "direct=1" "size=64m" "runtime=1"
nbase() { q b.db "SELECT count(*) FROM run_label WHERE key = 'phase' AND value = 'baseline'"; }

"$BENCH" run r5.suite --db b.db 2>e1.txt
expect_eq "first run: exit" "$?" 0
expect_eq "first run: baselines done" "$(q b.db "SELECT count(*) FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'phase' AND l.value = 'baseline' WHERE r.status = 'done'")" 4
expect_eq "first run: members measured raw" "$(q b.db "SELECT group_concat(t, ' ') FROM (SELECT json_extract(spec, '\$.targets[0]') t FROM run WHERE name LIKE 'baseline-loop%' ORDER BY id)")" "$(paste -sd' ' "$T/loops")"
expect_eq "first run: the workload done" "$(q b.db "SELECT status FROM run WHERE name = 'randwrite-4k'")" done
"$BENCH" report --db b.db --explain --format json 2>/dev/null | tail -1 >x.json
got=$(python3 - "$T/b.db" <<'EOF'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in json.load(open("x.json"))["explain"]:
    for c in row["checks"]:
        runs = c.get("baseline_runs", [])
        if c["limit"] == "devices" and runs:
            iops = sum(db.execute("SELECT iops FROM result WHERE run_id = ? AND host = '*' AND ddir = 'total'", (r,)).fetchone()[0] for r in runs)
            print(len(runs), "ok" if abs(c["ceiling_iops"] - iops / 3) <= 1 else "ceiling %s, members %s" % (c["ceiling_iops"], iops))
EOF
)
expect_eq "explain: raid5 over the 3 member baselines / 3 ops per write" "$got" "3 ok"

"$BENCH" run r5.suite --db b.db 2>e2.txt
expect_eq "second run: exit" "$?" 0
expect_eq "second run: no new baseline" "$(nbase)" 4
expect_eq "second run: 4 reused" "$(grep -c "^configuration 'raid5': baseline reused (run " e2.txt)" 4

truncate -s 320M "$T/d2.img" && losetup -c "$(sed -n 3p "$T/loops")"
"$BENCH" run r5.suite --db b.db 2>e3.txt
expect_eq "grown member: exit" "$?" 0
expect_eq "grown member: members measured again" "$(nbase)" 7
expect_eq "grown member: the CPU baseline reused" "$(grep -c "baseline reused (run [0-9]*): initiator CPU" e3.txt)" 1
expect_eq "mounts left" "$(findmnt -rn -o TARGET | grep -c "^$T/")" 0
finish
