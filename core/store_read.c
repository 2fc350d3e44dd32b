/*
 * store_read: typed reads of the store (see store_read.h for the label, CPU and percentile rules). Every
 * statement is a static string prepared once per store through the writer's statement cache
 * (store_internal.h), bound, stepped to the end, then reset: no statement is held across calls.
 *
 * One table per row struct says which column of its statement lands in which field and how (struct col):
 * one generic loop fills the rows and one frees them, so a field is named once, beside its column. The
 * column names are checked against the statement on every read: a SELECT and its table cannot drift apart.
 */
#include "core/store_read.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/store_internal.h"
#include "core/strbuf.h"

/*
 * The statements. Q_RESULTS is the one statement headline results are read by: the rows over all jobs,
 * `job = '*'` (schema.sql migration 3), and that condition is here, nowhere else; Q_JOB_RESULTS reads the
 * rows of each job of a run of several jobs.
 */
#define SUITE_SELECT "SELECT id, name, source, args, created_at, bench_version, planned_runs FROM suite "
static const char Q_SUITES[] = SUITE_SELECT "ORDER BY created_at, id";
static const char Q_SUITE[] = SUITE_SELECT "WHERE id = ?1";
#define RUN_SELECT                                                                                           \
	"SELECT r.id, r.suite_id, s.name, s.created_at, r.seq, r.repetition, r.name, r.engine, r.status, r.error, " \
	"r.started_at, r.finished_at, r.tool, r.rw, r.bssplit, r.size, r.bs_bytes, r.read_pct, r.random_pct, "     \
	"r.iodepth, r.numjobs, r.runtime_s, r.ramp_s, r.spec FROM run r JOIN suite s ON s.id = r.suite_id "
static const char Q_RUNS[] = RUN_SELECT "ORDER BY r.suite_id, r.seq, r.repetition, r.id";
static const char Q_RUN[] = RUN_SELECT "WHERE r.id = ?1";
static const char Q_RUN_LABELS[] = "SELECT key, value FROM run_label WHERE run_id = ?1";
static const char Q_SUITE_LABELS[] = "SELECT key, value FROM suite_label WHERE suite_id = ?1";
static const char Q_HOSTS[] = "SELECT host, fio_version, start_offset_ms, error_code, error, usr_cpu_pct, "
			      "sys_cpu_pct, hostname FROM run_host WHERE run_id = ?1 ORDER BY host = '*', host";
#define RESULT_SELECT                                                                                        \
	"SELECT id, host, ddir, ios, bytes, runtime_ms, iops, bw_bytes, lat_mean_ns, clat_mean_ns, pct_kind, job, " \
	"job_start_ms, lat_min_ns, lat_max_ns, lat_stddev_ns, clat_min_ns, clat_max_ns FROM result "             \
	"WHERE run_id = ?1 AND (?2 IS NULL OR host = ?2) "
#define RESULT_ORDER "host <> '*', host, CASE ddir WHEN 'read' THEN 0 WHEN 'write' THEN 1 WHEN 'trim' THEN 2 ELSE 3 END"
static const char Q_RESULTS[] = RESULT_SELECT "AND job = '*' ORDER BY " RESULT_ORDER;
static const char Q_JOB_RESULTS[] = RESULT_SELECT "AND job <> '*' ORDER BY job, " RESULT_ORDER;
static const char Q_PCT[] = "SELECT value_ns FROM result_pct WHERE result_id = ?1 AND pct >= ?2 - ?3 "
			    "AND pct <= ?2 + ?3 ORDER BY abs(pct - ?2) LIMIT 1";
static const char Q_PCTS[] = "SELECT pct, value_ns FROM result_pct WHERE result_id = ?1 ORDER BY pct";
static const char Q_BINS[] = "SELECT value_ns, count FROM result_bin WHERE result_id = ?1 AND count > 0 "
			     "ORDER BY value_ns";
static const char Q_CPU[] = "SELECT host, role, source, cores, user_pct, nice_pct, system_pct, iowait_pct, irq_pct, "
			    "softirq_pct, steal_pct, idle_pct, util_pct, cpu_us_per_io FROM cpu WHERE run_id = ?1 "
			    "ORDER BY role = 'target', host <> '*', host, CASE source WHEN 'procstat' THEN 0 "
			    "WHEN 'node_exporter' THEN 1 WHEN 'import' THEN 2 WHEN 'fio' THEN 3 ELSE 4 END, source";
static const char Q_DISKS[] = "SELECT host, device, reads, writes, read_sectors, write_sectors, io_ticks_ms "
			      "FROM disk WHERE run_id = ?1 ORDER BY host, device";
static const char Q_SAMPLES[] = "SELECT host, metric, t_ms, value, job, window_ms, source, bucket_lo_ns IS NOT NULL "
				"AS is_bin, bucket_lo_ns, bucket_hi_ns FROM sample WHERE run_id = ?1 "
				"ORDER BY metric, host = '*', host, job, source, t_ms, bucket_lo_ns";
/* ?1 is bound by read_into and unused here: the artifacts of one name across all runs. */
static const char Q_ARTIFACT_RUNS[] = "SELECT run_id, CAST(content AS TEXT) AS content FROM artifact "
				      "WHERE name = ?2 ORDER BY run_id";
static const char Q_ARTIFACTS[] = "SELECT name, content FROM artifact WHERE run_id = ?1 AND (?2 IS NULL OR name = ?2) "
				  "ORDER BY name";

/*
 * The scans (store_scan_*): every run's rows in one statement, by run_id only (the order of an index or
 * primary key that starts with run_id: no sort in SQLite); each run's rows are then put in the order of the
 * per-run statement above by the comparators below. The run id is the last column. The results scan carries
 * one percentile per direction row (not the total's): the stored one nearest ?1 within ?2, as Q_PCT picks
 * it (min() picks its row without a sort), NULL when none is stored.
 */
#define SCAN_RESULTS_SELECT                                                                                      \
	"SELECT id, host, ddir, ios, runtime_ms, iops, bw_bytes, lat_mean_ns, clat_mean_ns, job, "                \
	"CASE WHEN ddir <> 'total' THEN (SELECT v FROM (SELECT value_ns AS v, min(abs(pct - ?1)) FROM result_pct " \
	"WHERE result_id = x.id AND pct >= ?1 - ?2 AND pct <= ?1 + ?2)) END AS pct_ns, run_id "
static const char Q_SCAN_RESULTS[] = SCAN_RESULTS_SELECT "FROM result x WHERE job = '*' AND run_id >= ?3 ORDER BY run_id";
/*
 * The same in table order, which is run order when the rows were stored run after run (as every writer
 * stores them): no lookup from the index into the table per row. Q_RESULTS_RUN_ORDER checks that it is.
 */
static const char Q_SCAN_RESULTS_TABLE[] = SCAN_RESULTS_SELECT "FROM result x NOT INDEXED WHERE job = '*' "
					   "AND run_id >= ?3 ORDER BY id";
static const char Q_RESULTS_RUN_ORDER[] = "SELECT run_id FROM result NOT INDEXED WHERE job = '*' AND run_id >= ?1 "
					  "ORDER BY id";
static const char Q_SCAN_HOSTS[] = "SELECT host, fio_version, start_offset_ms, error_code, error, usr_cpu_pct, "
				   "sys_cpu_pct, hostname, run_id FROM run_host WHERE run_id >= ?3 ORDER BY run_id";
static const char Q_SCAN_CPU[] = "SELECT host, role, source, cores, user_pct, nice_pct, system_pct, iowait_pct, "
				 "irq_pct, softirq_pct, steal_pct, idle_pct, util_pct, cpu_us_per_io, run_id FROM cpu "
				 "WHERE run_id >= ?3 ORDER BY run_id";
/* The labels of every run in the order of Q_RUNS (the same ORDER BY, the same runs: those with a suite). */
static const char Q_RUNS_LABELS[] = "SELECT l.key, l.value, r.id FROM run r CROSS JOIN run_label l ON l.run_id = r.id "
				    "WHERE EXISTS (SELECT 1 FROM suite s WHERE s.id = r.suite_id) "
				    "ORDER BY r.suite_id, r.seq, r.repetition, r.id";

/* ---- rows: column tables ---------------------------------------------------------------------------- */

/* How one column becomes one field. */
enum col_kind {
	COL_I64,        /* int64_t */
	COL_COUNT,      /* uint64_t; NULL or negative: 0 */
	COL_REAL,       /* double; NULL: NAN */
	COL_INT,        /* int; NULL: arg */
	COL_UINT,       /* unsigned; NULL: arg */
	COL_LONG,       /* long; NULL: arg */
	COL_U32,        /* uint32_t */
	COL_STR,        /* char *, malloc'd; NULL stays NULL */
	COL_STR_EMPTY,  /* char *, malloc'd; NULL: "" */
	COL_CHARS,      /* char[size], NULL: "" (cut to fit) */
	COL_DDIR,       /* enum ddir; a row whose value is no direction is skipped */
	COL_BLOB,       /* unsigned char *, malloc'd and NUL-terminated; its length into the size_t at offset arg */
};

struct col {
	const char *name;       /* the column's name in the statement */
	enum col_kind kind;
	size_t off, size;       /* the field */
	long arg;
};

/* A row struct: its columns in statement order, and a kvlist of labels it owns (labels < 0: none). */
struct row_shape {
	const char *what;       /* for messages: "runs" */
	size_t size;
	const struct col *cols;
	size_t ncols;
	long labels;
};

#define COL(name, field, kind, arg) { name, kind, offsetof(ROW, field), sizeof(((ROW *)0)->field), arg }
#define SHAPE(what, cols, labels) { what, sizeof(ROW), cols, sizeof(cols) / sizeof(cols[0]), labels }

#define ROW struct store_suite
static const struct col suite_cols[] = {
	COL("id", id, COL_I64, 0), COL("name", name, COL_STR_EMPTY, 0), COL("source", source, COL_STR_EMPTY, 0),
	COL("args", args, COL_STR, 0), COL("created_at", created_at, COL_STR_EMPTY, 0),
	COL("bench_version", bench_version, COL_STR, 0), COL("planned_runs", planned_runs, COL_UINT, 0),
};
static const struct row_shape suite_shape = SHAPE("suites", suite_cols, (long)offsetof(ROW, labels));
#undef ROW

#define ROW struct store_run
static const struct col run_cols[] = {
	COL("id", id, COL_I64, 0), COL("suite_id", suite_id, COL_I64, 0), COL("name", suite, COL_STR, 0),
	COL("created_at", suite_created, COL_STR, 0), COL("seq", seq, COL_UINT, 0),
	COL("repetition", repetition, COL_UINT, 1), COL("name", name, COL_STR_EMPTY, 0),
	COL("engine", engine, COL_STR_EMPTY, 0), COL("status", status, COL_STR_EMPTY, 0),
	COL("error", error, COL_STR, 0),
	COL("started_at", started_at, COL_STR, 0), COL("finished_at", finished_at, COL_STR, 0),
	COL("tool", tool, COL_STR, 0), COL("rw", rw, COL_STR, 0), COL("bssplit", bssplit, COL_STR, 0),
	COL("size", size, COL_STR, 0), COL("bs_bytes", bs_bytes, COL_COUNT, 0), COL("read_pct", read_pct, COL_INT, -1),
	COL("random_pct", random_pct, COL_INT, -1), COL("iodepth", iodepth, COL_INT, 0),
	COL("numjobs", numjobs, COL_INT, 0), COL("runtime_s", runtime_s, COL_LONG, 0),
	COL("ramp_s", ramp_s, COL_LONG, 0), COL("spec", spec, COL_STR, 0),
};
static const struct row_shape run_shape = SHAPE("runs", run_cols, (long)offsetof(ROW, labels));
#undef ROW

#define ROW struct store_host
static const struct col host_cols[] = {
	COL("host", host, COL_STR_EMPTY, 0), COL("fio_version", fio_version, COL_STR, 0),
	COL("start_offset_ms", start_offset_ms, COL_REAL, 0), COL("error_code", error_code, COL_INT, 0),
	COL("error", error, COL_STR, 0), COL("usr_cpu_pct", usr_cpu_pct, COL_REAL, 0),
	COL("sys_cpu_pct", sys_cpu_pct, COL_REAL, 0), COL("hostname", hostname, COL_STR, 0),
};
static const struct row_shape host_shape = SHAPE("the hosts of a run", host_cols, -1);
#undef ROW

#define ROW struct store_result
static const struct col result_cols[] = {
	COL("id", id, COL_I64, 0), COL("host", host, COL_STR_EMPTY, 0), COL("ddir", ddir, COL_DDIR, 0),
	COL("ios", ios, COL_COUNT, 0), COL("bytes", bytes, COL_COUNT, 0), COL("runtime_ms", runtime_ms, COL_I64, 0),
	COL("iops", iops, COL_REAL, 0), COL("bw_bytes", bw_bytes, COL_REAL, 0),
	COL("lat_mean_ns", lat_mean_ns, COL_REAL, 0), COL("clat_mean_ns", clat_mean_ns, COL_REAL, 0),
	COL("pct_kind", pct_kind, COL_STR, 0), COL("job", job, COL_STR_EMPTY, 0),
	COL("job_start_ms", job_start_ms, COL_REAL, 0), COL("lat_min_ns", lat_min_ns, COL_REAL, 0),
	COL("lat_max_ns", lat_max_ns, COL_REAL, 0), COL("lat_stddev_ns", lat_stddev_ns, COL_REAL, 0),
	COL("clat_min_ns", clat_min_ns, COL_REAL, 0), COL("clat_max_ns", clat_max_ns, COL_REAL, 0),
};
static const struct row_shape result_shape = SHAPE("results", result_cols, -1);
#undef ROW

#define ROW struct percentile
static const struct col pct_cols[] = { COL("pct", pct, COL_REAL, 0), COL("value_ns", value_ns, COL_COUNT, 0) };
static const struct row_shape pct_shape = SHAPE("percentiles", pct_cols, -1);
#undef ROW

#define ROW struct hist_bin
static const struct col bin_cols[] = { COL("value_ns", value_ns, COL_COUNT, 0), COL("count", count, COL_COUNT, 0) };
static const struct row_shape bin_shape = SHAPE("histogram bins", bin_cols, -1);
#undef ROW

#define ROW struct store_cpu
static const struct col cpu_cols[] = {
	COL("host", host, COL_STR_EMPTY, 0), COL("role", role, COL_STR_EMPTY, 0),
	COL("source", source, COL_STR_EMPTY, 0), COL("cores", cores, COL_INT, 0), COL("user_pct", share_pct[CPU_USER], COL_REAL, 0),
	COL("nice_pct", share_pct[CPU_NICE], COL_REAL, 0), COL("system_pct", share_pct[CPU_SYSTEM], COL_REAL, 0),
	COL("iowait_pct", share_pct[CPU_IOWAIT], COL_REAL, 0), COL("irq_pct", share_pct[CPU_IRQ], COL_REAL, 0),
	COL("softirq_pct", share_pct[CPU_SOFTIRQ], COL_REAL, 0), COL("steal_pct", share_pct[CPU_STEAL], COL_REAL, 0),
	COL("idle_pct", share_pct[CPU_IDLE], COL_REAL, 0), COL("util_pct", util_pct, COL_REAL, 0),
	COL("cpu_us_per_io", cpu_us_per_io, COL_REAL, 0),
};
static const struct row_shape cpu_shape = SHAPE("CPU figures", cpu_cols, -1);
#undef ROW

#define ROW struct store_disk
static const struct col disk_cols[] = {
	COL("host", host, COL_STR_EMPTY, 0), COL("device", device, COL_STR_EMPTY, 0), COL("reads", reads, COL_COUNT, 0),
	COL("writes", writes, COL_COUNT, 0), COL("read_sectors", read_sectors, COL_COUNT, 0),
	COL("write_sectors", write_sectors, COL_COUNT, 0), COL("io_ticks_ms", io_ticks_ms, COL_COUNT, 0),
};
static const struct row_shape disk_shape = SHAPE("disk figures", disk_cols, -1);
#undef ROW

#define ROW struct store_sample
static const struct col sample_cols[] = {
	COL("host", host, COL_STR_EMPTY, 0), COL("metric", metric, COL_STR_EMPTY, 0), COL("t_ms", t_ms, COL_I64, 0),
	COL("value", value, COL_REAL, 0), COL("job", job, COL_CHARS, 0), COL("window_ms", window_ms, COL_U32, 0),
	COL("source", source, COL_CHARS, 0), COL("is_bin", is_bin, COL_INT, 0),
	COL("bucket_lo_ns", bucket_lo_ns, COL_I64, 0), COL("bucket_hi_ns", bucket_hi_ns, COL_I64, 0),
};
static const struct row_shape sample_shape = SHAPE("samples", sample_cols, -1);
#undef ROW

#define ROW struct store_artifact
static const struct col artifact_cols[] = {
	COL("name", name, COL_STR_EMPTY, 0), COL("content", content, COL_BLOB, (long)offsetof(ROW, len)),
};
static const struct row_shape artifact_shape = SHAPE("artifacts", artifact_cols, -1);
#undef ROW

#define ROW struct store_named_artifact
static const struct col named_artifact_cols[] = {
	COL("run_id", run_id, COL_I64, 0), COL("content", content, COL_STR_EMPTY, 0),
};
static const struct row_shape named_artifact_shape = SHAPE("artifacts of a name", named_artifact_cols, -1);
#undef ROW

/* A row of the results scan: the result and its percentile. */
struct scan_result {
	struct store_result r;
	double pct_ns;            /* NAN: none stored */
};

/* The headline fields only (store_scan_results): what the figures of a report and the gate use. */
#define ROW struct scan_result
static const struct col scan_result_cols[] = {
	COL("id", r.id, COL_I64, 0), COL("host", r.host, COL_STR_EMPTY, 0), COL("ddir", r.ddir, COL_DDIR, 0),
	COL("ios", r.ios, COL_COUNT, 0), COL("runtime_ms", r.runtime_ms, COL_I64, 0),
	COL("iops", r.iops, COL_REAL, 0), COL("bw_bytes", r.bw_bytes, COL_REAL, 0),
	COL("lat_mean_ns", r.lat_mean_ns, COL_REAL, 0), COL("clat_mean_ns", r.clat_mean_ns, COL_REAL, 0),
	COL("job", r.job, COL_STR_EMPTY, 0), COL("pct_ns", pct_ns, COL_REAL, 0),
};
static const struct row_shape scan_result_shape = SHAPE("results", scan_result_cols, -1);
#undef ROW

#undef COL
#undef SHAPE

/* ---- rows: the generic reader ----------------------------------------------------------------------- */

static int read_fail(struct store *st, const char *what, struct errbuf *err)
{
	return err_set(err, ERR_STORE, "cannot read %s from '%s': %s", what, store_path(st),
		       sqlite3_errmsg(store_db(st)));
}

static void done_with(sqlite3_stmt *s)
{
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

static int col_owns(enum col_kind k)
{
	return k == COL_STR || k == COL_STR_EMPTY || k == COL_BLOB;
}

/* The size a field of this kind has; 0: any (COL_CHARS). */
static size_t col_kind_size(enum col_kind k)
{
	switch (k) {
	case COL_I64: return sizeof(int64_t);
	case COL_COUNT: return sizeof(uint64_t);
	case COL_REAL: return sizeof(double);
	case COL_INT: return sizeof(int);
	case COL_UINT: return sizeof(unsigned);
	case COL_LONG: return sizeof(long);
	case COL_U32: return sizeof(uint32_t);
	case COL_DDIR: return sizeof(enum ddir);
	case COL_CHARS: return 0;
	default: return sizeof(char *);
	}
}

/* The statement has the table's columns, by name, and each field the size of its kind. */
static int shape_check_extra(sqlite3_stmt *s, const struct row_shape *sh, size_t extra, struct errbuf *err)
{
	if ((size_t)sqlite3_column_count(s) != sh->ncols + extra)
		return err_set(err, ERR_INTERNAL, "store_read: the statement of %s has %d columns, its table %zu",
			       sh->what, sqlite3_column_count(s), sh->ncols);
	for (size_t i = 0; i < sh->ncols; i++) {
		const struct col *c = &sh->cols[i];
		const char *name = sqlite3_column_name(s, (int)i);
		size_t want = col_kind_size(c->kind);

		if (!name || strcmp(name, c->name) || (want && c->size != want))
			return err_set(err, ERR_INTERNAL, "store_read: column %zu of %s is '%s', its table says "
				       "'%s'", i, sh->what, name ? name : "?", c->name);
	}
	return 0;
}

static int shape_check(sqlite3_stmt *s, const struct row_shape *sh, struct errbuf *err)
{
	return shape_check_extra(s, sh, 0, err);
}

static void row_release(const struct row_shape *sh, void *row)
{
	for (size_t i = 0; i < sh->ncols; i++)
		if (col_owns(sh->cols[i].kind))
			free(*(void **)((char *)row + sh->cols[i].off));
	if (sh->labels >= 0)
		kvlist_release((struct kvlist *)((char *)row + sh->labels));
}

static void rows_free(const struct row_shape *sh, void *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		row_release(sh, (char *)v + i * sh->size);
	free(v);
}

/* The public free functions of the row arrays (store_read.h): each releases its rows by the shape, then the array. */
#define ROWS_FREE_FN(fn, type, shape)            \
	void fn(type *v, size_t n)               \
	{                                        \
		rows_free(&(shape), v, n);       \
	}
ROWS_FREE_FN(store_suites_free, struct store_suite, suite_shape)
ROWS_FREE_FN(store_hosts_free, struct store_host, host_shape)
ROWS_FREE_FN(store_results_free, struct store_result, result_shape)
ROWS_FREE_FN(store_cpu_free, struct store_cpu, cpu_shape)
ROWS_FREE_FN(store_disks_free, struct store_disk, disk_shape)
ROWS_FREE_FN(store_samples_free, struct store_sample, sample_shape)
ROWS_FREE_FN(store_artifacts_free, struct store_artifact, artifact_shape)
ROWS_FREE_FN(store_named_artifacts_free, struct store_named_artifact, named_artifact_shape)

static char *col_strdup(sqlite3_stmt *s, int i, const char *null_as)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : xstrdup(null_as);
}

/* One column into its field. 0: the row is to be skipped (COL_DDIR that is no direction). */
static int fill_col(sqlite3_stmt *s, int i, const struct col *c, char *row)
{
	char *f = row + c->off;
	const unsigned char *t;
	sqlite3_int64 x;
	double d;
	size_t len;

	/* NULL reads as 0: the type is asked only then (each column call takes the connection's mutex) */
	switch (c->kind) {
	case COL_I64: *(int64_t *)f = sqlite3_column_int64(s, i); break;
	case COL_COUNT:
		x = sqlite3_column_int64(s, i);
		*(uint64_t *)f = x > 0 ? (uint64_t)x : 0;
		break;
	case COL_REAL:
		d = sqlite3_column_double(s, i);
		*(double *)f = d == 0 && sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : d;
		break;
	case COL_INT:
		x = sqlite3_column_int(s, i);
		*(int *)f = x == 0 && sqlite3_column_type(s, i) == SQLITE_NULL ? (int)c->arg : (int)x;
		break;
	case COL_UINT:
		x = sqlite3_column_int(s, i);
		*(unsigned *)f = (unsigned)(x == 0 && sqlite3_column_type(s, i) == SQLITE_NULL ? c->arg : x);
		break;
	case COL_LONG:
		x = sqlite3_column_int64(s, i);
		*(long *)f = x == 0 && sqlite3_column_type(s, i) == SQLITE_NULL ? c->arg : (long)x;
		break;
	case COL_U32: *(uint32_t *)f = (uint32_t)sqlite3_column_int64(s, i); break;
	case COL_STR: *(char **)f = col_strdup(s, i, NULL); break;
	case COL_STR_EMPTY: *(char **)f = col_strdup(s, i, ""); break;
	case COL_CHARS:
		t = sqlite3_column_text(s, i);
		snprintf(f, c->size, "%s", t ? (const char *)t : "");
		break;
	case COL_DDIR:
		t = sqlite3_column_text(s, i);
		return t && ddir_parse((const char *)t, (enum ddir *)f) == 0;
	case COL_BLOB:
		t = sqlite3_column_blob(s, i);
		len = (size_t)sqlite3_column_bytes(s, i);
		*(unsigned char **)f = xcalloc(len + 1, 1);
		if (t && len)
			memcpy(*(unsigned char **)f, t, len);
		*(size_t *)(row + c->arg) = len;
		break;
	}
	return 1;
}

/*
 * Appends the rows of `sql` (?1 = id, ?2 = text when given) to the array *v of *n (capacity *cap) rows of
 * `sh`. On failure the rows read so far stay in *v for the caller to free.
 */
static int read_into(struct store *st, const char *sql, const struct row_shape *sh, int64_t id, const char *text,
		     void **v, size_t *n, size_t *cap, struct errbuf *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(st, &s, sql, err) < 0)
		return -1;
	if (shape_check(s, sh, err) < 0)
		return -1;
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, id);
	if (text)
		sqlite3_bind_text(s, 2, text, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		char *row;
		int keep = 1;

		array_grow(v, cap, *n + 1, sh->size);
		row = (char *)*v + *n * sh->size;
		memset(row, 0, sh->size);
		for (size_t i = 0; i < sh->ncols && keep; i++)
			keep = fill_col(s, (int)i, &sh->cols[i], row);
		if (keep)
			(*n)++;
		else
			row_release(sh, row);
	}
	done_with(s);
	if (rc != SQLITE_DONE)
		return read_fail(st, sh->what, err);
	return 0;
}

/* All rows of `sql` into a new array *v: 0, or -1 with *v NULL and *n 0. */
static int read_all(struct store *st, const char *sql, const struct row_shape *sh, int64_t id, const char *text,
		    void *v, size_t *n, struct errbuf *err)
{
	void **pv = v;
	size_t cap = 0;

	*pv = NULL;
	*n = 0;
	if (read_into(st, sql, sh, id, text, pv, n, &cap, err) == 0)
		return 0;
	rows_free(sh, *pv, *n);
	*pv = NULL;
	*n = 0;
	return -1;
}

/* The first row of `sql` into *out: 0, 1 when there is none (*out untouched), -1 on error. */
static int read_one(struct store *st, const char *sql, const struct row_shape *sh, int64_t id, const char *text,
		    void *out, struct errbuf *err)
{
	void *v;
	size_t n;

	if (read_all(st, sql, sh, id, text, &v, &n, err) < 0)
		return -1;
	if (n) {
		memcpy(out, v, sh->size);
		memset(v, 0, sh->size); /* moved to *out */
	}
	rows_free(sh, v, n);
	return n ? 0 : 1;
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* Adds the rows (key, value) of a label statement bound to `id`; with `only_new`, keys already present stay. */
static int read_labels(struct store *st, const char *sql, int64_t id, int only_new, struct kvlist *out,
		       struct errbuf *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(st, &s, sql, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(s, 0);
		const char *v = (const char *)sqlite3_column_text(s, 1);

		if (!k || (only_new && kvlist_find(out, k)))
			continue;
		kvlist_set(out, k, v ? v : "");
	}
	done_with(s);
	if (rc != SQLITE_DONE)
		return read_fail(st, "labels", err);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(out->v[0]), kv_cmp);
	return 0;
}

/* ---- suites and runs ---------------------------------------------------------------------------------- */

int store_read_suites(struct store *st, struct store_suite **v, size_t *n, struct errbuf *err)
{
	int ret = read_all(st, Q_SUITES, &suite_shape, 0, NULL, v, n, err);

	for (size_t i = 0; ret == 0 && i < *n; i++)
		ret = read_labels(st, Q_SUITE_LABELS, (*v)[i].id, 0, &(*v)[i].labels, err);
	if (ret == 0)
		return 0;
	store_suites_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

void store_suite_release(struct store_suite *s)
{
	if (!s)
		return;
	row_release(&suite_shape, s);
	memset(s, 0, sizeof(*s));
}

int store_read_suite(struct store *st, int64_t suite_id, struct store_suite *out, struct errbuf *err)
{
	int ret = read_one(st, Q_SUITE, &suite_shape, suite_id, NULL, out, err);

	if (ret == 0 && read_labels(st, Q_SUITE_LABELS, suite_id, 0, &out->labels, err) < 0) {
		store_suite_release(out);
		return -1;
	}
	return ret;
}

void store_run_list_init(struct store_run_list *l)
{
	memset(l, 0, sizeof(*l));
}

void store_run_release(struct store_run *r)
{
	if (!r)
		return;
	row_release(&run_shape, r);
	memset(r, 0, sizeof(*r));
}

void store_run_list_release(struct store_run_list *l)
{
	if (!l)
		return;
	rows_free(&run_shape, l->v, l->n);
	store_run_list_init(l);
}

/* The label rule: the run's own labels, then its suite's for keys the run does not have. */
static int run_labels(struct store *st, struct store_run *r, struct errbuf *err)
{
	if (read_labels(st, Q_RUN_LABELS, r->id, 0, &r->labels, err) < 0)
		return -1;
	return read_labels(st, Q_SUITE_LABELS, r->suite_id, 1, &r->labels, err);
}

/* The suite's labels for keys the run does not have (the label rule), from suite labels read once per suite. */
static int add_suite_labels(struct store *st, struct store_run *r, int64_t *cached_id, struct kvlist *cached,
			    struct errbuf *err)
{
	size_t had = r->labels.n;

	if (*cached_id != r->suite_id) {
		kvlist_release(cached);
		kvlist_init(cached);
		*cached_id = -1;
		if (read_labels(st, Q_SUITE_LABELS, r->suite_id, 0, cached, err) < 0)
			return -1;
		*cached_id = r->suite_id;
	}
	for (size_t k = 0; k < cached->n; k++)
		if (!kvlist_find(&r->labels, cached->v[k].key))
			kvlist_set(&r->labels, cached->v[k].key, cached->v[k].value);
	if (r->labels.n > had && r->labels.n > 1)
		qsort(r->labels.v, r->labels.n, sizeof(r->labels.v[0]), kv_cmp);
	return 0;
}

/* The run's own labels: the rows of the label statement (stepped in step with the runs) that are its. */
static int own_labels(sqlite3_stmt *ls, int *lrc, struct store_run *r)
{
	while (*lrc == SQLITE_ROW && sqlite3_column_int64(ls, 2) == r->id) {
		const char *key = (const char *)sqlite3_column_text(ls, 0);
		const char *val = (const char *)sqlite3_column_text(ls, 1);

		if (key)
			kvlist_set(&r->labels, key, val ? val : "");
		*lrc = sqlite3_step(ls);
	}
	if (*lrc != SQLITE_ROW && *lrc != SQLITE_DONE)
		return -1;
	if (r->labels.n > 1)
		qsort(r->labels.v, r->labels.n, sizeof(r->labels.v[0]), kv_cmp);
	return 0;
}

int store_read_runs_each(struct store *st, store_run_want_fn want, store_run_fn fn, void *ctx, struct errbuf *err)
{
	struct kvlist cached;
	int64_t cached_id = -1;
	sqlite3_stmt *s, *ls;
	struct store_run r;
	int rc, lrc, ret = -1;

	kvlist_init(&cached);
	if (prep(st, &s, Q_RUNS, err) < 0 || shape_check(s, &run_shape, err) < 0)
		return -1;
	if (prep(st, &ls, Q_RUNS_LABELS, err) < 0)
		return -1;
	lrc = sqlite3_step(ls);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int keep = 1;

		memset(&r, 0, sizeof(r));
		kvlist_init(&r.labels);
		r.id = sqlite3_column_int64(s, 0); /* id and suite_id first: the labels need them */
		r.suite_id = sqlite3_column_int64(s, 1);
		if (own_labels(ls, &lrc, &r) < 0) {
			store_run_release(&r);
			read_fail(st, "labels", err);
			goto out;
		}
		if (add_suite_labels(st, &r, &cached_id, &cached, err) < 0) {
			store_run_release(&r);
			goto out;
		}
		if (want && !want(ctx, &r.labels)) {
			store_run_release(&r); /* the rest of the row is not read */
			continue;
		}
		for (size_t i = 0; i < run_shape.ncols && keep; i++)
			keep = fill_col(s, (int)i, &run_shape.cols[i], (char *)&r);
		if (fn(ctx, &r, err) < 0) {
			store_run_release(&r);
			goto out;
		}
		store_run_release(&r); /* what fn did not take over */
	}
	if (rc != SQLITE_DONE) {
		read_fail(st, run_shape.what, err);
		goto out;
	}
	ret = 0;
out:
	done_with(s);
	done_with(ls);
	kvlist_release(&cached);
	return ret;
}

static int run_to_list(void *ctx, struct store_run *r, struct errbuf *err)
{
	struct store_run_list *l = ctx;

	(void)err;
	ARRAY_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = *r;
	memset(r, 0, sizeof(*r));
	kvlist_init(&r->labels);
	return 0;
}

int store_read_runs(struct store *st, struct store_run_list *out, struct errbuf *err)
{
	return store_read_runs_each(st, NULL, run_to_list, out, err);
}

int store_read_run(struct store *st, int64_t run_id, struct store_run *out, struct errbuf *err)
{
	int ret = run_id > 0 ? read_one(st, Q_RUN, &run_shape, run_id, NULL, out, err) : 1;

	if (ret == 0 && run_labels(st, out, err) < 0) {
		store_run_release(out);
		return -1;
	}
	return ret;
}

int store_read_spec(struct store *st, int64_t run_id, char **json, struct errbuf *err)
{
	struct store_run r;
	int ret = store_read_run(st, run_id, &r, err);

	*json = NULL;
	if (ret != 0)
		return ret;
	*json = r.spec;
	r.spec = NULL;
	store_run_release(&r);
	return 0;
}

/* ---- hosts, results, percentiles ---------------------------------------------------------------------- */

int store_read_hosts(struct store *st, int64_t run_id, struct store_host **v, size_t *n, struct errbuf *err)
{
	return read_all(st, Q_HOSTS, &host_shape, run_id, NULL, v, n, err);
}

int store_read_results(struct store *st, int64_t run_id, const char *host, struct store_result **v, size_t *n,
		       struct errbuf *err)
{
	return read_all(st, Q_RESULTS, &result_shape, run_id, host, v, n, err);
}

int store_read_job_results(struct store *st, int64_t run_id, const char *host, struct store_result **v, size_t *n,
			   struct errbuf *err)
{
	return read_all(st, Q_JOB_RESULTS, &result_shape, run_id, host, v, n, err);
}

double store_result_mean_lat_ns(const struct store_result *r)
{
	return r->lat_mean_ns > 0 ? r->lat_mean_ns : r->clat_mean_ns;
}

int store_read_bins(struct store *st, int64_t result_id, struct hist_bin **v, size_t *n, struct errbuf *err)
{
	return read_all(st, Q_BINS, &bin_shape, result_id, NULL, v, n, err);
}

int store_read_percentiles(struct store *st, int64_t result_id, struct percentile **v, size_t *n,
			   struct errbuf *err)
{
	return read_all(st, Q_PCTS, &pct_shape, result_id, NULL, v, n, err);
}

int store_read_percentile(struct store *st, int64_t result_id, double pct, double *value_ns, struct errbuf *err)
{
	struct hist_bin *bins;
	sqlite3_stmt *s;
	size_t n;
	int rc;

	*value_ns = NAN;
	if (prep(st, &s, Q_PCT, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, result_id);
	sqlite3_bind_double(s, 2, pct);
	sqlite3_bind_double(s, 3, STORE_PCT_TOLERANCE);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*value_ns = sqlite3_column_double(s, 0);
	done_with(s);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return read_fail(st, "percentiles", err);
	if (store_read_bins(st, result_id, &bins, &n, err) < 0)
		return -1;
	if (n)
		*value_ns = (double)hist_percentile(bins, n, pct);
	free(bins);
	return 0;
}

/* ---- scans: the rows of every run through one statement --------------------------------------------- */

struct store_scan {
	struct store *st;
	sqlite3_stmt *s;
	const struct row_shape *sh;
	int (*cmp)(const void *, const void *); /* the per-run statement's order */
	int rc;                   /* of the last step: SQLITE_ROW (a row of run `at` waits), else done or failed */
	int64_t at;
	void *rows;               /* the last run's rows of shape sh (results: their percentiles) */
	size_t cap;
	double pct;               /* the percentile of the results scan */
};

/* host '*' first, then by host, then read, write, trim, total (RESULT_ORDER) */
static int cmp_scan_result(const void *a, const void *b)
{
	const struct store_result *x = &((const struct scan_result *)a)->r, *y = &((const struct scan_result *)b)->r;
	int xa = !strcmp(x->host, HOST_AGGREGATE), ya = !strcmp(y->host, HOST_AGGREGATE), c;

	if (xa != ya)
		return ya - xa;
	if ((c = strcmp(x->host, y->host)))
		return c;
	return ((int)x->ddir > (int)y->ddir) - ((int)x->ddir < (int)y->ddir);
}

/* by host, the aggregate '*' last (Q_HOSTS) */
static int cmp_scan_host(const void *a, const void *b)
{
	const struct store_host *x = a, *y = b;
	int xa = !strcmp(x->host, HOST_AGGREGATE), ya = !strcmp(y->host, HOST_AGGREGATE);

	if (xa != ya)
		return xa - ya;
	return strcmp(x->host, y->host);
}

/* initiator first, host '*' first, then host, then sources in preference order and by name (Q_CPU) */
static int cmp_scan_cpu(const void *a, const void *b)
{
	const struct store_cpu *x = a, *y = b;
	int xt = !strcmp(x->role, "target"), yt = !strcmp(y->role, "target");
	int xa = !strcmp(x->host, HOST_AGGREGATE), ya = !strcmp(y->host, HOST_AGGREGATE), c;

	if (xt != yt)
		return xt - yt;
	if (xa != ya)
		return ya - xa;
	if ((c = strcmp(x->host, y->host)))
		return c;
	if ((c = store_cpu_source_rank(x->source) - store_cpu_source_rank(y->source)))
		return c;
	return strcmp(x->source, y->source);
}

static int scan_step(struct store_scan *sc)
{
	sc->rc = sqlite3_step(sc->s);
	if (sc->rc == SQLITE_ROW)
		sc->at = sqlite3_column_int64(sc->s, (int)sc->sh->ncols);
	return sc->rc;
}

static int scan_open(struct store *st, const char *sql, const struct row_shape *sh,
		     int (*cmp)(const void *, const void *), double pct, int64_t from, struct store_scan **out,
		     struct errbuf *err)
{
	struct store_scan *sc;
	sqlite3_stmt *s;

	*out = NULL;
	if (prep(st, &s, sql, err) < 0 || shape_check_extra(s, sh, 1, err) < 0)
		return -1;
	sqlite3_bind_double(s, 1, pct); /* ?1 and ?2 only in the results scan: a bind to an unused slot is harmless */
	sqlite3_bind_double(s, 2, STORE_PCT_TOLERANCE);
	sqlite3_bind_int64(s, 3, from);
	sc = xcalloc(1, sizeof(*sc));
	sc->st = st;
	sc->s = s;
	sc->sh = sh;
	sc->cmp = cmp;
	sc->pct = pct;
	if (scan_step(sc) != SQLITE_ROW && sc->rc != SQLITE_DONE) {
		read_fail(st, sh->what, err);
		store_scan_close(sc);
		return -1;
	}
	*out = sc;
	return 0;
}

/* Whether the result rows (from run `from` on) are in run order in the table: *yes. */
static int results_in_run_order(struct store *st, int64_t from, int *yes, struct errbuf *err)
{
	sqlite3_stmt *s;
	int64_t last = INT64_MIN;
	int rc;

	*yes = 1;
	if (prep(st, &s, Q_RESULTS_RUN_ORDER, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, from);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(s, 0);
		if (run < last) {
			*yes = 0;
			break;
		}
		last = run;
	}
	done_with(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return read_fail(st, "results", err);
	return 0;
}

int store_scan_results(struct store *st, double pct, int64_t from, struct store_scan **out, struct errbuf *err)
{
	int table_order;

	if (results_in_run_order(st, from, &table_order, err) < 0)
		return -1;
	return scan_open(st, table_order ? Q_SCAN_RESULTS_TABLE : Q_SCAN_RESULTS, &scan_result_shape, cmp_scan_result,
			 pct, from, out, err);
}

int store_scan_hosts(struct store *st, int64_t from, struct store_scan **out, struct errbuf *err)
{
	return scan_open(st, Q_SCAN_HOSTS, &host_shape, cmp_scan_host, 0, from, out, err);
}

int store_scan_cpu(struct store *st, int64_t from, struct store_scan **out, struct errbuf *err)
{
	return scan_open(st, Q_SCAN_CPU, &cpu_shape, cmp_scan_cpu, 0, from, out, err);
}

void store_scan_close(struct store_scan *sc)
{
	if (!sc)
		return;
	done_with(sc->s);
	free(sc->rows);
	free(sc);
}

/*
 * A run's few rows into order: an insertion sort (they mostly come in order already, and qsort's setup costs
 * more than the sort for three rows), qsort for many or large rows.
 */
static void sort_rows(void *rows, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char tmp[256];
	char *v = rows;

	if (n > 16 || size > sizeof(tmp)) {
		qsort(rows, n, size, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (cmp(v + (i - 1) * size, v + i * size) <= 0)
			continue;
		memcpy(tmp, v + i * size, size);
		for (; j > 0 && cmp(v + (j - 1) * size, tmp) > 0; j--)
			memcpy(v + j * size, v + (j - 1) * size, size);
		memcpy(v + j * size, tmp, size);
	}
}

/* The rows of run_id into sc->rows (owned by the caller until the next call), in the per-run order. */
static int scan_rows(struct store_scan *sc, int64_t run_id, size_t *n, struct errbuf *err)
{
	size_t size = sc->sh->size;

	*n = 0;
	while (sc->rc == SQLITE_ROW && sc->at < run_id)
		scan_step(sc);
	while (sc->rc == SQLITE_ROW && sc->at == run_id) {
		char *row;
		int keep = 1;

		array_grow(&sc->rows, &sc->cap, *n + 1, size);
		row = (char *)sc->rows + *n * size;
		memset(row, 0, size);
		for (size_t i = 0; i < sc->sh->ncols && keep; i++)
			keep = fill_col(sc->s, (int)i, &sc->sh->cols[i], row);
		if (keep)
			(*n)++;
		else
			row_release(sc->sh, row);
		scan_step(sc);
	}
	if (sc->rc != SQLITE_ROW && sc->rc != SQLITE_DONE) {
		rows_free(sc->sh, sc->rows, *n);
		sc->rows = NULL;
		sc->cap = 0;
		*n = 0;
		return read_fail(sc->st, sc->sh->what, err);
	}
	sort_rows(sc->rows, *n, size, sc->cmp);
	return 0;
}

/* Hands the rows read by scan_rows over: *v gets the array, the scan starts a new one. */
static void scan_take(struct store_scan *sc, void *v, size_t n)
{
	*(void **)v = n ? sc->rows : NULL;
	if (n) {
		sc->rows = NULL;
		sc->cap = 0;
	}
}

int store_scan_next_hosts(struct store_scan *sc, int64_t run_id, struct store_host **v, size_t *n,
			  struct errbuf *err)
{
	if (scan_rows(sc, run_id, n, err) < 0)
		return -1;
	scan_take(sc, v, *n);
	return 0;
}

int store_scan_next_cpu(struct store_scan *sc, int64_t run_id, struct store_cpu **v, size_t *n, struct errbuf *err)
{
	if (scan_rows(sc, run_id, n, err) < 0)
		return -1;
	scan_take(sc, v, *n);
	return 0;
}

int store_scan_next_results(struct store_scan *sc, int64_t run_id, struct store_result **v, double **pct_ns,
			    size_t *n, struct errbuf *err)
{
	struct scan_result *rows;

	*v = NULL;
	*pct_ns = NULL;
	if (scan_rows(sc, run_id, n, err) < 0)
		return -1;
	if (!*n)
		return 0;
	rows = sc->rows;
	*v = xmalloc(*n * sizeof(**v));
	*pct_ns = xmalloc(*n * sizeof(**pct_ns));
	for (size_t i = 0; i < *n; i++) {
		struct store_result *x = &(*v)[i];

		*x = rows[i].r;
		x->job_start_ms = x->lat_min_ns = x->lat_max_ns = x->lat_stddev_ns = NAN; /* not read: unknown */
		x->clat_min_ns = x->clat_max_ns = NAN;
		(*pct_ns)[i] = rows[i].pct_ns;
	}
	memset(rows, 0, *n * sizeof(*rows)); /* the strings moved to *v */
	for (size_t i = 0; i < *n; i++) {
		struct hist_bin *bins;
		size_t nb;

		if (!isnan((*pct_ns)[i]) || (*v)[i].ddir == DDIR_TOTAL)
			continue;
		/* none stored: from the bins, as store_read_percentile */
		if (store_read_bins(sc->st, (*v)[i].id, &bins, &nb, err) < 0) {
			store_results_free(*v, *n);
			free(*pct_ns);
			*v = NULL;
			*pct_ns = NULL;
			*n = 0;
			return -1;
		}
		if (nb)
			(*pct_ns)[i] = (double)hist_percentile(bins, nb, sc->pct);
		free(bins);
	}
	return 0;
}

/* ---- CPU --------------------------------------------------------------------------------------------- */

static const char *const cpu_sources[] = { "procstat", "node_exporter", "import", "fio" };

int store_cpu_source_rank(const char *source)
{
	for (size_t i = 0; i < sizeof(cpu_sources) / sizeof(cpu_sources[0]); i++)
		if (source && !strcmp(source, cpu_sources[i]))
			return (int)i;
	return (int)(sizeof(cpu_sources) / sizeof(cpu_sources[0]));
}

int store_read_cpu(struct store *st, int64_t run_id, struct store_cpu **v, size_t *n, struct errbuf *err)
{
	return read_all(st, Q_CPU, &cpu_shape, run_id, NULL, v, n, err);
}

static double cpu_util_of(const struct store_cpu *c)
{
	if (!isnan(c->util_pct))
		return c->util_pct;
	if (!isnan(c->share_pct[CPU_USER]) && !isnan(c->share_pct[CPU_SYSTEM]))
		return c->share_pct[CPU_USER] + c->share_pct[CPU_SYSTEM];
	return NAN;
}

/* The host whose rows stand for the role: "*" when there is such a row, else the only host, else NULL. */
static const char *cpu_rows_host(const struct store_cpu *cpu, size_t n, const char *role)
{
	const char *only = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(cpu[i].role, role) && !strcmp(cpu[i].host, HOST_AGGREGATE))
			return HOST_AGGREGATE;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cpu[i].role, role))
			continue;
		if (!only)
			only = cpu[i].host;
		else if (strcmp(only, cpu[i].host))
			return NULL; /* several hosts and no cluster row: no figure for the role */
	}
	return only;
}

/* fio's own CPU of the run: run_host '*', else the only run_host. */
static const struct store_host *fio_job_host(const struct store_host *hosts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hosts[i].host, HOST_AGGREGATE))
			return &hosts[i];
	return n == 1 ? &hosts[0] : NULL;
}

void store_cpu_pick(const struct store_cpu *cpu, size_t ncpu, const struct store_host *hosts, size_t nhosts,
		    const char *role, struct store_cpu_pick *out)
{
	const char *host = cpu_rows_host(cpu, ncpu, role);
	const struct store_cpu *best = NULL;
	const struct store_host *h;

	memset(out, 0, sizeof(*out));
	out->util_pct = out->cpu_us_per_io = NAN;
	for (size_t i = 0; host && i < ncpu; i++) {
		const struct store_cpu *c = &cpu[i];
		int rank;

		if (strcmp(c->role, role) || strcmp(c->host, host) || isnan(cpu_util_of(c)))
			continue;
		rank = store_cpu_source_rank(c->source);
		if (!best || rank < store_cpu_source_rank(best->source) ||
		    (rank == store_cpu_source_rank(best->source) && strcmp(c->source, best->source) < 0))
			best = c;
	}
	if (best) {
		out->source = best->source;
		out->host = best->host;
		out->util_pct = cpu_util_of(best);
		out->cpu_us_per_io = best->cpu_us_per_io;
		return;
	}
	if (strcmp(role, "initiator") || !(h = fio_job_host(hosts, nhosts)) || isnan(h->usr_cpu_pct) ||
	    isnan(h->sys_cpu_pct))
		return;
	out->source = "fio";
	out->host = h->host;
	out->from_fio_job = 1;
	out->util_pct = h->usr_cpu_pct + h->sys_cpu_pct;
}

/* ---- disks, samples, artifacts ------------------------------------------------------------------------ */

int store_read_disks(struct store *st, int64_t run_id, struct store_disk **v, size_t *n, struct errbuf *err)
{
	return read_all(st, Q_DISKS, &disk_shape, run_id, NULL, v, n, err);
}

int store_read_samples(struct store *st, int64_t run_id, struct store_sample **v, size_t *n, struct errbuf *err)
{
	return read_all(st, Q_SAMPLES, &sample_shape, run_id, NULL, v, n, err);
}

void store_artifact_release(struct store_artifact *a)
{
	if (!a)
		return;
	row_release(&artifact_shape, a);
	memset(a, 0, sizeof(*a));
}

int store_read_artifacts(struct store *st, int64_t run_id, struct store_artifact **v, size_t *n,
			 struct errbuf *err)
{
	return read_all(st, Q_ARTIFACTS, &artifact_shape, run_id, NULL, v, n, err);
}

int store_read_artifact(struct store *st, int64_t run_id, const char *name, struct store_artifact *out,
			struct errbuf *err)
{
	return read_one(st, Q_ARTIFACTS, &artifact_shape, run_id, name, out, err);
}

int store_read_artifact_runs(struct store *st, const char *name, struct store_named_artifact **v, size_t *n,
			     struct errbuf *err)
{
	return read_all(st, Q_ARTIFACT_RUNS, &named_artifact_shape, 0, name, v, n, err);
}
