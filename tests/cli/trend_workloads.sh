#!/bin/bash
# trend_workloads: `bench trend` keeps workloads apart (issue 30, acceptance 4, whole command).
#
# A CSV with 12 runs each of workloads A (100 IOPS) and B (50 IOPS) and no bs/rdpct columns gives both the
# same identity items. Series are one workload by the rule of `bench report`'s rows (name and identity), so
# the trend has two series, "A (12 runs)" with mean 100 and "B (12 runs)" with mean 50, and no change point;
# before, one series "A (24 runs)" held both. The report shows the same two rows. The database is not modified.
# Then the second part of acceptance 4 through the whole command: one workload with a step at run 8 (100 ->
# 125) and a short final segment of 5 wild runs (tests/unit/test_trend.c test_step_beside_noisy_tail): the
# best split of the whole series is not significant, the search of its sides finds the step at index 8.
. "$BENCH_SRC/tests/lib/common.sh"

db=$T/two.db
{
	echo "workload,repetition,iops"
	for i in $(seq 12); do
		echo "A,$i,100"
		echo "B,$i,50"
	done
} >"$T/two.csv"
"$BENCH" import --db "$db" --csv "$T/two.csv" >"$T/out" 2>&1 || fail "import: $(cat "$T/out")"
before=$(q "$db" .dump | sha256sum)

"$BENCH" trend --db "$db" >"$T/trend.txt" 2>"$T/err"
expect_eq "bench trend exit" "$?" 0
grep -q '^A (12 runs): 0 change points$' "$T/trend.txt" && ok "series A alone" ||
	fail "no series 'A (12 runs)': $(cat "$T/trend.txt" "$T/err")"
grep -q '^B (12 runs): 0 change points$' "$T/trend.txt" && ok "series B alone" ||
	fail "no series 'B (12 runs)': $(cat "$T/trend.txt")"
grep -q '24 runs' "$T/trend.txt" && fail "a series of 24 runs: $(cat "$T/trend.txt")" || ok "no series of 24 runs"

"$BENCH" trend --db "$db" --format json >"$T/trend.json" 2>"$T/err" || fail "trend --format json: $(cat "$T/err")"
got=$(python3 - "$T/trend.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%d:%s:%.2f" % (s["workload"], len(s["points"]), len(s["change_points"]), s["segments"][-1]["mean"])
               for s in sorted(d["series"], key=lambda s: s["workload"])))
PY
)
expect_eq "series (workload:runs:change points:mean)" "$got" "A:12:0:100.00 B:12:0:50.00"

"$BENCH" report --db "$db" --format csv >"$T/report.csv" 2>"$T/err" || fail "report: $(cat "$T/err")"
expect_eq "report rows" "$(grep -c '^\(A\|B\),\|,A,\|,B,' "$T/report.csv")" 2
expect_eq "database unchanged" "$(q "$db" .dump | sha256sum)" "$before"

db=$T/step.db
{
	echo "workload,repetition,iops"
	i=0
	for v in 97 101 99 99 103 102 99 101 123 126 127 124 126 125 125 125 125 128 127 126 166 290 332 299 286; do
		i=$((i + 1))
		echo "S,$i,$v"
	done
} >"$T/step.csv"
"$BENCH" import --db "$db" --csv "$T/step.csv" >"$T/out" 2>&1 || fail "import: $(cat "$T/out")"
"$BENCH" trend --db "$db" --format json >"$T/step.json" 2>"$T/err" || fail "trend: $(cat "$T/err")"
got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(" ".join("%s:%s" % (s["workload"], ",".join(str(c["index"]) for c in s["change_points"])) for s in d["series"]))' "$T/step.json")
expect_eq "step at 8 beside a short wild tail (workload:change point indexes)" "$got" "S:8"
finish
