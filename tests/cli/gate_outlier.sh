#!/bin/bash
# gate_outlier: a paired gate with one outlier pair among consistent -10% pairs (issue 30, acceptance 3).
#
# A stored database (CSV import, docs/csv-format.md): 6 interleaved pairs of one workload, the baseline at
# ~3000 IOPS, the candidate 10% slower in 5 pairs and 18% faster in pair 2 (a noisy pair). The outlier check
# sends the cell to the 20%-trimmed t interval, which is bounded with few pairs where the exact signed-rank
# interval was "unbounded": bench gate --paired must say REGRESSION (exit 1) with a finite interval around
# -10% in the text and the JSON, name the outlier pair, and leave the database as it was. With 4 pairs (the
# case of issue 30) the verdict is the same.
. "$BENCH_SRC/tests/lib/common.sh"

# make_db DB PAIRS: PAIRS pairs, pair 2 the outlier
make_db() {
	printf 'workload,bs,rdpct,randpct,repetition,iops\n' >"$T/old.csv"
	cp "$T/old.csv" "$T/new.csv"
	for r in $(seq "$2"); do
		c=$((2702 - r))
		[ "$r" = 2 ] && c=3540
		echo "rr,4k,100,100,$r,$((2998 + r))" >>"$T/old.csv"
		echo "rr,4k,100,100,$r,$c" >>"$T/new.csv"
	done
	"$BENCH" import --db "$1" --csv "$T/old.csv" --label build=old >/dev/null 2>"$T/err" &&
		"$BENCH" import --db "$1" --csv "$T/new.csv" --label build=new >/dev/null 2>>"$T/err" ||
		fail "import: $(cat "$T/err")"
}

for pairs in 6 4; do
	db=$T/g$pairs.db
	make_db "$db" "$pairs"
	before=$(q "$db" .dump | sha256sum)
	"$BENCH" gate --db "$db" --paired --baseline build=old --candidate build=new --json "$T/g.json" >"$T/out" 2>"$T/err"
	expect_eq "$pairs pairs: exit" "$?" 1
	grep -q '^REGRESSION  rr  *read IOPS .*\[-1[01]\.[0-9]%, -[89]\.[0-9]%\]' "$T/out" &&
		ok "$pairs pairs: REGRESSION with a bounded interval" || fail "$pairs pairs: $(cat "$T/out" "$T/err")"
	grep -q 'the pair of runs 2/[0-9]* is an outlier: 20%-trimmed t interval' "$T/out" &&
		ok "$pairs pairs: the outlier pair named" || fail "$pairs pairs: no outlier note: $(cat "$T/out")"
	grep -q 'unbounded' "$T/out" && fail "$pairs pairs: an unbounded interval" || ok "$pairs pairs: no unbounded interval"
	got=$(python3 - "$T/g.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def cells(o):
    if isinstance(o, dict):
        if "verdict" in o and "ci_low" in o:
            yield o
        for v in o.values():
            yield from cells(v)
    elif isinstance(o, list):
        for v in o:
            yield from cells(v)
c = [x for x in cells(d) if x.get("verdict") == "REGRESSION"]
ok = len(c) == 1 and all(isinstance(c[0][k], (int, float)) and math.isfinite(c[0][k]) for k in ("ci_low", "ci_high"))
print("bounded" if ok and 0.85 < c[0]["ci_low"] < c[0]["ci_high"] < 0.95 else "not bounded: %s" % c)
PY
)
	expect_eq "$pairs pairs: JSON interval" "$got" bounded
	expect_eq "$pairs pairs: database unchanged" "$(q "$db" .dump | sha256sum)" "$before"
done
finish
