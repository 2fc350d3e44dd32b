#!/usr/bin/env bash
# lab_netns_link: `bench lab up 3 --netns --link RATE` shapes the links of the hosts bench measures (issue 31,
# acceptance 3). The target exports 1 GiB by nbdkit (memory plugin: no disk in the way) over plain nbd, started
# over the lab's ssh; `bench run` of a 256k sequential read (fio's nbd ioengine, iodepth 8) from all 3
# initiators through the hosts file. With --link 1gbit the run's MiB/s stays below the link rate and within
# 20 % of it (the target's own link carries what all initiators read); without --link it is well above (more
# than 1.5 times the rate; about 1100 MiB/s here).
. "$BENCH_SRC/tests/lib/lab.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: the namespace lab needs root"; exit 77; }
for p in ip nbdkit ssh prometheus-node-exporter; do
	command -v "$p" >/dev/null || { echo "SKIP: $p is not installed (scripts/setup)"; exit 77; }
done
[ -x /usr/sbin/sshd ] || { echo "SKIP: sshd is not installed (scripts/setup)"; exit 77; }
fio --enghelp=nbd >/dev/null 2>&1 || { echo "SKIP: this fio has no nbd ioengine"; exit 77; }
if ip link show bench-br0 >/dev/null 2>&1; then echo "SKIP: another namespace lab is up (bench-br0 exists)"; exit 77; fi
lab_scratch labnslink
RATE_MIB=119.21 # 1gbit = 1e9 / 8 / 1048576 MiB/s

cat >seqread.fio <<'JOB'
[global]
ioengine=nbd
uri=nbd://198.18.0.10:10809
rw=read
bs=256k
iodepth=8
time_based
runtime=3
[seqread-256k]
JOB

measure() { # measure [--link RATE]: lab up, nbdkit on the target over ssh, bench run, lab down; prints MiB/s
	"$BENCH" lab up 3 --netns "$@" --dir "$LAB" --port "$PORT" --size 16m >up.out 2>&1 || { cat up.out >&2; fail "lab up $*"; }
	ssh -o BatchMode=yes -o ConnectTimeout=10 -i "$LAB/id_ed25519" -o IdentitiesOnly=yes \
		-o UserKnownHostsFile="$LAB/known_hosts" -o StrictHostKeyChecking=yes root@198.18.0.10 \
		nbdkit --pidfile "$LAB/target/nbdkit.pid" --ipaddr 198.18.0.10 --port 10809 memory 1G >&2 ||
		fail "nbdkit on the target over ssh"
	rm -f bench.db*
	"$BENCH" run seqread.fio --hosts "$LAB/hosts" >run.out 2>&1 || { cat run.out >&2; fail "bench run $*"; }
	grep -q '^suite .* 1 runs, 1 done' run.out || { cat run.out >&2; fail "run not done"; }
	"$BENCH" lab down --dir "$LAB" >down.out 2>&1 || { cat down.out >&2; fail "lab down"; }
	! pgrep -f "$LAB/target/nbdkit.pid" >/dev/null || fail "lab down left the target's nbdkit running"
	sed -n 's/.*: done, [0-9]* IOPS, \([0-9.]*\) MiB\/s.*/\1/p' run.out
}

shaped=$(measure --link 1gbit)
echo "--link 1gbit ($RATE_MIB MiB/s): seqread 256k from 3 initiators: $shaped MiB/s"
awk -v m="$shaped" -v r="$RATE_MIB" 'BEGIN { exit !(m > 0.8 * r && m <= r * 1.0) }' ||
	fail "shaped: $shaped MiB/s is not within 20 % below the link rate $RATE_MIB"
free=$(measure)
echo "no --link: seqread 256k from 3 initiators: $free MiB/s"
awk -v m="$free" -v r="$RATE_MIB" 'BEGIN { exit !(m > 1.5 * r) }' ||
	fail "unshaped: $free MiB/s is not above 1.5 x $RATE_MIB: shaping shows nothing"
echo "PASS"
