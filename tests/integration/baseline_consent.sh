#!/usr/bin/env bash
# baseline_consent: a member baseline (`baseline = on`, issue 32) writes a raw member device, so the consent
# rules of a configuration's members hold for it (docs/explain.md "baseline = on in a suite"). On a loop device
# of the test's own that holds an ext4 filesystem:
#  1. without --destructive the suite is refused before anything runs (exit 3, the member named with what blkid
#     found), no run is stored and the device is byte-for-byte unchanged;
#  2. with --resume (no plan-time member check) the member baseline's own run refuses it (stored failed with
#     the reason), the configuration's member check refuses the workload, the device is unchanged;
#  3. mounted, it is refused even with --destructive (never written), nothing stored.
# Needs root, losetup and mkfs.ext4; only the loop device attached here is detached (trap). About 3 s.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	echo "SKIP: needs root, losetup and mkfs.ext4"
	exit 77
fi
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
detach() {
	mountpoint -q "$T/mnt" && umount "$T/mnt"
	[ -s "$T/loop" ] && losetup -d "$(cat "$T/loop")"
}
cleanup_hooks+=("detach")
truncate -s 64M "$T/m.img"
losetup -f --show "$T/m.img" >"$T/loop" || { fail "losetup"; finish; }
L=$(cat "$T/loop")
mkfs.ext4 -q -F "$L" || { fail "mkfs.ext4 $L"; finish; }
sum_before=$(md5sum <"$L")
write_lines s.suite "[suite]" "name = consent" "baseline = on" \
	"[config c]" "members = $L" "targets = $T/t.dat" "setup = true" "teardown = true" \
	"[workload w]" "rw=randwrite" "bs=4k" "size=16m" "ioengine=psync" "runtime=1"

"$BENCH" run s.suite --db t.db >out.txt 2>err.txt
expect_eq "member with ext4: exit" "$?" 3
case $(head -1 err.txt) in
"bench: error: s.suite:4: configuration 'c': member $L: target '$L' holds data: blkid found ext4"*"(needs --destructive)"*)
	ok "member with ext4: refused, says what and where" ;;
*) fail "member with ext4: $(cat err.txt)" ;;
esac
expect_eq "member with ext4: runs stored" "$([ -s t.db ] && q t.db 'SELECT count(*) FROM run' || echo 0)" 0
expect_eq "member with ext4: device unchanged" "$(md5sum <"$L")" "$sum_before"
blkid -p "$L" | grep -q 'TYPE="ext4"' && ok "member with ext4: still ext4" || fail "member lost its filesystem"

# --resume skips the plan-time member checks (the run loop checks members before the setup, after a leftover's
# teardown): the member baseline, planned before the setup, is refused by its own run's target check
"$BENCH" run s.suite --resume --db r.db >out.txt 2>err.txt
expect_eq "--resume, member with ext4: exit" "$?" 4
expect_eq "--resume: the baseline run refused by its target check" \
	"$(q r.db "SELECT status || ': ' || error FROM run WHERE name = 'baseline-$(basename "$L")-w'")" \
	"failed: target '$L' holds data: blkid found ext4 (filesystem) (needs --destructive)"
expect_eq "--resume: the workload run refused by the member check" "$(q r.db "SELECT status FROM run WHERE name = 'w'")" failed
expect_eq "--resume: device unchanged" "$(md5sum <"$L")" "$sum_before"

mkdir "$T/mnt" && mount "$L" "$T/mnt" || { fail "mount $L"; finish; }
"$BENCH" run s.suite --destructive --db t.db >out.txt 2>err.txt
expect_eq "mounted member, --destructive: exit" "$?" 3
grep -q "member $L: target '$L' is mounted on '$T/mnt': bench never writes a mounted device" err.txt &&
	ok "mounted member: refused whatever the flags" || fail "mounted member: $(cat err.txt)"
expect_eq "mounted member: runs stored" "$([ -s t.db ] && q t.db 'SELECT count(*) FROM run' || echo 0)" 0
finish
