#!/usr/bin/env bash
# method_sweep: sweeps to a limit (issue 15, acceptance 2; docs/method.md "Sweeps to a limit"). Asserted from the
# store, for each sweep: the points are stored in order; the last stored point is the first whose stored p99
# (worse of read and write, '*' host and job) passes the limit, and only it carries sweep.stop=EXPR; no point
# after it is stored; when no point passes, every point is stored and none carries sweep.stop.
#  1. the issue's sweep: sim 8 units x 100 us fixed, --sweep iodepth=1,2,...,128 --until 'p99>1ms'. The model's
#     latency is max(S, q S / U), so p99 passes 1 ms at iodepth 128 (1.6 ms; 64 gives 0.8 ms); on a shared
#     machine scheduling stalls of a millisecond put the p99 of a 100 us device past 1 ms much earlier, so where it
#     stops is checked against the stored figures, not the model.
#  2. the same sweep scaled by 10 (1 ms device time, --until 'p99>10ms'), where stalls are small: the model says
#     iodepth 128 (16 ms; 64 gives 8 ms).
#  3. the sim transport presets iser and nvmeof-rdma (docs/sim.md), labelled transport=...: "max IOPS at p99 <= 1 ms"
#     per transport from the store against the presets' model, and the report's table of it.
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
[ -f "$BENCH_BUILD/engines/sim/bench_sim.so" ] || { echo "method_sweep: no sim engine (-DBENCH_SIM=OFF): nothing to test (skipped)"; exit 77; }
printf '%s\n' '[s]' rw=randread bs=4k size=16m runtime=1 time_based "filename=$T/s.dat" >sweep.fio
points=1,2,4,8,16,32,64,128

# verify DB LIMIT_MS: the store's points in order, and the stop rule checked on them; prints the stop iodepth.
verify() {
  q "$1" "SELECT r.seq, (SELECT value FROM run_label WHERE run_id = r.id AND key = 'sweep.iodepth'),
             IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'sweep.stop'), ''),
             (SELECT iops FROM result WHERE run_id = r.id AND host = '*' AND job = '*' AND ddir = 'total'),
             (SELECT MAX(p.value_ns) FROM result x JOIN result_pct p ON p.result_id = x.id
               WHERE x.run_id = r.id AND x.host = '*' AND x.job = '*' AND x.ddir IN ('read', 'write')
                 AND ABS(p.pct - 99) < 1e-4)
           FROM run r ORDER BY r.seq" |
    python3 -c '
import sys
lim = float(sys.argv[1]); want = [int(x) for x in sys.argv[2].split(",")]
rows = [l.rstrip("\n").split("|") for l in sys.stdin if l.strip()]
got = [int(r[1]) for r in rows]
assert got == want[:len(got)], "points stored out of order or missing: %r" % got
stop = None
for k, (seq, qd, lab, iops, p99) in enumerate(rows):
    ms = float(p99) / 1e6
    print("  iodepth %4s: %8.0f IOPS, p99 %7.3f ms%s" % (qd, float(iops), ms, "  sweep.stop=" + lab if lab else ""),
          file=sys.stderr)
    passed = ms > lim
    if passed and stop is None:
        stop = k
    if (lab != "") != (stop == k):
        sys.exit("sweep.stop on iodepth %s is %r, but the first point past %g ms is %s" % (qd, lab, lim,
                 rows[stop][1] if stop is not None else "none"))
if stop is not None and stop != len(rows) - 1:
    sys.exit("points after the stop at iodepth %s were stored" % rows[stop][1])
if stop is None and len(rows) != len(want):
    sys.exit("no point passed the limit but only %d of %d points are stored" % (len(rows), len(want)))
print(rows[stop][1] if stop is not None else "none")' "$2" "$points"
}

# The engine's own account of every point (BENCH_SIM_STATS: one line per fio job, so per point, in order) tells a
# point the machine held back from a wrong model (tests/lib/sim_noise.py).
sweep() { # sweep NAME LIMIT_MS ARGS...
  local name=$1 lim=$2 stop
  shift 2
  rm -f "$T/$name.stats"
  BENCH_SIM_STATS=$T/$name.stats \
    "$BENCH" run --db "$name.db" sweep.fio --engine sim --no-collectors -q --sweep iodepth=$points "$@" 2>"$name.err" ||
    { cat "$name.err"; fail "$name: bench run"; return 0; }
  if stop=$(verify "$name.db" "$lim"); then
    ok "$name: stored points up to the first past ${lim} ms, and no further (stop: iodepth $stop)"
  else
    fail "$name: $stop"
  fi
  if [ "$stop" != none ]; then
    grep -q "sweep stopped at run .*(iodepth=$stop)" "$name.err" && ok "$name: stderr says where and why it stopped" ||
      fail "$name: no stop line on stderr: $(cat "$name.err")"
  fi
  echo "$stop" >"$name.stop"
}

sweep issue 1 --until 'p99>1ms' --engine-opt sim_units=8 --engine-opt sim_lat=100us --engine-opt sim_dist=fixed
# the model's point (1 ms x q / 8 > 10 ms: the first q > 80 of the list). A sweep that stops earlier was either held
# back by the machine there (the engine's account of that point shows enough IOs handed back later than the limit
# less the model's p99, or a run too disturbed to tell: the check is skipped) or is wrong; up to three sweeps.
sweep scaled 10 --until 'p99>10ms' --engine-opt sim_units=8 --engine-opt sim_lat=1ms --engine-opt sim_dist=fixed
model=$(python3 -c 'print(next(q for q in [1,2,4,8,16,32,64,128] if 1.0 * q / 8 > 10))')
scaled() {
  local stop k why
  stop=$(cat scaled.stop)
  [ "$stop" = "$model" ] && { ok "scaled sweep stops where the model says (iodepth $model)"; return 0; }
  [ "$stop" = none ] && { fail "scaled sweep never passed 10 ms, the model says it does at iodepth $model"; return 0; }
  [ "$stop" -gt "$model" ] && { fail "scaled sweep stops at iodepth $stop, after the model's $model"; return 0; }
  k=$(python3 -c 'import sys; print([1,2,4,8,16,32,64,128].index(int(sys.argv[1])) + 1)' "$stop")
  sed -n "${k}p" scaled.stats >point.stats
  # the point's p99 (stored) against the model's max(1, q / 8) ms, with the tolerance up to the 10 ms limit
  why=$(python3 "$BENCH_SRC/tests/lib/sim_noise.py" explain point.stats p99 \
    "$(q scaled.db "SELECT MAX(p.value_ns) / 1e3 FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'sweep.stop'
        JOIN result x ON x.run_id = r.id AND x.host = '*' AND x.job = '*' JOIN result_pct p ON p.result_id = x.id
       WHERE ABS(p.pct - 99) < 1e-4")" \
    "$(python3 -c 'import sys; print(1000 * max(1, int(sys.argv[1]) / 8))' "$stop")" \
    "$(python3 -c 'import sys; print(100 * (10 / max(1, int(sys.argv[1]) / 8) - 1))' "$stop")")
  case $? in
  0 | 3) echo "  scaled sweep stopped early at iodepth $stop: $why"; return 3 ;;
  *) fail "scaled sweep stops at iodepth $stop, the model says $model ($why)" ;;
  esac
}
for attempt in 1 2 3; do
  rc=0
  scaled || rc=$?
  [ "$rc" -eq 3 ] || break
  if [ "$attempt" -eq 3 ]; then
    skip "scaled sweep: the machine held every attempt back before the model's point (iodepth $model)"
    break
  fi
  rm -f scaled.db*
  sweep scaled 10 --until 'p99>10ms' --engine-opt sim_units=8 --engine-opt sim_lat=1ms --engine-opt sim_dist=fixed
done

# 3: both transports into one database, as a study would store them, and "max IOPS at p99 <= 1 ms" of each
# against the model of its preset (docs/sim.md "Presets": device 64 units of lognormal 80 us capped at 700,000
# IOPS; nvmeof-rdma has no link IOPS cap, iser's link caps it at 400,000; 4 KiB over 12.5e9 B/s is 3 million):
# the plateau is min(the caps, units / device time), reached below iodepth 128 where p99 stays under 1 ms.
# This machine's fio and sim share 2 cores, so the achieved rate can fall short of a cap (never pass it): the
# check is iser within -10 %..+2 % of its cap, nvmeof-rdma within -20 %..+2 %, and nvmeof-rdma ahead of iser
# by at least 30 % (the model: 1.75). A short miss is a slow machine, so it gets up to three tries.
model() { python3 -c '
import sys
units, dev_s, dev_cap, link_bw, bs = 64, 80e-6, 700000, 12.5e9, 4096
link_iops = {"iser": 400000, "nvmeof-rdma": float("inf")}[sys.argv[1]]
print("%.0f" % min(dev_cap, units / dev_s, link_iops, link_bw / bs))' "$1"; }
best() { # best DB TRANSPORT: the highest stored IOPS of a point whose p99 <= 1 ms
  q "$1" "SELECT MAX(x.iops) FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'transport' AND l.value = '$2'
            JOIN result x ON x.run_id = r.id AND x.host = '*' AND x.job = '*' AND x.ddir = 'total'
           WHERE (SELECT MAX(p.value_ns) FROM result y JOIN result_pct p ON p.result_id = y.id
                   WHERE y.run_id = r.id AND y.host = '*' AND y.job = '*' AND y.ddir IN ('read', 'write')
                     AND ABS(p.pct - 99) < 1e-4) <= 1000000"; }
verdict=""
for attempt in 1 2 3; do
  rm -f transports.db
  for t in iser nvmeof-rdma; do
    rm -f "$T/$t.stats"
    BENCH_SIM_STATS=$T/$t.stats "$BENCH" run --db transports.db sweep.fio --engine sim --no-collectors -q --sweep iodepth=$points \
      --until 'p99>1ms' --engine-opt sim_preset=$t --label transport=$t 2>"$t.err" || { cat "$t.err"; fail "$t sweep"; }
  done
  expect_eq "both transports stored" "$(q transports.db "SELECT COUNT(DISTINCT value) FROM run_label WHERE key = 'transport'")" 2
  verdict=$(python3 -c '
import sys
bi, bn, mi, mn = (float(x or 0) for x in sys.argv[1:5])
print("  iser: max IOPS at p99 <= 1 ms %.0f (model %.0f, %+.1f %%); nvmeof-rdma %.0f (model %.0f, %+.1f %%); ratio %.2f (model %.2f)"
      % (bi, mi, (bi / mi - 1) * 100, bn, mn, (bn / mn - 1) * 100, bn / bi if bi else 0, mn / mi), file=sys.stderr)
over = bi > mi * 1.02 or bn > mn * 1.02
ok = 0.90 * mi <= bi and 0.80 * mn <= bn and bi > 0 and bn / bi >= 1.3
print("over" if over else "ok" if ok else "short")' "$(best transports.db iser)" "$(best transports.db nvmeof-rdma)" \
    "$(model iser)" "$(model nvmeof-rdma)")
  [ "$verdict" = short ] || break
  echo "attempt $attempt: short of the model (a slow machine only ever slows a point)"
done
# the largest share of a point's run that the machine held the engine back, over the last try's points
held=$(cat iser.stats nvmeof-rdma.stats | python3 -c '
import sys
shares = [float(d["overdue_ns"]) / float(d["span_ns"]) for d in
          (dict(kv.split("=", 1) for kv in l.split()[1:]) for l in sys.stdin if l.startswith("sim-stats "))
          if float(d["span_ns"]) > 0]
print("%.1f" % (100 * max(shares or [0])))')
case "$verdict" in
  ok) ok "max IOPS at p99 <= 1 ms per transport preset matches the model" ;;
  over) fail "a transport ran faster than its preset's cap" ;;
  *)
    if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 10 else 1)' "$held"; then
      skip "max IOPS at p99 <= 1 ms per transport: short in three tries, the machine held a point back for $held % of it"
    else
      fail "max IOPS at p99 <= 1 ms per transport preset short of the model in three tries (machine held back <= $held %)"
    fi
    ;;
esac
# the report reads the same figure from the same store
"$BENCH" report --db transports.db --compare transport=nvmeof-rdma:iser --format csv >tr.csv 2>tr.err ||
  fail "report over the transports: $(cat tr.err)"
grep -q "max_iops_at_p99" tr.csv && ok "report has the max-IOPS-at-p99 table" || fail "report: no max_iops_at_p99 rows"
finish
