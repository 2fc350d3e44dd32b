/*
 * gate: cells, like-for-like checks, statistics and verdicts of the CI regression gate (see gate.h).
 * Everything here works on the plain structs of gate.h; reading the store is gate_select.c's job, the
 * outputs are gate_render.c's and the calibration table gate_calibrate.c's.
 */
#include "report/gate/gate.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "core/units.h"
#include "report/strlist.h"

/* ---- metrics and verdict names ----------------------------------------------------------------- */

static const struct gate_metric_info metric_info[GM_NR + 1] = {
	[GM_IOPS_READ] = { "iops.read", "read IOPS", "", 1, 0 },
	[GM_IOPS_WRITE] = { "iops.write", "write IOPS", "", 1, 0 },
	[GM_IOPS_TRIM] = { "iops.trim", "trim IOPS", "", 1, 0 },
	[GM_MBPS_READ] = { "mibps.read", "read MiB/s", "", 1.0 / 1048576, 0 },
	[GM_MBPS_WRITE] = { "mibps.write", "write MiB/s", "", 1.0 / 1048576, 0 },
	[GM_MBPS_TRIM] = { "mibps.trim", "trim MiB/s", "", 1.0 / 1048576, 0 },
	[GM_LAT_MEAN_READ] = { "lat_mean_us.read", "read mean latency", "us", 1e-3, 1 },
	[GM_LAT_MEAN_WRITE] = { "lat_mean_us.write", "write mean latency", "us", 1e-3, 1 },
	[GM_LAT_MEAN_TRIM] = { "lat_mean_us.trim", "trim mean latency", "us", 1e-3, 1 },
	[GM_LAT_P99_READ] = { "lat_p99_us.read", "read p99 latency", "us", 1e-3, 1 },
	[GM_LAT_P99_WRITE] = { "lat_p99_us.write", "write p99 latency", "us", 1e-3, 1 },
	[GM_LAT_P99_TRIM] = { "lat_p99_us.trim", "trim p99 latency", "us", 1e-3, 1 },
	[GM_CPU_PER_IO] = { "cpu_us_per_io", "CPU per IO", "us", 1, 1 },
	[GM_WORKLOAD] = { "workload", "all metrics", "", 1, 0 },
};

const struct gate_metric_info *gate_metric_info(enum gate_metric m)
{
	return &metric_info[(unsigned)m <= GM_NR ? m : GM_WORKLOAD];
}

/* ---- what is judged ----------------------------------------------------------------------------------- */

static const char *const group_names[GG_NR] = { "iops", "mbps", "lat", "p99", "cpu_per_io" };

const char *gate_group_name(enum gate_group g)
{
	return (unsigned)g < GG_NR ? group_names[g] : "?";
}

enum gate_group gate_metric_group(enum gate_metric m)
{
	switch (m) {
	case GM_IOPS_READ: case GM_IOPS_WRITE: case GM_IOPS_TRIM: return GG_IOPS;
	case GM_MBPS_READ: case GM_MBPS_WRITE: case GM_MBPS_TRIM: return GG_MBPS;
	case GM_LAT_MEAN_READ: case GM_LAT_MEAN_WRITE: case GM_LAT_MEAN_TRIM: return GG_LAT;
	case GM_LAT_P99_READ: case GM_LAT_P99_WRITE: case GM_LAT_P99_TRIM: return GG_P99;
	default: return GG_CPU;
	}
}

/* The group a name means (report names and a few spellings users write), or -1. */
static int group_of_name(const char *s, size_t len)
{
	static const struct {
		const char *name;
		enum gate_group g;
	} alias[] = { { "iops", GG_IOPS }, { "mbps", GG_MBPS }, { "mibps", GG_MBPS }, { "bw", GG_MBPS },
		      { "lat", GG_LAT }, { "latency", GG_LAT }, { "p99", GG_P99 }, { "cpu_per_io", GG_CPU },
		      { "cpu", GG_CPU } };

	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if (strlen(alias[i].name) == len && !strncmp(alias[i].name, s, len))
			return (int)alias[i].g;
	return -1;
}

static int bad_group(const char *what, const char *s, size_t len, struct errbuf *err)
{
	char *w = xstrndup(s, len);
	const char *near = suggest_closest(w, (const char *const *)group_names, GG_NR);

	err_set(err, ERR_USAGE, "%s: unknown metric '%s'%s%s%s (metrics: iops, mbps, lat, p99, cpu_per_io, all)", what,
		w, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	free(w);
	return -1;
}

int gate_parse_metrics(const char *arg, unsigned *mask, struct errbuf *err)
{
	unsigned m = 0;

	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		int g;
		if (len == 3 && !strncmp(p, "all", 3))
			m |= GATE_JUDGE_ALL;
		else if ((g = group_of_name(p, len)) >= 0)
			m |= 1u << g;
		else
			return bad_group("--metric", p, len, err);
		if (!p[len])
			break;
		p += len + 1;
	}
	*mask = m;
	return 0;
}

int gate_parse_thresholds(const char *arg, double *thresholds, struct errbuf *err)
{
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=");
		char *v;
		double f;
		int g;
		if (klen >= len)
			return err_set(err, ERR_USAGE, "--threshold wants PCT or METRIC=PCT,... (e.g. iops=5%%,p99=15%%), "
				       "got '%s'", arg);
		if ((g = group_of_name(p, klen)) < 0)
			return bad_group("--threshold", p, klen, err);
		v = xstrndup(p + klen + 1, len - klen - 1);
		if (parse_percent_fraction(v, 0, 100, &f) < 0 || !(f > 0 && f < 1)) {
			err_set(err, ERR_USAGE, "--threshold %.*s: wants a percentage between 0 and 100, got '%s'",
				(int)klen, p, v);
			free(v);
			return -1;
		}
		free(v);
		thresholds[g] = f;
		if (!p[len])
			break;
		p += len + 1;
	}
	return 0;
}

double gate_threshold_of(const struct gate_opts *o, enum gate_metric m)
{
	double t = o->group_threshold[gate_metric_group(m)];
	return t > 0 ? t : o->threshold;
}

int gate_metric_judged(const struct gate_opts *o, enum gate_metric m)
{
	unsigned mask = o->judged ? o->judged : GATE_JUDGE_DEFAULT;
	if ((unsigned)m >= GM_NR)
		return 1; /* a workload's own cell (no figure at all) */
	return (int)(mask >> gate_metric_group(m)) & 1;
}

static const char *const verdict_names[GATE_VERDICT_NR] = {
	"REGRESSION", "IMPROVEMENT", "EQUIVALENT", "INCONCLUSIVE", "INVALID",
};

const char *gate_verdict_name(enum gate_verdict v)
{
	return (unsigned)v < GATE_VERDICT_NR ? verdict_names[v] : "?";
}

/* ---- sides ---------------------------------------------------------------------------------------- */

static const size_t gate_run_strs[] = { offsetof(struct gate_run, name), offsetof(struct gate_run, key),
					 offsetof(struct gate_run, invalid), offsetof(struct gate_run, remark) };

static void gate_run_release(struct gate_run *r)
{
	free_members(r, gate_run_strs, sizeof(gate_run_strs) / sizeof(gate_run_strs[0]));
	if (!r->like_shared)
		kvlist_release(&r->like);
}

void gate_side_init(struct gate_side *s, const char *selection)
{
	memset(s, 0, sizeof(*s));
	s->selection = xstrdup(selection ? selection : "");
}

void gate_side_release(struct gate_side *s)
{
	if (!s)
		return;
	free(s->selection);
	ARRAY_RELEASE(s->runs, s->n, gate_run_release);
	memset(s, 0, sizeof(*s));
}

struct gate_run *gate_side_add(struct gate_side *s, int64_t id, const char *name, const char *key,
			       unsigned repetition)
{
	struct gate_run *r;

	r = ARRAY_PUSH_ZEROED(s->runs, s->cap, s->n);
	r->id = id;
	r->name = xstrdup(name ? name : "");
	r->key = xstrdup(key ? key : r->name);
	r->repetition = repetition;
	kvlist_init(&r->like);
	for (int m = 0; m < GM_NR; m++)
		r->value[m] = NAN;
	return r;
}

void gate_run_set_invalid(struct gate_run *r, const char *reason)
{
	if (!r->invalid)
		r->invalid = xstrdup(reason);
}

void gate_run_add_remark(struct gate_run *r, const char *remark)
{
	char *both = r->remark ? xasprintf("%s; %s", r->remark, remark) : xstrdup(remark);

	free(r->remark);
	r->remark = both;
}

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

void gate_run_set_like(struct gate_run *r, const struct run_spec *spec, unsigned nhosts)
{
	struct strbuf sb;
	char n[32];

	if (!r->like_shared)
		kvlist_release(&r->like);
	r->like_shared = 0;
	kvlist_init(&r->like);
	/* every option that changes the load, as core/identity.h names it (core/fio_options.c says which do
	 * not: logs, reporting, names, duration); a run of several jobs: every job, in order */
	run_spec_identity_kv(spec, &r->like);
	/* and how long it was measured: the identity leaves duration out (a figure is the same load whatever its
	 * length), yet a 2 s run after a 1 s ramp is no sample of the 600 s one (--runtime, --quick) */
	snprintf(n, sizeof(n), "%u", spec->wl.runtime_s);
	kvlist_set(&r->like, "runtime", n);
	snprintf(n, sizeof(n), "%u", spec->wl.ramp_s);
	kvlist_set(&r->like, "ramp_time", n);
	kvlist_set(&r->like, "engine", spec->engine ? spec->engine : "");
	for (size_t i = 0; i < spec->engine_opts.n; i++) {
		char *k = xasprintf("engine_opt.%s", spec->engine_opts.v[i].key);
		kvlist_set(&r->like, k, spec->engine_opts.v[i].value ? spec->engine_opts.v[i].value : "");
		free(k);
	}
	strbuf_init(&sb);
	for (size_t i = 0; i < spec->ntargets; i++) {
		if (i)
			strbuf_addc(&sb, ',');
		strbuf_adds(&sb, spec->targets[i]);
	}
	kvlist_set(&r->like, "targets", sb.buf);
	strbuf_release(&sb);
	snprintf(n, sizeof(n), "%u", nhosts);
	kvlist_set(&r->like, "hosts", n);
	qsort(r->like.v, r->like.n, sizeof(*r->like.v), cmp_kv);
	r->has_like = 1;
}

void gate_run_share_like(struct gate_run *r, const struct gate_run *from)
{
	if (!r->like_shared)
		kvlist_release(&r->like);
	r->like = from->like;
	r->like_shared = 1;
	r->has_like = from->has_like;
}

/* ---- gate lifetime ---------------------------------------------------------------------------------- */

void gate_opts_default(struct gate_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = 0.05;
	o->conf = 0.95;
}

unsigned gate_min_runs(const struct gate_opts *o)
{
	if (o->min_runs)
		return o->min_runs;
	if (o->method == GATE_METHOD_RANK)
		return stats_min_runs_for_conf(o->conf, o->paired);
	return GATE_T_MIN_RUNS;
}

const char *gate_method_name(int rank, int paired)
{
	if (rank)
		return paired ? "signed-rank" : "mann-whitney";
	return paired ? "paired-t" : "welch-t";
}

void gate_init(struct gate *g, const struct gate_opts *opts)
{
	memset(g, 0, sizeof(*g));
	g->conf_achieved_min = NAN;
	gate_opts_default(&g->opts);
	if (opts)
		g->opts = *opts;
}

static const size_t cell_ptrs[] = { offsetof(struct gate_cell, key),	offsetof(struct gate_cell, workload),
				     offsetof(struct gate_cell, base),	offsetof(struct gate_cell, cand),
				     offsetof(struct gate_cell, base_run), offsetof(struct gate_cell, cand_run),
				     offsetof(struct gate_cell, note) };

void gate_release(struct gate *g)
{
	if (!g)
		return;
	array_free_members(g->cells, g->ncells, sizeof(*g->cells), cell_ptrs, sizeof(cell_ptrs) / sizeof(cell_ptrs[0]));
	ARRAY_RELEASE(g->notes, g->nnotes, strlist_free_str);
	memset(g, 0, sizeof(*g));
}

static void add_note(struct gate *g, char *note)
{
	ARRAY_GROW(g->notes, g->notes_cap, g->nnotes + 1);
	g->notes[g->nnotes++] = note;
}

/* Adds a note to a cell (after an earlier one, separated by "; "); takes ownership of note. */
static void set_cell_note(struct gate_cell *c, char *note)
{
	if (c->note) {
		char *both = xasprintf("%s; %s", c->note, note);
		free(c->note);
		free(note);
		note = both;
	}
	c->note = note;
}

/* "~12 runs per side" or "more than 200 runs per side" */
static void fmt_runs(char *buf, size_t len, unsigned n, unsigned cap)
{
	if (n >= cap)
		snprintf(buf, len, "more than %u runs per side", cap);
	else
		snprintf(buf, len, "~%u runs per side", n);
}

/* ---- building cells ------------------------------------------------------------------------------- */

/*
 * The runs of a side grouped by workload key: run indices sorted by key, each key's runs in side order, so
 * that everything done per key looks at that key's runs only (the sides hold up to 100,000 runs).
 */
struct keyed {
	const char *key;
	size_t i;
};

struct side_index {
	struct keyed *v;
	size_t n;
	char *first;              /* per run (side order): it is the first run of its key */
};

/* The runs of one key on one side, in side order (none: n = 0). */
struct key_runs {
	const struct keyed *v;
	size_t n;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return (x->i > y->i) - (x->i < y->i);
}

static void side_index_build(struct side_index *x, const struct gate_side *s)
{
	x->n = s->n;
	x->v = xmalloc((s->n ? s->n : 1) * sizeof(*x->v));
	for (size_t i = 0; i < s->n; i++) {
		x->v[i].key = s->runs[i].key;
		x->v[i].i = i;
	}
	qsort(x->v, x->n, sizeof(*x->v), cmp_keyed);
	x->first = xcalloc(s->n ? s->n : 1, 1);
	for (size_t k = 0; k < x->n; k++)
		x->first[x->v[k].i] = k == 0 || strcmp(x->v[k - 1].key, x->v[k].key) != 0;
}

static struct key_runs side_key_runs(const struct side_index *x, const char *key)
{
	struct key_runs k = { NULL, 0 };
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(x->v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	k.v = x->v + lo;
	while (lo + k.n < x->n && !strcmp(x->v[lo + k.n].key, key))
		k.n++;
	return k;
}

#define KEY_RUN(s, k, t) (&(s)->runs[(k).v[t].i])

static int usable(const struct gate_run *r, enum gate_metric m)
{
	return !r->invalid && isfinite(r->value[m]) && r->value[m] > 0;
}

/* Counts over one key's runs of a side: runs, valid runs, valid runs with metric m, runs with a value for m. */
static void side_counts(const struct gate_side *s, struct key_runs kr, enum gate_metric m, size_t *runs,
			size_t *valid, size_t *with_m, size_t *any_m)
{
	*runs = *valid = *with_m = *any_m = 0;
	for (size_t t = 0; t < kr.n; t++) {
		const struct gate_run *r = KEY_RUN(s, kr, t);
		(*runs)++;
		if (!r->invalid)
			(*valid)++;
		if (usable(r, m))
			(*with_m)++;
		if (isfinite(r->value[m]) && r->value[m] > 0)
			(*any_m)++;
	}
}

static struct gate_cell *new_cell(struct gate *g, const char *key, const char *workload, enum gate_metric m)
{
	struct gate_cell *c;

	c = ARRAY_PUSH_ZEROED(g->cells, g->cells_cap, g->ncells);
	c->key = xstrdup(key);
	c->workload = xstrdup(workload);
	c->metric = m;
	c->verdict = GATE_INVALID;
	c->q = NAN;
	c->ratio = c->ratio_lo = c->ratio_hi = NAN;
	c->s.p = c->s.est = c->s.lo = c->s.hi = c->s.conf = NAN;
	c->base_median = c->cand_median = NAN;
	c->sd_log_base = c->sd_log_cand = c->sd_log = NAN;
	c->badness = -INFINITY;
	return c;
}

static void alloc_samples(double **v, int64_t **id, size_t cap)
{
	*v = xmalloc((cap ? cap : 1) * sizeof(**v));
	*id = xmalloc((cap ? cap : 1) * sizeof(**id));
}

static void push_sample(double *v, int64_t *id, size_t *n, double value, int64_t run)
{
	v[*n] = value;
	id[*n] = run;
	(*n)++;
}

/* paired: each baseline run with the first unused candidate run of the same repetition */
static void fill_paired(struct gate_cell *c, const struct gate_side *b, struct key_runs kb, const struct gate_side *k,
			struct key_runs kc)
{
	enum gate_metric m = c->metric;
	char *used = xcalloc(kc.n ? kc.n : 1, 1);
	size_t unpaired = 0;

	alloc_samples(&c->base, &c->base_run, kb.n);
	alloc_samples(&c->cand, &c->cand_run, kb.n);
	for (size_t i = 0; i < kb.n; i++) {
		const struct gate_run *x = KEY_RUN(b, kb, i);
		size_t j;
		if (!usable(x, m))
			continue;
		for (j = 0; j < kc.n; j++)
			if (!used[j] && usable(KEY_RUN(k, kc, j), m) && KEY_RUN(k, kc, j)->repetition == x->repetition)
				break;
		if (j == kc.n) {
			unpaired++;
			continue;
		}
		used[j] = 1;
		push_sample(c->base, c->base_run, &c->nbase, x->value[m], x->id);
		push_sample(c->cand, c->cand_run, &c->ncand, KEY_RUN(k, kc, j)->value[m], KEY_RUN(k, kc, j)->id);
	}
	for (size_t j = 0; j < kc.n; j++)
		if (!used[j] && usable(KEY_RUN(k, kc, j), m))
			unpaired++;
	if (unpaired)
		set_cell_note(c, xasprintf("%zu run(s) without a partner of the same repetition left out", unpaired));
	free(used);
}

static void fill_samples(struct gate *g, struct gate_cell *c, const struct gate_side *b, struct key_runs kb,
			 const struct gate_side *k, struct key_runs kc)
{
	enum gate_metric m = c->metric;

	if (g->opts.paired) {
		fill_paired(c, b, kb, k, kc);
		return;
	}
	alloc_samples(&c->base, &c->base_run, kb.n);
	alloc_samples(&c->cand, &c->cand_run, kc.n);
	for (size_t t = 0; t < kb.n; t++)
		if (usable(KEY_RUN(b, kb, t), m))
			push_sample(c->base, c->base_run, &c->nbase, KEY_RUN(b, kb, t)->value[m], KEY_RUN(b, kb, t)->id);
	for (size_t t = 0; t < kc.n; t++)
		if (usable(KEY_RUN(k, kc, t), m))
			push_sample(c->cand, c->cand_run, &c->ncand, KEY_RUN(k, kc, t)->value[m], KEY_RUN(k, kc, t)->id);
}

/* Different run names under one workload key are compared together: say so (once per key and side). */
static void note_shared_identity(struct gate *g, const struct gate_side *s, struct key_runs kr, const char *side,
				 const struct gate_run *first)
{
	for (size_t t = 0; t < kr.n; t++) {
		const struct gate_run *r = KEY_RUN(s, kr, t);
		if (!strcmp(r->name, first->name))
			continue;
		add_note(g, xasprintf("%s: workloads '%s' and '%s' have the same identity and are compared as one "
				      "(--match name keeps them apart)", side, first->name, r->name));
		return;
	}
}

/* The runs of one key that a side excluded as not at steady state. */
static size_t side_unsteady(const struct gate_side *s, struct key_runs kr)
{
	size_t n = 0;

	for (size_t t = 0; t < kr.n; t++)
		n += KEY_RUN(s, kr, t)->unsteady != 0;
	return n;
}

/* Every cell of a workload (cells[from..]) says how many of its runs are not at steady state. */
static void note_unsteady(struct gate *g, size_t from, struct key_runs kb, struct key_runs kc)
{
	size_t b = side_unsteady(g->base, kb), c = side_unsteady(g->cand, kc);

	for (size_t k = from; (b || c) && k < g->ncells; k++)
		set_cell_note(&g->cells[k], xasprintf("%zu baseline and %zu candidate run(s) not at steady state "
						      "excluded (--allow-unsteady to include them)", b, c));
}

/* A note per valid run with a remark (its steady state), so that every output shows it. */
static void note_remarks(struct gate *g, const struct gate_side *s, const char *side)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct gate_run *r = &s->runs[i];

		if (r->remark && !r->invalid)
			add_note(g, xasprintf("%s run %lld (%s, repetition %u): %s", side, (long long)r->id, r->name,
					      r->repetition, r->remark));
	}
}

/* ---- like for like ---------------------------------------------------------------------------------- */

/* Whether --allow-diff names fingerprint item key (a job's item "jobN.KEY" of a run of several jobs by KEY). */
static int allowed_diff(const struct gate_opts *o, const char *key)
{
	const char *dot = !strncmp(key, "job", 3) && key[3] >= '1' && key[3] <= '9' ? strchr(key, '.') : NULL;

	for (size_t i = 0; i < o->nallow_diff; i++)
		if (!strcmp(o->allow_diff[i], key) || (dot && !strcmp(o->allow_diff[i], dot + 1)))
			return 1;
	return 0;
}

/* The value of fingerprint item key in r as shown: "-" when absent, "(set)" for a flag without value. */
static const char *like_value(const struct gate_run *r, const char *key)
{
	const struct kv *kv = kvlist_find(&r->like, key);

	if (!kv)
		return "-";
	return kv->value && *kv->value ? kv->value : "(set)";
}

/* Appends to vals (a '|'-separated list) the distinct values of key among a side's fingerprinted runs of a key. */
static void side_values(const struct gate_side *s, struct key_runs kr, const char *key, struct strbuf *vals)
{
	struct strlist seen = { 0 };

	for (size_t t = 0; t < kr.n; t++) {
		const struct gate_run *r = KEY_RUN(s, kr, t);
		const char *v;
		size_t before = seen.n;

		if (!r->has_like)
			continue;
		v = like_value(r, key);
		strlist_add_distinct(&seen, v);
		if (seen.n == before)
			continue;
		if (vals->len)
			strbuf_addc(vals, '|');
		strbuf_adds(vals, v);
	}
	strlist_release(&seen);
}

/* The fingerprint items of a key's runs of both sides (base then cand), each once, in the order they come up. */
static void like_items(const struct gate_side *const sides[2], const struct key_runs kr[2], struct strlist *items)
{
	for (int k = 0; k < 2; k++)
		for (size_t t = 0; t < kr[k].n; t++) {
			const struct gate_run *r = KEY_RUN(sides[k], kr[k], t);
			if (!r->has_like)
				continue;
			for (size_t j = 0; j < r->like.n; j++)
				strlist_add_distinct(items, r->like.v[j].key);
		}
}

/*
 * The fingerprint items that differ between the runs of a workload key (across and within the sides), not
 * allowed by --allow-diff: "rate_iops: baseline -, candidate 15000; ..." (malloc'd), or NULL when like
 * for like. Runs without a fingerprint are not compared.
 */
static char *like_difference(const struct gate *g, struct key_runs kb, struct key_runs kc)
{
	const struct gate_side *const sides[2] = { g->base, g->cand };
	const struct key_runs kr[2] = { kb, kc };
	struct strbuf out, bv, cv;
	struct strlist items = { 0 };
	int have[2] = { 0, 0 };

	for (int k = 0; k < 2; k++)
		for (size_t t = 0; t < kr[k].n; t++)
			have[k] |= KEY_RUN(sides[k], kr[k], t)->has_like;
	if (!have[0] || !have[1])
		return NULL;
	strbuf_init(&out);
	strbuf_init(&bv);
	strbuf_init(&cv);
	like_items(sides, kr, &items);
	for (size_t i = 0; i < items.n; i++) {
		const char *key = items.v[i];
		if (allowed_diff(&g->opts, key))
			continue;
		strbuf_reset(&bv);
		strbuf_reset(&cv);
		side_values(g->base, kb, key, &bv);
		side_values(g->cand, kc, key, &cv);
		if (!strcmp(bv.buf, cv.buf) && !strchr(bv.buf, '|'))
			continue;
		strbuf_addf(&out, "%s%s: baseline %s, candidate %s", out.len ? "; " : "", key, bv.buf, cv.buf);
	}
	strlist_release(&items);
	strbuf_release(&bv);
	strbuf_release(&cv);
	if (!out.len) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

/* The cells of one workload key present on both sides (base->runs[kb.v[0].i] is its first run). */
static void build_workload(struct gate *g, struct key_runs kb, struct key_runs kc)
{
	const struct gate_side *base = g->base, *cand = g->cand;
	const struct gate_run *r = KEY_RUN(base, kb, 0);
	size_t before = g->ncells;
	char *diff;

	note_shared_identity(g, base, kb, "baseline", r);
	note_shared_identity(g, cand, kc, "candidate", r);
	diff = like_difference(g, kb, kc);
	for (int m = 0; m < GM_NR; m++) {
		size_t bn, bv, bm, ba, cn, cv, cm, ca;
		struct gate_cell *c;

		side_counts(base, kb, (enum gate_metric)m, &bn, &bv, &bm, &ba);
		side_counts(cand, kc, (enum gate_metric)m, &cn, &cv, &cm, &ca);
		if (ba == 0 && ca == 0)
			continue; /* this workload does not have this figure (e.g. write IOPS of a read) */
		if ((bv > 0 && bm == 0) || (cv > 0 && cm == 0)) {
			const char *missing = (bv > 0 && bm == 0) ? "baseline" : "candidate";
			if (m == GM_CPU_PER_IO) {
				/* CPU collected on one side only (a collector was off): not comparable */
				add_note(g, xasprintf("%s of %s: not measured in the %s", metric_info[m].title, r->name,
						      missing));
				continue;
			}
			/* a direction that vanished on one side is no pass: INVALID with the reason */
			c = new_cell(g, r->key, r->name, (enum gate_metric)m);
			fill_samples(g, c, base, kb, cand, kc);
			set_cell_note(c, xasprintf("no %s in the %s's valid runs", metric_info[m].title, missing));
			c->force_invalid = 1;
			continue;
		}
		c = new_cell(g, r->key, r->name, (enum gate_metric)m);
		fill_samples(g, c, base, kb, cand, kc);
	}
	if (g->ncells == before) {
		/* a workload with no figure at all (every run failed before measuring): never a silent pass */
		struct gate_cell *c = new_cell(g, r->key, r->name, GM_WORKLOAD);
		set_cell_note(c, xstrdup("no valid measurement on either side"));
	}
	note_unsteady(g, before, kb, kc);
	if (diff) {
		/* not like for like: every cell of the workload is INVALID, naming what differs */
		for (size_t k = before; k < g->ncells; k++) {
			g->cells[k].force_invalid = 1;
			set_cell_note(&g->cells[k], xasprintf("not like for like: %s (--allow-diff OPTION to compare "
							      "anyway)", diff));
		}
		free(diff);
	}
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t *sorted_ids(const struct gate_side *s)
{
	int64_t *v = xmalloc((s->n ? s->n : 1) * sizeof(*v));

	for (size_t i = 0; i < s->n; i++)
		v[i] = s->runs[i].id;
	qsort(v, s->n, sizeof(*v), cmp_id);
	return v;
}

/* Pairs (baseline run, candidate run) that are the same run. */
static size_t shared_runs(const struct gate_side *base, const struct gate_side *cand)
{
	int64_t *b = sorted_ids(base), *c = sorted_ids(cand);
	size_t i = 0, j = 0, shared = 0;

	while (i < base->n && j < cand->n) {
		size_t ni = 1, nj = 1;
		if (b[i] < c[j]) {
			i++;
			continue;
		}
		if (b[i] > c[j]) {
			j++;
			continue;
		}
		while (i + ni < base->n && b[i + ni] == b[i])
			ni++;
		while (j + nj < cand->n && c[j + nj] == c[j])
			nj++;
		shared += ni * nj;
		i += ni;
		j += nj;
	}
	free(b);
	free(c);
	return shared;
}

/*
 * A baseline workload whose identity the candidate does not have, asked for under the same name as a
 * candidate workload whose identity the baseline does not have (the same test with an option changed, e.g.
 * rate_iops): that candidate workload's runs (the first such, marked in used[] by its first run), so that
 * like_difference names what differs (INVALID unless --allow-diff allows it), instead of two workloads each on
 * one side. None (n = 0) otherwise. Pairing stays by identity: this only explains a pair the identity split.
 */
static struct key_runs same_name_elsewhere(const struct side_index *bi, const struct side_index *ci,
					   const struct gate_side *cand, const char *name, char *used)
{
	struct key_runs none = { NULL, 0 };

	for (size_t j = 0; j < cand->n; j++) {
		const struct gate_run *c = &cand->runs[j];

		if (!ci->first[j] || used[j] || strcmp(c->name, name) || side_key_runs(bi, c->key).n)
			continue;
		used[j] = 1;
		return side_key_runs(ci, c->key);
	}
	return none;
}

int gate_build(struct gate *g, const struct gate_side *base, const struct gate_side *cand, struct errbuf *err)
{
	struct side_index bi, ci;
	size_t common = 0, shared;
	char *used;

	g->base = base;
	g->cand = cand;
	if (base->n == 0)
		return err_set(err, ERR_INPUT, "baseline '%s' matches no runs", base->selection);
	if (cand->n == 0)
		return err_set(err, ERR_INPUT, "candidate '%s' matches no runs", cand->selection);

	side_index_build(&bi, base);
	side_index_build(&ci, cand);
	used = xcalloc(cand->n ? cand->n : 1, 1);
	for (size_t i = 0; i < base->n; i++) {
		const struct gate_run *r = &base->runs[i];
		struct key_runs kb, kc;

		if (!bi.first[i])
			continue; /* not the key's first run */
		kb = side_key_runs(&bi, r->key);
		kc = side_key_runs(&ci, r->key);
		if (!kc.n)
			kc = same_name_elsewhere(&bi, &ci, cand, r->name, used);
		if (!kc.n) {
			add_note(g, xasprintf("only in the baseline: %s", r->name));
			continue;
		}
		common++;
		build_workload(g, kb, kc);
	}
	for (size_t i = 0; i < cand->n; i++)
		if (ci.first[i] && !used[i] && !side_key_runs(&bi, cand->runs[i].key).n)
			add_note(g, xasprintf("only in the candidate: %s", cand->runs[i].name));
	free(used);
	free(bi.v);
	free(bi.first);
	free(ci.v);
	free(ci.first);
	note_remarks(g, base, "baseline");
	note_remarks(g, cand, "candidate");
	shared = shared_runs(base, cand);
	if (shared)
		add_note(g, xasprintf("%zu run(s) are in both the baseline and the candidate selection", shared));
	if (common == 0)
		return err_set(err, ERR_INPUT,
			       "baseline '%s' (%zu runs) and candidate '%s' (%zu runs) have no workload in common",
			       base->selection, base->n, cand->selection, cand->n);
	return 0;
}

/* ---- judging ---------------------------------------------------------------------------------------- */

enum gate_verdict gate_judge(const struct stats_shift *s, double q, double alpha, double t, int lower_is_better)
{
	double r = exp(s->est), lo = exp(s->lo), hi = exp(s->hi);
	int sig = q <= alpha;

	if (isnan(r))
		return GATE_INVALID;
	if (lower_is_better) {
		if (lo > 1 && r > 1 + t && sig)
			return GATE_REGRESSION;
		if (hi < 1 && r < 1 - t && sig)
			return GATE_IMPROVEMENT;
	} else {
		if (hi < 1 && r < 1 - t && sig)
			return GATE_REGRESSION;
		if (lo > 1 && r > 1 + t && sig)
			return GATE_IMPROVEMENT;
	}
	if (lo >= 1 - t && hi <= 1 + t)
		return GATE_EQUIVALENT;
	return GATE_INCONCLUSIVE;
}

static double *logs_of(const double *v, size_t n)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));

	for (size_t i = 0; i < n; i++)
		l[i] = log(v[i]);
	return l;
}

/* The run id of sample i of a cell when it is an outlier of its log values (t interval assumptions). */
static const char *outlier_note(const struct gate_cell *c, const double *lb, const double *lc, const double *d,
				double threshold, char *buf, size_t len)
{
	double floor_log = log1p(threshold);
	long i;

	if (d && (i = stats_outlier_index(d, c->nbase, GATE_OUTLIER_MADS, floor_log)) >= 0)
		snprintf(buf, len, "the pair of runs %lld/%lld is an outlier", (long long)c->base_run[i],
			 (long long)c->cand_run[i]);
	else if (!d && (i = stats_outlier_index(lb, c->nbase, GATE_OUTLIER_MADS, floor_log)) >= 0)
		snprintf(buf, len, "baseline run %lld is an outlier", (long long)c->base_run[i]);
	else if (!d && (i = stats_outlier_index(lc, c->ncand, GATE_OUTLIER_MADS, floor_log)) >= 0)
		snprintf(buf, len, "candidate run %lld is an outlier", (long long)c->cand_run[i]);
	else
		return NULL;
	return buf;
}

/*
 * The shift of log values with the method in force: the t interval below GATE_RANK_FROM runs per side
 * unless an outlier breaks its assumption (then the 20%-trimmed t interval: Tukey-McLaughlin paired, Yuen
 * unpaired, bounded from 4 runs where the exact rank interval is not), the rank interval from there on.
 */
static int shift_of_cell(struct gate *g, struct gate_cell *c, const double *lb, const double *lc, struct errbuf *err)
{
	const struct gate_opts *o = &g->opts;
	size_t n = c->nbase < c->ncand ? c->nbase : c->ncand;
	int rank = o->method == GATE_METHOD_RANK || (o->method == GATE_METHOD_AUTO && n >= GATE_RANK_FROM);
	double *d = NULL;
	char why[128];
	int rc;

	if (o->paired) {
		d = xmalloc(c->nbase * sizeof(*d));
		for (size_t i = 0; i < c->nbase; i++)
			d[i] = lc[i] - lb[i];
		c->sd_log = stats_sd(d, c->nbase);
	} else {
		double vb = c->sd_log_base * c->sd_log_base * (double)(c->nbase - 1);
		double vc = c->sd_log_cand * c->sd_log_cand * (double)(c->ncand - 1);
		size_t df = c->nbase + c->ncand - 2;
		c->sd_log = df > 0 ? sqrt((vb + vc) / (double)df) : 0;
	}
	if (!rank && o->method == GATE_METHOD_AUTO && n >= GATE_TRIM_MIN_RUNS &&
	    outlier_note(c, lb, lc, d, gate_threshold_of(o, c->metric), why, sizeof(why))) {
		set_cell_note(c, xasprintf("%s: 20%%-trimmed t interval instead of the t interval", why));
		rc = o->paired ? stats_trimmed_t_shift(d, c->nbase, o->conf, &c->s, err)
			       : stats_yuen_shift(lb, c->nbase, lc, c->ncand, o->conf, &c->s, err);
		c->method = o->paired ? "trimmed-t" : "yuen-t";
	} else if (o->paired) {
		rc = rank ? stats_wsr_shift(d, c->nbase, o->conf, &c->s, err)
			  : stats_paired_t_shift(d, c->nbase, o->conf, &c->s, err);
		c->method = gate_method_name(rank, o->paired);
	} else {
		rc = rank ? stats_mw_shift(lb, c->nbase, lc, c->ncand, o->conf, &c->s, err)
			  : stats_welch_shift(lb, c->nbase, lc, c->ncand, o->conf, &c->s, err);
		c->method = gate_method_name(rank, o->paired);
	}
	free(d);
	return rc;
}

/* Statistics of one cell (not the verdict). Returns 0, or marks the cell INVALID. */
static int analyse_cell(struct gate *g, struct gate_cell *c, struct errbuf *err)
{
	const struct gate_opts *o = &g->opts;
	unsigned min_runs = gate_min_runs(o);
	double *lb, *lc;
	int rc;

	if (c->metric == GM_WORKLOAD || c->force_invalid) {
		if (c->nbase)
			c->base_median = stats_median(c->base, c->nbase);
		if (c->ncand)
			c->cand_median = stats_median(c->cand, c->ncand);
		return 0;
	}
	if (c->nbase < min_runs || c->ncand < min_runs || c->nbase < 2 || c->ncand < 2) {
		set_cell_note(c, xasprintf("%zu valid baseline and %zu valid candidate %s, need %u per side (--min-runs)",
					   c->nbase, c->ncand, o->paired ? "runs paired" : "runs", min_runs));
		if (c->nbase)
			c->base_median = stats_median(c->base, c->nbase);
		if (c->ncand)
			c->cand_median = stats_median(c->cand, c->ncand);
		return 0;
	}
	lb = logs_of(c->base, c->nbase);
	lc = logs_of(c->cand, c->ncand);
	c->base_median = stats_median(c->base, c->nbase);
	c->cand_median = stats_median(c->cand, c->ncand);
	c->sd_log_base = stats_sd(lb, c->nbase);
	c->sd_log_cand = stats_sd(lc, c->ncand);
	rc = shift_of_cell(g, c, lb, lc, err);
	free(lb);
	free(lc);
	if (rc < 0)
		return -1;
	c->ratio = exp(c->s.est);
	c->ratio_lo = exp(c->s.lo);
	c->ratio_hi = exp(c->s.hi);
	c->badness = metric_info[c->metric].lower_is_better ? c->s.est : -c->s.est;
	c->verdict = GATE_INCONCLUSIVE; /* judged after the adjustment */
	return 1;
}

static int cmp_cells(const void *a, const void *b)
{
	const struct gate_cell *x = a, *y = b;
	int c;

	/* regressions first, then every other cell by effect (worst first), INVALID last */
	if ((x->verdict == GATE_REGRESSION) != (y->verdict == GATE_REGRESSION))
		return x->verdict == GATE_REGRESSION ? -1 : 1;
	if (x->badness != y->badness)
		return x->badness < y->badness ? 1 : -1;
	c = strcmp(x->workload, y->workload);
	if (c)
		return c;
	return (x->metric > y->metric) - (x->metric < y->metric);
}

#define RUNS_CAP 200u /* "how many more runs" stops counting here */

/* Runs per side that would likely give an interval of half-width margin with the method in force. */
static unsigned runs_for_margin(const struct gate_opts *o, double sigma, double margin)
{
	if (o->method == GATE_METHOD_RANK)
		return stats_runs_needed(sigma, margin, o->conf, 0.8, o->paired, RUNS_CAP);
	return stats_runs_needed_t(sigma, margin, o->conf, 0.8, o->paired, RUNS_CAP);
}

/* The note of an INCONCLUSIVE cell: why, and how many more runs per side would likely settle it. */
static void explain_inconclusive(struct gate *g, struct gate_cell *c, size_t judged)
{
	const struct gate_opts *o = &g->opts;
	double th = gate_threshold_of(o, c->metric);
	double alpha = 1 - o->conf, tl = log1p(th), e = fabs(c->s.est);
	size_t have = c->nbase < c->ncand ? c->nbase : c->ncand;
	char runs[64];

	/* if the estimate and the spread stay as observed */
	c->runs_needed = runs_for_margin(o, c->sd_log, e >= tl ? e : tl - e);
	if (!isfinite(c->s.lo) || !isfinite(c->s.hi)) {
		unsigned nmin = stats_min_runs_for_conf(o->conf, o->paired);
		if (c->runs_needed < nmin)
			c->runs_needed = nmin;
		fmt_runs(runs, sizeof(runs), c->runs_needed, RUNS_CAP);
		set_cell_note(c, xasprintf("%zu/%zu runs cannot give a %g%% %s interval; %s would likely settle it",
					   c->nbase, c->ncand, o->conf * 100, c->method, runs));
	} else if ((c->ratio > 1 + th || c->ratio < 1 - th) &&
		   (c->ratio_lo > 1 || c->ratio_hi < 1) && !(c->q <= alpha)) {
		/* it would have been flagged on its own: the other cells' p-values hold it back */
		if (c->runs_needed <= have)
			c->runs_needed = (unsigned)have + 1;
		fmt_runs(runs, sizeof(runs), c->runs_needed, RUNS_CAP);
		set_cell_note(c, xasprintf("not significant after adjusting for %zu cells (q = %.3g); %s would "
					   "likely settle it", judged, c->q, runs));
	} else if (c->runs_needed >= RUNS_CAP) {
		set_cell_note(c, xasprintf("more than %u runs per side would be needed (noise %.1f%% per run, "
					   "estimate %+.1f%% against a threshold of %g%%)",
					   RUNS_CAP, expm1(c->sd_log) * 100, (c->ratio - 1) * 100, th * 100));
	} else {
		if (c->runs_needed <= have)
			c->runs_needed = (unsigned)have + 1;
		set_cell_note(c, xasprintf("~%u more runs per side would likely settle it (%u in all)",
					   c->runs_needed - (unsigned)have, c->runs_needed));
	}
}

/* Benjamini-Hochberg over the cells of one family (judged: info == 0), in place in p (NAN: not judged). */
static void bh_by_family(struct gate *g, double *p, int info)
{
	double *f = xmalloc((g->ncells ? g->ncells : 1) * sizeof(*f));

	for (size_t i = 0; i < g->ncells; i++)
		f[i] = g->cells[i].info == info ? p[i] : NAN;
	stats_bh_adjust(f, g->ncells, f);
	for (size_t i = 0; i < g->ncells; i++)
		if (g->cells[i].info == info)
			p[i] = f[i];
	free(f);
}

int gate_evaluate(struct gate *g, struct errbuf *err)
{
	const struct gate_opts *o = &g->opts;
	double *p = xmalloc((g->ncells ? g->ncells : 1) * sizeof(*p));
	double alpha = 1 - o->conf;
	size_t judged = 0;
	int ret = -1;

	if (!(o->threshold > 0 && o->threshold < 1)) {
		err_set(err, ERR_USAGE, "the threshold must be between 0%% and 100%%, got %g%%", o->threshold * 100);
		goto out;
	}
	if (!(o->conf > 0.5 && o->conf < 1)) {
		err_set(err, ERR_USAGE, "the confidence level must be between 50%% and 100%%, got %g%%", o->conf * 100);
		goto out;
	}
	for (size_t i = 0; i < g->ncells; i++) {
		int r = analyse_cell(g, &g->cells[i], err);
		if (r < 0)
			goto out;
		g->cells[i].info = !gate_metric_judged(o, g->cells[i].metric);
		p[i] = r ? g->cells[i].s.p : NAN;
		judged += r && !g->cells[i].info;
	}
	/* Benjamini-Hochberg over the judged cells; the information cells are a family of their own, so that
	 * metrics nobody asked about cannot hold the judged ones back */
	bh_by_family(g, p, 1);
	bh_by_family(g, p, 0);
	memset(g->count, 0, sizeof(g->count));
	g->ninfo = 0;
	for (size_t i = 0; i < g->ncells; i++) {
		struct gate_cell *c = &g->cells[i];

		if (c->info)
			g->ninfo++;
		if (isnan(p[i])) {
			c->verdict = GATE_INVALID;
			if (!c->info)
				g->count[GATE_INVALID]++;
			continue;
		}
		c->q = p[i];
		if (!c->info && isfinite(c->s.lo) && isfinite(c->s.hi) &&
		    (isnan(g->conf_achieved_min) || c->s.conf < g->conf_achieved_min))
			g->conf_achieved_min = c->s.conf;
		c->verdict = gate_judge(&c->s, c->q, alpha, gate_threshold_of(o, c->metric),
					metric_info[c->metric].lower_is_better);
		if (!c->info)
			g->count[c->verdict]++;
		if (c->verdict == GATE_INCONCLUSIVE)
			explain_inconclusive(g, c, judged);
		if (c->info) { /* first in its note: this verdict is no part of the gate's */
			char *n = c->note;
			c->note = NULL;
			set_cell_note(c, xasprintf("information (not in --metric)"));
			if (n)
				set_cell_note(c, n);
		}
	}
	qsort(g->cells, g->ncells, sizeof(*g->cells), cmp_cells);
	ret = 0;
out:
	free(p);
	return ret;
}

enum gate_outcome gate_outcome(const struct gate *g)
{
	if (g->count[GATE_REGRESSION])
		return GATE_FAIL_REGRESSION;
	if (g->count[GATE_INVALID] && !g->opts.allow_invalid)
		return GATE_FAIL_INVALID;
	if (g->count[GATE_INCONCLUSIVE])
		return GATE_UNDECIDED;
	if (g->count[GATE_EQUIVALENT] + g->count[GATE_IMPROVEMENT] == 0)
		return g->count[GATE_INVALID] ? GATE_UNDECIDED : GATE_PASS; /* only allowed INVALID cells */
	return GATE_PASS;
}

const char *gate_headline(const struct gate *g)
{
	switch (gate_outcome(g)) {
	case GATE_PASS: return "PASS";
	case GATE_FAIL_REGRESSION: return "REGRESSION";
	case GATE_FAIL_INVALID: return "INVALID";
	case GATE_UNDECIDED:
		if (g->opts.on_inconclusive == GATE_INC_PASS)
			return "INCONCLUSIVE (accepted: --on-inconclusive pass)";
		if (g->opts.on_inconclusive == GATE_INC_FAIL)
			return "INCONCLUSIVE (fails: --on-inconclusive fail)";
		return "INCONCLUSIVE";
	}
	return "?";
}

int gate_cell_fails(const struct gate *g, const struct gate_cell *c)
{
	switch (c->verdict) {
	case GATE_REGRESSION: return 1;
	case GATE_INVALID: return !g->opts.allow_invalid;
	case GATE_INCONCLUSIVE: return g->opts.on_inconclusive == GATE_INC_FAIL;
	default: return 0;
	}
}
