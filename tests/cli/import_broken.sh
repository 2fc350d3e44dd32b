#!/usr/bin/env bash
# import_broken: every file of tests/data/import-broken/ (figures fio, vdbench or a CSV cannot have written:
# negative counts, "iops":"lots", a negative runtime, IOs that disagree with IOPS x runtime, malformed bin keys,
# a job without results, ...) is refused with exit 3 and one stderr line naming the file (and, for fio JSON,
# the JSON path of the value), and the database's row counts are unchanged; the same with a good file before
# the bad one in one command. A FIFO and a character device are refused with exit 3 at once (no blocking).
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
. "$BENCH_SRC/tests/lib/common.sh"
DATA="$BENCH_SRC/tests/data"
good="$DATA/import-good.json"

"$BENCH" import --db t.db "$good" >/dev/null || fail "the good file does not import"
counts() {
	q t.db "SELECT (SELECT count(*) FROM suite), (SELECT count(*) FROM run), (SELECT count(*) FROM result),
		(SELECT count(*) FROM result_pct), (SELECT count(*) FROM result_bin), (SELECT count(*) FROM run_host),
		(SELECT count(*) FROM artifact), (SELECT count(*) FROM run_label), (SELECT count(*) FROM sample)"
}
before=$(counts)
[ "$before" != "0|0|0|0|0|0|0|0|0" ] || fail "the good import stored nothing"

check() { # check WHAT FILE WORD ARGS...: exit 3, one line naming FILE and WORD, counts unchanged
	local what=$1 file=$2 word=$3 rc
	shift 3
	timeout 20 "$BENCH" import --db t.db "$@" >out.txt 2>err.txt
	rc=$?
	expect_eq "$what: exit" "$rc" 3
	expect_eq "$what: stderr lines" "$(wc -l <err.txt)" 1
	if grep -qF -- "$file" err.txt && grep -qF -- "$word" err.txt; then ok "$what: message"
	else fail "$what: message lacks '$word': $(cat err.txt)"; fi
	expect_eq "$what: row counts" "$(counts)" "$before"
}

n=0
for f in "$DATA"/import-broken/*; do
	name=$(basename "$f")
	case $name in
	*.csv) check "$name" "$name" ":2:" --csv "$f" ;;
	vdbench-*) check "$name" "$name" "flatfile.html" "$f" ;;
	*.json)
		# the JSON path of the bad value: jobs[N] (and the key for value errors)
		check "$name" "$name" "jobs[" "$f"
		check "$name after a good file" "$name" "jobs[" "$good" "$f" ;;
	esac
	n=$((n + 1))
done
[ "$n" -ge 13 ] && ok "$n broken inputs" || fail "only $n broken inputs found"

# a FIFO nobody writes to, and a character device: refused at once
mkfifo pipe.json
start=$(date +%s)
check "a FIFO" pipe.json "FIFO" pipe.json
check "a FIFO as --csv" pipe.json "FIFO" --csv pipe.json
[ $(($(date +%s) - start)) -lt 10 ] && ok "FIFO refused without blocking" || fail "FIFO: took $(($(date +%s) - start)) s"
check "a character device" /dev/zero "character device" /dev/zero
finish
