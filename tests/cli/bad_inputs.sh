#!/usr/bin/env bash
# bad_inputs (hardening issue, acceptance 3): a corpus of at least 200 bad inputs across every format bench reads
# and its command line. Each must exit 2 (usage) or 3 (bad input) with exactly one line on stderr, and leave the
# database exactly as it was (row counts of every table). The corpus is the hand-written broken files of
# tests/data/profiles-broken and tests/data/import-broken, plus inputs made here from the real fixtures:
#   - every single-document fio JSON fixture cut inside its JSON at 10 places (fio never writes half a document);
#   - figures fio cannot write put into each fio JSON fixture (a string for iops, negative IOs, runtime, bins);
#   - the published CSV with a non-number, a negative figure and a missing column in one row;
#   - fio logs with a non-number, a negative time and a missing column;
#   - vdbench output directories whose flatfile lost its header, or holds a non-number;
#   - command lines: an unknown option and an option without its value, for every command;
#   - exports of labels that collide once written (OpenMetrics and InfluxDB, to a file and as a push); and
#     exports of labels holding invalid UTF-8, which must succeed with valid UTF-8 in every format.
. "$BENCH_SRC/tests/lib/common.sh"
FX=$BENCH_SRC/tests/fixtures
mkdir -p bad
n_cases=0

# A database holding one good import: its row counts must not move.
"$BENCH" import "$FX/fio/json/fio-3.33_jsonplus_randread_bins.json" --db d.db >/dev/null 2>&1 || fail "good import"
run_id=$(q d.db "SELECT min(id) FROM run")
counts() {
	for t in $(q d.db "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"); do
		printf '%s=%s ' "$t" "$(q d.db "SELECT count(*) FROM \"$t\"")"
	done
}
before=$(counts)

bad=0
check() { # check WHAT ARGS...: exit 2 or 3, one stderr line, the database unchanged
	local what=$1 rc
	shift
	n_cases=$((n_cases + 1))
	"$BENCH" "$@" >out.txt 2>err.txt </dev/null
	rc=$?
	if [ "$rc" != 2 ] && [ "$rc" != 3 ]; then
		fail "$what: exit $rc, want 2 or 3 ($(head -c 200 err.txt))"
		bad=$((bad + 1))
	elif [ "$(wc -l <err.txt)" != 1 ]; then
		fail "$what: $(wc -l <err.txt) stderr lines, want 1"
		bad=$((bad + 1))
	fi
}

# hand-written broken profiles (plan) and imports
for f in "$BENCH_SRC"/tests/data/profiles-broken/*; do
	check "plan $(basename "$f")" plan "$f" --target x.dat
done
for f in "$BENCH_SRC"/tests/data/import-broken/*; do
	case "$f" in
	*.csv) check "import --csv $(basename "$f")" import --csv "$f" --db d.db ;;
	*) check "import $(basename "$f")" import "$f" --db d.db ;;
	esac
done

# fio JSON cut inside its only document, at 10 places
for f in "$FX"/fio/json/*.json; do
	[ "$(grep -c '^{' "$f")" = 1 ] || continue
	size=$(stat -c %s "$f")
	first=$(grep -b -m1 '^{' "$f" | cut -d: -f1)
	for k in 1 2 3 4 5 6 7 8 9 10; do
		cut_at=$((first + (size - first) * k / 11))
		head -c "$cut_at" "$f" >"bad/cut$k-$(basename "$f")"
		check "import $(basename "$f") cut at $cut_at" import "bad/cut$k-$(basename "$f")" --db d.db
	done
done

# figures fio cannot have written (single-document files: in several documents the last one counts)
for f in "$FX"/fio/json/*.json; do
	[ "$(grep -c '^{' "$f")" = 1 ] || continue
	b=$(basename "$f" .json)
	sed '0,/"iops" : [0-9.]*/s//"iops" : "lots"/' "$f" >"bad/$b-iops-lots.json"
	sed '0,/"total_ios" : [0-9]*/s//"total_ios" : -5/' "$f" >"bad/$b-ios-negative.json"
	sed '0,/"runtime" : [0-9]*/s//"runtime" : -3/' "$f" >"bad/$b-runtime-negative.json"
	sed '0,/"iops" :/s//"io\\u0000ps" :/' "$f" >"bad/$b-nul-in-key.json" # cJSON would read the key as "io"
	for m in iops-lots ios-negative runtime-negative nul-in-key; do
		cmp -s "$f" "bad/$b-$m.json" && continue # the fixture has no such field (fio 2.x names)
		check "import $b with $m" import "bad/$b-$m.json" --db d.db
	done
done

# files that are not what they claim
printf '' >bad/empty.json
printf '{"hello": 1}\n' >bad/not-fio.json
printf '\x7fELF\x02\x01\x01\x00\x00\x00' >bad/binary.json
mkdir -p bad/empty-dir
for f in bad/empty.json bad/not-fio.json bad/binary.json bad/empty-dir; do
	check "import $f" import "$f" --db d.db
done

# the published CSV with one bad row
csv=$BENCH_SRC/examples/nvmeof-vs-iser-100g.csv
awk -F, -v OFS=, 'NR == 5 { $8 = "lots" } 1' "$csv" >bad/csv-iops-lots.csv
awk -F, -v OFS=, 'NR == 5 { $8 = "-284723" } 1' "$csv" >bad/csv-iops-negative.csv
awk -F, -v OFS=, 'NR == 5 { NF = 6 } 1' "$csv" >bad/csv-short-row.csv
printf '' >bad/csv-empty.csv
awk -F, -v OFS=, 'NR == 5 { $5 = "4q" } 1' "$csv" >bad/csv-bs-not-a-size.csv
awk -F, -v OFS=, 'NR == 5 { $6 = "170" } 1' "$csv" >bad/csv-rdpct-170.csv
awk -F, -v OFS=, 'NR == 5 { $11 = "-0.17" } 1' "$csv" >bad/csv-latency-negative.csv
for f in bad/csv-*.csv; do
	check "import --csv $(basename "$f")" import --csv "$f" --db d.db
done

# fio logs with a bad line (as a run's time series: --run)
for f in "$FX"/fio/logs/*avg*.log; do
	b=$(basename "$f" .log)
	awk 'NR == 3 { $0 = "12x, 5, 0, 4096" } 1' "$f" >"bad/$b-time-word.1.log"
	awk 'NR == 3 { $0 = "-1000, 5, 0, 4096" } 1' "$f" >"bad/$b-time-negative.1.log"
	awk 'NR == 3 { $0 = "1000" } 1' "$f" >"bad/$b-one-column.1.log"
	for m in time-word time-negative one-column; do
		check "import $b ($m) --run" import "bad/$b-$m.1.log" --run "$run_id" --db d.db
	done
done

# vdbench output directories: header gone, a word in a number column
for d in "$FX"/vdbench/outputs/*/; do
	b=$(basename "$d")
	cp -r "$d" "bad/$b-noheader"
	grep -v '^ ' "$d/flatfile.html" >"bad/$b-noheader/flatfile.html"
	check "import $b without its header" import "bad/$b-noheader" --db d.db
	cp -r "$d" "bad/$b-word"
	awk '!/^\*/ && / avg_/ && !done { $5 = "many"; done = 1 } 1' "$d/flatfile.html" >"bad/$b-word/flatfile.html"
	check "import $b with a word for a number" import "bad/$b-word" --db d.db
done

# every command: an unknown option, and an option without its value
for c in $("$BENCH" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	[ "$c" = help ] || [ "$c" = version ] && continue
	check "$c --no-such-option" "$c" --no-such-option --db d.db
	check "$c --db (no value)" "$c" --db
done

# exports whose labels collide once written (a.b, a_b, a-b -> OpenMetrics a_b; run, label_run -> label_run),
# in a database of their own (d.db's counts are those of the cases above); and labels with invalid UTF-8,
# which are no error: every format must come out as valid UTF-8.
"$BENCH" import "$BENCH_SRC/tests/data/import-good.json" --db e.db --label a.b=1 --label a_b=2 --label a-b=3 \
	--label run=4 --label label_run=5 --label $'bad=\xff\xfe\xe2\x82' >/dev/null 2>&1 || fail "import e.db"
e_before=$(q e.db "SELECT count(*) FROM run_label")
for f in openmetrics influx; do
	check "export --format $f with colliding labels" export --format "$f" --db e.db
	check "export --format $f --push with colliding labels" export --format "$f" --push http://127.0.0.1:9/ \
		--retries 0 --db e.db
done
expect_eq "e.db labels after the refused exports" "$(q e.db "SELECT count(*) FROM run_label")" "$e_before"
for t in run_label suite_label; do q e.db "DELETE FROM $t WHERE key IN ('a-b', 'a_b', 'label_run')"; done
for f in csv json influx openmetrics; do
	"$BENCH" export --format $f --db e.db >"e.$f" 2>/dev/null &&
		python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "e.$f" 2>/dev/null &&
		grep -q $'\xef\xbf\xbd' "e.$f" && ok "export --format $f of invalid UTF-8: valid, with U+FFFD" ||
		fail "export --format $f of invalid UTF-8"
done

# the plan/run side of issue 26's smaller defects: a job file over the section limit (refused before expansion),
# a configuration step on a host no hosts file names, a hosts file address that is no IPv4 address, a damaged
# merge source (one exit code wherever the damage is)
awk 'BEGIN { for (i = 0; i < 100001; i++) printf "[j%d]\nrw=read\n", i }' >bad/many-sections.fio
check "plan of a job file over the section limit" plan bad/many-sections.fio --target x.dat
check "run of a job file over the section limit" run bad/many-sections.fio --target x.dat --db d.db
write_lines bad/nohost.suite '[suite]' 'name = nohost' '[config c]' 'setup = @nohost true' '[workload w]' rw=read \
	bs=4k size=1m runtime=1
check "plan: a step on a host without a hosts file" plan bad/nohost.suite --target x.dat
check "run: a step on a host without a hosts file" run bad/nohost.suite --target x.dat --db d.db
printf 'h1 999.1.1.1\n' >bad/ip.hosts
check "hosts file address 999.1.1.1" hosts check --hosts bad/ip.hosts
check "run with hosts file address 999.1.1.1" run bad/nohost.suite --hosts bad/ip.hosts --db d.db
cp d.db bad/src.db
python3 -c "
import sys
f = open('bad/src.db', 'r+b'); f.seek(0); f.write(b'garbage' * 8)"
check "db merge of a damaged file" db merge bad/src.db --db d.db

after=$(counts)
expect_eq "row counts of every table after $n_cases bad inputs" "$after" "$before"
[ "$n_cases" -ge 200 ] && ok "$n_cases bad inputs tried ($bad misbehaved)" || fail "only $n_cases bad inputs (want >= 200)"
finish
