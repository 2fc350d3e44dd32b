/*
 * curve: latency-vs-IOPS curves per configuration, their knee and "max IOPS at p99 <= X" (see curve.h).
 */
#include "report/analysis/curve.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "report/figures.h"

/* A label that names a point of a curve or the method's phase: never part of a curve's configuration. */
static int is_point_label(const char *key)
{
	return rep_label_is_method(key) || !strcmp(key, "phase");
}

static const size_t curve_ptrs[] = { offsetof(struct curve, title), offsetof(struct curve, of),
				      offsetof(struct curve, v) };

static void curve_release(struct curve *c)
{
	free_members(c, curve_ptrs, sizeof(curve_ptrs) / sizeof(curve_ptrs[0]));
	kvlist_release(&c->keys);
}

void curve_set_init(struct curve_set *cs)
{
	*cs = (struct curve_set){ .knee_k = 2 };
}

void curve_set_release(struct curve_set *cs)
{
	if (!cs)
		return;
	ARRAY_RELEASE(cs->v, cs->n, curve_release);
	memset(cs, 0, sizeof(*cs));
}

/* The key of the curve a point belongs to besides its configuration: what kind of point it is (a rate curve
 * or a sweep over one parameter) and its workload identity without the load level (iodepth, numjobs,
 * rate_iops), so that two workloads, or a sweep and a curve of one workload, are never one line. */
#define CURVE_OF_KEY "\x01curve" /* never a label key (labels are printable) */

static void curve_of(const struct rep_run *r, struct strbuf *sb)
{
	static const char *const level[] = { "iodepth", "numjobs", "rate_iops", "rate", NULL };
	const char *kind = "curve";
	char *id;

	for (size_t i = 0; i < r->labels.n; i++)
		if (!strncmp(r->labels.v[i].key, "sweep.", 6) && strcmp(r->labels.v[i].key, "sweep.stop"))
			kind = r->labels.v[i].key;
	if (!r->spec) { /* a run not from report_load (built by hand): its kind alone */
		strbuf_adds(sb, kind);
		return;
	}
	id = run_spec_identity_except(r->spec, level); /* core/identity.h: per job too */
	strbuf_addf(sb, "%s|%s", kind, id);
	free(id);
}

static void config_keys(const struct rep_run *r, const struct kvlist *by, struct kvlist *keys)
{
	char buf[128];
	struct strbuf of;

	kvlist_init(keys);
	if (by && by->n) {
		for (size_t i = 0; i < by->n; i++) {
			const char *v = rep_run_value(r, by->v[i].key, buf, sizeof(buf));

			kvlist_add(keys, by->v[i].key, v ? v : "-");
		}
	} else {
		for (size_t i = 0; i < r->labels.n; i++)
			if (!is_point_label(r->labels.v[i].key))
				kvlist_add(keys, r->labels.v[i].key, r->labels.v[i].value ? r->labels.v[i].value : "");
	}
	strbuf_init(&of);
	curve_of(r, &of);
	kvlist_add(keys, CURVE_OF_KEY, of.buf);
	strbuf_release(&of);
}

/* Appends " (WHAT)" to the title of every curve whose title another curve has; WHAT is the kind of point
 * (pass 0: "sweep.iodepth", "rate curve"), then the name of its first workload (pass 1). */
static void suffix_shared(struct curve_set *cs, int pass)
{
	unsigned char *dup = xcalloc(cs->n ? cs->n : 1, 1);

	for (size_t i = 0; i < cs->n; i++)
		for (size_t j = 0; j < cs->n; j++)
			dup[i] |= j != i && !strcmp(cs->v[i].title, cs->v[j].title);
	for (size_t i = 0; i < cs->n; i++) {
		const char *of = kvlist_get(&cs->v[i].keys, CURVE_OF_KEY, "");
		char *t;

		if (!dup[i] || !cs->v[i].n)
			continue;
		if (pass == 0 && !strncmp(of, "curve", 5) && (!of[5] || of[5] == '|'))
			t = xasprintf("%s (rate curve)", cs->v[i].title);
		else if (pass == 0)
			t = xasprintf("%s (%.*s)", cs->v[i].title, (int)strcspn(of, "|"), of);
		else
			t = xasprintf("%s (%s)", cs->v[i].title, cs->v[i].v[0].run->name);
		free(cs->v[i].title);
		cs->v[i].title = t;
	}
	free(dup);
}

/* Titles that two curves share (one configuration, several kinds or workloads) get what tells them apart. */
static void unique_titles(struct curve_set *cs)
{
	suffix_shared(cs, 0);
	suffix_shared(cs, 1);
	for (size_t i = 0; i < cs->n; i++) {
		cs->v[i].of = xstrdup(kvlist_get(&cs->v[i].keys, CURVE_OF_KEY, ""));
		kvlist_del(&cs->v[i].keys, CURVE_OF_KEY);
	}
}

static struct curve *find_curve(struct curve_set *cs, const struct kvlist *keys)
{
	struct curve *c;
	struct strbuf t;

	for (size_t i = 0; i < cs->n; i++) {
		const struct kvlist *k = &cs->v[i].keys;
		size_t j = 0;

		if (k->n != keys->n)
			continue;
		while (j < k->n && !strcmp(k->v[j].key, keys->v[j].key) && !strcmp(k->v[j].value, keys->v[j].value))
			j++;
		if (j == k->n)
			return &cs->v[i];
	}
	c = ARRAY_PUSH_ZEROED(cs->v, cs->cap, cs->n);
	kvlist_init(&c->keys);
	kvlist_copy(&c->keys, keys);
	strbuf_init(&t);
	for (size_t i = 0; i < keys->n; i++)
		if (strcmp(keys->v[i].key, CURVE_OF_KEY))
			strbuf_addf(&t, "%s%s=%s", t.len ? " " : "", keys->v[i].key, keys->v[i].value);
	if (!t.len)
		strbuf_adds(&t, "(no labels)");
	c->title = strbuf_detach(&t, NULL);
	c->knee = -1;
	c->min_lat_ms = NAN;
	return c;
}

static int by_iops(const void *a, const void *b)
{
	const struct curve_point *x = a, *y = b;

	return (x->iops > y->iops) - (x->iops < y->iops);
}

static double knee_lat(const struct curve_point *p, enum curve_lat lat)
{
	return lat == CURVE_LAT_P99 ? p->p99_ms : p->lat_ms;
}

/* The knee rule of curve.h. */
static void find_knee(struct curve *c, double k, enum curve_lat lat)
{
	double best = NAN;

	c->min_lat_ms = NAN;
	c->knee = -1;
	for (size_t i = 0; i < c->n; i++) {
		double l = knee_lat(&c->v[i], lat);

		if (!isnan(l) && (isnan(c->min_lat_ms) || l < c->min_lat_ms))
			c->min_lat_ms = l;
	}
	if (isnan(c->min_lat_ms))
		return;
	for (size_t i = 0; i < c->n; i++) {
		double l = knee_lat(&c->v[i], lat);

		if (!isnan(l) && l <= k * c->min_lat_ms && (isnan(best) || c->v[i].iops > best))
			best = c->v[i].iops;
	}
	for (size_t i = 0; i < c->n; i++) {
		double l = knee_lat(&c->v[i], lat);

		if (isnan(l) || l > k * c->min_lat_ms || c->v[i].iops < 0.95 * best)
			continue;
		if (c->knee < 0 || l < knee_lat(&c->v[c->knee], lat))
			c->knee = (long)i;
	}
}

int curve_build(struct curve_set *cs, const struct rep_set *set, const struct kvlist *by, double knee_k,
		enum curve_lat lat, struct errbuf *err)
{
	if (!(knee_k > 1))
		return err_set(err, ERR_USAGE, "knee factor must be > 1, got %g", knee_k);
	cs->knee_k = knee_k;
	cs->knee_lat = lat;
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		const char *phase = kvlist_get(&r->labels, "phase", "");
		struct kvlist keys;
		struct curve *c;
		struct curve_point *p;

		if ((strcmp(r->status, "done") && strcmp(r->status, "partial")) || !strcmp(phase, "precondition") ||
		    isnan(r->m[RM_IOPS]))
			continue;
		config_keys(r, by, &keys);
		c = find_curve(cs, &keys);
		kvlist_release(&keys);
		ARRAY_GROW(c->v, c->cap, c->n + 1);
		p = &c->v[c->n++];
		p->run = r;
		/* the run's figures as the report has them (rep_run.m, from the one figures layer) */
		p->iops = r->m[RM_IOPS];
		p->lat_ms = figures_worse_rw((const double[DDIR_NR]){ r->m[RM_RLAT], r->m[RM_WLAT], NAN, NAN });
		p->p99_ms = figures_worse_rw((const double[DDIR_NR]){ r->m[RM_RP99], r->m[RM_WP99], NAN, NAN });
	}
	if (!cs->n)
		return err_set(err, ERR_INPUT, "no curve: the selection has no done or partial runs with IOPS");
	for (size_t i = 0; i < cs->n; i++) {
		qsort(cs->v[i].v, cs->v[i].n, sizeof(cs->v[i].v[0]), by_iops);
		find_knee(&cs->v[i], knee_k, lat);
	}
	unique_titles(cs);
	return 0;
}

double curve_max_iops_at(const struct curve *c, double p99_max_ms, long *idx)
{
	double best = NAN;
	long own, *at = idx ? idx : &own;

	*at = -1;
	idx = at;
	for (size_t i = 0; i < c->n; i++) {
		if (isnan(c->v[i].p99_ms) || c->v[i].p99_ms > p99_max_ms)
			continue;
		if (isnan(best) || c->v[i].iops > best || (c->v[i].iops == best && c->v[i].p99_ms < c->v[*idx].p99_ms)) {
			best = c->v[i].iops;
			*idx = (long)i;
		}
	}
	return best;
}

static void num(struct strbuf *out, double v, int decimals, int width)
{
	if (isnan(v))
		strbuf_addf(out, " %*s", width, "-");
	else
		strbuf_addf(out, " %*.*f", width, decimals, v);
}

void curve_table_text(struct strbuf *out, const struct curve_set *cs, const double *p99_max_ms, size_t nlim)
{
	size_t w = 13;

	for (size_t i = 0; i < cs->n; i++)
		if (strlen(cs->v[i].title) > w)
			w = strlen(cs->v[i].title);
	strbuf_addf(out, "max IOPS at p99 <= X (best measured point; ratio to %s)\n%-*s",
		    cs->n ? cs->v[0].title : "-", (int)w, "configuration");
	for (size_t j = 0; j < nlim; j++) {
		char col[48];

		snprintf(col, sizeof(col), "p99<=%gms", p99_max_ms[j]);
		strbuf_addf(out, " %13s %6s", col, "ratio");
	}
	strbuf_addc(out, '\n');
	for (size_t i = 0; i < cs->n; i++) {
		strbuf_addf(out, "%-*s", (int)w, cs->v[i].title);
		for (size_t j = 0; j < nlim; j++) {
			double a = curve_max_iops_at(&cs->v[i], p99_max_ms[j], NULL);
			double b = curve_max_iops_at(&cs->v[0], p99_max_ms[j], NULL);

			num(out, a, 0, 13);
			num(out, b > 0 ? a / b : NAN, 2, 6);
		}
		strbuf_addc(out, '\n');
	}
	strbuf_addf(out, "knee (of the points whose %s latency <= %g x the minimum, the lowest-latency one within 5 %% "
		    "of their best IOPS)\n",
		    cs->knee_lat == CURVE_LAT_P99 ? "p99" : "mean", cs->knee_k);
	for (size_t i = 0; i < cs->n; i++) {
		const struct curve *c = &cs->v[i];

		strbuf_addf(out, "%-*s", (int)w, c->title);
		if (c->knee < 0) {
			strbuf_adds(out, " -\n");
			continue;
		}
		strbuf_addf(out, " %.0f IOPS, mean %.3f ms, p99 %.3f ms (run %lld %s)\n", c->v[c->knee].iops,
			    c->v[c->knee].lat_ms, c->v[c->knee].p99_ms, (long long)c->v[c->knee].run->id,
			    c->v[c->knee].run->name);
	}
}
