#!/usr/bin/env bash
# config_members_consent (issue 26): a [config] member that holds data is refused before anything is stored.
# A btrfs-raid0 configuration over two loop devices, one holding ext4: `bench plan` and `bench run` exit 3 with
# one stderr line naming the member and what blkid found; the database file is not created (run) and the
# member's bytes are unchanged. With --destructive both accept it (plan exit 0; run is not made here). A
# member that is mounted is refused even with --destructive. Needs root, losetup, mkfs.ext4.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	echo "SKIP: needs root, losetup and mkfs.ext4"
	exit 77
fi
. "$BENCH_SRC/tests/lib/common.sh"
detach_all() {
	findmnt -rn -o TARGET | grep "^$T/" | sort -r | while read -r m; do umount "$m"; done
	[ -f "$T/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/loops"
}
cleanup_hooks+=("detach_all")
for i in 0 1; do
	truncate -s 64M "$T/d$i.img"
	losetup -f --show "$T/d$i.img" >>"$T/loops" || { fail "losetup"; finish; }
done
D0=$(sed -n 1p "$T/loops")
D1=$(sed -n 2p "$T/loops")
mkfs.ext4 -q -F "$D1" || { fail "mkfs.ext4"; finish; }
write_lines m.suite '[suite]' 'name = members' '' '[config raid0]' \
	"recipe = btrfs-raid0 devices=$D0,$D1 mountpoint=$T/mnt" '' '[workload w]' rw=randwrite bs=4k size=16m runtime=1
before=$(sha256sum <"$D1")

for cmd in plan run; do
	db=()
	[ "$cmd" = run ] && db=(--db "$T/m.db")
	"$BENCH" "$cmd" m.suite "${db[@]}" --quick >out.txt 2>err.txt
	expect_eq "$cmd: exit" "$?" 3
	expect_eq "$cmd: stderr lines" "$(wc -l <err.txt)" 1
	if grep -q "member $D1" err.txt && grep -q ext4 err.txt; then ok "$cmd: names $D1 and ext4"
	else fail "$cmd: stderr: $(cat err.txt)"; fi
done
[ -e "$T/m.db" ] && fail "run made a database before refusing" || ok "no database made"
expect_eq "member unchanged" "$(sha256sum <"$D1")" "$before"
"$BENCH" plan m.suite --quick --destructive >out.txt 2>err.txt
expect_eq "plan --destructive: exit" "$?" 0

mkdir -p "$T/m1"
mount "$D1" "$T/m1" || { fail "mount"; finish; }
"$BENCH" plan m.suite --quick --destructive >out.txt 2>err.txt
expect_eq "plan --destructive, member mounted: exit" "$?" 3
grep -q "mounted" err.txt && ok "mounted member refused even with --destructive" || fail "mounted: $(cat err.txt)"
umount "$T/m1"
finish
