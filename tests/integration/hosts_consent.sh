#!/usr/bin/env bash
# hosts_consent: remote targets are checked as local ones are, or refused (issue 26, hosts side).
# "Remote" devices here are this machine's own loop devices over the test's own sparse images, reached through
# a lab of fio servers on 127.0.0.11/12 and an sshd this test starts on 127.0.0.1:RANDOM with a key pair and
# known_hosts file it makes (ssh=root ssh_port= ssh_key= ssh_known_hosts= on the host line).
#  - with ssh: a device with ext4 or a DOS partition table, named as /dev/loopN, //dev/loopN, /./dev/loopN,
#    /tmp/../dev/loopN, a symlink, or a device node made with mknod outside /dev, is refused by `bench hosts
#    check` and by `bench run --hosts` (exit 3, one error line), and the device's sha256 is unchanged; an
#    existing file bench did not create is refused; a file under workdir= is accepted;
#  - without ssh: the same paths are refused with "no ssh access to host 'lab1' to probe ...", a canonical
#    path under workdir= is accepted, and `bench hosts check` prints the decision per target;
#  - a hosts file with address 999.1.1.1 is refused with file:line (exit 3), not looked up.
. "$BENCH_SRC/tests/lib/lab.sh"
needed fio losetup mkfs.ext4 ssh ssh-keygen python3 sha256sum
[ -x /usr/sbin/sshd ] || { echo "SKIP: /usr/sbin/sshd is not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, sshd)"; exit 77; }
lab_scratch hosts-consent
SSHD_PID= MADE_RUN_SSHD=
cleanup() {
	[ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null
	"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1
	[ -f "$T/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/loops"
	[ -n "$MADE_RUN_SSHD" ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

attach() { # attach IMAGE: prints the loop device, remembered for cleanup in a file (attach runs in $(...))
	local l
	l=$(losetup -f --show "$1") || fail "losetup $1"
	echo "$l" >>"$T/loops"
	echo "$l"
}
truncate -s 64M "$T/ext4.img" && mkfs.ext4 -q -F "$T/ext4.img" || fail "mkfs.ext4"
truncate -s 16M "$T/dos.img"
python3 - "$T/dos.img" <<'PY' || fail "dos table"
import struct, sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(446)
    f.write(struct.pack('<B3sB3sII', 0, b'\0\0\0', 0x83, b'\0\0\0', 2048, 8192))
    f.seek(510)
    f.write(b'\x55\xaa')
PY
EXT4=$(attach "$T/ext4.img")
LOOPS_TMP=$(attach "$T/dos.img")
DOS=$LOOPS_TMP
blkid -p "$EXT4" | grep -q ext4 || fail "no ext4 on $EXT4"
blkid -p "$DOS" | grep -q 'PTTYPE="dos"' || fail "no dos table on $DOS: $(blkid -p "$DOS")"
SUM_EXT4=$(sha256sum <"$EXT4") SUM_DOS=$(sha256sum <"$DOS")
mkdir -p "$T/wd" "$T/nodes"
ln -s "$EXT4" "$T/nodes/link"
mknod "$T/nodes/node" b $(stat -c '%t %T' "$EXT4" | while read -r a b; do echo $((0x$a)) $((0x$b)); done)
printf 'keep me\n' >"$T/precious.txt"
truncate -s 1M "$T/wd/t.dat"

# the sshd: own host key, client key, authorized_keys and known_hosts in $T
ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$T/id" || fail "ssh-keygen"
cp "$T/id.pub" "$T/authorized_keys"
SSH_PORT=$((32000 + RANDOM % 20000))
cat >"$T/sshd.conf" <<CONF
ListenAddress 127.0.0.1
ListenAddress 127.0.0.11
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
PidFile $T/sshd.pid
CONF
[ -d /run/sshd ] || { mkdir -m 755 /run/sshd && MADE_RUN_SSHD=1; }
/usr/sbin/sshd -D -f "$T/sshd.conf" -p "$SSH_PORT" -E "$T/sshd.log" &
SSHD_PID=$!
echo "[127.0.0.11]:$SSH_PORT $(cut -d' ' -f1,2 "$T/hostkey.pub")" >"$T/known_hosts"
SSH="ssh=root ssh_port=$SSH_PORT ssh_key=$T/id ssh_known_hosts=$T/known_hosts"
for _ in $(seq 50); do
	ssh -o BatchMode=yes -p "$SSH_PORT" -i "$T/id" -o IdentitiesOnly=yes -o UserKnownHostsFile="$T/known_hosts" \
		-o StrictHostKeyChecking=yes root@127.0.0.11 true 2>/dev/null && break
	sleep 0.2
done
ssh -o BatchMode=yes -p "$SSH_PORT" -i "$T/id" -o IdentitiesOnly=yes -o UserKnownHostsFile="$T/known_hosts" \
	-o StrictHostKeyChecking=yes root@127.0.0.11 true || fail "sshd does not let the test in: $(cat "$T/sshd.log")"

"$BENCH" lab up 2 --dir "$LAB" --port "$PORT" --size 8m >"$T/up.out" 2>&1 || { cat "$T/up.out"; fail "lab up 2"; }
printf '[w]\nrw=write\nbs=4k\nsize=1m\n' >"$T/w.fio"

hosts() { # hosts FILE OPTIONS...: lab1 with the given options, on the lab's first fio server
	local f=$1; shift
	echo "lab1 127.0.0.11:$PORT $*" >"$f"
}
unchanged() {
	[ "$(sha256sum <"$EXT4")" = "$SUM_EXT4" ] || fail "$1: $EXT4 was written"
	[ "$(sha256sum <"$DOS")" = "$SUM_DOS" ] || fail "$1: $DOS was written"
}
refused() { # refused WHAT PATTERN COMMAND...: exit 3, one error line matching PATTERN
	local what=$1 pat=$2 rc; shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 3 ] || { cat "$T/out" "$T/err"; fail "$what: exit $rc, want 3"; }
	# one error line, the last (bench run prints the hosts table to stderr before it)
	[ "$(grep -c '^bench: error: ' "$T/err")" = 1 ] || fail "$what: not one error line: $(cat "$T/err")"
	tail -n 1 "$T/err" | grep -q "^bench: error: $pat" || fail "$what: error: $(cat "$T/err")"
	unchanged "$what"
	echo "ok: $what: $(tail -n 1 "$T/err")"
}

L=${EXT4#/dev/}
SPELLINGS=("$EXT4" "/$EXT4" "/./dev/$L" "/tmp/../dev/$L" "$T/nodes/link" "$T/nodes/node" "$DOS")
# 1. with ssh: every spelling is probed on the host and refused as a local path is
for p in "${SPELLINGS[@]}"; do
	hosts "$T/h.txt" "$SSH target=$p workdir=$T/wd"
	refused "ssh, hosts check '$p'" "$T/h.txt:1: target '$p'.* on host 'lab1' holds data" \
		"$BENCH" hosts check --hosts "$T/h.txt"
	refused "ssh, run '$p'" "$T/h.txt:1: target '$p'.* on host 'lab1' holds data" \
		"$BENCH" run "$T/w.fio" --hosts "$T/h.txt" --db "$T/b.db" --quiet
done
# a host line without target=: --target is checked on that host (bench hosts check --target)
hosts "$T/h.txt" "$SSH workdir=$T/wd"
refused "ssh, hosts check --target" "$T/h.txt:1: target '$EXT4' on host 'lab1' holds data" \
	"$BENCH" hosts check --hosts "$T/h.txt" --target "$EXT4"
# the same through bench run (its preflight probes every path fio will open on each host)
refused "ssh, run --target" ".*target '$EXT4' on host 'lab1' holds data" \
	"$BENCH" run "$T/w.fio" --hosts "$T/h.txt" --target "$EXT4" --db "$T/b.db" --quiet
refused "ssh, run --engine-opt filename=" ".*target '$EXT4' on host 'lab1' holds data" \
	"$BENCH" run "$T/w.fio" --hosts "$T/h.txt" --engine-opt "filename=$EXT4" --db "$T/b.db" --quiet
# an existing file bench did not create
hosts "$T/h.txt" "$SSH target=$T/precious.txt"
refused "ssh, existing file" "$T/h.txt:1: target '$T/precious.txt' on host 'lab1' is an existing file that bench did not create" \
	"$BENCH" hosts check --hosts "$T/h.txt"
[ "$(cat "$T/precious.txt")" = "keep me" ] || fail "precious.txt changed"
# a file under workdir= (bench's, by the workdir substitute of the mark): accepted after the probe
hosts "$T/h.txt" "$SSH target=$T/wd/t.dat workdir=$T/wd"
"$BENCH" hosts check --hosts "$T/h.txt" >"$T/out" 2>&1 || { cat "$T/out"; fail "ssh, file under workdir= refused"; }
grep -q "^lab1 .*$T/wd/t.dat ok (probed over ssh)" "$T/out" || fail "ssh decision line: $(cat "$T/out")"
echo "ok: ssh, file under workdir= accepted"

# 2. without ssh: refused with the reason, whatever the spelling; a canonical path under workdir= accepted
for p in "${SPELLINGS[@]}" "$T/wd/../nodes/node" "$T/wd//t.dat" "$T/wd/./t.dat"; do
	hosts "$T/h.txt" "target=$p workdir=$T/wd"
	refused "no ssh, hosts check '$p'" "$T/h.txt:1: no ssh access to host 'lab1' to probe '$p'" \
		"$BENCH" hosts check --hosts "$T/h.txt"
done
hosts "$T/h.txt" "target=$EXT4"
refused "no ssh, run" "$T/h.txt:1: no ssh access to host 'lab1' to probe '$EXT4'" \
	"$BENCH" run "$T/w.fio" --hosts "$T/h.txt" --db "$T/b.db" --quiet
hosts "$T/h.txt" "target=$T/wd/t.dat workdir=$T/wd"
"$BENCH" hosts check --hosts "$T/h.txt" >"$T/out" 2>&1 || { cat "$T/out"; fail "no ssh, file under workdir= refused"; }
grep -q "^lab1 .*$T/wd/t.dat ok (below workdir=$T/wd; not probed: no ssh access)" "$T/out" ||
	fail "no ssh decision line: $(cat "$T/out")"
echo "ok: no ssh, canonical path under workdir= accepted"

# 3. an address that is not an IP address but looks like one
echo "bad 999.1.1.1 target=$T/wd/t.dat" >"$T/h.txt"
refused "address 999.1.1.1" "$T/h.txt:1: bad address '999.1.1.1': not a valid IPv4 address" \
	"$BENCH" hosts check --hosts "$T/h.txt"
unchanged "end"
echo "PASS"
