# gate_db.bash: builds bench databases for the gate's command-line tests (sourced by tests/cli/gate_*.sh).
#
# The database is a real SQLite file with bench's schema (schema.sql, user_version set to its last migration);
# rows are inserted with sqlite3 following schema.sql. Values carry deterministic noise so that every run of
# the test sees the same figures.

set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
GATE_SQLITE=${GATE_SQLITE:-sqlite3}

# gate_db_create DB: an empty bench database
gate_db_create() {
	local db=$1 version
	rm -f "$db" "$db-wal" "$db-shm"
	version=$(grep -c '^-- migration ' "$BENCH_SRC/schema.sql")
	{ cat "$BENCH_SRC/schema.sql"; echo "PRAGMA user_version = $version;"; } | "$GATE_SQLITE" "$db" || return 1
}

# gate_db_scratch: a scratch directory $work (removed on exit) holding an empty bench database $db
gate_db_scratch() {
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	db=$work/gate.db
	gate_db_create "$db" || fail "cannot create the database"
}

# gate_db_suite DB ID KEY VALUE: a suite with one label, created at ID minutes past midnight
gate_db_suite() {
	"$GATE_SQLITE" "$1" "INSERT INTO suite(id, name, source, planned_runs, created_at)
		VALUES ($2, 'suite$2', 'run', 0, printf('2026-11-30T00:%02d:00.000Z', $2));
		INSERT INTO suite_label(suite_id, key, value) VALUES ($2, '$3', '$4');"
}

# gate_db_runs DB SUITE SEQ NAME RW BS READ_PCT REPS IOPS NOISE_PCT SALT [STATUS]
# REPS runs of one workload; IOPS varies by up to +-NOISE_PCT % (deterministic, SALT picks the pattern).
# Read or write direction from READ_PCT (100 or 0). Latency follows Little's law at iodepth 32.
gate_db_runs() {
	local db=$1 suite=$2 seq=$3 name=$4 rw=$5 bs=$6 rd=$7 reps=$8 iops=$9 noise=${10} salt=${11}
	local status=${12:-done} ddir=read
	[ "$rd" = 0 ] && ddir=write
	"$GATE_SQLITE" "$db" "
	WITH RECURSIVE rep(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM rep WHERE n < $reps),
	v(n, iops) AS (SELECT n, $iops * (1 + ((((n * 7919 + $salt * 104729) % 21) - 10) / 10.0) * $noise / 100.0) FROM rep)
	INSERT INTO run(id, suite_id, seq, repetition, name, engine, status, started_at, tool, rw, bs_bytes,
			read_pct, random_pct, iodepth, numjobs, runtime_s)
	SELECT $suite * 1000 + $seq * 100 + n, $suite, $seq, n, '$name', 'fio', '$status', '2026-11-30T00:00:00Z',
	       'fio', '$rw', $bs, $rd, 100, 32, 1, 10 FROM v;
	WITH RECURSIVE rep(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM rep WHERE n < $reps),
	v(n, iops) AS (SELECT n, $iops * (1 + ((((n * 7919 + $salt * 104729) % 21) - 10) / 10.0) * $noise / 100.0) FROM rep)
	INSERT INTO result(run_id, host, ddir, ios, bytes, runtime_ms, iops, bw_bytes, lat_n, lat_mean_ns, pct_kind)
	SELECT $suite * 1000 + $seq * 100 + n, '*', '$ddir', CAST(iops * 10 AS INTEGER),
	       CAST(iops * 10 AS INTEGER) * $bs, 10000, iops, iops * $bs, CAST(iops * 10 AS INTEGER), 32e9 / iops,
	       'clat' FROM v WHERE '$status' = 'done';
	INSERT INTO result_pct(result_id, pct, value_ns)
	SELECT id, 99.0, CAST(2 * lat_mean_ns AS INTEGER) FROM result
	WHERE run_id BETWEEN $suite * 1000 + $seq * 100 + 1 AND $suite * 1000 + $seq * 100 + $reps;
	INSERT INTO run_host(run_id, host, fio_version, error_code)
	SELECT id, '*', 'fio-3.33', 0 FROM run WHERE id BETWEEN $suite * 1000 + $seq * 100 + 1
	       AND $suite * 1000 + $seq * 100 + $reps;"
}

# gate_db_fio_error DB RUN_ID CODE: marks a host of a run with a fio error
gate_db_fio_error() {
	"$GATE_SQLITE" "$1" "UPDATE run_host SET error_code = $3, error = 'Input/output error' WHERE run_id = $2"
}

# fail MESSAGE: prints why and exits non-zero
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
