/*
 * store_read: typed reads of the store (see store_read.h for the label, CPU and percentile rules). Every
 * statement is a static string prepared once per store through the writer's statement cache
 * (store_internal.h), bound, stepped to the end, then reset: no statement is held across calls.
 */
#include "core/store_read.h"

#include <math.h>
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
static const char Q_SUITES[] = "SELECT id, name, source, args, created_at, bench_version, planned_runs "
			       "FROM suite ORDER BY created_at, id";
#define RUN_SELECT                                                                                           \
	"SELECT r.id, r.suite_id, s.name, s.created_at, r.seq, r.repetition, r.name, r.engine, r.status, r.error, " \
	"r.started_at, r.finished_at, r.tool, r.rw, r.bssplit, r.size, r.bs_bytes, r.read_pct, r.random_pct, "     \
	"r.iodepth, r.numjobs, r.runtime_s, r.ramp_s, r.spec FROM run r JOIN suite s ON s.id = r.suite_id "
static const char Q_RUNS[] = RUN_SELECT "ORDER BY r.suite_id, r.seq, r.repetition, r.id";
static const char Q_RUN[] = RUN_SELECT "WHERE r.id = ?1";
static const char Q_RUN_LABELS[] = "SELECT key, value FROM run_label WHERE run_id = ?1";
static const char Q_SUITE_LABELS[] = "SELECT key, value FROM suite_label WHERE suite_id = ?1";
static const char Q_HOSTS[] = "SELECT host, fio_version, start_offset_ms, error_code, error, usr_cpu_pct, "
			      "sys_cpu_pct FROM run_host WHERE run_id = ?1 ORDER BY host = '*', host";
#define RESULT_SELECT                                                                                        \
	"SELECT id, host, ddir, ios, bytes, runtime_ms, iops, bw_bytes, lat_mean_ns, clat_mean_ns, pct_kind, job, " \
	"job_start_ms FROM result WHERE run_id = ?1 AND (?2 IS NULL OR host = ?2) "
#define RESULT_ORDER "host <> '*', host, CASE ddir WHEN 'read' THEN 0 WHEN 'write' THEN 1 WHEN 'trim' THEN 2 ELSE 3 END"
static const char Q_RESULTS[] = RESULT_SELECT "AND job = '*' ORDER BY " RESULT_ORDER;
static const char Q_JOB_RESULTS[] = RESULT_SELECT "AND job <> '*' ORDER BY job, " RESULT_ORDER;
static const char Q_PCT[] = "SELECT value_ns FROM result_pct WHERE result_id = ?1 AND pct >= ?2 - ?3 "
			    "AND pct <= ?2 + ?3 ORDER BY abs(pct - ?2) LIMIT 1";
static const char Q_BINS[] = "SELECT value_ns, count FROM result_bin WHERE result_id = ?1 AND count > 0 "
			     "ORDER BY value_ns";
static const char Q_CPU[] = "SELECT host, role, source, cores, user_pct, nice_pct, system_pct, iowait_pct, irq_pct, "
			    "softirq_pct, steal_pct, idle_pct, util_pct, cpu_us_per_io FROM cpu WHERE run_id = ?1 "
			    "ORDER BY role = 'target', host <> '*', host, CASE source WHEN 'procstat' THEN 0 "
			    "WHEN 'node_exporter' THEN 1 WHEN 'import' THEN 2 WHEN 'fio' THEN 3 ELSE 4 END, source";
static const char Q_DISKS[] = "SELECT host, device, reads, writes, read_sectors, write_sectors, io_ticks_ms "
			      "FROM disk WHERE run_id = ?1 ORDER BY host, device";
static const char Q_SAMPLES[] = "SELECT host, metric, t_ms, value, job, window_ms, source, bucket_lo_ns, "
				"bucket_hi_ns FROM sample WHERE run_id = ?1 "
				"ORDER BY metric, host = '*', host, job, source, t_ms, bucket_lo_ns";
static const char Q_ARTIFACTS[] = "SELECT name, content FROM artifact WHERE run_id = ?1 ORDER BY name";

/* ---- helpers -------------------------------------------------------------------------------------- */

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

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static char *col_text_or_empty(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return xstrdup(t ? (const char *)t : "");
}

static double col_double(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

static int col_int(sqlite3_stmt *s, int i, int def)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? def : sqlite3_column_int(s, i);
}

static uint64_t col_count(sqlite3_stmt *s, int i)
{
	sqlite3_int64 v = sqlite3_column_int64(s, i);
	return v > 0 ? (uint64_t)v : 0;
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/*
 * Reads the rows of `sql` (?1 = id, ?2 = text or NULL) into the array *v of `size`-byte elements, zeroed
 * before `fill` sets one from a row; `fill` returns 0 to skip the row. On failure the rows read so far stay
 * in *v for the caller to free.
 */
static int read_rows(struct store *st, const char *sql, int64_t id, const char *text, void **v, size_t *n,
		     size_t size, int (*fill)(sqlite3_stmt *s, void *elem), const char *what, struct errbuf *err)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	*v = NULL;
	*n = 0;
	if (prep(st, &s, sql, err) < 0)
		return -1;
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, id);
	if (text)
		sqlite3_bind_text(s, 2, text, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		char *elem;

		array_grow(v, &cap, *n + 1, size);
		elem = (char *)*v + *n * size;
		memset(elem, 0, size);
		if (fill(s, elem))
			(*n)++;
	}
	done_with(s);
	if (rc != SQLITE_DONE)
		return read_fail(st, what, err);
	return 0;
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

/* ---- suites ------------------------------------------------------------------------------------------- */

void store_suites_free(struct store_suite *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].source);
		free(v[i].args);
		free(v[i].created_at);
		free(v[i].bench_version);
		kvlist_release(&v[i].labels);
	}
	free(v);
}

static int suite_row(sqlite3_stmt *s, void *elem)
{
	struct store_suite *x = elem;

	kvlist_init(&x->labels);
	x->id = sqlite3_column_int64(s, 0);
	x->name = col_text_or_empty(s, 1);
	x->source = col_text_or_empty(s, 2);
	x->args = col_text(s, 3);
	x->created_at = col_text_or_empty(s, 4);
	x->bench_version = col_text(s, 5);
	x->planned_runs = (unsigned)col_int(s, 6, 0);
	return 1;
}

int store_read_suites(struct store *st, struct store_suite **v, size_t *n, struct errbuf *err)
{
	int ret = read_rows(st, Q_SUITES, 0, NULL, (void **)v, n, sizeof(**v), suite_row, "suites", err);

	for (size_t i = 0; ret == 0 && i < *n; i++)
		ret = read_labels(st, Q_SUITE_LABELS, (*v)[i].id, 0, &(*v)[i].labels, err);
	if (ret == 0)
		return 0;
	store_suites_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

/* ---- runs --------------------------------------------------------------------------------------------- */

void store_run_list_init(struct store_run_list *l)
{
	memset(l, 0, sizeof(*l));
}

void store_run_release(struct store_run *r)
{
	if (!r)
		return;
	free(r->suite);
	free(r->suite_created);
	free(r->name);
	free(r->engine);
	free(r->status);
	free(r->error);
	free(r->started_at);
	free(r->finished_at);
	free(r->tool);
	free(r->rw);
	free(r->bssplit);
	free(r->size);
	free(r->spec);
	kvlist_release(&r->labels);
	memset(r, 0, sizeof(*r));
}

void store_run_list_release(struct store_run_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		store_run_release(&l->v[i]);
	free(l->v);
	store_run_list_init(l);
}

static void run_from_row(sqlite3_stmt *s, struct store_run *r)
{
	memset(r, 0, sizeof(*r));
	kvlist_init(&r->labels);
	r->id = sqlite3_column_int64(s, 0);
	r->suite_id = sqlite3_column_int64(s, 1);
	r->suite = col_text(s, 2);
	r->suite_created = col_text(s, 3);
	r->seq = (unsigned)col_int(s, 4, 0);
	r->repetition = (unsigned)col_int(s, 5, 1);
	r->name = col_text_or_empty(s, 6);
	r->engine = col_text_or_empty(s, 7);
	r->status = col_text_or_empty(s, 8);
	r->error = col_text(s, 9);
	r->started_at = col_text(s, 10);
	r->finished_at = col_text(s, 11);
	r->tool = col_text(s, 12);
	r->rw = col_text(s, 13);
	r->bssplit = col_text(s, 14);
	r->size = col_text(s, 15);
	r->bs_bytes = col_count(s, 16);
	r->read_pct = col_int(s, 17, -1);
	r->random_pct = col_int(s, 18, -1);
	r->iodepth = col_int(s, 19, 0);
	r->numjobs = col_int(s, 20, 0);
	r->runtime_s = col_int(s, 21, 0);
	r->ramp_s = col_int(s, 22, 0);
	r->spec = col_text(s, 23);
}

/* The label rule: the run's own labels, then its suite's for keys the run does not have. */
static int run_labels(struct store *st, struct store_run *r, struct errbuf *err)
{
	if (read_labels(st, Q_RUN_LABELS, r->id, 0, &r->labels, err) < 0)
		return -1;
	return read_labels(st, Q_SUITE_LABELS, r->suite_id, 1, &r->labels, err);
}

/* Appends the runs of Q_RUNS (run_id 0) or Q_RUN (that run). */
static int read_runs(struct store *st, int64_t run_id, struct store_run_list *out, struct errbuf *err)
{
	sqlite3_stmt *s;
	size_t first = out->n;
	int rc;

	if (prep(st, &s, run_id ? Q_RUN : Q_RUNS, err) < 0)
		return -1;
	if (run_id)
		sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ARRAY_GROW(out->v, out->cap, out->n + 1);
		run_from_row(s, &out->v[out->n++]);
	}
	done_with(s);
	if (rc != SQLITE_DONE) {
		read_fail(st, "runs", err);
		return -1;
	}
	for (size_t i = first; i < out->n; i++)
		if (run_labels(st, &out->v[i], err) < 0)
			return -1;
	return 0;
}

int store_read_runs(struct store *st, struct store_run_list *out, struct errbuf *err)
{
	return read_runs(st, 0, out, err);
}

int store_read_run(struct store *st, int64_t run_id, struct store_run *out, struct errbuf *err)
{
	struct store_run_list l;
	int ret;

	store_run_list_init(&l);
	if (run_id <= 0)
		return 1;
	ret = read_runs(st, run_id, &l, err);
	if (ret == 0 && l.n == 0)
		ret = 1;
	if (ret == 0) {
		*out = l.v[0];
		l.n = 0;
	}
	store_run_list_release(&l);
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

/* ---- hosts and results ----------------------------------------------------------------------------------- */

void store_hosts_free(struct store_host *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].host);
		free(v[i].fio_version);
		free(v[i].error);
	}
	free(v);
}

static int host_row(sqlite3_stmt *s, void *elem)
{
	struct store_host *h = elem;

	h->host = col_text_or_empty(s, 0);
	h->fio_version = col_text(s, 1);
	h->start_offset_ms = col_double(s, 2);
	h->error_code = col_int(s, 3, 0);
	h->error = col_text(s, 4);
	h->usr_cpu_pct = col_double(s, 5);
	h->sys_cpu_pct = col_double(s, 6);
	return 1;
}

int store_read_hosts(struct store *st, int64_t run_id, struct store_host **v, size_t *n, struct errbuf *err)
{
	if (read_rows(st, Q_HOSTS, run_id, NULL, (void **)v, n, sizeof(**v), host_row, "the hosts of a run", err) == 0)
		return 0;
	store_hosts_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

void store_results_free(struct store_result *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].host);
		free(v[i].pct_kind);
		free(v[i].job);
	}
	free(v);
}

static int result_row(sqlite3_stmt *s, void *elem)
{
	struct store_result *x = elem;
	const char *d = (const char *)sqlite3_column_text(s, 2);

	if (!d || ddir_parse(d, &x->ddir) < 0)
		return 0;
	x->id = sqlite3_column_int64(s, 0);
	x->host = col_text_or_empty(s, 1);
	x->ios = col_count(s, 3);
	x->bytes = col_count(s, 4);
	x->runtime_ms = sqlite3_column_int64(s, 5);
	x->iops = col_double(s, 6);
	x->bw_bytes = col_double(s, 7);
	x->lat_mean_ns = col_double(s, 8);
	x->clat_mean_ns = col_double(s, 9);
	x->pct_kind = col_text(s, 10);
	x->job = col_text_or_empty(s, 11);
	x->job_start_ms = col_double(s, 12);
	return 1;
}

int store_read_results(struct store *st, int64_t run_id, const char *host, struct store_result **v, size_t *n,
		       struct errbuf *err)
{
	if (read_rows(st, Q_RESULTS, run_id, host, (void **)v, n, sizeof(**v), result_row, "results", err) == 0)
		return 0;
	store_results_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

int store_read_job_results(struct store *st, int64_t run_id, const char *host, struct store_result **v, size_t *n,
			   struct errbuf *err)
{
	if (read_rows(st, Q_JOB_RESULTS, run_id, host, (void **)v, n, sizeof(**v), result_row, "the results of jobs",
		      err) == 0)
		return 0;
	store_results_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

double store_result_mean_lat_ns(const struct store_result *r)
{
	return r->lat_mean_ns > 0 ? r->lat_mean_ns : r->clat_mean_ns;
}

static int bin_row(sqlite3_stmt *s, void *elem)
{
	struct hist_bin *b = elem;

	b->value_ns = col_count(s, 0);
	b->count = col_count(s, 1);
	return 1;
}

int store_read_bins(struct store *st, int64_t result_id, struct hist_bin **v, size_t *n, struct errbuf *err)
{
	if (read_rows(st, Q_BINS, result_id, NULL, (void **)v, n, sizeof(**v), bin_row, "histogram bins", err) == 0)
		return 0;
	free(*v);
	*v = NULL;
	*n = 0;
	return -1;
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

/* ---- CPU --------------------------------------------------------------------------------------------- */

static const char *const cpu_sources[] = { "procstat", "node_exporter", "import", "fio" };

int store_cpu_source_rank(const char *source)
{
	for (size_t i = 0; i < sizeof(cpu_sources) / sizeof(cpu_sources[0]); i++)
		if (source && !strcmp(source, cpu_sources[i]))
			return (int)i;
	return (int)(sizeof(cpu_sources) / sizeof(cpu_sources[0]));
}

void store_cpu_free(struct store_cpu *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].host);
		free(v[i].role);
		free(v[i].source);
	}
	free(v);
}

static int cpu_row(sqlite3_stmt *s, void *elem)
{
	struct store_cpu *c = elem;

	c->host = col_text_or_empty(s, 0);
	c->role = col_text_or_empty(s, 1);
	c->source = col_text_or_empty(s, 2);
	c->cores = col_int(s, 3, 0);
	for (int k = 0; k < CPU_SHARE_NR; k++)
		c->share_pct[k] = col_double(s, 4 + k);
	c->util_pct = col_double(s, 12);
	c->cpu_us_per_io = col_double(s, 13);
	return 1;
}

int store_read_cpu(struct store *st, int64_t run_id, struct store_cpu **v, size_t *n, struct errbuf *err)
{
	if (read_rows(st, Q_CPU, run_id, NULL, (void **)v, n, sizeof(**v), cpu_row, "CPU figures", err) == 0)
		return 0;
	store_cpu_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
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

void store_disks_free(struct store_disk *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].host);
		free(v[i].device);
	}
	free(v);
}

static int disk_row(sqlite3_stmt *s, void *elem)
{
	struct store_disk *d = elem;

	d->host = col_text_or_empty(s, 0);
	d->device = col_text_or_empty(s, 1);
	d->reads = col_count(s, 2);
	d->writes = col_count(s, 3);
	d->read_sectors = col_count(s, 4);
	d->write_sectors = col_count(s, 5);
	d->io_ticks_ms = col_count(s, 6);
	return 1;
}

int store_read_disks(struct store *st, int64_t run_id, struct store_disk **v, size_t *n, struct errbuf *err)
{
	if (read_rows(st, Q_DISKS, run_id, NULL, (void **)v, n, sizeof(**v), disk_row, "disk figures", err) == 0)
		return 0;
	store_disks_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

void store_samples_free(struct store_sample *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].host);
		free(v[i].metric);
	}
	free(v);
}

static int sample_row(sqlite3_stmt *s, void *elem)
{
	struct store_sample *x = elem;

	x->host = col_text_or_empty(s, 0);
	x->metric = col_text_or_empty(s, 1);
	x->t_ms = sqlite3_column_int64(s, 2);
	x->value = col_double(s, 3);
	snprintf(x->job, sizeof(x->job), "%s",
		 (const char *)sqlite3_column_text(s, 4) ? (const char *)sqlite3_column_text(s, 4) : "");
	x->window_ms = (uint32_t)sqlite3_column_int64(s, 5);
	snprintf(x->source, sizeof(x->source), "%s",
		 (const char *)sqlite3_column_text(s, 6) ? (const char *)sqlite3_column_text(s, 6) : "");
	x->is_bin = sqlite3_column_type(s, 7) != SQLITE_NULL;
	x->bucket_lo_ns = sqlite3_column_int64(s, 7);
	x->bucket_hi_ns = sqlite3_column_int64(s, 8);
	return 1;
}

int store_read_samples(struct store *st, int64_t run_id, struct store_sample **v, size_t *n, struct errbuf *err)
{
	if (read_rows(st, Q_SAMPLES, run_id, NULL, (void **)v, n, sizeof(**v), sample_row, "samples", err) == 0)
		return 0;
	store_samples_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}

void store_artifacts_free(struct store_artifact *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].content);
	}
	free(v);
}

static int artifact_row(sqlite3_stmt *s, void *elem)
{
	struct store_artifact *a = elem;
	const void *b = sqlite3_column_blob(s, 1);
	size_t len = (size_t)sqlite3_column_bytes(s, 1);

	a->name = col_text_or_empty(s, 0);
	a->content = xcalloc(len + 1, 1);
	if (b && len)
		memcpy(a->content, b, len);
	a->len = len;
	return 1;
}

int store_read_artifacts(struct store *st, int64_t run_id, struct store_artifact **v, size_t *n,
			 struct errbuf *err)
{
	if (read_rows(st, Q_ARTIFACTS, run_id, NULL, (void **)v, n, sizeof(**v), artifact_row, "artifacts", err) == 0)
		return 0;
	store_artifacts_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -1;
}
