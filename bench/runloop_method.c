/*
 * runloop_method: what the run loop does with the plan entries of curves, sweeps and preconditioning (see
 * runloop_method.h and docs/method.md); the entries themselves are made by profiles/method_expand.c. What an
 * entry is for is read from its typed fields (core/model.h struct run_method), never from its labels.
 */
#include "bench/runloop_method.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cli.h"
#include "core/fio_options.h"
#include "core/store_admin.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/target.h"
#include "profiles/fio_workload.h"
#include "profiles/suite.h"
#include "profiles/text.h"
#include "report/analysis/curve.h"
#include "report/analysis/steady.h"
#include "report/figures.h"
#include "report/method_labels.h"

void method_settings_init(struct method_settings *m)
{
	struct ss_rule rule;

	memset(m, 0, sizeof(*m));
	ss_rule_defaults(&rule);
	m->ss_window = rule.window;
	m->ss_max_rounds = rule.max_rounds;
	m->label_is_point = rep_label_is_curve_point;
}

/* ---- run time: reading the store ------------------------------------------------------------------------ */

/*
 * The stored figures of a run as the report shows them (report/figures.h, the one figures layer): total IOPS,
 * the worse direction's mean and p99 latency (ms).
 */
static int read_point(struct store *st, int64_t run_id, struct method_point *p, struct errbuf *err)
{
	struct figures f;

	p->iops = NAN;
	p->lat_ms = p->p99_ms = NAN;
	if (figures_of_run(st, run_id, &f, err) < 0)
		return -1;
	p->iops = f.iops[DDIR_TOTAL];
	p->lat_ms = figures_worse_rw(f.lat_mean_ns) / 1e6;
	p->p99_ms = figures_worse_rw(f.p99_ns) / 1e6;
	return 0;
}

/* The newest stored run of plan entry j (0 when none). */
static int entry_run(struct method_ctx *mc, size_t j, int64_t *id, enum run_status *status, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[j];

	*status = RUN_FAILED;
	return store_run_lookup(mc->st, mc->suite_id, s->seq, s->repetition, id, status, err);
}

/* A label of the newest stored run of entry j into buf ("" when none). */
static int entry_label(struct method_ctx *mc, size_t j, const char *key, char *buf, size_t len, struct errbuf *err)
{
	struct store_run r;
	enum run_status status;
	int64_t id;
	int rc;

	buf[0] = '\0';
	if (entry_run(mc, j, &id, &status, err) < 0)
		return -1;
	if (!id)
		return 0;
	memset(&r, 0, sizeof(r));
	if ((rc = store_read_run(mc->st, id, &r, err)) < 0)
		return -1;
	if (rc == 0)
		snprintf(buf, len, "%s", kvlist_get(&r.labels, key, ""));
	store_run_release(&r);
	return 0;
}

static int relabel(struct store *st, int64_t run_id, const char *key, const char *value, struct errbuf *err)
{
	struct kvlist ch;
	size_t changed;
	int rc;

	kvlist_init(&ch);
	kvlist_set(&ch, key, value);
	rc = store_admin_relabel(st, &run_id, 1, &ch, 0, &changed, err);
	kvlist_release(&ch);
	return rc;
}

/* The first entry of the sweep or curve that entry i belongs to (a curve: its max run), or i. */
static size_t group_start(const struct plan *p, size_t i)
{
	enum run_method_kind kind = p->runs[i].method.kind;

	if (kind == RUN_METHOD_CURVE_MAX || kind == RUN_METHOD_CURVE_POINT) {
		for (size_t j = i + 1; j-- > 0;)
			if (p->runs[j].method.kind == RUN_METHOD_CURVE_MAX)
				return j;
		return i;
	}
	for (size_t j = i + 1; j-- > 0;) {
		const struct run_method *m = &p->runs[j].method;
		if (m->kind != RUN_METHOD_SWEEP_POINT)
			return i;
		if (m->sweep_point == 1)
			return j;
	}
	return i;
}

/* ---- run time: before and after an entry ------------------------------------------------------------- */

/* A curve point: the rate from its max run's stored total IOPS. */
static int curve_point_before(struct method_ctx *mc, size_t i, struct run_spec *s, enum method_action *act,
			      char **why, struct errbuf *err)
{
	size_t j = group_start(mc->plan, i);
	const struct host_list *h = mc->hosts;
	struct method_point mp;
	struct method_rate rate;
	struct errbuf e2;
	enum run_status status;
	unsigned jobs = 0, ntargets;
	double pct;
	int64_t id;
	char buf[64];

	if (entry_run(mc, j, &id, &status, err) < 0)
		return -1;
	mp.iops = NAN;
	if (id && (status == RUN_DONE || status == RUN_PARTIAL) && read_point(mc->st, id, &mp, err) < 0)
		return -1;
	for (size_t k = j + 1; k < i; k++) { /* vdbench stopcurve: an earlier point stopped the curve */
		if (entry_label(mc, k, "curve.stop", buf, sizeof(buf), err) < 0)
			return -1;
		if (buf[0]) {
			*act = METHOD_SKIP;
			*why = xasprintf("the curve stopped at run %u (%s)", mc->plan->runs[k].seq, buf);
			return 0;
		}
	}
	for (size_t k = 0; k < s->njobs; k++)
		jobs += (s->jobs[k].wl.numjobs ? s->jobs[k].wl.numjobs : 1) *
			(unsigned)(s->jobs[k].ntargets ? s->jobs[k].ntargets : 1);
	ntargets = h && h->n ? (unsigned)(h->v[0].ntargets ? h->v[0].ntargets : 1) : (unsigned)s->ntargets;
	pct = s->method.curve_pct;
	errbuf_init(&e2);
	if (!(mp.iops > 0) ||
	    method_curve_rate(mp.iops, pct, s->njobs ? jobs : s->wl.numjobs, s->njobs ? 1 : ntargets,
			      h && h->n ? (unsigned)h->n : 1, s->wl.read_pct, &rate, &e2) < 0) {
		*act = METHOD_FAIL;
		*why = xasprintf("curve point %g%%: its max run (run %u) has no stored IOPS: %s", pct,
				 mc->plan->runs[j].seq, e2.msg[0] ? e2.msg : "it did not finish");
		return 0;
	}
	for (size_t k = 0; k < s->njobs; k++)
		kvlist_set(&s->jobs[k].wl.opts, "rate_iops", rate.rate_iops);
	if (s->njobs)
		run_spec_summarise(s);
	else
		kvlist_set(&s->wl.opts, "rate_iops", rate.rate_iops);
	snprintf(buf, sizeof(buf), "%.0f", rate.total_iops);
	kvlist_set(&s->labels, "curve.target_iops", buf);
	return 0;
}

/* A sweep point: not run once an earlier point of its sweep passed a limit (or was not run). */
static int sweep_point_before(struct method_ctx *mc, size_t i, enum method_action *act, char **why,
			      struct errbuf *err)
{
	char buf[128];

	for (size_t k = group_start(mc->plan, i); k < i; k++) {
		enum run_status status;
		int64_t id;

		if (entry_run(mc, k, &id, &status, err) < 0 || entry_label(mc, k, "sweep.stop", buf, sizeof(buf), err) < 0)
			return -1;
		if (buf[0] || !id) {
			*act = METHOD_SKIP;
			*why = buf[0] ? xasprintf("the sweep stopped at run %u (%s)", mc->plan->runs[k].seq, buf)
				      : xasprintf("the sweep stopped before run %u", mc->plan->runs[k].seq);
			return 0;
		}
	}
	return 0;
}

static int is_round(const struct plan *p, size_t j)
{
	return p->runs[j].method.kind == RUN_METHOD_SS_ROUND;
}

/* The first round of the wdpc that entry i (a round) belongs to. */
static size_t round_first(const struct plan *p, size_t i)
{
	while (i > 0 && is_round(p, i - 1) && p->runs[i].method.ss_round != 1)
		i--;
	return i;
}

/* The round of [first, end) whose stored run says how the rounds ended (steady_state=...): its index, or -1. */
static int rounds_ended(struct method_ctx *mc, size_t first, size_t end, char *buf, size_t len, struct errbuf *err)
{
	for (size_t k = first; k < end; k++) {
		if (entry_label(mc, k, "steady_state", buf, len, err) < 0)
			return -2;
		if (buf[0])
			return (int)k;
	}
	return -1;
}

/* A wdpc round: not run once an earlier round reached steady state (or the rule's end). */
static int round_before(struct method_ctx *mc, size_t i, enum method_action *act, char **why, struct errbuf *err)
{
	char buf[64];
	int k = rounds_ended(mc, round_first(mc->plan, i), i, buf, sizeof(buf), err);

	if (k < -1)
		return -1;
	if (k >= 0) {
		*act = METHOD_SKIP;
		*why = xasprintf("steady_state=%s at run %u", buf, mc->plan->runs[k].seq);
	}
	return 0;
}

/* After round i: the rule over the stored rounds so far; the round that decides it is labelled. */
static int round_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	size_t first = round_first(mc->plan, i), n = 0;
	double v[1000];
	unsigned max = s->method.max_rounds;
	double round_s = s->method.round_s;
	struct ss_rule rule;
	struct ss_result res;
	char words[160], label[64], avg[64];

	ss_rule_defaults(&rule);
	if (max >= rule.window)
		rule.max_rounds = max;
	for (size_t k = first; k <= i && n < sizeof(v) / sizeof(v[0]); k++) {
		struct method_point mp;
		enum run_status status;
		int64_t id = run_id;

		if (k < i && entry_run(mc, k, &id, &status, err) < 0)
			return -1;
		if (read_point(mc->st, id, &mp, err) < 0)
			return -1;
		v[n++] = isfinite(mp.iops) ? mp.iops : 0;
	}
	ss_check1(&rule, v, n, &res);
	ss_result_describe(&rule, &res, words, sizeof(words));
	fprintf(stderr, "bench: precondition wdpc round %zu of at most %u: %.0f IOPS; %s", n, rule.max_rounds,
		v[n - 1], words);
	if (res.state == SS_CONTINUE) {
		fprintf(stderr, "; ETA at most %.0f s\n", (rule.max_rounds - n) * (round_s + 1));
		return 0;
	}
	fputc('\n', stderr);
	ss_result_label(&res, label, sizeof(label));
	if (relabel(mc->st, run_id, "steady_state", label, err) < 0)
		return -1;
	snprintf(avg, sizeof(avg), "%.1f", res.avg);
	return res.state == SS_REACHED ? relabel(mc->st, run_id, "ss.window_iops", avg, err) : 0;
}

/* The measured run after wdpc rounds: the steady-state labels of the round that ended them. */
static int measured_before(struct method_ctx *mc, size_t i, struct run_spec *s, struct errbuf *err)
{
	char buf[64];
	int k;

	if (i == 0 || !is_round(mc->plan, i - 1))
		return 0;
	if ((k = rounds_ended(mc, round_first(mc->plan, i - 1), i, buf, sizeof(buf), err)) < -1)
		return -1;
	if (k < 0) { /* the rounds were cut (a failed round): "running:N", N the rounds stored */
		struct ss_result res;
		size_t first = round_first(mc->plan, i - 1);

		memset(&res, 0, sizeof(res));
		res.state = SS_CONTINUE;
		for (size_t j = first; j < i; j++) {
			enum run_status status;
			int64_t id;
			if (entry_run(mc, j, &id, &status, err) < 0)
				return -1;
			res.round += id && status == RUN_DONE;
		}
		ss_result_label(&res, buf, sizeof(buf));
		kvlist_set(&s->labels, "steady_state", buf);
		return 0;
	}
	kvlist_set(&s->labels, "steady_state", buf);
	if (entry_label(mc, (size_t)k, "ss.window_iops", buf, sizeof(buf), err) < 0)
		return -1;
	if (buf[0])
		kvlist_set(&s->labels, "ss.window_iops", buf);
	return 0;
}

int method_before(struct method_ctx *mc, size_t i, struct run_spec *s, enum method_action *act, char **why,
		  struct errbuf *err)
{
	*act = METHOD_RUN;
	*why = NULL;
	switch (s->method.kind) {
	case RUN_METHOD_PURGE:
		*act = METHOD_PURGE;
		return 0;
	case RUN_METHOD_SS_ROUND:
		return round_before(mc, i, act, why, err);
	case RUN_METHOD_WIPC:
		return 0;
	case RUN_METHOD_CURVE_POINT:
		return curve_point_before(mc, i, s, act, why, err);
	case RUN_METHOD_SWEEP_POINT:
		if (sweep_point_before(mc, i, act, why, err) < 0)
			return -1;
		break;
	case RUN_METHOD_PLAIN:
	case RUN_METHOD_CURVE_MAX:
	default:
		break;
	}
	return *act == METHOD_RUN ? measured_before(mc, i, s, err) : 0;
}

static int curve_point_after(struct method_ctx *mc, size_t i, int64_t run_id, const struct method_point *mp,
			     struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	struct store_run r;
	double target = NAN, miss, stop_ms;
	char buf[64];
	int rc;

	memset(&r, 0, sizeof(r));
	if ((rc = store_read_run(mc->st, run_id, &r, err)) < 0)
		return -1;
	if (rc == 0)
		target = strtod(kvlist_get(&r.labels, "curve.target_iops", "nan"), NULL);
	store_run_release(&r);
	if (!isfinite(target))
		return 0;
	if (!method_curve_ok(target, mp->iops, METHOD_CURVE_TOL_PCT, &miss)) {
		snprintf(buf, sizeof(buf), "%.1f", miss);
		if (relabel(mc->st, run_id, "curve.miss_pct", buf, err) < 0)
			return -1;
		cli_warn("run %u '%s': curve point %g%% missed its target: %.0f IOPS of %.0f asked (%+.1f %%, more than "
			 "%g %%): labelled curve.miss_pct=%s", s->seq, s->name ? s->name : "", s->method.curve_pct,
			 mp->iops, target, miss, METHOD_CURVE_TOL_PCT, buf);
	}
	stop_ms = s->method.stopcurve_ms;
	if (stop_ms > 0 && mp->lat_ms > stop_ms) {
		snprintf(buf, sizeof(buf), "lat>%gms", stop_ms);
		if (relabel(mc->st, run_id, "curve.stop", buf, err) < 0)
			return -1;
		fprintf(stderr, "bench: curve stopped after run %u '%s': mean latency %.3f ms > stopcurve %g ms\n",
			s->seq, cli_safe(s->name ? s->name : ""), mp->lat_ms, stop_ms);
	}
	return 0;
}

static int sweep_point_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	struct method_until u[METHOD_MAX_UNTIL];
	struct method_point pts[METHOD_MAX_POINTS];
	size_t nu = 0, np = 0, first = group_start(mc->plan, i);
	int hit, rc = -1;

	for (size_t k = 0; k < s->method.nuntil && nu < METHOD_MAX_UNTIL; k++)
		if (method_until_parse(s->method.until[k], &u[nu], err) == 0)
			nu++;
	for (size_t k = first; k <= i && np < METHOD_MAX_POINTS; k++) {
		enum run_status status;
		int64_t id = run_id;

		if (k < i && entry_run(mc, k, &id, &status, err) < 0)
			goto out;
		if (read_point(mc->st, id, &pts[np++], err) < 0)
			goto out;
	}
	rc = 0;
	if (!nu || !np || (hit = method_sweep_stop(u, nu, pts, np)) < 0)
		goto out;
	rc = relabel(mc->st, run_id, "sweep.stop", u[hit].text, err);
	fprintf(stderr, "bench: sweep stopped at run %u '%s' (%s=%.0f): %s passed (%.0f IOPS, mean %.3f ms, p99 %.3f "
		"ms); %s\n", s->seq, cli_safe(s->name ? s->name : ""), s->method.sweep_option ? s->method.sweep_option :
		"point", s->method.sweep_value, u[hit].text, pts[np - 1].iops, pts[np - 1].lat_ms, pts[np - 1].p99_ms,
		i + 1 < mc->plan->n && group_start(mc->plan, i + 1) == first ? "its later points are not run"
									    : "it was the last point");
out:
	return rc;
}

int method_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err)
{
	enum run_method_kind kind = mc->plan->runs[i].method.kind;
	struct method_point mp;
	enum run_status status;
	int64_t id;

	if (!run_id || entry_run(mc, i, &id, &status, err) < 0)
		return run_id ? -1 : 0;
	if (status != RUN_DONE && status != RUN_PARTIAL)
		return 0;
	if (kind == RUN_METHOD_CURVE_POINT) {
		if (read_point(mc->st, run_id, &mp, err) < 0)
			return -1;
		return curve_point_after(mc, i, run_id, &mp, err);
	}
	if (kind == RUN_METHOD_SWEEP_POINT)
		return sweep_point_after(mc, i, run_id, err);
	if (kind == RUN_METHOD_SS_ROUND)
		return round_after(mc, i, run_id, err);
	return 0;
}

/* ---- run time: purge and rounds ---------------------------------------------------------------------- */

/* A sim wear state file (docs/sim.md) is small: the count per member. */
#define SIM_STATE_MAX_BYTES 65536

int method_purge(const struct method_ctx *mc, const struct run_spec *s, char **log, struct errbuf *err)
{
	struct strbuf sb;
	int sim = s->engine && !strcmp(s->engine, "sim");
	int flags = (mc->destructive ? TARGET_DESTRUCTIVE : 0) | (mc->overwrite_files ? TARGET_OVERWRITE_FILES : 0);

	*log = NULL;
	if (mc->hosts && mc->hosts->n)
		return err_set(err, ERR_USAGE, "precondition purge: targets on --hosts are purged by their "
			       "configuration's steps, not by bench (set precondition.purge = off)");
	strbuf_init(&sb);
	for (size_t t = 0; t < s->ntargets; t++) {
		const char *path = s->targets[t];
		struct stat st;

		if (sim && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			/* the sim engine models the target: a device path is never touched */
			strbuf_addf(&sb, "%s: not touched (the sim engine models it; its wear state: sim_wear_state)\n", path);
		} else if (target_purge(path, flags, sim ? SIM_STATE_MAX_BYTES : 0, &sb, err) < 0) {
			strbuf_release(&sb);
			return -1;
		}
	}
	*log = strbuf_detach(&sb, NULL);
	return 0;
}
