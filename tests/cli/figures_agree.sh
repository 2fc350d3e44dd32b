#!/bin/bash
# figures_agree: `bench report` and `bench gate` print the same figures for the same runs (issue 27: one figures
# layer, report/figures.h). Fixed inputs only: fio's own JSON fixtures imported twice (side=A, side=B, each run
# also a sweep point), then, as the run loop would have stored them, a collector's CPU row with CPU per IO on
# two runs, and the stored percentiles of one run removed (its p99 then comes from the bins). Checked, run by
# run, from both JSON outputs:
#   - IOPS: the report row's (one run per row) total = the sum of the gate's per-direction samples;
#   - p99 per direction: report ms x 1e6 = gate ns (also for the run whose p99 comes from the bins);
#   - CPU per IO: the gate has a sample exactly for the runs whose report CPU row (cpu_sources, the row of that
#     source in cpu_disks) has one, with the same value; fio's own usr+sys gives neither a CPU per IO;
#   - the curves (report JSON "curves") have the same IOPS and worse-direction p99 per run;
#   - the gate pairs by the report's identity: its cells' keys are the runs' identities, and the gate keeps no
#     pairing key or option list of its own (grep).
. "$BENCH_SRC/tests/lib/failfast.sh"
need sqlite3
DB=$T/f.db
FX=$BENCH_SRC/tests/fixtures/fio/json
for side in A B; do
	for f in fio-3.33_12jobs_12groups.json fio-3.33_jsonplus_randread_bins.json fio-3.33_randrw-16-8_grouprep.json; do
		"$BENCH" import --again --db "$DB" --label side=$side --label sweep.iodepth=1 "$FX/$f" >/dev/null ||
			fail "import $f"
	done
done
# a collector's cluster row with CPU per IO on randread-4k of each side (it wins over fio's own CPU)
sqlite3 "$DB" "INSERT INTO cpu(run_id, host, role, source, cores, util_pct, cpu_us_per_io)
	SELECT r.id, '*', 'initiator', 'procstat', 8, 40 + r.id, 17.25 + r.id / 8.0 FROM run r
	WHERE r.name = 'randread-4k'" || fail "cpu rows"
# the bins fallback: randread-jsonplus of side B keeps its bins, not its percentiles
bins_run=$(sqlite3 "$DB" "SELECT r.id FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'side' AND
	l.value = 'B' WHERE r.name = 'randread-jsonplus'")
[ -n "$bins_run" ] || fail "no randread-jsonplus run"
sqlite3 "$DB" "DELETE FROM result_pct WHERE result_id IN (SELECT id FROM result WHERE run_id = $bins_run)"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM result_bin b JOIN result x ON x.id = b.result_id WHERE x.run_id = $bins_run")" -gt 0 ] ||
	fail "the bins fixture has no bins"

"$BENCH" report --db "$DB" --format json -v >"$T/r.json" 2>"$T/r.err" || fail "report: $(cat "$T/r.err")"
"$BENCH" gate --db "$DB" --baseline side=A --candidate side=B --min-runs 1 --allow-invalid --json "$T/g.json" \
	>"$T/g.out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 6 ] || fail "gate exit $rc: $(tail -3 "$T/g.out")"

"$PY3" - "$T/r.json" "$T/g.json" "$DB" "$bins_run" <<'PY' || fail "report and gate disagree"
import json, math, sqlite3, sys
rep, gate = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
db, bins_run = sqlite3.connect(sys.argv[3]), int(sys.argv[4])

def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))

# the report's figures per run (every row holds one run)
row_of = {}
for g in rep['groups']:
    for r in g['rows']:
        assert r['runs'] == 1 and len(r['run_ids']) == 1, r['workload']
        row_of[r['run_ids'][0]] = r
runs = {r['id']: r for r in rep['runs']}
assert len(row_of) == len(runs) == 28, (len(row_of), len(runs))

# the gate's samples per run and metric
samples = {}
keys = {}
for c in gate['cells']:
    for side in ('baseline_samples', 'candidate_samples'):
        for s in c[side]:
            samples.setdefault(s['run_id'], {})[c['metric']] = s['value']
            keys.setdefault(s['run_id'], set()).add(c['key'])
assert set(samples) == set(row_of), sorted(set(row_of) - set(samples))

checked = {'iops': 0, 'p99': 0, 'cpu': 0, 'cpu_none': 0, 'curve': 0}
for rid, row in row_of.items():
    s = samples[rid]
    dirs = [s[k] for k in ('iops.read', 'iops.write', 'iops.trim') if k in s]
    assert close(row['iops']['median'], sum(dirs)), (rid, row['iops'], s)
    checked['iops'] += 1
    for d in ('read', 'write'):
        rp, gp = row[d + '_p99_ms']['median'], s.get('lat_p99_us.' + d)
        assert (rp is None) == (gp is None), (rid, d, rp, gp)
        if rp is not None:
            assert close(rp * 1e6, gp), (rid, d, rp, gp)
            checked['p99'] += 1
    # CPU per IO: the report's row of the chosen source in cpu_disks
    src = row['cpu_sources'][0]
    cd = runs[rid]['cpu_disks']
    rcpu = None
    for x in (cd or {}).get('cpu', []):
        if x['role'] == 'initiator' and x['host'] == '*' and x['source'] == src:
            rcpu = x['cpu_us_per_io']
    gcpu = s.get('cpu_us_per_io')
    assert (rcpu is None) == (gcpu is None), (rid, src, rcpu, gcpu)
    if rcpu is None:
        checked['cpu_none'] += 1
    else:
        assert close(rcpu, gcpu), (rid, rcpu, gcpu)
        checked['cpu'] += 1
    # the gate's key is the run's workload identity
    assert len(keys[rid]) == 1, keys[rid]

# the curves read the same figures
for conf in rep['curves']['configurations']:
    for p in conf['points']:
        row, s = row_of[p['run']], samples[p['run']]
        assert close(p['iops'], row['iops']['median']), p
        worst = max(v for k, v in s.items() if k.startswith('lat_p99_us.'))
        assert close(p['p99_ms'] * 1e6, worst), (p, worst)
        checked['curve'] += 1

assert checked['cpu'] == 2 and checked['cpu_none'] == 26, checked
assert any(rid == bins_run for rid in row_of) and row_of[bins_run]['read_p99_ms']['median'] is not None
assert checked['curve'] == 28, checked
print("figures_agree: %(iops)d runs' IOPS, %(p99)d p99s, %(cpu)d CPU per IO figures (and %(cpu_none)d runs "
      "without one on both sides), %(curve)d curve points agree" % checked)
PY

# the gate has no pairing key, CPU rule or option list of its own
grep -nE 'gate_workload_key|reporting_option|GATE_MATCH_|store_read_percentile|store_cpu_pick|usr_cpu' \
	"$BENCH_SRC"/report/gate/*.c "$BENCH_SRC"/report/gate/*.h && fail "the gate keeps a figure or key of its own"
grep -nE 'store_read_percentile|store_result_mean_lat_ns|point_labels\[\]' "$BENCH_SRC"/bench/runloop_method.c \
	"$BENCH_SRC"/report/analysis/curve*.c "$BENCH_SRC"/report/format/curve*.c && fail "curves or the run loop read figures or labels of their own"
echo "figures_agree: ok"
