/*
 * gate_select: selections of runs for the gate and the per-run figures it compares (see gate_select.h).
 * Runs are chosen by report_load and the one selection language (select.h); figures are read through the
 * store's reader (core/store_read.h). No SQL here.
 */
#include "report/gate_select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv.h"
#include "core/model.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/report.h"
#include "report/steady.h"

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

/* ---- per-run figures ------------------------------------------------------------------------------------ */

static int metric_slot(int base, enum ddir d)
{
	return base + (int)d; /* GM_*_READ, _WRITE, _TRIM are consecutive in ddir order */
}

/* The host whose results stand for the run: '*', else the only host with results; NULL when none. */
static const char *figures_host(const struct store_result *res, size_t n, int *nhosts)
{
	const char *host = NULL;

	*nhosts = 0;
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(res[i].host, res[i - 1].host)) {
			if (!host)
				host = res[i].host; /* '*' sorts first (store_read_results) */
			(*nhosts)++;
		}
	return host;
}

/*
 * fio's own ss= result (labels fio.ss*): the remark, and whether fio stopped the job early because the
 * criterion was met (then the run is complete, not short).
 */
static int check_fio_ss(struct gate_run *r, const struct rep_run *rr, int64_t max_runtime_ms, long runtime_s)
{
	const char *ss = kvlist_get(&rr->labels, "fio.ss", NULL);
	const char *crit = kvlist_get(&rr->labels, "fio.ss.criterion", "?");
	char *remark;

	if (!ss)
		return 0;
	if (!strcmp(ss, "attained")) {
		remark = xasprintf("fio's ss=%s attained after %s s (stopped early by fio: complete, not short)", crit,
				   kvlist_get(&rr->labels, "fio.ss.after_s", "?"));
	} else if (runtime_s > 0) {
		remark = xasprintf("fio's steady-state criterion ss=%s was not met (ran %.1f s of %ld s)", crit,
				   (double)max_runtime_ms / 1000, runtime_s);
	} else {
		remark = xasprintf("fio's steady-state criterion ss=%s was not met", crit);
	}
	gate_run_add_remark(r, remark);
	free(remark);
	return !strcmp(ss, "attained");
}

/* Excludes the run when it was measured too short; a job fio stopped with its ss= attained is not short. */
static void check_runtime(struct gate_run *r, const struct rep_run *rr, int64_t max_runtime_ms, int time_based,
			  const struct gate_select_opts *o)
{
	long runtime_s = rr->runtime_s;
	int stopped_by_ss = check_fio_ss(r, rr, max_runtime_ms, runtime_s);
	char *why = NULL;

	if (o->min_runtime_s > 0 && (double)max_runtime_ms < o->min_runtime_s * 1000)
		why = xasprintf("ran %.1f s, less than --min-runtime %g s", (double)max_runtime_ms / 1000,
				o->min_runtime_s);
	else if (time_based && runtime_s > 0 && !stopped_by_ss &&
		 (double)max_runtime_ms < o->short_fraction * (double)runtime_s * 1000)
		why = xasprintf("ran short: %.1f s of the %ld s asked", (double)max_runtime_ms / 1000, runtime_s);
	if (why)
		gate_run_set_invalid(r, why);
	free(why);
}

/* A run whose steady_state label says it is not at steady state is excluded unless allow_unsteady. */
static void check_steady(struct gate_run *r, const struct rep_run *rr, const struct gate_select_opts *o)
{
	const char *v = kvlist_get(&rr->labels, "steady_state", NULL);
	char buf[160];
	int state, reached;
	char *words, *text;

	if (!v)
		return;
	state = ss_label_describe(v, kvlist_get(&rr->labels, "ss.window_iops", NULL), buf, sizeof(buf));
	reached = state == SS_REACHED;
	words = state < 0 ? xasprintf("steady_state label '%s' is none of reached:N, not-reached:N, running:N", v) :
			    xstrdup(buf);
	if (reached || o->allow_unsteady) {
		text = reached ? xstrdup(words) : xasprintf("%s (included: --allow-unsteady)", words);
		gate_run_add_remark(r, text);
	} else {
		text = xasprintf("%s (--allow-unsteady to include it)", words);
		r->unsteady = !r->invalid;
		gate_run_set_invalid(r, text);
	}
	free(text);
	free(words);
}

/* What the gate takes from a run's result rows while report_load reads them (gate_load_hook). */
struct run_figs {
	double value[GM_NR];      /* NAN when not measured */
	int64_t max_runtime_ms;
	uint64_t total_ios;
	int has_results;          /* 0: no results stored */
	int nhosts;
	int aggregate;            /* host is HOST_AGGREGATE */
};

struct gate_load {
	struct run_figs *figs;    /* per run of the set */
	size_t n;
};

/* The figures of one run from its result rows and their p99 (store_read_results order, all hosts). */
static int gate_load_hook(void *ctx, const struct rep_set *set, size_t i, const struct store_result *res,
			  const double *p99_ns, size_t nres, struct errbuf *err)
{
	struct gate_load *gl = ctx;
	struct run_figs *f;

	(void)err;
	if (!gl->figs) {
		gl->n = set->n;
		gl->figs = xcalloc(gl->n ? gl->n : 1, sizeof(*gl->figs));
	}
	f = &gl->figs[i];
	for (int m = 0; m < GM_NR; m++)
		f->value[m] = NAN;
	f->has_results = figures_host(res, nres, &f->nhosts) != NULL;
	if (!f->has_results)
		return 0;
	f->aggregate = !strcmp(res[0].host, HOST_AGGREGATE);
	for (size_t k = 0; k < nres; k++) {
		const struct store_result *x = &res[k];

		if (strcmp(x->host, res[0].host))
			continue;
		if (x->runtime_ms > f->max_runtime_ms)
			f->max_runtime_ms = x->runtime_ms;
		if (x->ddir == DDIR_TOTAL || x->ios == 0)
			continue;
		f->total_ios += x->ios;
		f->value[metric_slot(GM_IOPS_READ, x->ddir)] = x->iops;
		f->value[metric_slot(GM_MBPS_READ, x->ddir)] = x->bw_bytes;
		f->value[metric_slot(GM_LAT_MEAN_READ, x->ddir)] = store_result_mean_lat_ns(x);
		f->value[metric_slot(GM_LAT_P99_READ, x->ddir)] = p99_ns[k];
	}
	return 0;
}

/*
 * The figures of one run (read by gate_load_hook) into r, and its checks. time_based says whether a short
 * measurement of the asked runtime is a reason to exclude it. CPU is the report's figure (core's one rule,
 * store_cpu_pick).
 */
static void apply_run_figures(const struct rep_run *rr, const struct run_figs *f, struct gate_run *r, int time_based,
			      const struct gate_select_opts *o)
{
	/* a fio error on any host makes the run untrustworthy */
	for (size_t i = 0; i < rr->nhosts; i++) {
		const struct rep_host *h = &rr->hosts[i];

		if (h->error_code != 0) {
			char *why = xasprintf("fio error %d on host %s%s%s", h->error_code, h->host, h->error ? ": " : "",
					      h->error ? h->error : "");
			gate_run_set_invalid(r, why);
			free(why);
			break;
		}
	}
	if (!f->has_results) {
		gate_run_set_invalid(r, "no results stored");
		return;
	}
	if (!f->aggregate && f->nhosts > 1) {
		char *why = xasprintf("no aggregate ('*') result over its %d hosts", f->nhosts);
		gate_run_set_invalid(r, why);
		free(why);
		return;
	}
	memcpy(r->value, f->value, sizeof(r->value));
	if (rr->cpu_us_per_io > 0) {
		r->value[GM_CPU_PER_IO] = rr->cpu_us_per_io;
	} else if (rr->cpu_from_fio_job && rr->numjobs <= 1 && f->total_ios > 0 && f->max_runtime_ms > 0 &&
		   rr->m[RM_CPU] > 0) {
		/* no collector figure: fio's own CPU of its single job, usr + sys % of the job's runtime */
		r->value[GM_CPU_PER_IO] = rr->m[RM_CPU] / 100 * (double)f->max_runtime_ms * 1000 / (double)f->total_ios;
	}
	check_runtime(r, rr, f->max_runtime_ms, time_based, o);
	check_steady(r, rr, o);
}

char *gate_workload_key(const struct workload *wl)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_adds(&sb, wl->tool ? wl->tool : "?");
	strbuf_addf(&sb, "|%s", wl->rw ? wl->rw : "?");
	if (wl->bs_bytes)
		strbuf_addf(&sb, "|%llu", (unsigned long long)wl->bs_bytes);
	else
		strbuf_adds(&sb, "|?");
	strbuf_addf(&sb, "|%s", wl->bssplit ? wl->bssplit : "?");
	if (wl->read_pct >= 0)
		strbuf_addf(&sb, "|%d", wl->read_pct);
	else
		strbuf_adds(&sb, "|?");
	if (wl->random_pct >= 0)
		strbuf_addf(&sb, "|%d", wl->random_pct);
	else
		strbuf_adds(&sb, "|?");
	strbuf_addf(&sb, wl->iodepth ? "|%u" : "|?", wl->iodepth);
	strbuf_addf(&sb, wl->numjobs ? "|%u" : "|?", wl->numjobs);
	return strbuf_detach(&sb, NULL);
}

static int spec_is_time_based(const struct run_spec *spec)
{
	const char *v;

	if (!kvlist_find(&spec->wl.opts, "time_based"))
		return 0;
	v = kvlist_get(&spec->wl.opts, "time_based", NULL);
	return !v || strcmp(v, "0");
}

/* The hosts the run ran on (run_host rows other than the aggregate '*'); 1 for a run stored without any. */
static unsigned run_host_count(const struct rep_run *rr)
{
	unsigned n = 0;

	for (size_t i = 0; i < rr->nhosts; i++)
		n += strcmp(rr->hosts[i].host, HOST_AGGREGATE) != 0;
	return n ? n : 1;
}

/*
 * The key and fingerprint depend on the spec and the host count only: runs that share a parsed spec (the set's
 * memo, rep_run.spec) and a host count take them from the last such run (the fingerprint shared, not copied)
 * instead of working them out again.
 */
struct like_cache {
	const struct run_spec *spec; /* of side->runs[run]; NULL: none yet */
	unsigned nhosts;
	size_t run;
};

/* The key and fingerprint of a new run r of the side, from the cache when it has them. */
static void run_key_and_like(struct gate_side *side, struct gate_run *r, const struct run_spec *spec,
			     unsigned nhosts, int memo, struct like_cache *lc)
{
	const struct gate_run *prev = lc->spec ? &side->runs[lc->run] : NULL;

	if (memo && prev && lc->spec == spec && lc->nhosts == nhosts) {
		gate_run_share_like(r, prev);
		return;
	}
	gate_run_set_like(r, spec, nhosts); /* like for like: what must be equal on both sides */
	if (memo) {
		lc->spec = spec;
		lc->nhosts = nhosts;
		lc->run = (size_t)(r - side->runs);
	}
}

/* Adds one selected run to the side: its key, status, figures (read by gate_load_hook) and checks. */
static int add_run(struct store *st, const struct rep_run *rr, const struct run_figs *figs,
		   const struct gate_select_opts *o, struct gate_side *side, struct like_cache *lc, struct errbuf *err)
{
	struct run_spec own;
	const struct run_spec *spec = rr->spec;
	struct gate_run *r;
	unsigned nhosts = run_host_count(rr);
	char *key;

	/* The run as it was asked for: its parsed spec (or its workload columns) and its host count. */
	if (!spec) {
		if (rep_run_spec(st, rr, &own, err) < 0)
			return -1;
		spec = &own;
	}
	if (o->match == GATE_MATCH_NAME)
		key = xstrdup(rr->name);
	else if (rr->spec && lc->spec == spec)
		key = xstrdup(side->runs[lc->run].key);
	else
		key = gate_workload_key(&spec->wl);
	r = gate_side_add(side, rr->id, rr->name, key, rr->repetition > 0 ? (unsigned)rr->repetition : 1);
	free(key);
	r->suite_id = rr->suite_id;
	run_key_and_like(side, r, spec, nhosts, rr->spec != NULL, lc);
	if (strcmp(rr->status, "done")) {
		char *why = xasprintf("status %s%s%s", rr->status, rr->error ? ": " : "", rr->error ? rr->error : "");
		gate_run_set_invalid(r, why);
		free(why);
	}
	apply_run_figures(rr, figs, r, spec_is_time_based(spec), o);
	if (spec == &own)
		run_spec_release(&own);
	return 0;
}

/* The newest suite (created_at, then id) among the runs of `set`; 0 when the set is empty. */
static int64_t newest_suite(const struct rep_set *set)
{
	const struct rep_run *best = NULL;

	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		int c = best ? strcmp(r->suite_created ? r->suite_created : "", best->suite_created ? best->suite_created : "") : 1;

		if (!best || c > 0 || (c == 0 && r->suite_id > best->suite_id))
			best = r;
	}
	return best ? best->suite_id : 0;
}

/* The selection as conditions of the selection language (select.h): suite_id=ID, or the labels. */
static int selection_where(struct store *st, const struct selection *sel, const char *text, struct kvlist *where,
			   struct errbuf *err)
{
	long long suite_id = sel->suite_id;
	char buf[32];

	if (sel->kind == SEL_LABELS) {
		kvlist_copy(where, &sel->labels);
		return 0;
	}
	if (sel->kind == SEL_LATEST) {
		struct rep_set set;

		rep_set_init(&set);
		if (report_load(st, &sel->labels, REP_ALL_STATUS, &set, err) < 0) {
			rep_set_release(&set);
			return -1;
		}
		suite_id = newest_suite(&set);
		rep_set_release(&set);
		if (!suite_id)
			return err_set(err, ERR_INPUT, "selection '%s': no suite has runs with %s", text,
				       sel->labels.n > 1 ? "these labels" : "this label");
	}
	snprintf(buf, sizeof(buf), "%lld", suite_id);
	kvlist_set(where, "suite_id", buf);
	return 0;
}

int gate_select_load(struct store *st, const char *selection, const struct gate_select_opts *opts,
		     struct gate_side *side, struct errbuf *err)
{
	struct gate_select_opts defopts;
	struct selection sel;
	struct kvlist where;
	struct rep_set set;
	struct gate_load gl = { NULL, 0 };
	struct like_cache lc = { NULL, 0, 0 };
	int ret = -1;

	if (!opts) {
		gate_select_opts_default(&defopts);
		opts = &defopts;
	}
	kvlist_init(&where);
	rep_set_init(&set);
	if (parse_selection(selection, &sel, err) < 0 || selection_where(st, &sel, selection, &where, err) < 0 ||
	    report_load_hooked(st, &where, REP_ALL_STATUS, gate_load_hook, &gl, &set, err) < 0)
		goto out;
	for (size_t i = 0; i < set.n; i++)
		if (add_run(st, &set.v[i], &gl.figs[i], opts, side, &lc, err) < 0)
			goto out;
	ret = 0;
out:
	free(gl.figs);
	rep_set_release(&set);
	kvlist_release(&where);
	kvlist_release(&sel.labels);
	return ret;
}
