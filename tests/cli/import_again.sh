#!/usr/bin/env bash
# import_again (issue 26, defect 4): a file imported again is recognised by its content (SHA-256, stored as the
# artifact import.sha256 of its first run) and skipped with a note on stderr, exit 0, nothing stored; --again
# stores it anyway. For fio JSON, a fio log (as a run of its own), a vdbench output directory and a CSV table;
# also under another name, twice in one command, and a changed file is new. sha256sum gives the digest.
. "$BENCH_SRC/tests/lib/common.sh"
FX=$BENCH_SRC/tests/fixtures
cp "$BENCH_SRC/tests/data/import-good.json" a.json
cp "$FX/fio/logs/fio-3.33_randrw70_avg500_iops.1.log" x_iops.1.log
cp -r "$FX/vdbench/outputs/single-host-quicktest-50407" vdb
cp "$BENCH_SRC/examples/nvmeof-vs-iser-100g.csv" pub.csv
runs() { q t.db "SELECT count(*) FROM run"; }
rows() { q t.db "SELECT (SELECT count(*) FROM run) || '|' || (SELECT count(*) FROM result) || '|' ||
	(SELECT count(*) FROM sample) || '|' || (SELECT count(*) FROM suite)"; }

for src in a.json x_iops.1.log vdb "--csv pub.csv"; do
	name=${src#--csv }
	# shellcheck disable=SC2086
	"$BENCH" import --db t.db $src >out.txt 2>err.txt || fail "$name: first import exited $?"
	first=$(q t.db "SELECT min(id) FROM run WHERE suite_id = (SELECT max(id) FROM suite)")
	n=$(q t.db "SELECT count(*) FROM run WHERE suite_id = (SELECT max(id) FROM suite)")
	[ "$n" -ge 1 ] && ok "$name: first import stored $n runs" || fail "$name: first import stored nothing"
	if [ -d "$name" ]; then
		want=$( (cd "$name" && for f in $(ls | LC_ALL=C sort); do [ -f "$f" ] || continue
			printf '%s\0%s\0' "$f" "$(stat -c %s "$f")"; cat "$f"; done) | sha256sum | cut -c1-64)
	else
		want=$(sha256sum "$name" | cut -c1-64)
	fi
	expect_eq "$name: stored digest" "$(q t.db "SELECT content FROM artifact WHERE run_id = $first AND
		name = 'import.sha256'")" "$want"
	before=$(rows)
	rc=0
	# shellcheck disable=SC2086
	"$BENCH" import --db t.db $src >out.txt 2>err.txt || rc=$?
	expect_eq "$name: import again: exit" "$rc" 0
	expect_eq "$name: import again: stderr" "$(cat err.txt)" \
		"bench: note: $name: already imported as run $first: skipped; --again stores it anyway"
	expect_eq "$name: import again: stdout" "$(cat out.txt)" "imported 0 runs from $name (already imported as run $first)"
	expect_eq "$name: rows after the import again" "$(rows)" "$before"
	# shellcheck disable=SC2086
	"$BENCH" import --db t.db --again $src >out.txt 2>err.txt || fail "$name: --again exited $?"
	expect_eq "$name: runs after --again" "$(runs)" "$((${before%%|*} + n))"
	[ ! -s err.txt ] && ok "$name: --again is silent" || fail "$name: --again said $(cat err.txt)"
done

# Another name, the same bytes: skipped as the first one. Twice in one command: stored once.
cp a.json copy-of-a.json
rc=0; "$BENCH" import --db t.db copy-of-a.json 2>err.txt >/dev/null || rc=$?
expect_eq "a copy under another name: exit" "$rc" 0
grep -q "copy-of-a.json: already imported as run 1: skipped" err.txt && ok "a copy is recognised as run 1" ||
	fail "copy: $(cat err.txt)"
cp a.json fresh.json
printf '\n' >>fresh.json # one byte more: another file
"$BENCH" import --db n.db fresh.json fresh.json >out.txt 2>err.txt || fail "twice in one command: exit $?"
expect_eq "twice in one command: runs" "$(q n.db "SELECT count(*) FROM run")" 3
expect_eq "twice in one command: the second skipped" "$(cat err.txt)" \
	"bench: note: fresh.json: already imported as run 1: skipped; --again stores it anyway"
"$BENCH" import --db n.db a.json >/dev/null 2>err.txt || fail "a changed file: exit $?"
expect_eq "a file that differs by one byte is new: runs" "$(q n.db "SELECT count(*) FROM run")" 6

# A log attached to a run (--run) replaces its series: no digest, nothing skipped.
run=$(q t.db "SELECT min(id) FROM run")
"$BENCH" import --db t.db --run "$run" x_iops.1.log >/dev/null 2>err.txt || fail "--run import exited $?"
"$BENCH" import --db t.db --run "$run" x_iops.1.log >out.txt 2>err.txt || fail "--run import again exited $?"
expect_eq "--run import again: stdout" "$(cat out.txt)" "imported x_iops.1.log time series into run $run"
[ ! -s err.txt ] && ok "--run import again: no note" || fail "--run: $(cat err.txt)"
finish
