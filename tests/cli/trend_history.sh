#!/bin/bash
# trend_history: `bench trend` on a stored history (acceptance 5 of the gate issue, whole command).
#
# A real bench database (gate_db.bash: schema.sql, rows as bench writes them) holds 40 nightly runs of one
# workload, labelled git-seq=1..40 and stored out of order, with IOPS 10000 +- 3% (seeded lognormal noise),
# -15% from build 15 on and +10% from build 30 on. bench trend --sort git-seq must report exactly those two
# change points (+-1 run) with the runs before and after them, exit 0 (the newest step is an improvement);
# with a history whose newest step is a drop it exits 1; --format json and markdown carry the same; --chart
# writes and draws a gnuplot chart. The database is not modified.
#
# Needs the command table entry for `trend` (bench/commands.c): without it the test fails.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
# shellcheck source=gate_db.bash
. "$BENCH_SRC/tests/cli/gate_db.bash"

if ! "$BENCH" trend --help >/dev/null 2>&1; then
	echo "FAIL: 'bench trend --help' failed: the command is missing from the command table (bench/commands.c)"
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/trend.db

# history DB SEQ-STEP2-FACTOR: 40 runs, the second step multiplies by the factor
history() {
	gate_db_create "$1" || fail "cannot create $1"
	gate_db_suite "$1" 1 branch main || fail "cannot add the suite"
	awk -v f2="$2" 'BEGIN {
		srand(42)
		for (i = 1; i <= 40; i++) {
			# Box-Muller; sigma = sqrt(log(1 + 0.03^2))
			u = rand(); v = rand(); z = sqrt(-2 * log(u)) * cos(6.283185307 * v)
			level = 10000 * (i >= 15 ? 0.85 : 1) * (i >= 30 ? f2 : 1)
			iops = level * exp(0.029993 * z)
			# stored out of order: even builds first
			id = (i % 2 == 0) ? i / 2 : 20 + (i + 1) / 2
			printf "INSERT INTO run(id, suite_id, seq, repetition, name, engine, status, started_at, tool, rw, "
			printf "bs_bytes, read_pct, random_pct, iodepth, numjobs, runtime_s) VALUES (%d, 1, %d, 1, '\''rr-4k'\'', ", id, id
			printf "'\''sim'\'', '\''done'\'', '\''2026-11-30T00:00:00Z'\'', '\''fio'\'', '\''randread'\'', 4096, 100, 100, 4, 1, 10);\n"
			printf "INSERT INTO run_label(run_id, key, value) VALUES (%d, '\''git-seq'\'', '\''%d'\'');\n", id, i
			printf "INSERT INTO result(run_id, host, ddir, ios, bytes, runtime_ms, iops, bw_bytes, lat_n, lat_mean_ns, "
			printf "pct_kind) VALUES (%d, '\''*'\'', '\''read'\'', %d, %d, 10000, %.3f, %.3f, %d, %.1f, '\''clat'\'');\n",
				id, iops * 10, iops * 10 * 4096, iops, iops * 4096, iops * 10, 4e9 / iops
			printf "INSERT INTO run_host(run_id, host, fio_version, error_code) VALUES (%d, '\''*'\'', '\''fio-3.33'\'', 0);\n", id
		}
	}' | "$GATE_SQLITE" "$1" || fail "cannot fill $1"
}

history "$db" 1.10
before=$(sqlite3 "$db" "SELECT count(*), total(iops) FROM result; PRAGMA user_version;" | md5sum)
"$BENCH" trend --db "$db" --sort git-seq --where branch=main --chart "$work/charts" >"$work/out" 2>"$work/err"
rc=$?
cat "$work/out" "$work/err"
[ $rc -eq 0 ] || fail "two steps, the newest up: expected exit 0, got $rc"
grep -q '^rr-4k (40 runs): 2 change points' "$work/out" || fail "not exactly two change points"
grep -Eq '^  at #(14|15|16): run [0-9]+ \(git-seq 1[456]\), after run [0-9]+ \(git-seq 1[345]\): -1[0-9]\.[0-9]% \[' \
	"$work/out" || fail "the -15% step at build 15 is not reported with its runs and size"
grep -Eq '^  at #(29|30|31): run [0-9]+ \(git-seq (29|30|31)\), .*: \+[0-9]+\.[0-9]% \[' "$work/out" ||
	fail "the +10% step at build 30 is not reported"
grep -q '^trend: OK' "$work/out" || fail "the newest segment is not OK"
ls "$work"/charts/trend-01-rr-4k.png "$work"/charts/trend-01-rr-4k.svg >/dev/null || fail "no chart drawn"
grep -q 'index 1 using 1:2 with lines' "$work"/charts/trend-01-rr-4k.gp || fail "the chart has no segment means"

"$BENCH" trend --db "$db" --sort git-seq --format json >"$work/out.json" || fail "--format json failed"
python3 - "$work/out.json" <<'EOF' || fail "the JSON does not carry the change points"
import json, sys
t = json.load(open(sys.argv[1]))
s = t["series"][0]
cps = [c["index"] + 1 for c in s["change_points"]]
assert len(cps) == 2 and abs(cps[0] - 15) <= 1 and abs(cps[1] - 30) <= 1, cps
assert [p["order"] for p in s["points"]][:3] == ["1", "2", "3"]
assert len(s["segments"]) == 3 and t["outcome"] == "OK"
print("json: change points at runs", cps)
EOF
"$BENCH" trend --db "$db" --sort git-seq --format markdown >"$work/out.md" || fail "--format markdown failed"
grep -q '^### bench trend: OK' "$work/out.md" || fail "the Markdown heading"
[ "$(grep -c '^| rr-4k | 40 | .*#[0-9]* run [0-9]* (git-seq' "$work/out.md")" -eq 2 ] || fail "the Markdown table has not two change points"
after=$(sqlite3 "$db" "SELECT count(*), total(iops) FROM result; PRAGMA user_version;" | md5sum)
[ "$before" = "$after" ] || fail "bench trend changed the database"

# the newest step a drop: exit 1
history "$db" 0.90
"$BENCH" trend --db "$db" --sort git-seq >"$work/out" 2>&1
rc=$?
cat "$work/out"
[ $rc -eq 1 ] || fail "the newest step a drop: expected exit 1, got $rc"
grep -q '^trend: REGRESSION' "$work/out" || fail "no REGRESSION headline"

# usage errors
"$BENCH" trend --db "$db" --metric nope >/dev/null 2>&1
[ $? -eq 2 ] || fail "--metric nope: expected exit 2"
"$BENCH" trend --db "$db" --sort no-such-label >/dev/null 2>"$work/err"
[ $? -eq 3 ] || fail "an order label no run has: expected exit 3"
echo "trend_history: ok"
