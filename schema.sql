-- bench database schema: the single source of truth, embedded into the binary at build time.
--
-- The file is an ordered list of migrations. Each starts with a line "-- migration N" and is applied, in one
-- transaction, to databases whose PRAGMA user_version is below N; user_version is then set to N. A new
-- database gets all of them in order. Never edit a migration that has landed: add a new one.
--
-- Conventions: times are ISO 8601 UTC text; latencies are integer or real nanoseconds (columns *_ns);
-- bandwidth is bytes per second (bw_bytes); host '*' is the aggregate of all hosts of a run.

-- migration 1
CREATE TABLE suite (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL,              -- suite name, job file or import source
	source        TEXT NOT NULL,              -- 'run' or 'import'
	args          TEXT,                       -- what was asked (command line / files), for --resume
	planned_runs  INTEGER NOT NULL DEFAULT 0,
	created_at    TEXT NOT NULL,
	bench_version TEXT
);

CREATE TABLE suite_label (
	suite_id INTEGER NOT NULL REFERENCES suite(id) ON DELETE CASCADE,
	key      TEXT NOT NULL,
	value    TEXT NOT NULL,
	PRIMARY KEY (suite_id, key)
) WITHOUT ROWID;

CREATE TABLE run (
	id           INTEGER PRIMARY KEY,
	suite_id     INTEGER NOT NULL REFERENCES suite(id) ON DELETE CASCADE,
	seq          INTEGER NOT NULL,            -- 1-based position in the plan
	repetition   INTEGER NOT NULL DEFAULT 1,
	name         TEXT NOT NULL,
	engine       TEXT NOT NULL,               -- fio, sim, null, import
	status       TEXT NOT NULL CHECK (status IN ('running','done','failed','partial','aborted')),
	error        TEXT,
	started_at   TEXT NOT NULL,
	finished_at  TEXT,
	-- the normalised workload (core/model.h struct workload)
	tool         TEXT,
	rw           TEXT,
	bs_bytes     INTEGER,
	bssplit      TEXT,
	read_pct     INTEGER,                     -- NULL when unknown
	random_pct   INTEGER,
	iodepth      INTEGER,
	numjobs      INTEGER,
	runtime_s    INTEGER,
	ramp_s       INTEGER,
	size         TEXT,
	compress_pct INTEGER,
	dedupe_pct   INTEGER,
	spec         TEXT                         -- the whole run spec as JSON, to run it again
);
CREATE INDEX run_suite ON run(suite_id, seq, repetition);

CREATE TABLE run_label (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	key    TEXT NOT NULL,
	value  TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_label_kv ON run_label(key, value);

-- per run and host: fio version, start offset, host-level error
CREATE TABLE run_host (
	run_id          INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	host            TEXT NOT NULL,
	fio_version     TEXT,
	start_offset_ms REAL,
	error_code      INTEGER NOT NULL DEFAULT 0,
	error           TEXT,
	usr_cpu_pct     REAL,                     -- fio's own job CPU (% of job runtime)
	sys_cpu_pct     REAL,
	PRIMARY KEY (run_id, host)
) WITHOUT ROWID;

CREATE TABLE result (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	host          TEXT NOT NULL,              -- '*' = aggregate over hosts
	ddir          TEXT NOT NULL CHECK (ddir IN ('read','write','trim','total')),
	ios           INTEGER NOT NULL,
	short_ios     INTEGER NOT NULL DEFAULT 0,
	drop_ios      INTEGER NOT NULL DEFAULT 0,
	bytes         INTEGER NOT NULL,
	runtime_ms    INTEGER NOT NULL,
	iops          REAL NOT NULL,
	bw_bytes      REAL NOT NULL,
	lat_n         INTEGER, lat_min_ns  INTEGER, lat_max_ns  INTEGER, lat_mean_ns  REAL, lat_stddev_ns  REAL,
	clat_n        INTEGER, clat_min_ns INTEGER, clat_max_ns INTEGER, clat_mean_ns REAL, clat_stddev_ns REAL,
	slat_n        INTEGER, slat_min_ns INTEGER, slat_max_ns INTEGER, slat_mean_ns REAL, slat_stddev_ns REAL,
	pct_kind      TEXT,                       -- 'clat' or 'lat': what result_pct and result_bin describe
	UNIQUE (run_id, host, ddir)
);

CREATE TABLE result_pct (
	result_id INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
	pct       REAL NOT NULL,
	value_ns  INTEGER NOT NULL,
	PRIMARY KEY (result_id, pct)
) WITHOUT ROWID;

CREATE TABLE result_bin (
	result_id INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
	value_ns  INTEGER NOT NULL,               -- fio bucket value
	count     INTEGER NOT NULL,
	PRIMARY KEY (result_id, value_ns)
) WITHOUT ROWID;

CREATE TABLE cpu (
	run_id        INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	host          TEXT NOT NULL,              -- '*' per role = cluster figure
	role          TEXT NOT NULL CHECK (role IN ('initiator','target')),
	source        TEXT NOT NULL,              -- fio, procstat, node_exporter, import
	cores         INTEGER,
	user_pct REAL, nice_pct REAL, system_pct REAL, iowait_pct REAL, irq_pct REAL, softirq_pct REAL,
	steal_pct REAL, idle_pct REAL,
	util_pct      REAL,                       -- busy share of all cores
	cpu_us_per_io REAL,
	PRIMARY KEY (run_id, host, role, source)
) WITHOUT ROWID;

CREATE TABLE disk (
	run_id        INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	host          TEXT NOT NULL,
	device        TEXT NOT NULL,
	reads         INTEGER NOT NULL,
	writes        INTEGER NOT NULL,
	read_sectors  INTEGER NOT NULL,
	write_sectors INTEGER NOT NULL,
	io_ticks_ms   INTEGER NOT NULL,
	PRIMARY KEY (run_id, host, device)
) WITHOUT ROWID;

CREATE TABLE sample (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	host   TEXT NOT NULL,
	metric TEXT NOT NULL,
	t_ms   INTEGER NOT NULL,
	value  REAL NOT NULL
);
CREATE INDEX sample_run ON sample(run_id, host, metric, t_ms);

CREATE TABLE artifact (
	run_id  INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	content BLOB NOT NULL,
	PRIMARY KEY (run_id, name)
) WITHOUT ROWID;

-- migration 2
-- Concurrency (docs/safety.md): a suite being run is locked by one process; a run started again is a new
-- attempt of the same row (its id stays, attempt counts up). bench's application_id is set by the code with
-- every migration (core/store.h STORE_APPLICATION_ID).
CREATE TABLE suite_lock (
	suite_id   INTEGER PRIMARY KEY REFERENCES suite(id) ON DELETE CASCADE,
	pid        INTEGER NOT NULL,            -- the process running the suite
	host       TEXT NOT NULL,               -- its host name (gethostname)
	pid_start  INTEGER,                     -- its start time, clock ticks since boot (/proc/PID/stat field 22)
	started_at TEXT NOT NULL
);
ALTER TABLE run ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1; -- 1 + how often the run was started again

-- migration 3
-- Jobs are a dimension of results as hosts are (docs/profiles.md "A job file runs as fio runs it"): a fio job file's
-- jobs between two stonewalls run together as one run of several jobs, and each job's figures are stored
-- under its name in `job`; job '*' is the aggregate over all jobs (the only rows of a run of one job), as
-- host '*' is over all hosts. Headline reads take job '*' (core/store_read.c Q_RESULTS). `job_start_ms` is
-- when that job's measured time began, ms since the epoch (NULL unknown), so that one can see which jobs ran
-- at the same time. SQLite cannot change a UNIQUE constraint in place: the table is rebuilt (SQLite's
-- 12-step ALTER procedure: the migration runner turns foreign_keys off around it and checks
-- foreign_key_check before the commit, so that result_pct and result_bin keep their rows: the ids are kept).
CREATE TABLE result_new (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	host          TEXT NOT NULL,              -- '*' = aggregate over hosts
	job           TEXT NOT NULL DEFAULT '*',  -- '*' = aggregate over jobs; else the job's (section's) name
	ddir          TEXT NOT NULL CHECK (ddir IN ('read','write','trim','total')),
	ios           INTEGER NOT NULL,
	short_ios     INTEGER NOT NULL DEFAULT 0,
	drop_ios      INTEGER NOT NULL DEFAULT 0,
	bytes         INTEGER NOT NULL,
	runtime_ms    INTEGER NOT NULL,
	iops          REAL NOT NULL,
	bw_bytes      REAL NOT NULL,
	lat_n         INTEGER, lat_min_ns  INTEGER, lat_max_ns  INTEGER, lat_mean_ns  REAL, lat_stddev_ns  REAL,
	clat_n        INTEGER, clat_min_ns INTEGER, clat_max_ns INTEGER, clat_mean_ns REAL, clat_stddev_ns REAL,
	slat_n        INTEGER, slat_min_ns INTEGER, slat_max_ns INTEGER, slat_mean_ns REAL, slat_stddev_ns REAL,
	pct_kind      TEXT,                       -- 'clat' or 'lat': what result_pct and result_bin describe
	job_start_ms  REAL,                       -- when the job's measured time began, ms since the epoch
	UNIQUE (run_id, host, job, ddir)
);
INSERT INTO result_new (id, run_id, host, job, ddir, ios, short_ios, drop_ios, bytes, runtime_ms, iops, bw_bytes,
	lat_n, lat_min_ns, lat_max_ns, lat_mean_ns, lat_stddev_ns, clat_n, clat_min_ns, clat_max_ns, clat_mean_ns,
	clat_stddev_ns, slat_n, slat_min_ns, slat_max_ns, slat_mean_ns, slat_stddev_ns, pct_kind)
	SELECT id, run_id, host, '*', ddir, ios, short_ios, drop_ios, bytes, runtime_ms, iops, bw_bytes,
	lat_n, lat_min_ns, lat_max_ns, lat_mean_ns, lat_stddev_ns, clat_n, clat_min_ns, clat_max_ns, clat_mean_ns,
	clat_stddev_ns, slat_n, slat_min_ns, slat_max_ns, slat_mean_ns, slat_stddev_ns, pct_kind FROM result;
DROP TABLE result;
ALTER TABLE result_new RENAME TO result;

-- migration 4
-- Samples at the source's resolution (docs/timeseries.md): per host, job and direction (in the metric name),
-- stamped at the END of the window they average (t_ms since the end of ramp, the run's one clock), with the
-- window length; histogram logs as one row per non-empty latency bucket [bucket_lo_ns, bucket_hi_ns) per
-- interval, value = IO count. source says which reader stored the series ('fio-log', 'fio-histlog',
-- 'procstat', ...): a re-import replaces the series of one (host, job, metric, source).
ALTER TABLE sample ADD COLUMN job TEXT NOT NULL DEFAULT '*';      -- '*' = all jobs of the host (collectors)
ALTER TABLE sample ADD COLUMN window_ms INTEGER NOT NULL DEFAULT 0; -- averaged over (t_ms - window_ms, t_ms]; 0 = instant/unknown
ALTER TABLE sample ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE sample ADD COLUMN bucket_lo_ns INTEGER;                -- histogram rows only (NULL otherwise)
ALTER TABLE sample ADD COLUMN bucket_hi_ns INTEGER;
CREATE INDEX sample_series ON sample(run_id, host, job, metric, source);

-- migration 5
-- The host's own name (docs/hosts.md "Host names"): fio's JSON `hostname` is the address given to --client, so
-- run_host.host stays the hosts file's name and hostname is the name the server machine gave itself in its fio
-- PROBE reply (its uname nodename); NULL when unknown (a local run, an import, a database from before this).
ALTER TABLE run_host ADD COLUMN hostname TEXT;
