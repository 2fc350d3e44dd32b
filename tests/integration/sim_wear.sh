#!/usr/bin/env bash
# sim_wear: the sim engine's write cliff and drift (docs/sim.md "Wear") under real fio. Rounds of a 4k random
# write job on one sim target (8 units x 2 ms fixed, iodepth 8: 4,000 IOPS fresh), each round writing exactly
# the target's size (io_size = size = 16 MiB): with sim_cliff=2x and factor 3, rounds 1-2 run at 4,000 IOPS
# and rounds 3-4 at 4,000 / 3 = 1,333; recreating the target file (a purge) and sim_purge=1 make it fast again. The drift
# (sim_drift=5 % per GiB, 1 MiB writes, 4 GiB per round) makes round k run at 8,000 / (1 + 0.2 (k - 0.5)).
# The device time is 2 ms so that a busy machine's scheduling noise stays small; rates may be up to 15 % low
# (a stalled machine is slower, never faster) and 5 % high; the round 4 / round 1 ratio is held to 10 %.
set -euo pipefail

. "$BENCH_SRC/tests/lib/sim.sh"
sim_required sim_wear

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
target=$tmp/target
# fio at a higher CPU priority where allowed (as sim_known_answers.sh): other load only slows rates down.
prio=""
nice -n -5 true 2>/dev/null && prio="nice -n -5"

# round NAME OPTIONS...: one fio run of a write job on $target; prints its write IOPS.
round() {
  local name=$1
  shift
  sim_fio "$tmp" "$name" "filename=$target" rw=randwrite iodepth=8 sim_units=8 sim_lat=2ms "$@"
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["write"]["iops"])' "$tmp/$name.json"
}

# check WHAT GOT WANT TOL_PCT [rate]: passes when |GOT - WANT| <= TOL_PCT% of WANT. For a rate, a stalled
# machine only makes it lower: up to 15 % low is accepted (and said), never more than TOL_PCT high.
check() {
  local lo=$4
  [ "${5:-}" = rate ] && lo=15
  if python3 -c "import sys; g,w,t,l=map(float,sys.argv[1:]); sys.exit(0 if w*(1-l/100) <= g <= w*(1+t/100) else 1)" \
    "$2" "$3" "$4" "$lo"; then
    printf 'ok   %-52s %10.3f (want %.3f -%s%%/+%s%%)\n' "$1" "$2" "$3" "$lo" "$4"
  else
    printf 'FAIL %-52s %10.3f (want %.3f -%s%%/+%s%%)\n' "$1" "$2" "$3" "$lo" "$4"
    failures=$((failures + 1))
  fi
}

cliff=(size=16m io_size=16m bs=4k sim_cliff=2x sim_cliff_factor=3)
fast=4000
slow=$(python3 -c "print(4000/3)")
for k in 1 2 3 4; do
  want=$fast
  [ "$k" -ge 3 ] && want=$slow
  check "cliff after 2x size: round $k IOPS" "$(round "c$k" "${cliff[@]}")" "$want" 5 rate
done
# The state is the target file: 4 rounds of 32 MiB were counted.
written=$(od -A n -t u8 -j 24 -N 8 "$target" | tr -d ' ')
check "wear state: bytes counted since the purge" "$written" $((4 * 16 * 1048576)) 0
# A purge: the target file recreated.
: >"$target"
check "after recreating the target: round 1 IOPS" "$(round p1 "${cliff[@]}")" "$fast" 5 rate
round p2 "${cliff[@]}" >/dev/null
check "... and past the cliff again: round 3 IOPS" "$(round p3 "${cliff[@]}")" "$slow" 5 rate
check "sim_purge=1: fast again" "$(round p4 "${cliff[@]}" sim_purge=1)" "$fast" 5 rate

# raid0 over 2 members: Nx is per member (size / 2 each), and fio's random map writes every block once per
# round, so each member gets 8 MiB per round and passes 2 x 8 MiB after round 2, as without a layout.
rm -f "$target"
for k in 1 2 3; do
  want=$fast
  [ "$k" -ge 3 ] && want=$slow
  check "raid0 x2, cliff 2x: round $k IOPS" "$(round "r$k" "${cliff[@]}" sim_raid=raid0 sim_members=2)" "$want" 5 rate
done

# numjobs=2 share the count (one state file): each job writes half the size per round (io_size 8m), each has
# its own modelled units (group total 2 x 4,000 fresh, 2 x 1,333 past the cliff).
rm -f "$target"
for k in 1 2 3; do
  want=$((2 * fast))
  [ "$k" -ge 3 ] && want=$(python3 -c "print(2 * $slow)")
  check "numjobs=2 share the count: round $k IOPS" \
    "$(round "n$k" size=16m io_size=8m bs=4k sim_cliff=2x numjobs=2 group_reporting=1)" "$want" 5 rate
done

# Drift: 1600 % of device time per GiB written, 16 MiB (1/64 GiB) per round.
rm -f "$target"
declare -a drift
for k in 1 2 3 4; do
  want=$(python3 -c "print(4000 / (1 + 0.25 * ($k - 0.5)))")
  drift[$k]=$(round "d$k" size=16m io_size=16m bs=4k sim_drift=1600)
  check "drift 1600%/GiB: round $k IOPS" "${drift[$k]}" "$want" 5 rate
done
check "drift: round 4 / round 1 IOPS" "$(python3 -c "print(${drift[4]} / ${drift[1]})")" 0.6 10

# A filename that holds other data is never used as wear state.
printf 'precious data\n' >"$tmp/data"
printf '[bad]\nioengine=external:%s\nfilename=%s\nsize=1m\nrw=write\nsim_cliff=1x\n' "$SO" "$tmp/data" >"$tmp/bad.fio"
if fio --eta=never "$tmp/bad.fio" >"$tmp/bad.out" 2>&1; then
  echo "FAIL: the engine used a data file as its wear state"; failures=$((failures + 1))
elif ! grep -q "is not a wear state file" "$tmp/bad.out" || [ "$(cat "$tmp/data")" != "precious data" ]; then
  echo "FAIL: no clear message, or the data file changed:"; cat "$tmp/bad.out"; failures=$((failures + 1))
else
  echo "ok   data file refused: $(grep -m1 'sim:' "$tmp/bad.out")"
fi
printf '[bad2]\nioengine=external:%s\nfilename=%s/x\nsize=1m\nrw=write\nsim_cliff=lots\n' "$SO" "$tmp" >"$tmp/bad2.fio"
if fio --eta=never "$tmp/bad2.fio" >"$tmp/bad2.out" 2>&1 || ! grep -q "sim_cliff must be a size" "$tmp/bad2.out"; then
  echo "FAIL: sim_cliff=lots not refused clearly:"; cat "$tmp/bad2.out"; failures=$((failures + 1))
else
  echo "ok   bad option refused: $(grep -m1 'sim:' "$tmp/bad2.out")"
fi

echo "sim_wear: $failures failed"
[ "$failures" -eq 0 ]
