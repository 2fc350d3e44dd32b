#!/usr/bin/env bash
# series_lab: time series of a 3-host loopback lab run (issue 13, acceptance 3 and 6).
#  3. real fio with --logs on 3 hosts: bench's all-hosts IOPS over time (chart data, core/series.h) is the sum
#     of the hosts' on aligned windows, also recomputed here from the stored samples; the all-hosts p99 over
#     time equals the p99 recomputed here from the hosts' histogram rows summed per window (the rule of
#     fio-histo-log-pctiles.py); one host's p99 over time equals that script run on the host's histogram log
#     (rebuilt from its stored rows, which are its lines: import_logs.sh; stamps on the 1 s grid, see
#     series_fio_logs.sh).
#  6. the sim engine with sim_stall=4s:2s:20@host2 (a stall on lab2 only, 4 s after its first IO, ramp 1 s):
#     `bench report -v` lists one stall, on lab2, at 3 s (+- 1) for 2 s (+- 1).
. "$BENCH_SRC/tests/lib/lab.sh"
: "${BENCH_BUILD:?}"
lab_scratch series-lab
needed python3 sqlite3
gunzip -c /usr/share/doc/fio/fio-histo-log-pctiles.py.gz >pctiles.py || fail "fio-histo-log-pctiles.py is missing"
"$BENCH" lab up 3 --dir "$LAB" --port "$PORT" --size 16m >up.out 2>&1 || { cat up.out; fail "lab up 3"; }

printf '[mix]\nioengine=psync\nrw=randrw\nrwmixread=70\nbs=4k\nsize=8m\ntime_based\nruntime=10\nramp_time=1\n' >mix.fio
"$BENCH" run mix.fio --hosts "$LAB/hosts" --logs --db a.db -q >run.out 2>&1 || { cat run.out; fail "lab run --logs"; }
"$BENCH" report --db a.db --charts charts >/dev/null 2>rep.err || fail "report --charts: $(cat rep.err)"
GP=$(ls charts/e-*-time.gp | head -1)
ls charts/e-*-run-1-heatmap.png >/dev/null 2>&1 || fail "no heat map: $(ls charts)"
PYTHONPATH="$(dirname "$0")" python3 - a.db "$GP" <<'PY' || fail "aggregates over hosts"
import sqlite3, sys, subprocess, series_chartdata
db = sqlite3.connect(sys.argv[1]); lines = series_chartdata.read(sys.argv[2])
hosts = ["lab1", "lab2", "lab3"]
# IOPS: all hosts = sum of the hosts on every window where all three have a sample
allh = lines[("IOPS", "all hosts")]
per = {h: lines[("IOPS", h)] for h in hosts}
common = [t for t in allh if all(t in per[h] for h in hosts)]
assert len(common) >= 8, (sorted(allh), {h: sorted(per[h]) for h in hosts})
assert all(abs(allh[t] - sum(per[h][t] for h in hosts)) <= 1e-6 * allh[t] for t in common)
stored = {}
for h, t, v in db.execute("SELECT host, t_ms, value FROM sample WHERE metric LIKE 'iops.%'"):
    stored.setdefault((h, (t + 500) // 1000 * 1000), []).append(v)
for t in common:
    want = sum(sum(stored[(h, t)]) for h in hosts)  # read + write of one job per host
    assert abs(allh[t] - want) <= 1e-6 * want, (t, allh[t], want)
print(f"acceptance 3: all-hosts IOPS = lab1 + lab2 + lab3 on {len(common)} aligned windows "
      f"(e.g. t={common[2] / 1000:.0f} s: {allh[common[2]]:.0f} = " +
      " + ".join(f"{per[h][common[2]]:.0f}" for h in hosts) + ")")
# p99: all hosts from summed bins, recomputed here
def pct(bins, p):
    bins = sorted(bins.items()); tot = sum(c for _, c in bins); so = 0; pc = 0.0
    for (lo, hi), c in bins:
        so += c; last = pc; pc = 100.0 * so / tot
        if pc > p: return lo + (p - last) / (pc - last) * (hi - lo)
    return bins[-1][0][1]
slots = {}
rows = db.execute("SELECT host, t_ms, metric, bucket_lo_ns, bucket_hi_ns, value FROM sample WHERE "
                  "metric LIKE 'clat_hist.%'").fetchall()
for h, t, m, lo, hi, c in rows:
    b = slots.setdefault((t + 500) // 1000 * 1000, {})
    b[(lo, hi)] = b.get((lo, hi), 0) + c
# the histogram intervals hold that interval's IOs (fio's client writes them chained: fio_histlog.c undoes it)
for h in hosts:
    cnt = {}
    for hh, t, m, lo, hi, c in rows:
        if hh == h: cnt[(t + 500) // 1000 * 1000] = cnt.get((t + 500) // 1000 * 1000, 0) + c
    io = {t: sum(stored[(h, t)]) for (hh, t) in stored if hh == h}
    mid = sorted(t for t in cnt if t in io)[1:-1]
    bad = [(t, cnt[t], io[t]) for t in mid if abs(cnt[t] - io[t]) > 0.15 * io[t]]
    assert len(mid) >= 6 and not bad, (h, bad)
print("acceptance 3: every host's histogram intervals count its IOs of the interval (within 15 % of its IOPS log)")
agg = lines[("p99 latency", "all hosts")]
assert len(agg) >= 8, sorted(agg)
worst = max(abs(agg[t] - pct(slots[t], 99.0)) / agg[t] for t in agg)
assert worst < 1e-6, worst
print(f"acceptance 3: all-hosts p99 over {len(agg)} s = p99 of the summed host histograms (rel. diff {worst:.1e}); "
      "mean of the hosts' p99 would differ by up to "
      f"{max(abs(agg[t] - sum(lines[('p99 latency', h)].get(t, agg[t]) for h in hosts) / 3) / agg[t] for t in agg) * 100:.1f} %")
# one host against fio's script: its histogram log rebuilt from the stored rows, stamps on the grid
def fine(lo):
    for i in range(1856):
        g, b = divmod(i, 64); w = 1 if g <= 1 else 1 << (g - 1); base = 0 if g == 0 else 64 << (g - 1)
        if base + b * w == lo: return i
    raise ValueError(lo)
recs = {}
for h, t, m, lo, hi, c in rows:
    if h != "lab2": continue
    d = {"clat_hist.read": 0, "clat_hist.write": 1}[m]
    recs.setdefault((t, d), [0] * 1856)[fine(lo)] += int(c)
with open("lab2_clat_hist.1.log", "w") as f:
    for (t, d), counts in sorted(recs.items(), key=lambda x: (x[0][0], x[0][1])):
        f.write(", ".join(str(x) for x in [(t + 500) // 1000 * 1000, d, 4096] + counts) + "\n")
out = subprocess.run(["python3", "pctiles.py", "--percentiles", "99", "--log-hist-msec", "1000", "--",
                      "lab2_clat_hist.1.log"], capture_output=True, text=True, check=True).stdout
script = {}
for l in out.splitlines():
    f = [x.strip() for x in l.split(",")]
    if len(f) >= 3 and f[0].isdigit() and f[2]: script[int(f[0])] = float(f[2]) * 1000
mine = lines[("p99 latency", "lab2")]
# the script gives a record the time up to the next record of its direction; where that one is missing (fio
# does not write a last partial window) it stretches the record to the end of the test, over two quanta:
# compare the quanta whose records of every direction have a successor
have = {((t + 500) // 1000 * 1000, d) for (t, d) in recs}
dirs = {d for _, d in have}
whole = {t for t, _ in have if all((t, d) in have and (t + 1000, d) in have for d in dirs)}
pairs = [(t, mine[t], script[t]) for t in script if t in mine and t in whole]
assert len(pairs) >= 7, (sorted(script), sorted(mine))
worst = max(abs(a - b) / b for _, a, b in pairs)
assert worst < 1e-6, pairs
print(f"acceptance 3: lab2 p99 over {len(pairs)} s = fio-histo-log-pctiles.py (rel. diff {worst:.1e})")
PY
[ $? = 0 ] || exit 1

# 6: a stall on lab2 only
SO="$BENCH_BUILD/engines/sim/bench_sim.so"
[ -f "$SO" ] || { echo "series_lab: no sim engine (-DBENCH_SIM=OFF): stall check not made (skipped)"; exit 77; }
printf '[stall]\nioengine=external:%s\nrw=randread\nbs=4k\nsize=8m\ntime_based\nruntime=10\nramp_time=1\nsim_lat=200us\nsim_stall=4s:2s:20@host2\n' "$SO" >stall.fio
"$BENCH" run stall.fio --hosts "$LAB/hosts" --logs --db b.db -q >run2.out 2>&1 || { cat run2.out; fail "sim run with a stall"; }
"$BENCH" report --db b.db -v >rep.txt 2>&1 || fail "report -v: $(cat rep.txt)"
grep 'stalled at' rep.txt || fail "no stall listed: $(sed -n '/stalls/,$p' rep.txt)"
[ "$(grep -c 'stalled at' rep.txt)" = 1 ] || fail "one stall expected"
line=$(grep 'stalled at' rep.txt)
python3 - "$line" <<'PY' || fail "stall: $line"
import re, sys
m = re.search(r"host (\S+) stalled at ([-\d.]+) s for ([\d.]+) s", sys.argv[1])
host, start, length = m.group(1), float(m.group(2)), float(m.group(3))
assert host == "lab2" and abs(start - 3.0) <= 1.0 and abs(length - 2.0) <= 1.0, (host, start, length)
print(f"acceptance 6: stall on {host} at {start} s (want 3 +- 1) for {length} s (want 2 +- 1)")
PY
[ $? = 0 ] || exit 1
echo "series_lab: ok"
