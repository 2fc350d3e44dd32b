#!/usr/bin/env bash
# store_safety: the database file's ownership and concurrency rules through whole commands (issue 18).
#  - --db "" and --db DIRECTORY: exit 2 (import, report, run);
#  - another application's SQLite file: exit 5 for import, report and run, and the file is byte-unchanged
#    (no tables added, no WAL, no user_version);
#  - a damaged database (a page overwritten): report and import exit 5 saying "damaged";
#  - 8 `bench import` processes creating one new database at once, 30 times: all 240 succeed;
#  - a second `bench run --resume` while the suite runs: exit 5 naming the PID and host of the first, and the
#    running run's row is untouched; the first finishes with its run done, one run row;
#  - a read-only directory (a read-only bind mount): report reads (exit 0), import says "Read-only" (exit 5);
#  - a full disk at the results commit (a 1 MiB tmpfs, when this host lets root mount one): exit 5 with the
#    cause, no "done" line for that run, the run left 'running'.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
. "$BENCH_SRC/tests/lib/common.sh"
good="$BENCH_SRC/tests/data/import-good.json"

# --db must name a file
mkdir adir
printf '[w]\nioengine=null\nsize=1m\n' >w.fio
for cmd in "import $good" "report" "run w.fio"; do
	# shellcheck disable=SC2086
	"$BENCH" $cmd --db "" >/dev/null 2>err.txt
	rc=$?
	expect_eq "'$cmd --db \"\"': exit (err: $(cat err.txt))" "$rc" 2
	# shellcheck disable=SC2086
	"$BENCH" $cmd --db adir >/dev/null 2>err.txt
	rc=$?
	expect_eq "'$cmd --db adir': exit (err: $(cat err.txt))" "$rc" 2
done

# another application's database
sqlite3 foreign.db "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('x');"
sum=$(sha256sum <foreign.db)
for cmd in "import $good" "report" "run w.fio"; do
	# shellcheck disable=SC2086
	"$BENCH" $cmd --db foreign.db >/dev/null 2>err.txt
	rc=$?
	expect_eq "'$cmd' on a foreign database: exit (err: $(cat err.txt))" "$rc" 5
	expect_eq "'$cmd': one error line" "$(wc -l <err.txt)" 1
done
expect_eq "the foreign database is byte-unchanged" "$(sha256sum <foreign.db)" "$sum"
[ ! -e foreign.db-wal ] && ok "no WAL file beside it" || fail "a WAL file was created"

# a damaged database
"$BENCH" import --db damaged.db "$good" >/dev/null || fail "import into damaged.db"
sqlite3 damaged.db "PRAGMA journal_mode=DELETE; CREATE TABLE pad(x);
	WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000) INSERT INTO pad SELECT randomblob(200) FROM c;" >/dev/null
size=$(stat -c %s damaged.db)
python3 -c "
import sys
f = open('damaged.db', 'r+b'); f.seek(($size // 4096 // 2) * 4096); f.write(bytes((i * 7 + 3) % 256 for i in range(4096)))"
for cmd in report "import $good"; do
	# shellcheck disable=SC2086
	"$BENCH" $cmd --db damaged.db >/dev/null 2>err.txt
	rc=$?
	expect_eq "'$cmd' on a damaged database: exit" "$rc" 5
	grep -q "damaged" err.txt && ok "'$cmd' says damaged" || fail "'$cmd': $(cat err.txt)"
done

# 8 processes creating one database at once, 30 times
bad=0
for trial in $(seq 30); do
	rm -f race.db race.db-wal race.db-shm
	pids=()
	for k in $(seq 8); do
		"$BENCH" import --again --db race.db "$good" >/dev/null 2>"race.$k.err" &
		pids+=($!)
	done
	for k in $(seq 8); do
		wait "${pids[$((k - 1))]}" || { bad=$((bad + 1)); echo "trial $trial: $(cat "race.$k.err")"; }
	done
	[ "$(q race.db 'SELECT count(*) FROM suite')" = 8 ] || { bad=$((bad + 1)); echo "trial $trial: suites $(q race.db 'SELECT count(*) FROM suite')"; }
done
expect_eq "8 processes x 30 trials creating one database: failures" "$bad" 0

# a second --resume while the suite runs
printf '[slow]\nioengine=psync\nrw=randread\nbs=4k\nsize=4m\ntime_based\nruntime=6\n' >slow.fio
"$BENCH" run slow.fio --db lock.db --target "$T/lock.dat" -q >first.out 2>first.err &
first=$!
wait_one lock.db "SELECT count(*) FROM run WHERE status = 'running'" 100
started=$(q lock.db "SELECT started_at FROM run")
"$BENCH" run slow.fio --db lock.db --target "$T/lock.dat" --resume -q >second.out 2>second.err
rc=$?
expect_eq "second --resume on a running suite: exit" "$rc" 5
grep -q "PID $first on host '$(hostname)'" second.err && ok "it names PID $first and the host" ||
	fail "message: $(cat second.err)"
expect_eq "the running run's row is untouched" "$(q lock.db "SELECT started_at || status FROM run")" "${started}running"
wait "$first"
rc=$?
expect_eq "the first run: exit (err: $(cat first.err))" "$rc" 0
expect_eq "one run row, done" "$(q lock.db "SELECT count(*) || status FROM run")" "1done"
expect_eq "the lock is gone" "$(q lock.db "SELECT count(*) FROM suite_lock")" 0

# a full disk at the commit of the results
mkdir full
if mount -t tmpfs -o size=1m tmpfs full 2>/dev/null; then
	cleanup_hooks+=("umount '$T/full'")
	printf '[four]\nioengine=psync\nrw=randread\nbs=4k\nsize=4m\ntime_based\nruntime=1\n' >four.fio
	# leave less and less room until the run row (begin) fits and the results (fio's json+ output) do not
	hit=0
	for room in $(seq 200000 -8000 40000); do
		rm -f full/*
		"$BENCH" import --db full/b.db "$good" >/dev/null 2>&1 || continue
		head -c "$(($(df --output=avail -B1 full | tail -1) - room))" /dev/zero >full/filler 2>/dev/null
		"$BENCH" run four.fio --db full/b.db --target "$T/full.dat" >full.out 2>full.err
		rc=$?
		if [ "$(q full/b.db "SELECT status FROM run ORDER BY id DESC LIMIT 1" 2>/dev/null)" = running ]; then
			hit=1
			break
		fi
	done
	if [ $hit = 1 ]; then
		expect_eq "full disk at the results commit ($room bytes left): exit" "$rc" 5
		grep -q "disk is full" full.err && ok "the error says the disk is full" || fail "message: $(cat full.err)"
		grep -q ": done" full.err && fail "a 'done' line was printed: $(cat full.err)" || ok "no 'done' line"
	else
		fail "no room size made the results commit fail"
	fi
else
	echo "NOTE: cannot mount a tmpfs here: full-disk check skipped"
fi
# a read-only directory
mkdir rosrc rodir
"$BENCH" import --db rosrc/b.db "$good" >/dev/null || fail "import into rosrc"
if mount --bind rosrc rodir 2>/dev/null && mount -o remount,ro,bind rodir 2>/dev/null; then
	cleanup_hooks+=("umount '$T/rodir'")
	"$BENCH" report --db rodir/b.db >/dev/null 2>err.txt
	rc=$?
	expect_eq "report in a read-only directory (err: $(cat err.txt))" "$rc" 0
	"$BENCH" import --db rodir/b.db "$good" >/dev/null 2>err.txt
	rc=$?
	expect_eq "import in a read-only directory: exit" "$rc" 5
	grep -q "Read-only file system" err.txt && ok "the cause is named" || fail "message: $(cat err.txt)"
else
	echo "NOTE: cannot bind-mount read-only here: read-only check skipped"
fi
finish
