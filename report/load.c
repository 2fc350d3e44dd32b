/*
 * load: reading runs and their headline figures from the store for reports (report.h). Read-only, prepared
 * SQL. Figures come from the aggregate host '*' of table result (ddir read/write/total); p99 from
 * result_pct, or from the histogram bins when fio did not report the 99th percentile; CPU from the cluster
 * figure (host '*', role initiator) of a collector or import, else fio's own usr+sys of run_host '*'.
 * The target CPU figure and, with REP_CPU_DETAIL, the cpu and disk rows come from cpuview.c.
 */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/identity.h"
#include "core/spec_json.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/cpuview.h"

const struct rep_metric_info rep_metrics[RM_NR] = {
	[RM_IOPS] = { "iops", "IOPS", 1, 0 },
	[RM_MBPS] = { "mbps", "MiB/s", 1, 1 },
	[RM_CPU] = { "cpu_pct", "CPU %", 0, 1 },
	[RM_RLAT] = { "read_lat_ms", "read lat ms", 0, 3 },
	[RM_WLAT] = { "write_lat_ms", "write lat ms", 0, 3 },
	[RM_RP99] = { "read_p99_ms", "read p99 ms", 0, 3 },
	[RM_WP99] = { "write_p99_ms", "write p99 ms", 0, 3 },
};

void rep_set_init(struct rep_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void rep_run_release(struct rep_run *r)
{
	free(r->suite);
	free(r->suite_created);
	free(r->name);
	free(r->status);
	free(r->error);
	free(r->engine);
	free(r->started_at);
	free(r->finished_at);
	free(r->tool);
	free(r->rw);
	free(r->identity);
	free(r->cpu_source);
	cpuview_run_free(r->cpuview);
	kvlist_release(&r->labels);
	for (size_t i = 0; i < r->nhosts; i++) {
		free(r->hosts[i].host);
		free(r->hosts[i].fio_version);
		free(r->hosts[i].error);
	}
	free(r->hosts);
}

void rep_set_release(struct rep_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		rep_run_release(&s->v[i]);
	free(s->v);
	rep_set_init(s);
}

/* ---- selections -------------------------------------------------------------------------------- */

static const char *canonical_key(const char *k)
{
	if (!strcmp(k, "rdpct") || !strcmp(k, "read") || !strcmp(k, "rwmixread"))
		return "read_pct";
	if (!strcmp(k, "randpct") || !strcmp(k, "random"))
		return "random_pct";
	if (!strcmp(k, "workload"))
		return "name";
	return k;
}

int rep_where_add(struct kvlist *where, const char *arg, struct errbuf *err)
{
	char *k, *v;

	if (kv_parse_label(arg, &k, &v) < 0)
		return err_set(err, ERR_USAGE, "--where wants key=value (a label or name, tool, rw, bs, read_pct, "
				   "random_pct, iodepth, numjobs, engine, suite, status), got '%s'", arg);
	if (!strcmp(canonical_key(k), "bs")) {
		uint64_t b;
		if (parse_size(v, &b) < 0) {
			err_set(err, ERR_USAGE, "--where bs= wants a size such as 4k, got '%s'", v);
			free(k);
			free(v);
			return -1;
		}
	}
	kvlist_add(where, k, v);
	free(k);
	free(v);
	return 0;
}

const char *rep_run_value(const struct rep_run *r, const char *key, char *buf, size_t len)
{
	const char *k = canonical_key(key);
	const struct kv *kv = kvlist_find(&r->labels, key);

	if (kv)
		return kv->value ? kv->value : "";
	if (!strcmp(k, "name"))
		return r->name;
	if (!strcmp(k, "tool"))
		return r->tool;
	if (!strcmp(k, "rw"))
		return r->rw;
	if (!strcmp(k, "engine"))
		return r->engine;
	if (!strcmp(k, "suite"))
		return r->suite;
	if (!strcmp(k, "status"))
		return r->status;
	if (!strcmp(k, "bs"))
		return r->bs_bytes ? format_size_short(r->bs_bytes, buf, len) : NULL;
	if (!strcmp(k, "read_pct") && r->read_pct >= 0) {
		snprintf(buf, len, "%d", r->read_pct);
		return buf;
	}
	if (!strcmp(k, "random_pct") && r->random_pct >= 0) {
		snprintf(buf, len, "%d", r->random_pct);
		return buf;
	}
	if (!strcmp(k, "iodepth") && r->iodepth > 0) {
		snprintf(buf, len, "%d", r->iodepth);
		return buf;
	}
	if (!strcmp(k, "numjobs") && r->numjobs > 0) {
		snprintf(buf, len, "%d", r->numjobs);
		return buf;
	}
	return NULL;
}

int rep_run_matches(const struct rep_run *r, const struct kvlist *where)
{
	if (!where)
		return 1;
	for (size_t i = 0; i < where->n; i++) {
		char buf[64];
		const char *want = where->v[i].value ? where->v[i].value : "";
		const char *have = rep_run_value(r, where->v[i].key, buf, sizeof(buf));

		if (!have)
			return 0;
		if (!strcmp(canonical_key(where->v[i].key), "bs") && !kvlist_find(&r->labels, where->v[i].key)) {
			uint64_t b;
			if (parse_size(want, &b) < 0 || b != r->bs_bytes)
				return 0;
			continue;
		}
		if (strcmp(have, want))
			return 0;
	}
	return 1;
}

/* ---- SQL ---------------------------------------------------------------------------------------- */

static int sql_fail(struct errbuf *err, sqlite3 *db, const char *what)
{
	return err_set(err, ERR_STORE, "%s: %s", what, sqlite3_errmsg(db));
}

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static double col_double(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

static int col_int(sqlite3_stmt *s, int i, int def)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? def : sqlite3_column_int(s, i);
}

/*
 * The workload identity of a stored run, from its spec (the whole workload, core/identity.h); a run stored
 * without a readable spec gets the identity of the workload columns it has.
 */
static char *run_identity(const char *spec_json, const struct rep_run *r)
{
	struct run_spec spec;
	struct errbuf e;
	char *id;

	errbuf_init(&e);
	run_spec_init(&spec);
	if (!spec_json || run_spec_from_json(spec_json, &spec, &e) < 0) {
		run_spec_release(&spec);
		run_spec_init(&spec);
		spec.wl.tool = r->tool ? xstrdup(r->tool) : NULL;
		spec.wl.rw = r->rw ? xstrdup(r->rw) : NULL;
		spec.wl.bs_bytes = r->bs_bytes;
		spec.wl.read_pct = r->read_pct;
		spec.wl.random_pct = r->random_pct;
		spec.wl.iodepth = (unsigned)r->iodepth;
		spec.wl.numjobs = (unsigned)r->numjobs;
	}
	id = workload_identity(&spec.wl);
	run_spec_release(&spec);
	return id;
}

enum { Q_RUNS, Q_LABELS, Q_SUITE_LABELS, Q_RESULT, Q_PCT, Q_BINS, Q_CPU, Q_HOSTS, Q_HOST_RES, Q_NR };

static const char *const queries[Q_NR] = {
	[Q_RUNS] = "SELECT r.id, r.suite_id, s.name, s.created_at, r.name, r.status, r.error, r.engine, "
		   "r.started_at, r.finished_at, r.tool, r.rw, r.bs_bytes, r.read_pct, r.random_pct, r.iodepth, "
		   "r.numjobs, r.repetition, r.spec FROM run r JOIN suite s ON s.id = r.suite_id "
		   "ORDER BY r.suite_id, r.seq, r.repetition, r.id",
	[Q_LABELS] = "SELECT key, value FROM run_label WHERE run_id = ?",
	[Q_SUITE_LABELS] = "SELECT key, value FROM suite_label WHERE suite_id = ?",
	[Q_RESULT] = "SELECT ddir, iops, bw_bytes, lat_mean_ns, clat_mean_ns, id FROM result "
		     "WHERE run_id = ? AND host = ?",
	[Q_PCT] = "SELECT value_ns FROM result_pct WHERE result_id = ? AND pct > 98.9999 AND pct < 99.0001",
	[Q_BINS] = "SELECT value_ns, count FROM result_bin WHERE result_id = ? ORDER BY value_ns",
	[Q_CPU] = "SELECT util_pct, user_pct, system_pct, source FROM cpu WHERE run_id = ? AND host = '*' "
		  "AND role = 'initiator' ORDER BY source = 'fio', source",
	[Q_HOSTS] = "SELECT host, fio_version, start_offset_ms, error_code, error, usr_cpu_pct, sys_cpu_pct "
		    "FROM run_host WHERE run_id = ? ORDER BY host = '*', host",
	[Q_HOST_RES] = "SELECT sum(iops), sum(bw_bytes), count(*) FROM result WHERE run_id = ? AND host = ? "
		       "AND ddir <> 'total'",
};

struct loader {
	sqlite3 *db;
	sqlite3_stmt *q[Q_NR];
	struct cpuview_loader cv; /* target CPU, and with REP_CPU_DETAIL the cpu and disk rows */
};

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

static int load_labels(struct loader *L, struct rep_run *r, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[Q_LABELS];
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		kvlist_set(&r->labels, (const char *)sqlite3_column_text(s, 0),
			   (const char *)sqlite3_column_text(s, 1));
	if (rc != SQLITE_DONE)
		return sql_fail(err, L->db, "cannot read run labels");
	s = L->q[Q_SUITE_LABELS];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, r->suite_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(s, 0);
		if (!kvlist_find(&r->labels, k))
			kvlist_add(&r->labels, k, (const char *)sqlite3_column_text(s, 1));
	}
	if (rc != SQLITE_DONE)
		return sql_fail(err, L->db, "cannot read suite labels");
	if (r->labels.n > 1)
		qsort(r->labels.v, r->labels.n, sizeof(r->labels.v[0]), kv_cmp);
	return 0;
}

static int p99_of(struct loader *L, int64_t result_id, double *ms, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[Q_PCT];
	struct hist_bin *bins = NULL;
	size_t n = 0, cap = 0;
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, result_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*ms = sqlite3_column_double(s, 0) / 1e6;
		return 0;
	}
	if (rc != SQLITE_DONE)
		return sql_fail(err, L->db, "cannot read percentiles");
	s = L->q[Q_BINS];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, result_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ARRAY_GROW(bins, cap, n + 1);
		bins[n].value_ns = (uint64_t)sqlite3_column_int64(s, 0);
		bins[n].count = (uint64_t)sqlite3_column_int64(s, 1);
		n++;
	}
	if (rc != SQLITE_DONE) {
		free(bins);
		return sql_fail(err, L->db, "cannot read histogram bins");
	}
	if (n)
		*ms = (double)hist_percentile(bins, n, 99.0) / 1e6;
	free(bins);
	return 0;
}

static int load_results(struct loader *L, struct rep_run *r, const char *host, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[Q_RESULT];
	double sum_iops = 0, sum_bw = 0;
	int have_total = 0, have_dir = 0, rc;
	int64_t rid[2] = { 0, 0 };

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, r->id);
	sqlite3_bind_text(s, 2, host, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(s, 0);
		double iops = col_double(s, 1), bw = col_double(s, 2);
		double lat = col_double(s, 3);
		int idx;

		if (isnan(lat))
			lat = col_double(s, 4);
		if (!strcmp(d, "total")) {
			r->m[RM_IOPS] = iops;
			r->m[RM_MBPS] = bw / 1048576.0;
			have_total = 1;
			continue;
		}
		sum_iops += iops;
		sum_bw += bw;
		have_dir = 1;
		idx = !strcmp(d, "read") ? 0 : !strcmp(d, "write") ? 1 : -1;
		if (idx < 0)
			continue;
		r->m[idx ? RM_WLAT : RM_RLAT] = isnan(lat) ? NAN : lat / 1e6;
		rid[idx] = sqlite3_column_int64(s, 5);
	}
	if (rc != SQLITE_DONE)
		return sql_fail(err, L->db, "cannot read results");
	if (!have_total && have_dir) {
		r->m[RM_IOPS] = sum_iops;
		r->m[RM_MBPS] = sum_bw / 1048576.0;
	}
	for (int i = 0; i < 2; i++)
		if (rid[i] && p99_of(L, rid[i], &r->m[i ? RM_WP99 : RM_RP99], err) < 0)
			return -1;
	return 0;
}

static int load_hosts(struct loader *L, struct rep_run *r, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[Q_HOSTS];
	size_t cap = 0;
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct rep_host *h;
		sqlite3_stmt *q = L->q[Q_HOST_RES];

		ARRAY_GROW(r->hosts, cap, r->nhosts + 1);
		h = &r->hosts[r->nhosts++];
		memset(h, 0, sizeof(*h));
		h->host = col_text(s, 0);
		h->fio_version = col_text(s, 1);
		h->start_offset_ms = col_double(s, 2);
		h->error_code = col_int(s, 3, 0);
		h->error = col_text(s, 4);
		h->usr_cpu_pct = col_double(s, 5);
		h->sys_cpu_pct = col_double(s, 6);
		h->iops = h->mbps = NAN;
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, r->id);
		sqlite3_bind_text(q, 2, h->host ? h->host : "", -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 2) > 0) {
			h->iops = col_double(q, 0);
			h->mbps = col_double(q, 1) / 1048576.0;
		}
	}
	if (rc != SQLITE_DONE)
		return sql_fail(err, L->db, "cannot read the hosts of a run");
	return 0;
}

static int load_cpu(struct loader *L, struct rep_run *r, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[Q_CPU];
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, r->id);
	/* Collector and import figures sort before fio's own; the first usable row wins. */
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		double util = col_double(s, 0), usr = col_double(s, 1), sys = col_double(s, 2);
		const char *src = (const char *)sqlite3_column_text(s, 3);

		if (isnan(util) && !isnan(usr) && !isnan(sys))
			util = usr + sys;
		if (!isnan(util) && src && strcmp(src, "fio")) {
			r->m[RM_CPU] = util;
			r->cpu_source = xstrdup(src);
			return 0;
		}
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_fail(err, L->db, "cannot read CPU figures");
	for (size_t i = 0; i < r->nhosts; i++) {
		const struct rep_host *h = &r->hosts[i];
		if (!strcmp(h->host, "*") && !isnan(h->usr_cpu_pct) && !isnan(h->sys_cpu_pct)) {
			r->m[RM_CPU] = h->usr_cpu_pct + h->sys_cpu_pct;
			r->cpu_source = xstrdup("fio");
		}
	}
	return 0;
}

static int status_wanted(const char *st, unsigned flags)
{
	if (flags & REP_ALL_STATUS)
		return 1;
	return st && (!strcmp(st, "done") || !strcmp(st, "partial"));
}

int report_load(sqlite3 *db, const struct kvlist *where, unsigned flags, struct rep_set *out, struct errbuf *err)
{
	struct loader L = { .db = db };
	int ret = -1, rc;

	for (int i = 0; i < Q_NR; i++)
		if (sqlite3_prepare_v2(db, queries[i], -1, &L.q[i], NULL) != SQLITE_OK) {
			sql_fail(err, db, "cannot read the database (is it a bench database?)");
			goto out;
		}
	if (cpuview_loader_open(&L.cv, db, err) < 0)
		goto out;
	while ((rc = sqlite3_step(L.q[Q_RUNS])) == SQLITE_ROW) {
		sqlite3_stmt *s = L.q[Q_RUNS];
		struct rep_run *r;
		const char *st = (const char *)sqlite3_column_text(s, 5);

		if (!status_wanted(st, flags))
			continue;
		ARRAY_GROW(out->v, out->cap, out->n + 1);
		r = &out->v[out->n++];
		memset(r, 0, sizeof(*r));
		kvlist_init(&r->labels);
		for (int m = 0; m < RM_NR; m++)
			r->m[m] = NAN;
		r->id = sqlite3_column_int64(s, 0);
		r->suite_id = sqlite3_column_int64(s, 1);
		r->suite = col_text(s, 2);
		r->suite_created = col_text(s, 3);
		r->name = col_text(s, 4);
		r->status = col_text(s, 5);
		r->error = col_text(s, 6);
		r->engine = col_text(s, 7);
		r->started_at = col_text(s, 8);
		r->finished_at = col_text(s, 9);
		r->tool = col_text(s, 10);
		r->rw = col_text(s, 11);
		r->bs_bytes = (uint64_t)sqlite3_column_int64(s, 12);
		r->read_pct = col_int(s, 13, -1);
		r->random_pct = col_int(s, 14, -1);
		r->iodepth = col_int(s, 15, 0);
		r->numjobs = col_int(s, 16, 0);
		r->repetition = col_int(s, 17, 1);
		if (!r->name)
			r->name = xstrdup("run");
		r->identity = run_identity((const char *)sqlite3_column_text(s, 18), r);
		if (load_labels(&L, r, err) < 0)
			goto out;
		if (!rep_run_matches(r, where)) {
			rep_run_release(r);
			out->n--;
			continue;
		}
		if (load_hosts(&L, r, err) < 0 || load_results(&L, r, "*", err) < 0 || load_cpu(&L, r, err) < 0 ||
		    cpuview_load_run(&L.cv, r, (flags & REP_CPU_DETAIL) != 0, err) < 0)
			goto out;
		/* A run stored without an aggregate (one host only): its single host stands for the run. */
		if (isnan(r->m[RM_IOPS]) && r->nhosts == 1 && strcmp(r->hosts[0].host, "*") &&
		    load_results(&L, r, r->hosts[0].host, err) < 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		sql_fail(err, db, "cannot read runs");
		goto out;
	}
	ret = 0;
out:
	for (int i = 0; i < Q_NR; i++)
		sqlite3_finalize(L.q[i]);
	cpuview_loader_close(&L.cv);
	return ret;
}
