#!/usr/bin/env bash
# sim_export: `bench export --histogram RUN` writes a stored run's latency bins in the format the sim ioengine
# replays (sim_hist=FILE), and a replay reproduces the stored run's percentiles. The stored run is real: fio on
# the sim engine (lognormal device time) with json+ output, stored by `bench import`. Also checks the file's
# shape against the database, and the errors (unknown run, run without bins, bad --ddir) with their exit codes.
set -euo pipefail

: "${BENCH:?BENCH is not set (run under ctest)}"
. "$BENCH_SRC/tests/lib/sim.sh"
sim_required sim_export

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
db=$tmp/bench.db

fail() { echo "FAIL: $*" >&2; exit 1; }

# jobfile NAME FORMAT OPTIONS...: runs one sim job; output in NAME.json.
run_job() {
  local name=$1 format=$2
  shift 2
  {
    echo "[$name]"
    echo "ioengine=external:$SO"
    echo "filename=sim"
    echo "size=16g"
    echo "rw=randread"
    echo "bs=4k"
    echo "iodepth=8"
    echo "time_based=1"
    echo "ramp_time=500ms"
    echo "runtime=3"
    echo "sim_units=8"
    printf '%s\n' "$@"
  } >"$name.fio"
  rm -f "$name.stats"
  BENCH_SIM_STATS=$tmp/$name.stats $prio fio --output-format="$format" --eta=never "$name.fio" >"$name.json" \
    2>"$name.err" || {
    cat "$name.err" "$name.json" >&2
    fail "fio failed on $name"
  }
}

# 1. A measured run: lognormal, mean 500 us, cv 0.5, stored with its bins; exported; replayed.
roundtrip() {
  rm -f "$db" "$db"-wal "$db"-shm hist.txt
  run_job measured json+ sim_dist=lognormal sim_lat=500us sim_cv=0.5 sim_seed=3
  "$BENCH" import --db "$db" measured.json >/dev/null
  run=$(sqlite3 "$db" "SELECT id FROM run WHERE name = 'measured'")
  [ -n "$run" ] || fail "the import stored no run named 'measured'"

  "$BENCH" export --histogram "$run" --db "$db" -o hist.txt
  grep -q "^# bench histogram: run $run 'measured', host '\*', ddir total, clat$" <<<"$(head -2 hist.txt)" ||
    fail "unexpected header: $(head -2 hist.txt)"
  python3 - hist.txt "$(sqlite3 "$db" "SELECT clat_n FROM result WHERE run_id = $run AND host = '*' AND ddir = 'total'")" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
assert all(len(r) == 2 for r in rows), "lines must be 'value_ns count'"
vals = [int(a) for a, b in rows]
counts = [int(b) for a, b in rows]
assert vals == sorted(vals) and len(set(vals)) == len(vals), "values must ascend"
assert all(c > 0 for c in counts), "zero counts"
assert sum(counts) == int(sys.argv[2]), "bins hold %d IOs, the run's clat N is %s" % (sum(counts), sys.argv[2])
print("ok   export: %d bins, %d IOs, %d..%d ns" % (len(vals), sum(counts), vals[0], vals[-1]))
PY
  # Standard output gives the same text.
  "$BENCH" export --histogram "$run" --db "$db" | cmp -s - hist.txt || fail "stdout export differs from -o FILE"

  # 2. A replay of the exported histogram reproduces the measured percentiles.
  run_job replay json sim_hist="$tmp/hist.txt" sim_seed=9
  # Both runs are timed: a percentile that misses is put down to the machine only when the engine's own account
  # of the slower run (tests/lib/sim_noise.py) shows enough IOs held back by more than the tolerance (exit 3:
  # a noisy attempt); any other miss is a failure (exit 1).
  python3 - measured.json replay.json "$BENCH_SRC/tests/lib/sim_noise.py" <<'PY'
import json, subprocess, sys
a = json.load(open(sys.argv[1]))["jobs"][0]["read"]["clat_ns"]["percentile"]
b = json.load(open(sys.argv[2]))["jobs"][0]["read"]["clat_ns"]["percentile"]
bad = noisy = 0
for p in ("10.000000", "50.000000", "90.000000", "99.000000"):
    rel = b[p] / a[p] - 1
    ok = abs(rel) <= 0.05
    name = p.rstrip("0").rstrip(".")
    print("%s  replay p%-5s %8.1f us, measured %8.1f us (%+.1f%%, want +-5%%)"
          % ("ok  " if ok else "MISS", name, b[p] / 1e3, a[p] / 1e3, rel * 100))
    if ok:
        continue
    slow, got, want = ("replay", b[p], a[p]) if b[p] > a[p] else ("measured", a[p], b[p])
    r = subprocess.run([sys.executable, sys.argv[3], "explain", slow + ".stats", "p" + name, str(got / 1e3),
                        str(want / 1e3), "5"],  # microseconds, as the engine's account counts lateness
                       capture_output=True, text=True)
    if r.returncode in (0, 3):
        print("NOISY the %s run: %s" % (slow, r.stdout.strip()))
        noisy += 1
    else:
        print("FAIL  the %s run: %s" % (slow, r.stdout.strip() or r.stderr.strip()))
        bad += 1
sys.exit(1 if bad else 3 if noisy else 0)
PY
}
# Timing noise from other load can spoil one attempt (fio runs at a higher priority where allowed, the later
# attempts as a real-time process where allowed); a wrong export or replay fails all three.
prio="nice -n -5"
retry_prio=$prio
if chrt -f 1 true 2>/dev/null; then
  retry_prio="chrt -f 1"
fi
# A failed attempt whose misses the engine's account explains (3) is run again, up to three attempts; a miss it does
# not explain fails at once. Three noisy attempts: the replay could not be checked on this machine (the test ends
# skipped, after its other checks).
replay_checked=0
for attempt in 1 2 3; do
  rc=0
  if [ "$attempt" -eq 1 ]; then roundtrip || rc=$?; else prio=$retry_prio roundtrip || rc=$?; fi
  [ "$rc" -eq 0 ] && { replay_checked=1; break; }
  [ "$rc" -eq 3 ] || fail "the replay does not reproduce the measured percentiles"
  [ "$attempt" -lt 3 ] && echo "     (attempt $((attempt + 1))${retry_prio:+ under '$retry_prio'}: the machine held a run back)"
done

# 3. Errors: exit codes of design.md, one line on stderr.
expect() {
  local code=$1 pattern=$2
  shift 2
  set +e
  "$@" >out 2>err
  local rc=$?
  set -e
  [ "$rc" -eq "$code" ] || fail "'$*' exited $rc, want $code ($(cat err))"
  grep -qF -- "$pattern" err || fail "'$*': stderr lacks '$pattern': $(cat err)"
  [ "$(wc -l <err)" -eq 1 ] || fail "'$*': stderr has more than one line"
  echo "ok   exit $code: $(cat err)"
}
expect 3 "no run with id 999" "$BENCH" export --histogram 999 --db "$db" -o left.txt
[ ! -e left.txt ] || fail "a failed export left its output file"
expect 2 "--ddir wants read, write, trim or total" "$BENCH" export --histogram "$run" --ddir sideways --db "$db"
expect 2 "say which format" "$BENCH" export --db "$db"
expect 3 "has no latency histogram for write" "$BENCH" export --histogram "$run" --ddir write --db "$db"
# A run stored from plain json (no bins).
run_job nobins json sim_lat=100us
"$BENCH" import --db "$db" nobins.json >/dev/null
nb=$(sqlite3 "$db" "SELECT id FROM run WHERE name = 'nobins'")
expect 3 "has no latency histogram" "$BENCH" export --histogram "$nb" --db "$db"
expect 3 "cannot write" "$BENCH" export --histogram "$run" --db "$db" -o "$tmp/no/such/dir/h.txt"
grep -qx ok <<<"$(sqlite3 "$db" "PRAGMA integrity_check")" || fail "the database is damaged"
grep -q "sim_hist=FILE" <<<"$("$BENCH" export --help)" || fail "export --help does not mention sim_hist"
if [ "$replay_checked" -eq 0 ]; then
  echo "sim_export: the other checks passed; the replay's percentiles could not be checked on this machine: skipped"
  exit 77
fi
echo "sim_export: all checks passed"
