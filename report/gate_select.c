/*
 * gate_select: selections of runs for the gate and the per-run figures it compares (see gate_select.h).
 * Read-only: only SELECT statements, all prepared with bound parameters.
 */
#include "report/gate_select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv.h"
#include "core/model.h"
#include "core/spec_json.h"
#include "core/strbuf.h"
#include "core/units.h"

void gate_select_opts_default(struct gate_select_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->match = GATE_MATCH_IDENTITY;
	o->short_fraction = 0.9;
}

/* ---- parsing a selection ---------------------------------------------------------------------------- */

enum sel_kind { SEL_SUITE, SEL_LABELS, SEL_LATEST };

struct selection {
	enum sel_kind kind;
	long long suite_id;
	struct kvlist labels;
};

static int bad_selection(struct errbuf *err, const char *s, const char *why)
{
	return err_set(err, ERR_USAGE,
		       "selection '%s': %s (use suite:ID, key=value[,key=value...] or latest:key=value[,...])", s,
		       why);
}

static int parse_labels(const char *text, const char *whole, struct kvlist *out, struct errbuf *err)
{
	char *copy = xstrdup(text), *save = NULL, *tok;
	int ret = 0;

	if (!*text) {
		free(copy);
		return bad_selection(err, whole, "no label given");
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *k, *v;
		if (kv_parse_label(tok, &k, &v) < 0) {
			ret = bad_selection(err, whole, "a label must be key=value");
			break;
		}
		kvlist_set(out, k, v);
		free(k);
		free(v);
	}
	free(copy);
	if (ret == 0 && out->n == 0)
		ret = bad_selection(err, whole, "no label given");
	return ret;
}

static int parse_selection(const char *s, struct selection *sel, struct errbuf *err)
{
	memset(sel, 0, sizeof(*sel));
	kvlist_init(&sel->labels);
	if (!s || !*s)
		return bad_selection(err, s ? s : "", "empty");
	if (!strncmp(s, "suite:", 6)) {
		long v;
		if (parse_long(s + 6, 1, 0x7fffffffL, &v) < 0)
			return bad_selection(err, s, "suite: wants a suite id (a positive number)");
		sel->kind = SEL_SUITE;
		sel->suite_id = v;
		return 0;
	}
	if (!strncmp(s, "latest:", 7)) {
		sel->kind = SEL_LATEST;
		return parse_labels(s + 7, s, &sel->labels, err);
	}
	if (!strchr(s, '='))
		return bad_selection(err, s, "not understood");
	sel->kind = SEL_LABELS;
	return parse_labels(s, s, &sel->labels, err);
}

int gate_selection_check(const char *selection, struct errbuf *err)
{
	struct selection sel;
	int rc = parse_selection(selection, &sel, err);

	kvlist_release(&sel.labels);
	return rc;
}

/* ---- SQL helpers ---------------------------------------------------------------------------------------- */

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, struct errbuf *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return err_set(err, ERR_STORE, "cannot read the runs of the gate: %s", sqlite3_errmsg(db));
	return 0;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static double col_double_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* " AND (label k=v on the run or on its suite)" for each label, parameters bound from index *idx on. */
static void label_conditions(struct strbuf *sql, size_t n, const char *run_alias)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sql,
			    " AND (EXISTS (SELECT 1 FROM run_label l WHERE l.run_id = %s.id AND l.key = ? AND l.value = ?)"
			    " OR EXISTS (SELECT 1 FROM suite_label sl WHERE sl.suite_id = %s.suite_id AND sl.key = ? "
			    "AND sl.value = ?))",
			    run_alias, run_alias);
}

static void bind_labels(sqlite3_stmt *st, const struct kvlist *labels, int first)
{
	for (size_t i = 0; i < labels->n; i++) {
		int b = first + (int)i * 4;
		sqlite3_bind_text(st, b, labels->v[i].key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, b + 1, labels->v[i].value, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, b + 2, labels->v[i].key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, b + 3, labels->v[i].value, -1, SQLITE_TRANSIENT);
	}
}

/* The newest suite with a run carrying all labels (the run's own or the suite's); 0 when none. */
static int latest_suite(sqlite3 *db, const struct kvlist *labels, long long *suite_id, struct errbuf *err)
{
	struct strbuf sql;
	sqlite3_stmt *st = NULL;
	int rc;

	*suite_id = 0;
	strbuf_init(&sql);
	strbuf_adds(&sql, "SELECT s.id FROM suite s WHERE EXISTS (SELECT 1 FROM run r WHERE r.suite_id = s.id");
	label_conditions(&sql, labels->n, "r");
	strbuf_adds(&sql, ") ORDER BY s.created_at DESC, s.id DESC LIMIT 1");
	rc = prep(db, sql.buf, &st, err);
	strbuf_release(&sql);
	if (rc < 0)
		return -1;
	bind_labels(st, labels, 1);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*suite_id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		err_set(err, ERR_STORE, "cannot find the latest suite: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* ---- per-run figures ------------------------------------------------------------------------------------ */

struct run_stmts {
	sqlite3_stmt *hosts;   /* hosts with results */
	sqlite3_stmt *result;  /* rows of one host */
	sqlite3_stmt *p99;     /* the 99th percentile of a result */
	sqlite3_stmt *herr;    /* first host with a fio error */
	sqlite3_stmt *cpu;     /* CPU-us per IO */
	sqlite3_stmt *fiocpu;  /* fio's own usr/sys CPU of a host, the fallback */
};

static void run_stmts_release(struct run_stmts *s)
{
	sqlite3_finalize(s->hosts);
	sqlite3_finalize(s->result);
	sqlite3_finalize(s->p99);
	sqlite3_finalize(s->herr);
	sqlite3_finalize(s->cpu);
	sqlite3_finalize(s->fiocpu);
}

static int run_stmts_prepare(sqlite3 *db, struct run_stmts *s, struct errbuf *err)
{
	memset(s, 0, sizeof(*s));
	if (prep(db, "SELECT host, count(*) FROM result WHERE run_id = ? GROUP BY host ORDER BY host = '*' DESC, host",
		 &s->hosts, err) < 0 ||
	    prep(db, "SELECT id, ddir, ios, runtime_ms, iops, bw_bytes, lat_mean_ns, clat_mean_ns FROM result "
		     "WHERE run_id = ? AND host = ?", &s->result, err) < 0 ||
	    prep(db, "SELECT value_ns FROM result_pct WHERE result_id = ? AND abs(pct - 99.0) < 1e-6", &s->p99,
		 err) < 0 ||
	    prep(db, "SELECT host, error_code, error FROM run_host WHERE run_id = ? AND error_code != 0 "
		     "ORDER BY host LIMIT 1", &s->herr, err) < 0 ||
	    prep(db, "SELECT cpu_us_per_io FROM cpu WHERE run_id = ? AND role = 'initiator' AND cpu_us_per_io > 0 "
		     "ORDER BY host = '*' DESC, CASE source WHEN 'procstat' THEN 0 WHEN 'node_exporter' THEN 1 "
		     "WHEN 'import' THEN 2 WHEN 'fio' THEN 3 ELSE 4 END, host LIMIT 1", &s->cpu, err) < 0 ||
	    prep(db, "SELECT usr_cpu_pct, sys_cpu_pct FROM run_host WHERE run_id = ? AND host = ? "
		     "AND usr_cpu_pct IS NOT NULL AND sys_cpu_pct IS NOT NULL", &s->fiocpu, err) < 0) {
		run_stmts_release(s);
		return -1;
	}
	return 0;
}

static int step_err(sqlite3 *db, int rc, struct errbuf *err)
{
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return 0;
	return err_set(err, ERR_STORE, "cannot read the runs of the gate: %s", sqlite3_errmsg(db));
}

static int metric_slot(int base, enum ddir d)
{
	return base + (int)d; /* GM_*_READ, _WRITE, _TRIM are consecutive in ddir order */
}

/*
 * Reads the figures of one run into r and checks it. time_based/runtime_s say whether a short measurement
 * is a reason to exclude it.
 */
static int load_run_figures(sqlite3 *db, struct run_stmts *s, struct gate_run *r, int time_based,
			    long runtime_s, long numjobs, const struct gate_select_opts *o, struct errbuf *err)
{
	char *host = NULL;
	int nhosts = 0, rc;
	int64_t max_runtime_ms = 0, total_ios = 0;

	/* a fio error on any host makes the run untrustworthy */
	sqlite3_reset(s->herr);
	sqlite3_bind_int64(s->herr, 1, r->id);
	rc = sqlite3_step(s->herr);
	if (rc == SQLITE_ROW) {
		const char *e = col_text(s->herr, 2);
		char *why = xasprintf("fio error %d on host %s%s%s", sqlite3_column_int(s->herr, 1),
				      col_text(s->herr, 0) ? col_text(s->herr, 0) : "?", e ? ": " : "", e ? e : "");
		gate_run_set_invalid(r, why);
		free(why);
	} else if (step_err(db, rc, err) < 0) {
		return -1;
	}

	/* which host's figures: the aggregate '*', else the only host */
	sqlite3_reset(s->hosts);
	sqlite3_bind_int64(s->hosts, 1, r->id);
	while ((rc = sqlite3_step(s->hosts)) == SQLITE_ROW) {
		if (!host)
			host = xstrdup(col_text(s->hosts, 0));
		nhosts++;
	}
	if (step_err(db, rc, err) < 0) {
		free(host);
		return -1;
	}
	if (!host) {
		gate_run_set_invalid(r, "no results stored");
		return 0;
	}
	if (strcmp(host, HOST_AGGREGATE) && nhosts > 1) {
		char *why = xasprintf("no aggregate ('*') result over its %d hosts", nhosts);
		gate_run_set_invalid(r, why);
		free(why);
		free(host);
		return 0;
	}

	sqlite3_reset(s->result);
	sqlite3_bind_int64(s->result, 1, r->id);
	sqlite3_bind_text(s->result, 2, host, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s->result)) == SQLITE_ROW) {
		int64_t rid = sqlite3_column_int64(s->result, 0), ios = sqlite3_column_int64(s->result, 2);
		int64_t runtime_ms = sqlite3_column_int64(s->result, 3);
		const char *dn = col_text(s->result, 1);
		double lat;
		enum ddir d;
		int prc;

		if (runtime_ms > max_runtime_ms)
			max_runtime_ms = runtime_ms;
		if (!dn || ddir_parse(dn, &d) < 0 || d == DDIR_TOTAL || ios <= 0)
			continue;
		total_ios += ios;
		r->value[metric_slot(GM_IOPS_READ, d)] = sqlite3_column_double(s->result, 4);
		r->value[metric_slot(GM_MBPS_READ, d)] = sqlite3_column_double(s->result, 5);
		lat = col_double_or_nan(s->result, 6);
		if (!(lat > 0))
			lat = col_double_or_nan(s->result, 7);
		r->value[metric_slot(GM_LAT_MEAN_READ, d)] = lat;
		sqlite3_reset(s->p99);
		sqlite3_bind_int64(s->p99, 1, rid);
		prc = sqlite3_step(s->p99);
		if (prc == SQLITE_ROW)
			r->value[metric_slot(GM_LAT_P99_READ, d)] = sqlite3_column_double(s->p99, 0);
		else if (step_err(db, prc, err) < 0)
			goto fail;
	}
	if (step_err(db, rc, err) < 0)
		goto fail;

	sqlite3_reset(s->cpu);
	sqlite3_bind_int64(s->cpu, 1, r->id);
	rc = sqlite3_step(s->cpu);
	if (rc == SQLITE_ROW)
		r->value[GM_CPU_PER_IO] = sqlite3_column_double(s->cpu, 0);
	else if (step_err(db, rc, err) < 0)
		goto fail;
	if (isnan(r->value[GM_CPU_PER_IO]) && numjobs <= 1 && total_ios > 0 && max_runtime_ms > 0) {
		/* no collector figure: fio's own CPU of its single job, usr + sys % of the job's runtime */
		sqlite3_reset(s->fiocpu);
		sqlite3_bind_int64(s->fiocpu, 1, r->id);
		sqlite3_bind_text(s->fiocpu, 2, host, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(s->fiocpu);
		if (rc == SQLITE_ROW) {
			double pct = sqlite3_column_double(s->fiocpu, 0) + sqlite3_column_double(s->fiocpu, 1);
			if (pct > 0)
				r->value[GM_CPU_PER_IO] = pct / 100 * (double)max_runtime_ms * 1000 / (double)total_ios;
		} else if (step_err(db, rc, err) < 0) {
			goto fail;
		}
	}

	if (o->min_runtime_s > 0 && (double)max_runtime_ms < o->min_runtime_s * 1000) {
		char *why = xasprintf("ran %.1f s, less than --min-runtime %g s", (double)max_runtime_ms / 1000,
				      o->min_runtime_s);
		gate_run_set_invalid(r, why);
		free(why);
	} else if (time_based && runtime_s > 0 &&
		   (double)max_runtime_ms < o->short_fraction * (double)runtime_s * 1000) {
		char *why = xasprintf("ran short: %.1f s of the %ld s asked", (double)max_runtime_ms / 1000, runtime_s);
		gate_run_set_invalid(r, why);
		free(why);
	}
	free(host);
	return 0;
fail:
	free(host);
	return -1;
}

/* The workload identity of a run as one comparable text. */
static char *identity_key(sqlite3_stmt *st)
{
	struct strbuf sb;
	static const int cols[] = { 7, 8, 9, 10, 11, 12, 13, 14 }; /* tool rw bs bssplit read% random% iodepth numjobs */

	strbuf_init(&sb);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		const char *t = col_text(st, cols[i]);
		if (i)
			strbuf_addc(&sb, '|');
		strbuf_adds(&sb, t ? t : "?");
	}
	return strbuf_detach(&sb, NULL);
}

static int spec_is_time_based(const char *spec_json)
{
	struct run_spec spec;
	struct errbuf e;
	int tb = 0;

	if (!spec_json)
		return 0;
	errbuf_init(&e);
	if (run_spec_from_json(spec_json, &spec, &e) < 0)
		return 0;
	if (kvlist_find(&spec.wl.opts, "time_based")) {
		const char *v = kvlist_get(&spec.wl.opts, "time_based", NULL);
		tb = !v || strcmp(v, "0");
	}
	run_spec_release(&spec);
	return tb;
}

int gate_select_load(sqlite3 *db, const char *selection, const struct gate_select_opts *opts,
		     struct gate_side *side, struct errbuf *err)
{
	struct gate_select_opts defopts;
	struct selection sel;
	struct run_stmts rs;
	struct strbuf sql;
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	if (!opts) {
		gate_select_opts_default(&defopts);
		opts = &defopts;
	}
	if (parse_selection(selection, &sel, err) < 0) {
		kvlist_release(&sel.labels);
		return -1;
	}
	if (sel.kind == SEL_LATEST) {
		if (latest_suite(db, &sel.labels, &sel.suite_id, err) < 0)
			goto out_sel;
		if (!sel.suite_id) {
			err_set(err, ERR_INPUT, "selection '%s': no suite has runs with %s", selection,
				sel.labels.n > 1 ? "these labels" : "this label");
			goto out_sel;
		}
	}
	if (run_stmts_prepare(db, &rs, err) < 0)
		goto out_sel;

	strbuf_init(&sql);
	strbuf_adds(&sql, "SELECT r.id, r.suite_id, r.repetition, r.name, r.status, r.error, r.runtime_s, "
			  "r.tool, r.rw, r.bs_bytes, r.bssplit, r.read_pct, r.random_pct, r.iodepth, r.numjobs, r.spec "
			  "FROM run r WHERE 1");
	if (sel.kind == SEL_SUITE || sel.kind == SEL_LATEST)
		strbuf_adds(&sql, " AND r.suite_id = ?");
	else
		label_conditions(&sql, sel.labels.n, "r");
	strbuf_adds(&sql, " ORDER BY r.suite_id, r.seq, r.repetition, r.id");
	rc = prep(db, sql.buf, &st, err);
	strbuf_release(&sql);
	if (rc < 0)
		goto out;
	if (sel.kind == SEL_LABELS)
		bind_labels(st, &sel.labels, 1);
	else
		sqlite3_bind_int64(st, 1, sel.suite_id);

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = col_text(st, 3), *status = col_text(st, 4), *error = col_text(st, 5);
		char *key = opts->match == GATE_MATCH_NAME ? xstrdup(name ? name : "?") : identity_key(st);
		long long rep = sqlite3_column_int64(st, 2);
		struct gate_run *r = gate_side_add(side, sqlite3_column_int64(st, 0), name, key,
						   rep > 0 ? (unsigned)rep : 1);

		free(key);
		r->suite_id = sqlite3_column_int64(st, 1);
		if (!status || strcmp(status, "done")) {
			char *why = xasprintf("status %s%s%s", status ? status : "?", error ? ": " : "",
					      error ? error : "");
			gate_run_set_invalid(r, why);
			free(why);
		}
		if (load_run_figures(db, &rs, r, spec_is_time_based(col_text(st, 15)),
				     (long)sqlite3_column_int64(st, 6), (long)sqlite3_column_int64(st, 14), opts, err) < 0)
			goto out;
	}
	if (step_err(db, rc, err) < 0)
		goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	run_stmts_release(&rs);
out_sel:
	kvlist_release(&sel.labels);
	return ret;
}
