#!/usr/bin/env bash
# method_precondition: the SNIA preconditioning sequence and steady state on a sim target with a write cliff
# (issue 15, acceptance 3; docs/method.md "Preconditioning", docs/sim.md "Wear").
#
# The target: 8 units x 2 ms fixed, 4k random writes at iodepth 8 (fresh: U / S = 4,000 IOPS), working set 16 MiB,
# sim_cliff=2x (writes slow down by sim_cliff_factor=3 once 2 x 16 MiB were written since the last purge).
# Rounds of 1 s (--round-time 1s). The prediction, from those parameters:
#   bytes a fresh round writes  R = U / S x 1 s x 4 KiB
#   bytes before the cliff      C = 2 x working set - bytes written before the rounds
#   rounds touched by the fast regime  c = ceil(C / R) (0 when C <= 0)
#   steady state (window W = 5, range 20 %: a window must hold no fast round) at round max(W, c + W)
#   A. purge only (a configuration with precondition.wipc = 0): C = 32 MiB, the first rounds are fast
#      (each within 15 % below / 5 % above 4,000 IOPS), steady state at round c + W.
#   B. the SNIA sequence (--precondition: purge, wipc of 2 x the working set): C = 0, every round past the cliff,
#      steady state at round W.
# Asserted from the store: rounds stored with ss_round=N and phase=precondition, the round that decides labelled
# steady_state=reached:N, the measured run labelled steady_state=reached:N and ss.window_iops; N = the prediction
# +- 1. The machine's load only slows rounds; a slower fresh round writes less, so c is computed from the
# stored fresh rounds' IOPS too, and both predictions must agree with the result.
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
[ -f "$BENCH_BUILD/engines/sim/bench_sim.so" ] || { echo "method_precondition: no sim engine (-DBENCH_SIM=OFF): nothing to test (skipped)"; exit 77; }
units=8 lat_ms=2 ws_mib=16 cliff_x=2 factor=3 bs=4096 round_s=1 window=5
cat >cliff.fio <<EOF
[w]
rw=randwrite
bs=$bs
iodepth=8
size=${ws_mib}m
runtime=1
time_based
EOF
sim=(--engine sim --engine-opt sim_units=$units --engine-opt sim_lat=${lat_ms}ms --engine-opt sim_dist=fixed
  --engine-opt sim_cliff=${cliff_x}x --engine-opt sim_cliff_factor=$factor --no-collectors
  --round-time ${round_s}s --max-rounds 12)
cat >purge-only.suite <<EOF
[suite]
name = purge-only
engine = sim
profile = cliff.fio
[config purge-only]
precondition.enable = on
precondition.wipc = 0
EOF

# rounds DB: "round iops steady_state ss.window_iops" per stored round, in order
rounds() {
  q "$1" "SELECT (SELECT value FROM run_label WHERE run_id = r.id AND key = 'ss_round'),
             (SELECT iops FROM result WHERE run_id = r.id AND host = '*' AND job = '*' AND ddir = 'total'),
             IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'steady_state'), '-'),
             IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'ss.window_iops'), '-')
           FROM run r WHERE r.status = 'done' AND EXISTS (SELECT 1 FROM run_label WHERE run_id = r.id AND key = 'ss_round'
             AND r.id IN (SELECT run_id FROM run_label WHERE key = 'phase' AND value = 'precondition')) ORDER BY r.seq"
}
measured() { # the measured run's labels
  q "$1" "SELECT IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'steady_state'), '-') || ' ' ||
                 IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'ss.window_iops'), '-')
           FROM run r WHERE r.status = 'done' AND r.name = 'w'"
}
# predict BYTES_BEFORE [FRESH_IOPS]: the round steady state is reached at
predict() {
  python3 -c '
import math, sys
units, lat_ms, ws, cx, bs, rs, w, before = map(float, sys.argv[1:9])
fresh = float(sys.argv[9]) if len(sys.argv) > 9 else units / (lat_ms / 1000)
C = cx * ws * 1048576 - before
c = math.ceil(C / (fresh * rs * bs)) if C > 0 else 0
print(int(max(w, c + w)))' $units $lat_ms $ws_mib $cliff_x $bs $round_s $window "$@"
}
check_case() { # check_case NAME DB PREDICTION...
  local name=$1 db=$2 got ok_any=0
  shift 2
  rounds "$db" | while IFS='|' read -r k iops ss avg; do echo "  $name round $k: $iops IOPS $ss $avg"; done
  got=$(rounds "$db" | awk -F'|' '$3 ~ /^reached:/ {sub("reached:", "", $3); print $3}')
  for want in "$@"; do
    [ -n "$got" ] && [ $((got - want)) -ge -1 ] && [ $((got - want)) -le 1 ] && ok_any=1
  done
  [ "$ok_any" = 1 ] && ok "$name: steady state reached at round $got (model: $*, +-1)" ||
    fail "$name: steady state at round '${got}', the model says $* (+-1)"
  expect_eq "$name: the measured run carries it" "$(measured "$db" | cut -d' ' -f1)" "reached:$got"
  [ "$(measured "$db" | cut -d' ' -f2)" = "$(rounds "$db" | awk -F'|' '$3 != "-" {print $4}')" ] &&
    ok "$name: ss.window_iops of the measured run is the deciding window's average" ||
    fail "$name: ss.window_iops differs: $(measured "$db") vs the round's"
}

# run_case DB PREDICTION NEED_FAST ARGS...: runs; a stall of this shared machine only slows rounds and delays
# steady state (a slow round breaks a window), so a result later than the prediction + 1, or (NEED_FAST) a slow
# round 1, is run again, up to three times in all.
run_case() { # ... NEED_FAST (1: round 1 must be fast too; a stalled round 1 is slow) ARGS...
  local db=$1 pred=$2 need_fast=$3 got first
  shift 3
  for attempt in 1 2 3; do
    rm -f "$db" "$T"/a.dat "$T"/b.dat
    "$BENCH" run --db "$db" "$@" "${sim[@]}" 2>"${db%.db}.err" || { cat "${db%.db}.err"; fail "$db: bench run"; return 0; }
    got=$(rounds "$db" | awk -F'|' '$3 ~ /^reached:/ {sub("reached:", "", $3); print $3}')
    first=$(rounds "$db" | head -1 | cut -d'|' -f2)
    [ "$need_fast" = 1 ] && ! python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 2 * $units / ($lat_ms / 1000) / $factor else 1)" \
      "${first:-0}" && got=stalled
    [ -n "$got" ] && [ "$got" != stalled ] && [ "$got" -le $((pred + 1)) ] && return 0
    [ "$attempt" -lt 3 ] && echo "($db: steady state at round ${got:-none}, later than $pred + 1: a stall? attempt $((attempt + 1)))"
  done
}

# A. purge only: the first rounds are fast
run_case a.db "$(predict 0)" 1 purge-only.suite --target "$T/a.dat"
fresh=$(python3 -c "print($units / ($lat_ms / 1000))")
first=$(rounds a.db | head -1 | cut -d'|' -f2)
# fast: at most 5 % above the fresh model, and more than twice the rate past the cliff (a busy machine slows it)
python3 -c "import sys; g, w, f = map(float, sys.argv[1:]); sys.exit(0 if 2 * w / f < g <= w * 1.05 else 1)" \
  "${first:-0}" "$fresh" "$factor" && ok "purge only: round 1 is fast: $first IOPS (fresh $fresh)" ||
  fail "purge only: round 1 at ${first:-?} IOPS, fresh is $fresh"
last=$(rounds a.db | tail -1 | cut -d'|' -f2)
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) / 2 else 1)" "${last:-0}" "$fresh" &&
  ok "purge only: the last round is past the cliff: $last IOPS" || fail "purge only: last round ${last:-?} IOPS"
check_case "purge only" a.db "$(predict 0)" "$(predict 0 "${first:-$fresh}")"
grep -q "precondition wdpc round 1 of at most 12" a.err && ok "progress lines on stderr" || fail "no round progress on stderr"
grep -q "ETA at most" a.err && ok "ETA on stderr" || fail "no ETA on stderr"

# B. the SNIA sequence: purge, wipc (2 x working set), rounds
"$BENCH" plan cliff.fio --target "$T/b.dat" --precondition "${sim[@]:0:12}" --round-time 1s --max-rounds 12 >plan.txt
grep -q "precondition wipc (random-write): $((2 * ws_mib * 1048576)) bytes" plan.txt && ok "plan shows the wipc" ||
  fail "plan: no wipc of 2 x the working set: $(cat plan.txt)"
run_case b.db "$(predict $((2 * ws_mib * 1048576)))" 0 cliff.fio --target "$T/b.dat" --precondition
expect_eq "snia: phases stored, in order" "$(q b.db "SELECT l.value FROM run r JOIN run_label l ON l.run_id = r.id
  AND l.key = 'precondition' ORDER BY r.seq" | uniq | paste -sd,)" "purge,wipc,wdpc"
expect_eq "snia: every phase labelled phase=precondition" "$(q b.db "SELECT COUNT(*) FROM run_label l
  WHERE l.key = 'precondition' AND NOT EXISTS (SELECT 1 FROM run_label p WHERE p.run_id = l.run_id
  AND p.key = 'phase' AND p.value = 'precondition')")" 0
check_case "snia" b.db "$(predict $((2 * ws_mib * 1048576)))"
finish
