#!/usr/bin/env bash
# lab_netns: `bench lab up 3 --netns` and `bench lab down` (issue 31, acceptance 1). The lab's 4 hosts (lab1..lab3
# and target) answer as fio servers with 4 distinct host names (their own UTS namespaces), over ssh with the
# lab's key, and by node_exporter; `bench hosts check` sees the 3 initiators and all 4 hosts' RTT_MS is under
# 5 ms (over it with the 1-minute load above the number of cores: the test ends skipped, exit 77, and says
# so after its other checks). After `lab down`, and after kill -9 of `lab up` half-way and a
# second `lab down`: no namespace (ip netns), veth or bridge (ip link), loop device over the lab's files
# (losetup -a), mount (/proc/mounts), process (pgrep) or file is left.
. "$BENCH_SRC/tests/lib/lab.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: the namespace lab needs root"; exit 77; }
for p in ip sshd ssh prometheus-node-exporter losetup; do
	command -v "$p" >/dev/null || [ -x "/usr/sbin/$p" ] || { echo "SKIP: $p is not installed (scripts/setup)"; exit 77; }
done
if ip link show bench-br0 >/dev/null 2>&1; then echo "SKIP: another namespace lab is up (bench-br0 exists)"; exit 77; fi
lab_scratch labns

check_clean() { # check_clean WHAT: nothing of the lab is left
	local what=$1
	[ -z "$(ip netns list | grep -E '^bench-(lab[0-9]+|target)( |$)')" ] || fail "$what: namespaces left: $(ip netns list)"
	! ip -o link | grep -qE ' (bench-br0|bl-lab[0-9]+|bl-target)[@:]' || fail "$what: links left: $(ip -o link | grep -E 'bench-br0|bl-')"
	! losetup -a | grep -qF "$LAB/" || fail "$what: loop devices left: $(losetup -a)"
	! grep -qE "$LAB|/run/netns/bench-" /proc/mounts || fail "$what: mounts left: $(grep -E "$LAB|netns" /proc/mounts)"
	! pgrep -f "$LAB/|198\.18\.0\." >/dev/null || fail "$what: processes left: $(pgrep -af "$LAB/|198\.18\.0\.")"
	[ ! -e "$LAB" ] || { find "$LAB"; fail "$what: $LAB left behind"; }
	echo "$what: no namespace, link, loop device, mount, process or file left"
}

# 1. up: 4 hosts, 4 names, roles, ssh, exporters
"$BENCH" lab up 3 --netns --dir "$LAB" --port "$PORT" --size 64m >"$T/up.out" 2>&1 || { cat "$T/up.out"; fail "lab up 3 --netns"; }
cat "$T/up.out"
[ "$(ip netns list | grep -c '^bench-')" = 4 ] || fail "want 4 namespaces: $(ip netns list)"
grep -q '^target 198.18.0.10:'"$PORT"' role=target ' "$LAB/hosts" || fail "hosts file: no target: $(cat "$LAB/hosts")"
[ "$(grep -c '^ *target=/dev/loop' "$LAB/hosts")" = 4 ] || fail "the target has not 4 loop devices: $(cat "$LAB/hosts")"
for i in 1 2 3; do
	grep -q "^lab$i 198.18.0.1$i:$PORT ssh=root ssh_key=$LAB/id_ed25519 ssh_known_hosts=$LAB/known_hosts" "$LAB/hosts" ||
		fail "hosts file lacks lab$i with its ssh: $(cat "$LAB/hosts")"
done
"$BENCH" lab status --dir "$LAB" >"$T/status.out" 2>&1 || { cat "$T/status.out"; fail "lab status"; }
cat "$T/status.out"
names=$(awk '$4 == "up" && $5 == "fio-3.33" { print $7 }' "$T/status.out" | sort -u | tr '\n' ' ')
[ "$names" = "lab1 lab2 lab3 target " ] || fail "want 4 fio servers named lab1 lab2 lab3 target, got '$names'"
[ "$(grep -c ' initiator ' "$T/status.out")" = 3 ] && [ "$(grep -c ' target target$' "$T/status.out")" = 1 ] ||
	fail "roles: $(cat "$T/status.out")"
for a in 10 11 12 13; do
	h=$(ssh -o BatchMode=yes -o ConnectTimeout=10 -i "$LAB/id_ed25519" -o IdentitiesOnly=yes \
		-o UserKnownHostsFile="$LAB/known_hosts" -o StrictHostKeyChecking=yes root@198.18.0.$a \
		'hostname; ip route | grep -c default; true' 2>&1) || fail "ssh to 198.18.0.$a: $h"
	[ "$(echo "$h" | sed -n 2p)" = 0 ] || fail "198.18.0.$a has a default route"
	curl -sf "http://198.18.0.$a:9100/metrics" | grep -q '^node_cpu_seconds_total' || fail "no node_exporter on 198.18.0.$a"
	echo "198.18.0.$a: ssh ok (hostname $(echo "$h" | head -1)), node_exporter ok, no default route"
done
! ssh -o BatchMode=yes -o ConnectTimeout=5 -o PubkeyAuthentication=no -o UserKnownHostsFile="$LAB/known_hosts" \
	-o StrictHostKeyChecking=yes root@198.18.0.11 true 2>/dev/null || fail "sshd let root in without the key"
timeout 120 "$BENCH" hosts check --hosts "$LAB/hosts" >"$T/check.out" 2>&1 || { cat "$T/check.out"; fail "hosts check"; }
cat "$T/check.out"
[ "$(grep -cE '^lab[123] .* initiator fio-3.33 +lab[123] .* ok$' "$T/check.out")" = 3 ] || fail "hosts check: 3 initiators with their names"
# RTT_MS (column 8) of the 4 hosts, the target's too: the network round trip (the kernel's measure of the probe
# connection's handshake); PROBE_MS (column 9) is the fio exchange with the server's fork in it
rtts=$(awk '/^(lab[0-9]|target) / && $4 == "fio-3.33" && / ok/ { printf "%s=%s ", $1, $8 }' "$T/check.out")
echo "RTT_MS (hosts check): $rtts; PROBE_MS: $(awk '/^(lab[0-9]|target) / && $4 == "fio-3.33" && / ok/ { printf "%s=%s ", $1, $9 }' "$T/check.out")"
[ "$(echo "$rtts" | wc -w)" = 4 ] || fail "want the RTT of 4 hosts, got '$rtts'"
rtt_over=$(echo "$rtts" | tr ' ' '\n' | awk -F= '$2 != "" && ($2 <= 0 || $2 >= 5)' | tr '\n' ' ')
if [ -n "$rtt_over" ]; then
	load=$(cut -d' ' -f1 /proc/loadavg)
	awk -v l="$load" -v n="$(nproc)" 'BEGIN {exit !(l > n)}' || fail "RTT_MS not in (0, 5) ms: $rtt_over (load $load)"
	RTT_SKIP="RTT_MS $rtt_over over 5 ms with the machine busy (load $load on $(nproc) cores)"
fi

# 2. down says what it stopped, and leaves nothing
"$BENCH" lab down --dir "$LAB" >"$T/down.out" 2>&1 || { cat "$T/down.out"; fail "lab down"; }
cat "$T/down.out"
grep -q '^lab down: 4 namespaces, 5 links, 4 loop devices, [01] mounts removed; 4 fio servers, 4 sshd, 4 node_exporters, 4 holders, ' "$T/down.out" ||
	fail "down's counts: $(cat "$T/down.out")"
check_clean "up/down"

# 3. kill -9 of `lab up` half-way (lab2's namespace made), then `lab down`
"$BENCH" lab up 3 --netns --dir "$LAB" --port "$PORT" --size 64m >"$T/up9.out" 2>&1 &
UP=$!
for _ in $(seq 200); do ip netns list | grep -q '^bench-lab2' && break; sleep 0.05; done
kill -9 $UP
wait $UP 2>/dev/null
ip netns list | grep -q '^bench-' || fail "kill -9 during up left no namespace: the case tests nothing"
[ ! -e "$LAB/hosts" ] || fail "an interrupted 'lab up' must not have written the hosts file"
echo "lab up killed with -9: $(ip netns list | grep -c '^bench-') namespaces, $(losetup -a | grep -cF "$LAB/") loop devices were left"
"$BENCH" lab down --dir "$LAB" >"$T/down9.out" 2>&1 || { cat "$T/down9.out"; fail "lab down after kill -9"; }
cat "$T/down9.out"
check_clean "kill -9 during up, then down"

# 4. the same, removed by the next `lab up`
"$BENCH" lab up 1 --netns --dir "$LAB" --port "$PORT" --size 64m >"$T/up9b.out" 2>&1 &
UP=$!
for _ in $(seq 200); do ip netns list | grep -q '^bench-lab1' && break; sleep 0.05; done
kill -9 $UP
wait $UP 2>/dev/null
"$BENCH" lab up 1 --netns --dir "$LAB" --port "$PORT" --size 64m >"$T/up2.out" 2>&1 || { cat "$T/up2.out"; fail "lab up after a killed up"; }
grep -q "^lab up: removing what an earlier 'lab up' left in $LAB" "$T/up2.out" || fail "up did not say it removed the left lab: $(cat "$T/up2.out")"
[ "$(ip netns list | grep -c '^bench-')" = 2 ] || fail "want 2 namespaces after up 1: $(ip netns list)"
"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1 || fail "last lab down"
check_clean "kill -9 during up, then up and down"

# 5. usage
"$BENCH" lab up 2 --link 1gbit --dir "$LAB" >"$T/u.out" 2>&1
[ $? = 2 ] && grep -q -- '--link .* needs --netns' "$T/u.out" || fail "--link without --netns: $(cat "$T/u.out")"
"$BENCH" lab up 2 --netns --link fast --dir "$LAB" >"$T/u.out" 2>&1
[ $? = 2 ] && grep -q -- "--link wants a rate .* got 'fast'" "$T/u.out" || fail "--link fast: $(cat "$T/u.out")"
if [ -n "${RTT_SKIP:-}" ]; then echo "SKIP: every other check passed; $RTT_SKIP"; exit 77; fi
echo "PASS"
