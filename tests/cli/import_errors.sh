#!/bin/bash
# import_errors: bad import input gives exit 3, exactly one stderr line naming the file, and leaves the
# database unchanged (issue 2, acceptance 4): a truncated JSON, a JSON document that is not fio's, an empty
# file and a directory; also a good file followed by a bad one in one command stores nothing.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
cd "$T"
good="$BENCH_SRC/tests/fixtures/fio/json/fio-3.33_12jobs_12groups.json"
"$BENCH" import --db t.db "$good" >/dev/null

counts() {
	sqlite3 t.db "SELECT (SELECT count(*) FROM suite), (SELECT count(*) FROM run), (SELECT count(*) FROM result),
		(SELECT count(*) FROM result_pct), (SELECT count(*) FROM result_bin), (SELECT count(*) FROM run_host),
		(SELECT count(*) FROM artifact), (SELECT count(*) FROM run_label), (SELECT count(*) FROM sample)"
}
before=$(counts)
[ "$before" != "0|0|0|0|0|0|0|0|0" ] || { echo "FAIL: the good import stored nothing" >&2; exit 1; }

head -c 40000 "$good" >truncated.json
printf '{\n  "name": "not fio",\n  "jobs": [1, 2]\n}\n' >notfio.json
: >empty.json
mkdir adir
printf 'fio: engine libaio not loadable\n' >textonly.json

fail=0
check() { # check WHAT ARGS...: exit 3, one stderr line naming the file, counts unchanged
	local what=$1 name=$2; shift 2
	local rc=0
	"$BENCH" import --db t.db "$@" >out.txt 2>err.txt || rc=$?
	local lines; lines=$(wc -l <err.txt)
	if [ "$rc" -ne 3 ]; then echo "FAIL $what: exit $rc, want 3" >&2; fail=1; fi
	if [ "$lines" -ne 1 ]; then echo "FAIL $what: $lines stderr lines, want 1:" >&2; cat err.txt >&2; fail=1; fi
	if ! grep -qF -- "$name" err.txt; then echo "FAIL $what: stderr does not name '$name': $(cat err.txt)" >&2; fail=1; fi
	if [ -s out.txt ]; then echo "FAIL $what: printed to stdout: $(cat out.txt)" >&2; fail=1; fi
	local now; now=$(counts)
	if [ "$now" != "$before" ]; then echo "FAIL $what: row counts changed $before -> $now" >&2; fail=1; fi
	echo "$what: exit $rc: $(cat err.txt)"
}
check "truncated JSON" truncated.json truncated.json
check "not fio JSON" notfio.json notfio.json
check "empty file" empty.json empty.json
check "directory" adir adir
check "text without JSON" textonly.json textonly.json
check "missing file" nosuch.json nosuch.json
check "good then bad" truncated.json "$good" truncated.json
exit $fail
