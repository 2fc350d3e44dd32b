#!/usr/bin/env bash
# report_curve_sim: `bench report` on curve and sweep points (issue 15, the report side). Two iodepth sweeps run
# on the sim engine with a fixed service time, one per transport (labels transport=iser / nvmeof, the points
# labelled sweep.iodepth=N as the run loop labels them), and a few runs of the measurement method beside them.
# The model (docs/sim.md): S = 10 ms device time, U = 8 units, transport latency T added to every IO, so at
# iodepth q: IOPS = min(q / (T + S), U / S), latency = max(T + S, q S / U). The knee (docs/report.md: of the
# points whose mean latency is <= 2 x the minimum, those within 5 % of their best IOPS, the lowest-latency one)
# and "max IOPS at p99 <= 50 ms" are derived here from those parameters, then compared with what the report
# prints in text, JSON, CSV, Markdown and HTML, and the latency-vs-IOPS charts are drawn by real gnuplot.
# S is large (10 ms) so that a busy machine's scheduling delays (a few ms at worst) stay below the margins.
# The runs are timed: where the figures miss the model, the sim engine's own account of every run (BENCH_SIM_STATS,
# tests/lib/sim_noise.py) says whether the machine held them back; then the model comparison is skipped (said),
# and every other check still runs. The test runs alone (tests/CMakeLists.txt).
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
export BENCH_SIM_STATS=$T/sim.stats
if [ ! -f "$BENCH_BUILD/engines/sim/bench_sim.so" ]; then
  echo "report_curve_sim: no sim engine (built with -DBENCH_SIM=OFF): nothing to test (skipped)"
  exit 77
fi

# The points and the limit keep wide margins: qd8's p99 must stay under 50 ms (its latency is 11 or 13 ms), qd64's
# (80 ms) can never be under it, even when the machine delays completions by tens of ms. Measured IOPS may fall
# short of the model by the time the machine loses (TOL); the ratio at equal latency is a quotient of two such.
S_MS=10 U=8 T_ISER_MS=3 T_NVME_MS=1 LIMIT_MS=50 TOL=0.15
QS="1 8 64"

{
  printf '[suite]\nname = sweep\n[options]\nrw=randread\nbs=4k\nsize=64m\ntime_based\nruntime=2\n'
  for q in $QS; do
    printf '[workload qd%s]\niodepth=%s\nbench.label.sweep.iodepth=%s\n' "$q" "$q" "$q"
  done
} > sweep.suite
for tr in iser:$T_ISER_MS nvmeof:$T_NVME_MS; do
  "$BENCH" run sweep.suite --engine sim --engine-opt sim_dist=fixed --engine-opt sim_lat=${S_MS}ms \
    --engine-opt sim_units=$U --engine-opt sim_transport_lat=${tr#*:}ms --label transport=${tr%%:*} \
    --target "$T/${tr%%:*}.dat" --db c.db -q --no-collectors || fail "bench run the ${tr%%:*} sweep"
done
# A rate curve beside the nvmeof sweep (the run loop's labels: the max run, then a point at 50 % of it): a
# curve of its own, not points of the sweep.
RATE=$(python3 -c "print(round(8 / ($T_NVME_MS + $S_MS) * 1000 / 2))")
printf '[suite]\nname = curve\n[options]\nrw=randread\nbs=4k\nsize=64m\ntime_based\nruntime=1\niodepth=8\n%s\n%s\n' \
  '[workload cmax]
bench.label.curve_pct=max' "[workload c50]
rate_iops=$RATE
bench.label.curve_pct=50
bench.label.curve.target_iops=$RATE" > curve.suite
"$BENCH" run curve.suite --engine sim --engine-opt sim_dist=fixed --engine-opt sim_lat=${S_MS}ms \
  --engine-opt sim_units=$U --engine-opt sim_transport_lat=${T_NVME_MS}ms --label transport=nvmeof \
  --target "$T/c.dat" --db c.db -q --no-collectors || fail "bench run the rate curve"
# Runs of the method that are not measured results, and one that carries a steady-state result.
cat > method.suite <<'EOF'
[suite]
name = method
[options]
rw=randread
bs=4k
size=16m
time_based
runtime=1
[workload pre]
bench.label.phase=precondition
[workload round]
bench.label.ss_round=1
[workload measured]
bench.label.ss_round=5
bench.label.steady_state=reached:5
bench.label.ss.window_iops=700
bench.label.fio.ss=attained
bench.label.fio.ss.after_s=4.9
EOF
"$BENCH" run method.suite --engine sim --engine-opt sim_lat=1ms --target "$T/m.dat" --db c.db -q --no-collectors ||
  fail "bench run method.suite"
expect_eq "runs stored" "$(q c.db "SELECT count(*) FROM run WHERE status = 'done'")" 11

"$BENCH" report --db c.db --p99-limit ${LIMIT_MS}ms --compare transport=nvmeof:iser --by transport > text.out 2>text.err ||
  fail "bench report (text): $(cat text.err)"
cat text.out
"$BENCH" report --db c.db --p99-limit ${LIMIT_MS}ms --compare transport=nvmeof:iser --by transport --format json \
  > report.json || fail "bench report --format json"

# ---- the model's answers against the report ---------------------------------------------------------------
model_rc=0
python3 - report.json "$S_MS" "$U" "$T_ISER_MS" "$T_NVME_MS" "$LIMIT_MS" "$QS" "$TOL" <<'PY' || model_rc=$?
import json, sys
doc = json.load(open(sys.argv[1]))
S, U, TI, TN, LIM = (float(x) for x in sys.argv[2:7])
qs = [int(q) for q in sys.argv[7].split()]
TOL = float(sys.argv[8])

def model(t):  # per point: (iops, latency ms)
    return {q: (min(q / (t + S), U / S) * 1000, max(t + S, q * S / U)) for q in qs}

def knee(m):
    lo = min(l for _, l in m.values())
    cand = {q: v for q, v in m.items() if v[1] <= 2 * lo}
    best = max(i for i, _ in cand.values())
    near = {q: v for q, v in cand.items() if v[0] >= 0.95 * best}
    return min(near, key=lambda q: near[q][1])

def max_at(m):  # fixed service time: p99 = the latency
    ok = {q: v for q, v in m.items() if v[1] <= LIM}
    return max(ok, key=lambda q: ok[q][0])

curves = {c["configuration"]: c for c in doc["curves"]["configurations"]}
bad = 0
want_iops = {}
NV = "transport=nvmeof (sweep.iodepth)"  # the nvmeof configuration has a sweep and a rate curve
for name, t in (("transport=iser", TI), (NV, TN)):
    c, m = curves[name], model(t)
    k, mq = knee(m), max_at(m)
    got_knee = c["knee"]["workload"]
    print(f"{name}: knee model qd{k} ({m[k][0]:.0f} IOPS, {m[k][1]:.1f} ms), report {got_knee} "
          f"({c['knee']['iops']:.0f} IOPS, {c['knee']['lat_ms']:.2f} ms)")
    bad += got_knee != f"qd{k}"
    at = c["max_iops_at_p99"][0]
    point = next(p for p in c["points"] if p["run"] == at["run"])
    print(f"{name}: max IOPS at p99 <= {LIM:g} ms: model {m[mq][0]:.1f} (qd{mq}), report {at['iops']:.1f} "
          f"({point['workload']}, p99 {point['p99_ms']:.2f} ms)")
    bad += point["workload"] != f"qd{mq}" or at["iops"] != point["iops"] or abs(at["iops"] / m[mq][0] - 1) > TOL
    want_iops[name] = (m[mq][0], at["iops"])
    bad += len(c["points"]) != len(qs)
rate = curves.get("transport=nvmeof (rate curve)")
print("rate curve:", rate and [(p["workload"], round(p["iops"])) for p in rate["points"]])
bad += rate is None or sorted(p["workload"] for p in rate["points"]) != ["c50", "cmax"]
bad += len(curves) != 3
if rate:
    c50 = next(p for p in rate["points"] if p["workload"] == "c50")
    target = round(8 / (TN + S) * 1000 / 2)
    print(f"rate curve point at 50 %: {c50['iops']:.1f} IOPS, rate_iops {target}")
    # a capped run never goes over its cap (by more than rounding); under it, it may lose what any measured
    # figure here may (TOL): on this VM c50 ran 2-3 % under its rate when idle, 6 % under once in CI
    off = c50["iops"] / target - 1
    bad += off > 0.05 or off < -TOL
    bad += rate["max_iops_at_p99"][0]["ratio"] is not None  # no iser rate curve: no ratio
r = curves[NV]["max_iops_at_p99"][0]["ratio"]
model_ratio = want_iops[NV][0] / want_iops["transport=iser"][0]
print(f"ratio nvmeof / iser at p99 <= {LIM:g} ms: model {model_ratio:.3f}, report {r:.3f}")
bad += abs(r / model_ratio - 1) > TOL / 2 or abs(r - want_iops[NV][1] / want_iops["transport=iser"][1]) > 1e-9
bad += curves["transport=iser"]["max_iops_at_p99"][0]["ratio"] != 1
sys.exit(1 if bad else 0)
PY
if [ "$model_rc" -eq 0 ]; then
  ok "knee, max IOPS at p99 and ratio match the model"
else
  held=$(python3 -c '
import sys
shares = [float(d["overdue_ns"]) / float(d["span_ns"]) for d in
          (dict(kv.split("=", 1) for kv in l.split()[1:]) for l in open(sys.argv[1]) if l.startswith("sim-stats "))
          if float(d["span_ns"]) > 0]
print("%.1f" % (100 * max(shares or [0])))' "$BENCH_SIM_STATS")
  if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 5 else 1)' "$held"; then
    skip "knee, max IOPS at p99 and ratio against the model: the machine held a run back for $held % of it"
  else
    fail "curve figures differ from the model (the machine held runs back for at most $held %)"
  fi
fi

# ---- text: the sections, the ratio column, the runs left out, steady state ------------------------------
grep -q '^== Curves: max IOPS at p99 <= X per configuration' text.out && ok "text: curves section" ||
  fail "text: no curves section"
grep -Eq '^  transport=nvmeof \(sweep\.iodepth\) +[0-9]+ +[0-9]+ +1\.[0-9]{2}$' text.out && ok "text: nvmeof row with a ratio column" ||
  fail "text: no nvmeof row with a ratio"
grep -Eq '^  transport=iser +3 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +qd8$' text.out && ok "text: knee row of iser" ||
  fail "text: no knee row qd8 for iser"
grep -q 'Left out of the tables: 1 precondition run (phase=precondition) and 1 steady-state round (ss_round without steady_state)' text.out &&
  ok "text: the runs left out are counted" || fail "text: no line on the runs left out"
grep -Eq '^  (pre|round) ' text.out && fail "text: a precondition run or round is a table row" ||
  ok "text: no precondition run or round among the rows"
grep -Eq '^ +[0-9]+ +measured +steady state reached at round 5 \(window 1-5, average 700\.0\) +ss=attained, ss\.after_s=4\.9$' text.out &&
  ok "text: steady state in the SNIA words and fio's ss=" || fail "text: no steady-state row"
"$BENCH" report --db c.db > plain.out
grep -q '^-- transport=iser$' plain.out && [ "$(grep -c '^-- transport=' plain.out)" = 2 ] &&
  ok "sweep points are one table group per transport (sweep.iodepth is no group key)" ||
  fail "sweep points split the table into groups: $(grep '^-- ' plain.out | tr '\n' ' ')"

# ---- CSV, Markdown, HTML and the charts -----------------------------------------------------------------
"$BENCH" report --db c.db --p99-limit $LIMIT_MS --format csv | tr -d '\r' > r.csv || fail "bench report --format csv"
grep -Eq "^max_iops_at_p99,transport=iser,$LIMIT_MS,[0-9.]+,[0-9]+,\$" r.csv && ok "csv: max IOPS section" ||
  fail "csv: no max_iops_at_p99 row: $(grep max_iops r.csv)"
grep -Eq '^knee,transport=nvmeof \(sweep\.iodepth\),3,' r.csv && grep -Eq '^knee,transport=nvmeof \(rate curve\),2,' r.csv && ok "csv: knee section" || fail "csv: no knee row"
"$BENCH" report --db c.db --format markdown > r.md || fail "bench report --format markdown"
grep -q '^## Curves: max IOPS at p99' r.md && grep -q '^| transport=iser |' r.md && ok "markdown: curves table" ||
  fail "markdown: no curves table"
"$BENCH" report --db c.db --charts ch --html r.html 2>charts.err || fail "bench report --charts: $(cat charts.err)"
for m in p99 mean; do
  png=$(ls ch/g-*-latency-$m-vs-iops.png 2>/dev/null | head -1)
  [ -n "$png" ] && [ -s "$png" ] && [ -s "${png%.png}.svg" ] && ok "chart latency-$m-vs-iops drawn by gnuplot" ||
    fail "no latency-$m-vs-iops chart in ch/: $(ls ch | tr '\n' ' ')"
done
grep -q "index 1 using 1:2 with linespoints" ch/g-*-latency-p99-vs-iops.gp &&
  grep -q "index 2 using 1:2 with linespoints" ch/g-*-latency-p99-vs-iops.gp &&
  ! grep -q "index 3 using 1:2 with linespoints" ch/g-*-latency-p99-vs-iops.gp &&
  grep -q "title 'transport=nvmeof (rate curve)'" ch/g-*-latency-p99-vs-iops.gp && ok "chart: one line per curve (two sweeps, one rate curve)" ||
  fail "chart: not one line per curve"
grep -q 'Latency vs IOPS (curves and sweeps)' r.html && grep -q '<h2 id="method">Curves, steady state and jobs</h2>' r.html &&
  grep -q '<td>transport=nvmeof (sweep.iodepth)</td>' r.html && ok "html: curve section and chart" || fail "html: curves missing"

# ---- bad limits: one line, exit 2 -------------------------------------------------------------------------
for bad in abc 0 -1ms; do
  "$BENCH" report --db c.db --p99-limit "$bad" >/dev/null 2>bad.err
  rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l < bad.err)" = 1 ] && grep -q -- "--p99-limit wants a latency" bad.err &&
    ok "--p99-limit $bad: exit 2, one line" || fail "--p99-limit $bad: exit $rc: $(cat bad.err)"
done
finish
