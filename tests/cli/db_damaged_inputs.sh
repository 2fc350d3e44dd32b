#!/bin/bash
# db_damaged_inputs: issue 26, defects 5 and 6.
#  - an SQLite file without tables whose user_version another program set (`PRAGMA user_version=7`) was called
#    "written by a newer bench": it is refused as not a bench database (exit 5, as any foreign --db file),
#    byte-unchanged;
#  - `bench db merge` of a damaged source was exit 3 or 5 depending on where the damage was: it is exit 3 (bad
#    input) for damage in the header, in a middle page and in the last page, and the database merged into is
#    unchanged (its dump compared).
. "$BENCH_SRC/tests/lib/common.sh"
CSV=$BENCH_SRC/examples/nvmeof-vs-iser-100g.csv

# an empty file with user_version=7
sqlite3 uv7.db 'PRAGMA user_version=7'
sum=$(sha256sum <uv7.db)
for cmd in "report" "import --csv $CSV" "db list"; do
	rc=0
	# shellcheck disable=SC2086
	"$BENCH" $cmd --db uv7.db >out.txt 2>err.txt || rc=$?
	expect_eq "'$cmd' on an empty file with user_version 7: exit" "$rc" 5
	expect_eq "'$cmd': the message" "$(cat err.txt)" \
		"bench: error: 'uv7.db' is not a bench database: an SQLite file without any table, its user_version set to 7 by another program (left unchanged)"
done
expect_eq "the user_version-7 file is byte-unchanged" "$(sha256sum <uv7.db)" "$sum"

# merge of damaged sources
"$BENCH" import --db src.db --csv "$CSV" >/dev/null 2>&1 || fail "import into src.db"
"$BENCH" import --db main.db --csv "$CSV" --label site=main >/dev/null 2>&1 || fail "import into main.db"
q src.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
pages=$(q src.db 'PRAGMA page_count')
psize=$(q src.db 'PRAGMA page_size')
[ "$pages" -ge 8 ] || fail "src.db has only $pages pages"
before=$(q main.db .dump | sha256sum)
damage() { # damage NAME OFFSET: a copy of src.db with 64 bytes of 0xff... at OFFSET
	cp src.db "$1"
	head -c 64 /dev/zero | tr '\0' '\377' | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
damage header.db 0
damage middle.db $(( (pages / 2) * psize + 8 ))
damage last.db $(( (pages - 1) * psize + 8 ))
for f in header middle last; do
	rc=0
	"$BENCH" db merge --db main.db "$f.db" >out.txt 2>err.txt || rc=$?
	expect_eq "merge of a source damaged in the $f: exit (err: $(cat err.txt))" "$rc" 3
	expect_eq "merge, damage in the $f: one error line" "$(wc -l <err.txt) $(grep -c "^bench: error: .*$f.db" err.txt)" "1 1"
	expect_eq "merge, damage in the $f: main.db unchanged" "$(q main.db .dump | sha256sum)" "$before"
done
rc=0
"$BENCH" db merge --db main.db src.db >out.txt 2>err.txt || rc=$?
expect_eq "merge of the intact source: exit (err: $(cat err.txt))" "$rc" 0
finish
