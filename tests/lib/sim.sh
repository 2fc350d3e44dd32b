# The start of the tests that run fio with bench's sim ioengine, and the runs several of them make.
# Source it: . "$BENCH_SRC/tests/lib/sim.sh"; then `sim_required NAME` (the engine built, else NAME has
# nothing to test and exits 77, ctest: skipped; fio installed). sim_blocks calls the test's fail().

sim_required() { # sim_required TEST [HINT]: sets SO, the sim engine's shared object
	: "${BENCH_BUILD:?BENCH_BUILD is not set (run under ctest)}"
	SO=$BENCH_BUILD/engines/sim/bench_sim.so
	if [ ! -f "$SO" ]; then
		if grep -q '^BENCH_SIM:BOOL=OFF' "$BENCH_BUILD/CMakeCache.txt" 2>/dev/null; then
			echo "$1: built with -DBENCH_SIM=OFF: nothing to test (skipped)"
			exit 77
		fi
		echo "FAIL: $SO is missing${2:+ ($2)}" >&2
		exit 1
	fi
	command -v fio >/dev/null || { echo "FAIL: fio is not installed" >&2; exit 1; }
}

# sim_fio DIR NAME OPTION...: fio runs DIR/NAME.fio, the job [NAME] on the sim engine with these option lines
# (its JSON in DIR/NAME.json, its stderr in DIR/NAME.err, $prio before fio if set); a failure stops the test.
sim_gate_begin() { # sim_gate_begin TEST: into $T (failfast.sh) with db=$T/gate.db and start, the time it began
	# (for the closing "ok in N s"); with BENCH_LIVE=1 also sim_required TEST (the runs are made here)
	[ "${BENCH_LIVE:-0}" = 1 ] && sim_required "$1"
	cd "$T" || fail "cannot enter $T"
	db=$T/gate.db
	start=$(date +%s)
}

# The gate's statistics are checked on stored runs with known figures: a recording of the test's own runs
# (tests/fixtures/gate/TEST.sql.gz, real fio on the sim engine, made by scripts/perf/gate_live.sh --record on an
# idle machine; tests/fixtures/gate/README.md says when and where). sim_recorded TEST loads it into $db and
# returns 0; with BENCH_LIVE=1 it returns 1 and the test makes its runs here (scripts/perf/gate_live.sh), and
# sim_record TEST then keeps them when BENCH_RECORD_DIR is set.
sim_recorded() {
	local f=$BENCH_SRC/tests/fixtures/gate/$1.sql.gz
	[ "${BENCH_LIVE:-0}" = 1 ] && return 1
	[ -f "$f" ] || fail "$f is missing (scripts/perf/gate_live.sh --record makes it)"
	gzip -dc "$f" | sqlite3 "$db" || fail "cannot load $f"
	echo "the runs of $1: recorded in tests/fixtures/gate/$1.sql.gz ($(sqlite3 "$db" 'SELECT count(*) FROM run') runs)"
}
sim_record() {
	[ -n "${BENCH_RECORD_DIR:-}" ] || return 0
	{ # .dump leaves out the header's user_version and application_id, which say it is a bench database
		sqlite3 "$db" .dump
		echo "PRAGMA user_version = $(sqlite3 "$db" 'PRAGMA user_version');"
		echo "PRAGMA application_id = $(sqlite3 "$db" 'PRAGMA application_id');"
	} | gzip -9n >"$BENCH_RECORD_DIR/$1.sql.gz" || fail "cannot record $1"
	echo "recorded $BENCH_RECORD_DIR/$1.sql.gz"
}

sim_gate() { # sim_gate OUT GATE-OPTIONS...: bench gate on $db, its output (stdout and stderr) in OUT and
	# shown; sets rc to its exit code
	local out=$1
	shift
	"$BENCH" gate --db "$db" "$@" >"$out" 2>&1
	rc=$?
	cat "$out"
}

sim_fio() {
	local dir=$1 name=$2
	shift 2
	printf '[%s]\nioengine=external:%s\n' "$name" "$SO" >"$dir/$name.fio"
	printf '%s\n' "$@" >>"$dir/$name.fio"
	if ! ${prio:-} fio --output-format=json --eta=never "$dir/$name.fio" >"$dir/$name.json" 2>"$dir/$name.err"; then
		echo "FAIL: fio failed on $name:" >&2
		cat "$dir/$name.err" "$dir/$name.json" >&2
		exit 1
	fi
}

sim_rr_job() { # sim_rr_job FILE RUNTIME-S CV SERVICE-TIME [EXTRA-OPTION]: 4k random reads, iodepth 32, lognormal
	cat >"$1" <<JOB
[global]
size=64g
bs=4k
iodepth=32
time_based
runtime=$2
sim_dist=lognormal
sim_cv=$3
sim_lat=$4
${5:-}

[rr]
rw=randread
JOB
}

# sim_blocks DB N ODD-ORDER EVEN-ORDER: a warm-up run of the first side's file (label cfg=warmup: the first
# fio start of a test, cold caches, can measure far less), then N blocks in which every side LABEL:FILE runs
# once with label cfg=LABEL, odd blocks in one order and even blocks in the other; prints each side's read IOPS.
# The sim engine's own account of each run (BENCH_SIM_STATS; tests/lib/sim_noise.py held) tells a run that this
# machine held back so long that the modelled device sat idle (starved) for more than SIM_HELD_PCT (default 2) %
# of it (sides capped by fio's rate options are not counted: their device idles by design and fio's rate sleeps
# count as starved time, while their IOPS are the cap's): such a run measures about that much less for the
# machine's sake; at 5% its pair becomes an outlier for the gate (GATE_OUTLIER_MADS and the threshold) and the
# verdict the machine's. Its block is deleted (bench db rm) and run again, at most N/2+2 times in all; after that
# the test exits 77 (ctest: skipped), saying the machine was too busy to judge.
sim_blocks() {
	local db=$1 n=$2 odd=$3 even=$4 block=1 order side first=${3%% *} again=$(($2 / 2 + 2)) last why account
	local stats=$PWD/block.stats
	"$BENCH" run "${first#*:}" --engine sim --db "$db" --label cfg=warmup -q >run.out 2>&1 ||
		fail "warm-up run failed: $(cat run.out)"
	while [ $block -le "$n" ]; do
		order=$odd
		[ $((block % 2)) -eq 0 ] && order=$even
		last=$(sqlite3 "$db" "SELECT max(id) FROM run") || fail "cannot read $db"
		rm -f "$stats"
		for side in $order; do
			# starved time is what a job that keeps its queue full loses: a side capped by fio's rate
			# options idles by design (fio's rate sleeps count as starved) and runs at its cap anyway
			account=(BENCH_SIM_STATS="$stats")
			grep -Eq '^rate(_iops)?(_min)?=' "${side#*:}" && account=()
			env "${account[@]}" "$BENCH" run "${side#*:}" --engine sim --db "$db" \
				--label "cfg=${side%%:*}" -q >run.out 2>&1 || fail "bench run ${side#*:} failed: $(cat run.out)"
		done
		why=$(python3 "$BENCH_SRC/tests/lib/sim_noise.py" held "$stats" "${SIM_HELD_PCT:-2}") &&
			{ block=$((block + 1)); continue; }
		[ $? -eq 3 ] || fail "sim_noise.py held $stats: $why"
		if [ "$again" -eq 0 ]; then
			echo "SKIP: the machine held runs back in too many blocks to judge the gate on ($why)"
			exit 77
		fi
		again=$((again - 1))
		echo "block $block again: $why"
		# shellcheck disable=SC2046
		"$BENCH" db rm --db "$db" $(sqlite3 "$db" "SELECT id FROM run WHERE id > $last") >run.out 2>&1 ||
			fail "cannot delete the held-back block: $(cat run.out)"
	done
	sqlite3 "$db" "SELECT l.value, group_concat(CAST(x.iops AS INTEGER), ' ') FROM result x
		JOIN run_label l ON l.run_id = x.run_id AND l.key = 'cfg'
		WHERE x.host = '*' AND x.ddir = 'read' GROUP BY l.value ORDER BY l.value" 2>/dev/null
}
