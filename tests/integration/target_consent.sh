#!/usr/bin/env bash
# target_consent: the paths fio really opens are the ones bench checks (issue 26), on loop devices over sparse
# image files made here (ext4 from mkfs.ext4), each refusal exit 3 with the device/file sha256 unchanged:
#  - --engine-opt filename=/dev/loopN beside the default target; directory=/dev + filename=loopN as engine
#    options; filename=/tmp/zz:/dev/loopN;
#  - a job file with directory=/dev and filename=loopN (fio opens /dev/loopN, not ./loopN);
#  - a regular file that backs a mounted loop device, even with --overwrite-files and --destructive;
#  - a mounted block device, even with --destructive; a read-only workload may read it (exit 0);
#  - a target larger than its filesystem (a tmpfs of 8 MiB mounted here): the filesystem named as full, no
#    partial file left.
# Only the loop devices attached and the mounts made here are released (trap).
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
. "$BENCH_SRC/tests/lib/common.sh"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v fio >/dev/null ||
	! command -v mkfs.ext4 >/dev/null || ! command -v fsfreeze >/dev/null; then
	echo "SKIP: needs root, losetup, mkfs.ext4, fsfreeze and fio"
	exit 77
fi
release_all() {
	[ -f "$T/mounts" ] && while read -r m; do fsfreeze -u "$m" 2>/dev/null; umount "$m" 2>/dev/null; done <"$T/mounts"
	[ -f "$T/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/loops"
}
cleanup_hooks+=("release_all")

write_lines w.fio '[global]' ioengine=psync rw=randwrite bs=4k size=4m runtime=1 time_based '[w]'
write_lines r.fio '[global]' ioengine=psync rw=randread bs=4k size=4m runtime=1 time_based '[r]'

attach() { # attach NAME: a 32 MiB sparse image with ext4, on a loop device; prints the device
	truncate -s 32M "$T/$1.img"
	# every inode table and the journal written now: a mounted ext4 then writes nothing on its own later
	# (lazy init would, and the sha256 checks would see it)
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$T/$1.img" >/dev/null 2>&1 || return 1
	local l
	l=$(losetup -f --show "$T/$1.img") || return 1
	echo "$l" >>"$T/loops"
	echo "$l"
}

refused() { # refused WHAT FILE WORD JOB ARGS...: exit 3, one stderr line naming FILE and WORD, FILE unchanged
	local what=$1 file=$2 word=$3 job=$4 before after rc
	shift 4
	before=$(sha256sum <"$file")
	"$BENCH" run "$job" --db "$T/b.db" -q "$@" >out.txt 2>err.txt
	rc=$?
	after=$(sha256sum <"$file")
	expect_eq "$what: exit ($(head -c 300 err.txt))" "$rc" 3
	expect_eq "$what: stderr lines" "$(wc -l <err.txt)" 1
	if grep -q -- "$file" err.txt && grep -q -- "$word" err.txt; then ok "$what: message names $file and $word"
	else fail "$what: message: $(cat err.txt)"; fi
	expect_eq "$what: unchanged" "$after" "$before"
}

dev=$(attach eo) || fail "cannot attach a loop device"
refused "--engine-opt filename=$dev" "$dev" ext4 w.fio --engine-opt filename="$dev"
refused "--engine-opt directory=/dev filename=${dev#/dev/}" "$dev" ext4 w.fio --engine-opt directory=/dev \
	--engine-opt filename="${dev#/dev/}"
refused "--engine-opt filename=/tmp/zz:$dev" "$dev" ext4 w.fio --engine-opt filename="$T/zz:$dev"

write_lines d.fio '[global]' ioengine=psync rw=randwrite bs=4k size=4m runtime=1 time_based \
	'[d]' directory=/dev filename="${dev#/dev/}"
refused "job directory=/dev filename=${dev#/dev/}" "$dev" ext4 d.fio
[ ! -e "${dev#/dev/}" ] && ok "job directory=/dev: no ./${dev#/dev/} made" || fail "./${dev#/dev/} made"

# a mounted device: refused even with --destructive; a read-only run may read it. The filesystem is frozen
# (fsfreeze: its dirty data and journal written, no write until thawed) so that the sha256 checks see only what
# bench might write, not ext4's own updates of a mounted filesystem (a fresh-clone run saw the device change
# under a refusal that exited 3 before any fio ran).
mdev=$(attach mnt) && mkdir "$T/m" && mount "$mdev" "$T/m" && echo "$T/m" >>"$T/mounts" && fsfreeze -f "$T/m" && {
	refused "mounted $mdev with --destructive" "$mdev" "mounted on" w.fio --destructive --target "$mdev"
	grep -q "umount" err.txt && ok "mounted: says how to unmount" || fail "mounted: $(cat err.txt)"
	"$BENCH" run r.fio --db "$T/b.db" -q --target "$mdev" >out.txt 2>err.txt
	expect_eq "read-only run on mounted $mdev (err: $(head -c 300 err.txt))" "$?" 0
	# the file behind it: refused whatever the flags
	img="$T/mnt.img"
	refused "backing file, --overwrite-files" "$img" "$mdev" w.fio --overwrite-files --target "$img"
	grep -q "mounted on '$T/m'" err.txt && ok "backing file: names the mount point" || fail "backing: $(cat err.txt)"
	refused "backing file, --destructive" "$img" "$mdev" w.fio --destructive --target "$img"
	ln "$img" "$T/hardlink.img"
	refused "backing file by another name" "$T/hardlink.img" "$mdev" w.fio --overwrite-files --target "$T/hardlink.img"
	fsfreeze -u "$T/m"
}

# a target bigger than its filesystem: named as full, nothing left behind
mkdir "$T/small" && mount -t tmpfs -o size=8m tmpfs "$T/small" && echo "$T/small" >>"$T/mounts" && {
	write_lines big.fio '[global]' ioengine=psync rw=randwrite bs=4k size=64m runtime=1 time_based '[b]'
	"$BENCH" run big.fio --db "$T/b.db" --target "$T/small/t.dat" >out.txt 2>err.txt
	rc=$?
	[ "$rc" = 3 ] || [ "$rc" = 4 ] && ok "full filesystem: exit $rc" || fail "full filesystem: exit $rc: $(cat err.txt)"
	cat out.txt err.txt >all.txt
	grep -q "mounted on '$T/small' is full" all.txt && ok "full filesystem named" ||
		fail "full filesystem: message: $(cat all.txt)"
	[ ! -e "$T/small/t.dat" ] && ok "full filesystem: no partial file" || fail "partial file left"
}
finish
