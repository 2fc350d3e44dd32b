#!/usr/bin/env bash
# recipes_golden: the exact commands of the recipes that cannot run on the test machines (md, dm, ZFS, nvmet
# and LIO are absent from its kernel, SPDK is not installed), compared with commands written from each tool's
# manual page (mdadm(8), lvcreate(8)/lvs(8)/pvcreate(8), zpool-create(8)/zfs-create(8), nvme-connect(1),
# targetcli(8), iscsiadm(8), start-stop-daemon(8); SPDK: doc/nvmf.md "Using RPCs" and scripts/rpc.py's
# arguments): tests/data/recipes/*.golden. Also: `bench plan` of the built-in study shows them (its NVMe-oF
# side is SPDK's nvmf_tgt), and bad parameters fail.
. "$BENCH_SRC/tests/lib/common.sh"
G="$BENCH_SRC/tests/data/recipes"
D=/dev/nvme0n1,/dev/nvme1n1,/dev/nvme2n1,/dev/nvme3n1
golden() { # golden NAME FILE ARGS...
	local name=$1 file=$2
	shift 2
	if "$BENCH" recipes show "$name" "$@" >got.txt 2>err.txt && diff -u "$G/$file.golden" got.txt >diff.txt; then
		ok "$file: the commands of its manual page"
	else
		fail "$file: $(cat err.txt diff.txt)"
	fi
}
for r in mdadm-raid0 mdadm-raid5 mdadm-raid6 mdadm-raid10 lvm-raid0 lvm-raid5; do golden $r $r devices=$D; done
for r in zfs-stripe zfs-raidz zfs-raidz2; do
	golden $r $r devices=$D
	golden $r $r-dataset-nochecksum devices=$D kind=dataset checksum=off
done
for r in nvmet-tcp nvmet-rdma; do golden $r $r device=/dev/md/bench target=/dev/nvme4n1 addr=127.0.130.1 initiator=client1; done
for r in lio-iscsi lio-iser; do golden $r $r device=/dev/md/bench target=/dev/sdb addr=127.0.130.1 initiator=client1; done
for r in spdk-nvmf-rdma spdk-nvmf-tcp; do
	golden $r $r device=/dev/md/bench target=/dev/nvme4n1 addr=127.0.130.1 initiator=client1
	golden $r $r-hugepages device=/dev/md/bench target=/dev/nvme4n1 addr=127.0.130.1 hugepages=1024 \
		nvmf_tgt=/opt/spdk/build/bin/nvmf_tgt rpc=/opt/spdk/scripts/rpc.py cpumask=0xF
done

# every recipe of the library is listed and readable
n=$("$BENCH" recipes list | grep -vc unreadable)
expect_eq "recipes listed" "$n" "$(ls "$BENCH_SRC"/profiles/library/recipes/*.recipe | wc -l)"

# parameters: unknown, missing, bad count
"$BENCH" recipes show mdadm-raid5 devices=$D colour=red >/dev/null 2>err.txt
expect_eq "unknown parameter: exit" "$?" 3
grep -q "has no parameter 'colour' (parameters: devices md chunk assume_clean)" err.txt && ok "unknown parameter named" || fail "$(cat err.txt)"
"$BENCH" recipes show lvm-raid5 >/dev/null 2>&1
expect_eq "templates without parameters: exit" "$?" 0
"$BENCH" recipes show lvm-raid5 vg=x >/dev/null 2>err.txt
expect_eq "missing parameter: exit" "$?" 3
grep -q "recipe 'lvm-raid5' needs devices=" err.txt && ok "missing parameter named" || fail "$(cat err.txt)"
"$BENCH" recipes show no-such-recipe >/dev/null 2>err.txt
expect_eq "unknown recipe: exit" "$?" 3

# the study: 12 configurations, each with its stack and transport commands, in bench plan
plan_runs study 108 nvmeof-vs-iser-study
expect_eq "study: configurations" "$(grep -c '^configuration ' plan.txt)" 12
grep -q "^  setup     \[300s\] mdadm --create /dev/md/bench --run --assume-clean --level=5 --raid-devices=8 " plan.txt && ok "plan shows mdadm" || fail "no mdadm --create in the plan"
grep -q "^  setup     local \[300s\] nvme connect --transport=rdma --traddr=192.0.2.1 --trsvcid=4420 --nqn=nqn.2026-12.io.bench:spdk" plan.txt && ok "plan shows nvme connect" || fail "no nvme connect"
# the NVMe-oF side is SPDK's nvmf_tgt (the article's target), on each of the 6 NVMe-oF configurations
expect_eq "plan: nvmf_tgt started" "$(grep -c '^  setup     \[300s\] start-stop-daemon --start --background .* --exec /usr/local/bin/nvmf_tgt -- -m 0x1 -r /var/tmp/bench-spdk.sock --no-pci$' plan.txt)" 6
expect_eq "plan: aio bdev over the md stripe" "$(grep -c '^  setup     \[300s\] /usr/libexec/spdk/scripts/rpc.py -s /var/tmp/bench-spdk.sock bdev_aio_create /dev/md/bench bench0$' plan.txt)" 2
expect_eq "plan: rdma listener" "$(grep -c '^  setup     \[300s\] /usr/libexec/spdk/scripts/rpc.py -s /var/tmp/bench-spdk.sock nvmf_subsystem_add_listener nqn.2026-12.io.bench:spdk -t rdma -a 192.0.2.1 -s 4420 -f ipv4$' plan.txt)" 6
expect_eq "plan: nvmf_tgt stopped" "$(grep -c '^  teardown  \[300s\] start-stop-daemon --stop --pidfile /run/bench-spdk-nvmf_tgt.pid --exec /usr/local/bin/nvmf_tgt --retry TERM/30/KILL/5 --remove-pidfile$' plan.txt)" 6
grep -q 'nvmet' plan.txt && fail "the study still uses nvmet" || ok "no nvmet step in the study"
grep -q "^  setup     local \[300s\] iscsiadm --mode node --targetname iqn.2026-12.io.bench:study --portal 192.0.2.1:3260 --interface iser --login" plan.txt && ok "plan shows the iSER login" || fail "no iscsiadm login"
grep -q "^  teardown  \[300s\] zpool destroy -f benchpool" plan.txt && ok "plan shows zpool destroy" || fail "no zpool destroy"
"$BENCH" plan nvmeof-vs-iser-study --format json >plan.json
expect_eq "json: configurations" "$(python3 -c 'import json,sys; d=json.load(open("plan.json")); print(len(d["configurations"]), d["configurations"][0]["setup"][0]["argv"][:2], d["runs"][9]["labels"]["config"])')" "12 ['mdadm', '--create'] mdadm-raid0-iser"
finish
