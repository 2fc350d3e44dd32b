#!/usr/bin/env bash
# series_one_clock (time-series issue, acceptance 4): every metric of one run is on one clock, t = 0 at the end of
# ramp: a local fio run with a 2 s ramp and --logs stores IOPS, bandwidth, latency, latency histograms (fio's logs)
# and CPU and disk samples (the collectors); the first sample of every metric lies within one interval (1 s) of the
# others and of t = 0, none is before it (the ramp is not in the series), and none starts later than one interval.
. "$BENCH_SRC/tests/lib/common.sh"
export TMPDIR=$T
printf '[global]\nioengine=psync\nrw=randread\nbs=4k\nsize=16m\nruntime=5\nramp_time=2\ntime_based\n[j]\n' >c.fio
"$BENCH" run c.fio --target t.dat --db c.db --logs -q 2>err.txt
expect_eq "run exit code" "$?" 0
q c.db "SELECT metric || ' ' || source || ' ' || min(t_ms) || ' ' || min(t_ms - window_ms) FROM sample GROUP BY metric, source" >first.txt
cat first.txt
for m in iops.read bw_bytes.read lat_ns.read clat_hist.read cpu.util_pct disk.iops; do
	grep -q "^$m " first.txt && ok "metric $m is stored" || fail "no samples of $m"
done
lo=$(awk '{print $3}' first.txt | sort -n | head -1)
hi=$(awk '{print $3}' first.txt | sort -n | tail -1)
[ "$((hi - lo))" -le 1000 ] && ok "first samples within one interval of each other ($lo..$hi ms)" ||
	fail "first samples $lo..$hi ms apart: more than one interval"
[ "$lo" -ge 0 ] && [ "$hi" -le 2000 ] && ok "first samples end their first window after t = 0 and within 2 s" ||
	fail "first samples at $lo..$hi ms: the ramp (2 s) is in the series or the clock is off"
neg=$(q c.db "SELECT count(*) FROM sample WHERE t_ms - window_ms < -100")
expect_eq "samples whose window starts before the end of ramp" "$neg" 0
finish
