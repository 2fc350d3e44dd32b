#!/usr/bin/env bash
# baseline_btrfs: `baseline = on` on real block devices (issue 32): a btrfs raid5 configuration (recipe
# btrfs-raid5, nodatacow) over 3 loop devices of the test's own, one 4k random write of 1 s.
#  1. before the setup each raw member is measured alone (3 member baselines, libaio direct on /dev/loopN) and
#     all 3 at once (baseline.kind=members), once built the initiator CPU baseline (ioengine=null); `--explain`
#     takes the members' IOPS (added alone, or together when that is less: loop devices share this machine's
#     CPU) over the member operations per write the run's disk rows counted (above 1.5: raid5's penalty; raid5's
#     rule, 3 over 3 members, without disk rows) and names the runs;
#  2. a second run reuses all 5 (a loop device is known by its size and backing file, which the recipe's
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
expect_eq "first run: baselines done" "$(q b.db "SELECT count(*) FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'phase' AND l.value = 'baseline' WHERE r.status = 'done'")" 5
expect_eq "first run: members measured raw" "$(q b.db "SELECT group_concat(t, ' ') FROM (SELECT json_extract(spec, '\$.targets[0]') t FROM run WHERE name LIKE 'baseline-loop%' ORDER BY id)")" "$(paste -sd' ' "$T/loops")"
expect_eq "first run: the members together" "$(q b.db "SELECT json_extract(spec, '\$.targets') FROM run WHERE name LIKE 'baseline-members-%'")" "$(python3 -c "import json,sys; print(json.dumps(open(sys.argv[1]).read().split(), separators=(',', ':')))" "$T/loops")"
expect_eq "first run: the workload done" "$(q b.db "SELECT status FROM run WHERE name = 'randwrite-4k'")" done
"$BENCH" report --db b.db --explain --format json 2>/dev/null | tail -1 >x.json
got=$(python3 - "$T/b.db" <<'EOF'
import json, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in json.load(open("x.json"))["explain"]:
    for c in row["checks"]:
        runs = c.get("baseline_runs", [])
        if c["limit"] == "devices" and runs:
            q = lambda sql: [x[0] for x in db.execute(sql)]
            res = "SELECT iops FROM result WHERE host = '*' AND ddir = 'total' AND run_id IN (SELECT id FROM run WHERE name LIKE '%s')"
            alone, together = sum(q(res % "baseline-loop%")), q(res % "baseline-members-%")[0]
            # the member ops per write: those the run's disk rows counted on its members when it has them
            # ("the members did X ops per IO in this run"), else raid5's rule over 3 members (3)
            m = re.search(r"the members did ([0-9.]+) ops per IO in this run", c["evidence"])
            ops = float(m.group(1)) if m else 3
            want = min(alone, together) / ops
            good = abs(c["ceiling_iops"] - want) <= max(1, want * 0.005) and (not m or ops > 1.5)
            print(len(runs), "ok" if good else "ceiling %s, members alone %s, together %s, ops %s" % (c["ceiling_iops"], alone, together, ops))
            print("members alone added %.0f, together %.0f: ceiling %.0f" % (alone, together, c["ceiling_iops"]), file=sys.stderr)
EOF
)
case $got in "1 ok" | "3 ok") ok "explain: raid5 over the member baselines (the lower of alone added and together) / 3 ops per write" ;;
*) fail "explain: raid5's member ceiling: '$got'" ;; esac

"$BENCH" run r5.suite --db b.db 2>e2.txt
expect_eq "second run: exit" "$?" 0
expect_eq "second run: no new baseline" "$(nbase)" 5
expect_eq "second run: 5 reused" "$(grep -c "^configuration 'raid5': baseline reused (run " e2.txt)" 5

truncate -s 320M "$T/d2.img" && losetup -c "$(sed -n 3p "$T/loops")"
"$BENCH" run r5.suite --db b.db 2>e3.txt
expect_eq "grown member: exit" "$?" 0
expect_eq "grown member: members measured again (3 alone, 1 together)" "$(nbase)" 9
expect_eq "grown member: the CPU baseline reused" "$(grep -c "baseline reused (run [0-9]*): initiator CPU" e3.txt)" 1
expect_eq "mounts left" "$(findmnt -rn -o TARGET | grep -c "^$T/")" 0
finish
