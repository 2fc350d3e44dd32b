#!/usr/bin/env bash
# target_safety: `bench run` refuses targets that hold data (issue 18), on real loop devices over sparse files.
#  - minix (mkfs.minix), a LUKS1 header, a GPT partition table, an md RAID v1.2 member and an LVM PV label, the
#    last four written from their documented layouts (signatures.py): exit 3, one stderr line naming the device
#    and what blkid found, the device byte-unchanged (sha256 before/after);
#  - `--engine-opt directory=/dev --target loopN`: fio would open /dev/loopN: refused, device unchanged;
#  - an existing file bench did not create (precious.txt): refused, unchanged; a file bench created is
#    accepted on the next run;
#  - --destructive on a scratch device holding minix: runs (exit 0) and fio wrote to it.
# Needs root and losetup; only the loop devices attached here are detached (trap).
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v fio >/dev/null; then
	echo "SKIP: needs root, losetup and fio"
	exit 77
fi
. "$BENCH_SRC/tests/lib/common.sh"
# attach runs in $(...): the devices are recorded in a file, not a variable
detach_all() { [ -f "$T/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/loops"; }
cleanup_hooks+=("detach_all")
SIG="$BENCH_SRC/tests/integration/signatures.py"

write_lines w.fio '[global]' ioengine=psync rw=randwrite bs=4k size=4m runtime=1 time_based '[w]'

attach() { # attach NAME KIND: a 16 MiB sparse image with that signature, on a loop device; prints the device
	truncate -s 16M "$T/$1.img"
	case $2 in
	minix) mkfs.minix "$T/$1.img" >/dev/null 2>&1 || python3 -c '
import struct, sys
f = open(sys.argv[1], "r+b"); f.seek(1024)
# minix v1 superblock: ninodes, nzones, imap_blocks, zmap_blocks, firstdatazone, log_zone_size, max_size, magic 0x137f
f.write(struct.pack("<HHHHHHIH", 5472, 16384, 1, 2, 177, 0, 268966912, 0x137F))' "$T/$1.img" ;;
	none) ;;
	*) python3 "$SIG" "$2" "$T/$1.img" || return 1 ;;
	esac
	local l
	l=$(losetup -f --show "$T/$1.img") || return 1
	echo "$l" >>"$T/loops"
	echo "$l"
}

refused() { # refused WHAT DEVICE BLKID_WORD ARGS...: exit 3, one line naming device and blkid's finding, unchanged
	local what=$1 dev=$2 word=$3 before after rc
	shift 3
	before=$(sha256sum <"$dev")
	"$BENCH" run w.fio --db "$T/b.db" -q "$@" >out.txt 2>err.txt
	rc=$?
	after=$(sha256sum <"$dev")
	expect_eq "$what: exit" "$rc" 3
	expect_eq "$what: stderr lines" "$(wc -l <err.txt)" 1
	if grep -q -- "$dev" err.txt && grep -q -- "$word" err.txt; then ok "$what: message names $dev and $word"
	else fail "$what: message: $(cat err.txt)"; fi
	expect_eq "$what: device unchanged" "$after" "$before"
}

for kind in minix:minix luks1:crypto_LUKS gpt:gpt mdraid:linux_raid_member lvm:LVM2_member; do
	k=${kind%%:*}
	dev=$(attach "$k" "$k") || { fail "$k: cannot attach a loop device"; continue; }
	blkid -p "$dev" >/dev/null 2>&1 || fail "$k: blkid itself finds nothing on $dev (bad test image)"
	refused "$k" "$dev" "${kind#*:}" --target "$dev"
done

# directory=/dev with a relative target: fio opens /dev/loopN, which holds minix
dev=$(attach dirdev minix) && {
	refused "directory=/dev" "$dev" minix --engine-opt directory=/dev --target "${dev#/dev/}"
	[ ! -e "${dev#/dev/}" ] && ok "directory=/dev: no ./${dev#/dev/} created" || fail "directory=/dev: ./${dev#/dev/} created"
}

# a symlink to the device is resolved
dev=$(attach link minix) && {
	ln -s "$dev" "$T/innocent.dat"
	refused "symlink to a device" "$dev" minix --target "$T/innocent.dat"
}

# an existing regular file bench did not create
printf 'my thesis, the only copy\n' >precious.txt
sum=$(sha256sum <precious.txt)
"$BENCH" run w.fio --db "$T/b.db" -q --target precious.txt >out.txt 2>err.txt
expect_eq "precious.txt: exit" "$?" 3
expect_eq "precious.txt: stderr lines" "$(wc -l <err.txt)" 1
grep -q "precious.txt" err.txt && ok "precious.txt named" || fail "precious.txt: $(cat err.txt)"
expect_eq "precious.txt unchanged" "$(sha256sum <precious.txt)" "$sum"

# a file bench creates is bench's on the next run
"$BENCH" run w.fio --db "$T/b.db" -q --target "$T/mine.dat" >out.txt 2>err.txt
expect_eq "bench-created file: first run" "$?" 0
"$BENCH" run w.fio --db "$T/b.db" -q --target "$T/mine.dat" >out.txt 2>err.txt
expect_eq "bench-created file: second run (err: $(cat err.txt))" "$?" 0

# --destructive on a scratch device: accepted, and fio wrote to it
dev=$(attach scratch minix) && {
	before=$(sha256sum <"$dev")
	"$BENCH" run w.fio --db "$T/b.db" -q --destructive --target "$dev" >out.txt 2>err.txt
	expect_eq "--destructive: exit (err: $(cat err.txt))" "$?" 0
	[ "$(sha256sum <"$dev")" != "$before" ] && ok "--destructive: fio wrote the scratch device" ||
		fail "--destructive: device unchanged"
}
finish
