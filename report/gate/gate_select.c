/*
 * gate_select: selections of runs for the gate and the per-run figures it compares (see gate_select.h).
 * Runs are chosen by report_load and the one selection language (select.h); their figures are the report's
 * (rep_run.fig, the one figures layer: figures.h) and their pairing key the report's (rep_match_key). No SQL
 * here.
 */
#include "report/gate/gate_select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv.h"
#include "core/model.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/load.h"
#include "report/table.h"
#include "report/analysis/steady.h"

void gate_select_opts_default(struct gate_select_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->match = REP_MATCH_IDENTITY;
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

/* ---- per-run figures and checks ---------------------------------------------------------------------- */

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

/* The gate's figures of a run (GM_*, stored units) from its figures (figures.h, the one figures layer). */
static void gate_values(const struct figures *f, double value[GM_NR])
{
	for (int d = DDIR_READ; d < DDIR_TOTAL; d++) {
		value[GM_IOPS_READ + d] = f->iops[d];
		value[GM_MBPS_READ + d] = f->bw_bytes[d];
		value[GM_LAT_MEAN_READ + d] = f->lat_mean_ns[d];
		value[GM_LAT_P99_READ + d] = f->p99_ns[d];
	}
	value[GM_CPU_PER_IO] = f->cpu_us_per_io > 0 ? f->cpu_us_per_io : NAN;
}

/*
 * The figures of one run (rep_run.fig: the report's own) into r, and its checks. time_based says whether a
 * short measurement of the asked runtime is a reason to exclude it.
 */
static void apply_run_figures(const struct rep_run *rr, struct gate_run *r, int time_based,
			      const struct gate_select_opts *o)
{
	const struct figures *f = &rr->fig;

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
	if (!f->result_hosts) {
		gate_run_set_invalid(r, "no results stored");
		return;
	}
	if (!f->measured) {
		char *why = xasprintf("no aggregate ('*') result over its %d hosts", f->result_hosts);
		gate_run_set_invalid(r, why);
		free(why);
		return;
	}
	gate_values(f, r->value);
	check_runtime(r, rr, f->runtime_ms, time_based, o);
	check_steady(r, rr, o);
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
 * The fingerprint depends on the spec and the host count only: runs that share a parsed spec (the set's memo,
 * rep_run.spec) and a host count take it from the last such run (shared, not copied) instead of working it
 * out again.
 */
struct like_cache {
	const struct run_spec *spec; /* of side->runs[run]; NULL: none yet */
	unsigned nhosts;
	size_t run;
};

/* The fingerprint of a new run r of the side, from the cache when it has it. */
static void run_like(struct gate_side *side, struct gate_run *r, const struct run_spec *spec, unsigned nhosts,
		     struct like_cache *lc)
{
	const struct gate_run *prev = lc->spec ? &side->runs[lc->run] : NULL;

	if (prev && lc->spec == spec && lc->nhosts == nhosts) {
		gate_run_share_like(r, prev);
		return;
	}
	gate_run_set_like(r, spec, nhosts); /* like for like: what must be equal on both sides */
	lc->spec = spec;
	lc->nhosts = nhosts;
	lc->run = (size_t)(r - side->runs);
}

/*
 * Adds one selected run to the side: its key (the report's: rep_match_key, the workload identity of
 * core/identity.h or the name), status, figures (rep_run.fig) and checks.
 */
static void add_run(const struct rep_run *rr, const struct gate_select_opts *o, struct gate_side *side,
		    struct like_cache *lc)
{
	const struct run_spec *spec = rr->spec; /* the run as it was asked for (report_load: never NULL) */
	struct gate_run *r;
	char *key = rep_match_key(rr, o->match);

	r = gate_side_add(side, rr->id, rr->name, key, rr->repetition > 0 ? (unsigned)rr->repetition : 1);
	free(key);
	r->suite_id = rr->suite_id;
	run_like(side, r, spec, run_host_count(rr), lc);
	if (strcmp(rr->status, "done")) {
		char *why = xasprintf("status %s%s%s", rr->status, rr->error ? ": " : "", rr->error ? rr->error : "");
		gate_run_set_invalid(r, why);
		free(why);
	}
	apply_run_figures(rr, r, spec_is_time_based(spec), o);
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
	struct like_cache lc = { NULL, 0, 0 };
	int ret = -1;

	if (!opts) {
		gate_select_opts_default(&defopts);
		opts = &defopts;
	}
	kvlist_init(&where);
	rep_set_init(&set);
	if (parse_selection(selection, &sel, err) < 0 || selection_where(st, &sel, selection, &where, err) < 0 ||
	    report_load(st, &where, REP_ALL_STATUS, &set, err) < 0)
		goto out;
	for (size_t i = 0; i < set.n; i++)
		if (!rep_run_is_baseline(&set.v[i]) || kvlist_find(&sel.labels, "phase")) /* evidence, not a result */
			add_run(&set.v[i], opts, side, &lc);
	ret = 0;
out:
	rep_set_release(&set);
	kvlist_release(&where);
	kvlist_release(&sel.labels);
	return ret;
}
