#!/bin/bash
# report_csv_import: `bench import --csv` of published results (docs/csv-format.md): the dataset as it is,
# --map for other column names, --label on every run, and bad files refused as a whole (exit 3, one line
# naming file and line, database row counts unchanged).
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/d.db
counts() { sqlite3 "$DB" "SELECT (SELECT count(*) FROM suite)||' '||(SELECT count(*) FROM run)||' '||(SELECT count(*) FROM result)||' '||(SELECT count(*) FROM cpu)"; }

"$BENCH" import --db "$DB" --csv "$EXAMPLE_CSV" --label source=habr >"$T/out" 2>&1 ||
	fail "import: $(cat "$T/out")"
[ "$(counts)" = "1 117 $(sqlite3 "$DB" "SELECT count(*) FROM result") 117" ] || fail "counts $(counts)"
[ "$(sqlite3 "$DB" "SELECT count(DISTINCT run_id) FROM run_label WHERE key='source' AND value='habr'")" = 117 ] ||
	fail "--label on every run"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM run_label WHERE key='article_label'")" = 0 ] || fail "article_label became a label"
# a stored figure equals the file's: nvmeof zfs-raidz 8k 70/30 fio row
row=$(sqlite3 "$DB" "SELECT r.tool, r.bs_bytes, r.read_pct, r.random_pct, t.iops, t.bw_bytes/1048576.0, rd.lat_mean_ns, wr.lat_mean_ns, c.util_pct
  FROM run r JOIN run_label a ON a.run_id=r.id AND a.key='transport' AND a.value='nvmeof'
  JOIN run_label b ON b.run_id=r.id AND b.key='stack' AND b.value='zfs-raidz'
  JOIN result t ON t.run_id=r.id AND t.host='*' AND t.ddir='total'
  JOIN result rd ON rd.run_id=r.id AND rd.host='*' AND rd.ddir='read'
  JOIN result wr ON wr.run_id=r.id AND wr.host='*' AND wr.ddir='write'
  JOIN cpu c ON c.run_id=r.id AND c.host='*' AND c.role='initiator' AND c.source='import'
  WHERE r.name='fio-8vmdk-100ws-8k-70rdpct-100randompct-4threads-50compress-50dedupe'")
want=$(grep '^nvmeof,zfs-raidz,fio-8vmdk-100ws-8k-70rdpct' "$EXAMPLE_CSV" | cut -d, -f8-12)
[ "$row" = "fio|8192|70|100|$(echo "$want" | cut -d, -f1)|$(echo "$want" | cut -d, -f2)|$(echo "$want" | cut -d, -f5 | awk '{printf "%.1f", $1*1e6}')|$(echo "$want" | cut -d, -f4 | awk '{printf "%.1f", $1*1e6}')|$(echo "$want" | cut -d, -f3)" ] ||
	fail "stored row '$row' vs file '$want'"

# --map: other column names
printf 'Test,Speed (IO/s),Box,Read Lat (us),junk\nt1,1000,b1,250,zz\n' > "$T/m.csv"
"$BENCH" import --db "$DB" --csv "$T/m.csv" --map 'Test=workload,Speed (IO/s)=iops,Box=label:host_group,junk=-' >/dev/null 2>"$T/err" ||
	fail "--map: $(cat "$T/err")"
"$BENCH" report --db "$DB" --where host_group=b1 --format csv > "$T/r.csv" || fail "report of mapped import"
grep -q '^b1,.*t1,1,0,1000,' "$T/r.csv" || fail "mapped import: $(cat "$T/r.csv")"
[ "$(sqlite3 "$DB" "SELECT lat_mean_ns FROM result r JOIN run ON run.id=r.run_id WHERE run.name='t1' AND ddir='read'")" = 250000.0 ] ||
	fail "Read Lat (us) -> 250000 ns"

# bad files: exit 3, one line with file and line, nothing stored
before=$(counts)
bad() {  # name content expected-message
	printf "$2" > "$T/$1"
	"$BENCH" import --db "$DB" --csv "$T/$1" >/dev/null 2>"$T/err"; rc=$?
	[ $rc = 3 ] || fail "$1: exit $rc ($(cat "$T/err"))"
	[ "$(wc -l < "$T/err")" = 1 ] || fail "$1: not one line: $(cat "$T/err")"
	grep -q "$1.*$3" "$T/err" || fail "$1: message '$(cat "$T/err")' lacks '$3'"
	[ "$(counts)" = "$before" ] || fail "$1: database changed"
}
bad empty.csv '' 'empty file'
bad nonum.csv 'workload,iops\nw,1\nv,fast\n' ":3: column 'iops': 'fast' is not a non-negative number"
bad fields.csv 'workload,iops\nw,1,2\n' ':2: 3 fields, the header has 2'
bad quote.csv 'workload,iops\n"w,1\n' ':2: a quoted field is not closed'
bad noname.csv 'stack,iops\nx,1\n' "no 'workload'"
mkdir "$T/dir.csv"
"$BENCH" import --db "$DB" --csv "$T/dir.csv" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 3 ] && grep -q 'dir.csv' "$T/err" || fail "directory: exit $rc $(cat "$T/err")"
"$BENCH" import --db "$DB" --csv "$T/m.csv" --map 'x=nosuchfield' >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown field 'nosuchfield'" "$T/err" || fail "bad --map: exit $rc $(cat "$T/err")"
[ "$(counts)" = "$before" ] || fail "database changed by a refused import"
echo "report_csv_import: ok"
