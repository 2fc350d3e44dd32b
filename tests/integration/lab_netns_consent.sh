#!/usr/bin/env bash
# lab_netns_consent: the remote target probe over the namespace lab's ssh (issue 31, acceptance 5). On the lab's
# target host (its own namespace, reached only by ssh with the lab's key) one of its loop devices gets a btrfs
# (mkfs over ssh); a hosts file that names that device as the host's target= is refused by `bench hosts check`
# (exit 3) and by `bench run` (exit 3, nothing run) with the reason the local probe gives for the same device
# (`holds data: blkid found btrfs (filesystem) (needs --destructive)`); the host's other loop device, empty, is
# accepted `ok (probed over ssh)`.
. "$BENCH_SRC/tests/lib/lab.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: the namespace lab needs root"; exit 77; }
for p in ip ssh prometheus-node-exporter mkfs.btrfs; do
	command -v "$p" >/dev/null || { echo "SKIP: $p is not installed (scripts/setup)"; exit 77; }
done
[ -x /usr/sbin/sshd ] || { echo "SKIP: sshd is not installed (scripts/setup)"; exit 77; }
if ip link show bench-br0 >/dev/null 2>&1; then echo "SKIP: another namespace lab is up (bench-br0 exists)"; exit 77; fi
lab_scratch labnsconsent

"$BENCH" lab up 1 --netns --dir "$LAB" --port "$PORT" --size 128m >up.out 2>&1 || { cat up.out; fail "lab up 1 --netns"; }
mapfile -t devs < <(sed -n 's/^ *target=\(\/dev\/loop[0-9]*\)$/\1/p' "$LAB/hosts")
[ "${#devs[@]}" = 4 ] || fail "the target has not 4 loop devices: $(cat "$LAB/hosts")"
full=${devs[0]} empty=${devs[1]}
ssh -o BatchMode=yes -o ConnectTimeout=10 -i "$LAB/id_ed25519" -o IdentitiesOnly=yes -o UserKnownHostsFile="$LAB/known_hosts" \
	-o StrictHostKeyChecking=yes root@198.18.0.10 mkfs.btrfs -q -f "$full" >/dev/null 2>&1 || fail "mkfs.btrfs over ssh"
# the target host, as a host that runs fio on its own devices: its line with target= and its ssh
for d in "$full" "$empty"; do
	sed -n '/^target /p' "$LAB/hosts" | sed "s| role=target | target=$d |" >"hosts.${d##*/}"
done
printf '[r]\nrw=read\nbs=4k\nsize=1m\n' >r.fio

"$BENCH" hosts check --hosts "hosts.${full##*/}" >check.out 2>&1
rc=$?
cat check.out
[ $rc = 3 ] || fail "hosts check of a device with btrfs on the target host: exit $rc, want 3"
remote=$(sed -n "s/^target *$(echo "$full" | sed 's|/|\\/|g') refused: .* holds data: \(.*\)$/\1/p" check.out)
"$BENCH" run r.fio --hosts "hosts.${full##*/}" --db run.db >run.out 2>&1
rc=$?
[ $rc = 3 ] && grep -q "^bench: error: hosts.${full##*/}:1: target '$full' on host 'target' holds data: $remote" run.out ||
	{ cat run.out; fail "bench run on the target host's device with btrfs: exit $rc, want 3 and the probe's reason"; }
! grep -q '^\[1/1\]' run.out || fail "bench run started a run on a refused target"
# the same device probed here (loop devices are this machine's): the same reason
"$BENCH" run r.fio --target "$full" --db local.db >local.out 2>&1
local_reason=$(sed -n "s/.*target '$(echo "$full" | sed 's|/|\\/|g')' holds data: \([^)]*)[^)]*)\).*/\1/p" local.out | head -1)
echo "remote: $remote"
echo "local:  $local_reason"
[ -n "$remote" ] && [ "$remote" = "$local_reason" ] || fail "the remote reason '$remote' is not the local one '$local_reason'"
[ "$remote" = "blkid found btrfs (filesystem) (needs --destructive)" ] || fail "unexpected reason '$remote'"

"$BENCH" hosts check --hosts "hosts.${empty##*/}" >ok.out 2>&1 || { cat ok.out; fail "hosts check of the empty device"; }
grep -q "^target *$empty ok (probed over ssh)$" ok.out || fail "empty device: $(cat ok.out)"
echo "PASS"
