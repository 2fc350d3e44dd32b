/*
 * table: the raw-data table and the ratio table (table.h). Runs are grouped by their label set (or the --by
 * keys), rows are workloads: one row per name and workload identity (core/identity.h), so runs of one name
 * but different configurations (a vdbench for-loop, a changed rate_iops) are separate rows, named by what
 * differs. Several runs of one row (repetitions) become one cell per figure holding the median and the
 * min-max spread. The comparison pairs the rows of every value of a --compare label (two or more; the last
 * is the baseline) by workload identity or by name, gives every value's ratio to the baseline, and lists
 * what has no counterpart instead of dropping it. Member baselines (phase=baseline) are counted, not rows.
 */
#include "report/table.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/units.h"
#include "report/strlist.h"
#include "report/load.h"
#include "report/method_labels.h"

/* Whether the identity text holds an item `key` (items are "key=value" joined by '|'). */
static int identity_has(const char *id, const char *key)
{
	size_t l = strlen(key);

	for (const char *p = id; p && *p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
		if (!strncmp(p, key, l) && p[l] == '=')
			return 1;
	return 0;
}

char *rep_match_key(const struct rep_run *r, enum rep_match how)
{
	/* A run whose identity is not fully known (no block size or split, read % or random % unknown) is
	 * matched by its name rather than merged with others. */
	if (how == REP_MATCH_NAME || (!r->bs_bytes && !identity_has(r->identity, "bssplit")) || r->read_pct < 0 ||
	    r->random_pct < 0)
		return how == REP_MATCH_NAME ? xstrdup(r->name) : xasprintf("name:%s", r->name);
	return xstrdup(r->identity);
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* P(X <= k) for X ~ Binomial(n, 1/2), summed in log space (no overflow for large n). */
static double binom_half_cdf(unsigned n, unsigned k)
{
	double p = 0;

	for (unsigned i = 0; i <= k && i <= n; i++)
		p += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
	return p;
}

/* The interval of the median of sorted s[0..k): x(j)..x(k+1-j) with the largest j whose coverage
 * 1 - 2 P(X <= j-1) is >= 95 %; j = 1 (min-max) when no j reaches it (k < 6). */
static void cell_interval(struct rep_cell *c, const double *s, unsigned k)
{
	unsigned j = 1;

	if (k < 3)
		return;
	while (j + 1 <= k / 2 && 1.0 - 2.0 * binom_half_cdf(k, j) >= 0.95)
		j++;
	c->lo = s[j - 1];
	c->hi = s[k - j];
	c->conf_pct = 100.0 * (1.0 - 2.0 * binom_half_cdf(k, j - 1));
}

void rep_cell_fill(struct rep_cell *c, const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	memset(c, 0, sizeof(*c));
	c->med = c->min = c->max = c->lo = c->hi = NAN;
	if (k) {
		qsort(s, k, sizeof(*s), dbl_cmp);
		c->n = (unsigned)k;
		c->min = s[0];
		c->max = s[k - 1];
		c->med = (k % 2) ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2.0;
		cell_interval(c, s, (unsigned)k);
	}
	free(s);
}

int rep_label_is_cfg(const char *key)
{
	return !strncmp(key, "cfg.", 4);
}

/* Whether a label is never a group key: presentation (alias.*), the method's, the configuration record's. */
static int label_not_group(const char *key)
{
	return !strncmp(key, "alias.", 6) || rep_label_is_method(key) || rep_label_is_cfg(key);
}

static int cmp_ident(const void *pa, const void *pb)
{
	return strcmp((*(const struct rep_run *const *)pa)->identity, (*(const struct rep_run *const *)pb)->identity);
}

/* Whether label `key` has one value (absent counts as one) on every run of each identity (runs sorted by it). */
static int by_identity(const struct rep_run *const *r, size_t n, const char *key)
{
	for (size_t i = 1; i < n; i++) {
		const char *a = kvlist_get(&r[i - 1]->labels, key, NULL), *b = kvlist_get(&r[i]->labels, key, NULL);
		if (!strcmp(r[i - 1]->identity, r[i]->identity) && (!a != !b || (a && strcmp(a, b))))
			return 0;
	}
	return 1;
}

/*
 * The labels that only name the workload: on the done/partial runs of `set`, a label that differs between runs
 * but has one value (or is absent) on every run of one workload identity, like vdbench.rd and vdbench.wd, which
 * only the vdbench workloads of a study carry. When the runs of one workload differ in some other label (the
 * situations compared: config, stack, transport), such a label tells workloads apart, not situations: it is no
 * group key (rows tell workloads apart). When no label differs within a workload, nothing tells which labels
 * name the situation, so none is taken for a workload's name. Into `out` (keys; values unused).
 */
static void naming_labels(const struct rep_set *set, struct kvlist *out)
{
	const struct rep_run **r = xcalloc(set->n + 1, sizeof(*r));
	struct kvlist keys, naming;
	size_t n = 0;
	int situations = 0;

	kvlist_init(&keys);
	kvlist_init(&naming);
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->v[i].status, "done") && strcmp(set->v[i].status, "partial"))
			continue;
		r[n++] = &set->v[i];
		for (size_t k = 0; k < set->v[i].labels.n; k++)
			if (!label_not_group(set->v[i].labels.v[k].key) && !kvlist_find(&keys, set->v[i].labels.v[k].key))
				kvlist_add(&keys, set->v[i].labels.v[k].key, NULL);
	}
	qsort(r, n, sizeof(*r), cmp_ident);
	for (size_t k = 0; k < keys.n; k++) {
		const char *key = keys.v[k].key, *v0 = n ? kvlist_get(&r[0]->labels, key, NULL) : NULL;
		int varies = 0;
		for (size_t i = 1; i < n && !varies; i++) {
			const char *v = kvlist_get(&r[i]->labels, key, NULL);
			varies = !v0 != !v || (v && strcmp(v, v0));
		}
		if (!by_identity(r, n, key))
			situations = 1;
		else if (varies)
			kvlist_add(&naming, key, NULL);
	}
	if (situations)
		kvlist_copy(out, &naming);
	kvlist_release(&keys);
	kvlist_release(&naming);
	free(r);
}

/* The group keys of a run: the --by keys with their values ("-" when the run lacks one), or all labels
 * except `skip`, the compared-away labels `away` and those never a group key (label_not_group). */
static void group_keys(struct kvlist *keys, const struct rep_run *r, const struct kvlist *by, const char *skip,
		       const struct kvlist *away)
{
	if (by && by->n) {
		for (size_t i = 0; i < by->n; i++) {
			char buf[64];
			const char *v = rep_run_value(r, by->v[i].key, buf, sizeof(buf));
			kvlist_add(keys, by->v[i].key, v ? v : "-");
		}
		return;
	}
	for (size_t i = 0; i < r->labels.n; i++)
		if ((!skip || strcmp(r->labels.v[i].key, skip)) && !label_not_group(r->labels.v[i].key) &&
		    !(away && kvlist_find(away, r->labels.v[i].key)))
			kvlist_add(keys, r->labels.v[i].key, r->labels.v[i].value ? r->labels.v[i].value : "");
}

/* With --by: the labels of r outside the --by keys that would be folded (not `skip`, not label_not_group);
 * rows of runs whose lists differ are split (never one figure of different configurations). */
static void split_labels(struct kvlist *out, const struct rep_run *r, const struct kvlist *by, const char *skip)
{
	for (size_t i = 0; by && by->n && i < r->labels.n; i++) {
		const char *k = r->labels.v[i].key;
		if ((!skip || strcmp(k, skip)) && !label_not_group(k) && !kvlist_find(by, k))
			kvlist_add(out, k, r->labels.v[i].value ? r->labels.v[i].value : "");
	}
}

static int keys_equal(const struct kvlist *a, const struct kvlist *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].key, b->v[i].key) || strcmp(a->v[i].value, b->v[i].value))
			return 0;
	return 1;
}

static char *keys_title(const struct kvlist *keys)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < keys->n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", keys->v[i].key, keys->v[i].value);
	if (!keys->n)
		strbuf_adds(&sb, "(no labels)");
	return strbuf_detach(&sb, NULL);
}

static struct rep_group *find_group(struct rep_table *t, const struct kvlist *keys)
{
	struct rep_group *g;

	for (size_t i = 0; i < t->n; i++)
		if (keys_equal(&t->v[i].keys, keys))
			return &t->v[i];
	g = ARRAY_PUSH_ZEROED(t->v, t->cap, t->n);
	kvlist_init(&g->keys);
	kvlist_copy(&g->keys, keys);
	g->title = keys_title(keys);
	return g;
}

/* Adds to t->split the keys whose values differ between the lists a and b (a key one lacks counts). */
static void note_split(struct rep_table *t, const struct kvlist *a, const struct kvlist *b)
{
	for (int pass = 0; pass < 2; pass++) {
		const struct kvlist *x = pass ? b : a, *y = pass ? a : b;
		for (size_t i = 0; i < x->n; i++) {
			const char *v = kvlist_get(y, x->v[i].key, NULL);
			if ((!v || strcmp(v, x->v[i].value)) && !kvlist_find(&t->split, x->v[i].key))
				kvlist_add(&t->split, x->v[i].key, NULL);
		}
	}
}

/* The row of a run in its group: one per name and identity, so that runs of one name but different
 * workloads are never folded into one median (label_rows tells them apart), and with --by one per value of
 * the labels outside the --by keys (split_labels). */
static struct rep_row *find_row(struct rep_table *t, struct rep_group *g, const struct rep_run *r,
				const struct kvlist *by, const char *skip)
{
	struct kvlist mine;
	struct rep_row *row = NULL;

	kvlist_init(&mine);
	split_labels(&mine, r, by, skip);
	for (size_t i = 0; i < g->n && !row; i++) {
		struct kvlist theirs;
		if (!rep_run_is_workload(r, g->rows[i].name, g->rows[i].runs[0]->identity))
			continue;
		kvlist_init(&theirs);
		split_labels(&theirs, g->rows[i].runs[0], by, skip);
		if (keys_equal(&mine, &theirs))
			row = &g->rows[i];
		else
			note_split(t, &mine, &theirs);
		kvlist_release(&theirs);
	}
	kvlist_release(&mine);
	if (row)
		return row;
	row = ARRAY_PUSH_ZEROED(g->rows, g->cap, g->n);
	row->name = xstrdup(rep_run_workload_name(r));
	row->match = xstrdup(rep_run_workload_name(r));
	return row;
}

/* The items of an identity text ("k=v|k=v") as a list. */
static void identity_items(const char *id, struct kvlist *out)
{
	const char *p = id;

	while (p && *p) {
		size_t l = strcspn(p, "|");
		char *item = xstrndup(p, l), *eq = strchr(item, '=');
		if (eq) {
			*eq = '\0';
			kvlist_add(out, item, eq + 1);
		}
		free(item);
		p += l;
		if (*p == '|')
			p++;
	}
}

static int kv_key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* Names rows that share a workload name but not the identity: "NAME (rate_iops=15000 iodepth=8)" with the
 * items that differ between them ("key=-" when a row lacks one). */
/* Adds the labels of r whose keys are in `split` (may be NULL) to out ("-" when r lacks one). */
static void split_items(struct kvlist *out, const struct rep_run *r, const struct kvlist *split)
{
	for (size_t i = 0; split && i < split->n; i++)
		if (!kvlist_find(out, split->v[i].key))
			kvlist_add(out, split->v[i].key, kvlist_get(&r->labels, split->v[i].key, "-"));
}

static void label_group(struct rep_group *g, const struct kvlist *split)
{
	for (size_t i = 0; i < g->n; i++) {
		struct rep_row *row = &g->rows[i];
		struct kvlist mine, diff;
		struct strbuf sb;
		int shared = 0;

		kvlist_init(&mine);
		kvlist_init(&diff);
		identity_items(row->runs[0]->identity, &mine);
		split_items(&mine, row->runs[0], split);
		for (size_t j = 0; j < g->n; j++) {
			struct kvlist other;
			if (j == i || strcmp(g->rows[j].runs[0]->name, row->runs[0]->name))
				continue;
			shared = 1;
			kvlist_init(&other);
			identity_items(g->rows[j].runs[0]->identity, &other);
			split_items(&other, g->rows[j].runs[0], split);
			for (size_t k = 0; k < mine.n; k++) {
				const char *v = kvlist_get(&other, mine.v[k].key, NULL);
				if ((!v || strcmp(v, mine.v[k].value)) && !kvlist_find(&diff, mine.v[k].key))
					kvlist_add(&diff, mine.v[k].key, mine.v[k].value);
			}
			for (size_t k = 0; k < other.n; k++)
				if (!kvlist_find(&mine, other.v[k].key) && !kvlist_find(&diff, other.v[k].key))
					kvlist_add(&diff, other.v[k].key, "-");
			kvlist_release(&other);
		}
		if (shared) {
			qsort(diff.v, diff.n, sizeof(*diff.v), kv_key_cmp);
			strbuf_init(&sb);
			strbuf_addf(&sb, "%s (", row->runs[0]->name);
			for (size_t k = 0; k < diff.n; k++)
				strbuf_addf(&sb, "%s%s=%s", k ? " " : "", diff.v[k].key, diff.v[k].value);
			strbuf_adds(&sb, ")");
			free(row->name);
			row->name = strbuf_detach(&sb, NULL);
			free(row->match);
			row->match = xstrdup(row->name);
		}
		kvlist_release(&mine);
		kvlist_release(&diff);
	}
}

/* Names the rows of one name (label_group); a comparison's sides are not split by labels (split 0). */
static void label_rows(struct rep_table *t, int split)
{
	for (size_t gi = 0; gi < t->n; gi++)
		label_group(&t->v[gi], split ? &t->split : NULL);
}

static void finish_rows(struct rep_table *t)
{
	for (size_t gi = 0; gi < t->n; gi++) {
		struct rep_group *g = &t->v[gi];
		for (size_t ri = 0; ri < g->n; ri++) {
			struct rep_row *row = &g->rows[ri];
			double *v = xmalloc((row->nruns ? row->nruns : 1) * sizeof(*v));
			for (int m = 0; m < RM_NR; m++) {
				for (size_t k = 0; k < row->nruns; k++)
					v[k] = row->runs[k]->m[m];
				rep_cell_fill(&row->c[m], v, row->nruns);
			}
			free(v);
			row->single = row->nruns == 1;
			for (size_t k = 0; k < row->nruns; k++) {
				const struct rep_run *r = row->runs[k];
				double s = r->fig.runtime_ms > 0 ? r->fig.runtime_ms / 1000.0 : (double)r->runtime_s;
				if (s > 0 && s < REP_MIN_RUNTIME_S)
					row->short_run = 1;
			}
		}
	}
}

static int run_counted(const struct rep_run *r)
{
	return !strcmp(r->status, "done") || !strcmp(r->status, "partial");
}

size_t rep_baseline_left(const struct rep_set *set)
{
	size_t base = 0, other = 0;

	for (size_t i = 0; i < set->n; i++)
		if (run_counted(&set->v[i]))
			rep_run_is_baseline(&set->v[i]) ? base++ : other++;
	return other ? base : 0;
}

void rep_baseline_note(struct strbuf *sb, size_t n)
{
	if (n)
		strbuf_addf(sb, "%zu baseline run%s left out: bench report --where phase=baseline", n,
			    n == 1 ? "" : "s");
}

/* Adds the done/partial runs of `set` whose label or field pick_key is pick_value (pick_key NULL: all) to
 * t, one row per workload name, leaving out the baselines when t->baseline is set (rep_baseline_left);
 * `away` (may be NULL) are not group keys; `split`: rows split by the labels outside the --by keys (a raw
 * table; a comparison's sides are grouped by every other label instead). */
static void table_add(struct rep_table *t, const struct rep_set *set, const struct kvlist *by, const char *skip,
		      const char *pick_key, const char *pick_value, const struct kvlist *away, int split)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		struct kvlist keys;
		struct rep_group *g;
		struct rep_row *row;
		size_t cap;

		if (!run_counted(r) || (t->baseline && rep_run_is_baseline(r)))
			continue;
		if (pick_key) {
			char buf[64];
			const char *v = rep_run_value(r, pick_key, buf, sizeof(buf));
			if (!v || strcmp(v, pick_value))
				continue;
		}
		kvlist_init(&keys);
		group_keys(&keys, r, by, skip, away);
		g = find_group(t, &keys);
		kvlist_release(&keys);
		row = find_row(t, g, r, split ? by : NULL, skip);
		cap = row->nruns;
		ARRAY_GROW(row->runs, cap, row->nruns + 1);
		row->runs[row->nruns++] = r;
		if (!strcmp(r->status, "partial"))
			row->partial = 1;
	}
}

void rep_table_build(struct rep_table *t, const struct rep_set *set, const struct kvlist *by)
{
	struct kvlist naming;

	memset(t, 0, sizeof(*t));
	kvlist_init(&t->by);
	kvlist_init(&t->split);
	if (by)
		kvlist_copy(&t->by, by);
	t->baseline = rep_baseline_left(set);
	kvlist_init(&naming);
	naming_labels(set, &naming);
	table_add(t, set, by, NULL, NULL, NULL, &naming, 1);
	kvlist_release(&naming);
	label_rows(t, 1);
	finish_rows(t);
}

static const size_t rep_row_ptrs[] = { offsetof(struct rep_row, name), offsetof(struct rep_row, match),
					offsetof(struct rep_row, runs) };

static void rep_group_release(struct rep_group *g)
{
	array_free_members(g->rows, g->n, sizeof(*g->rows), rep_row_ptrs, sizeof(rep_row_ptrs) / sizeof(rep_row_ptrs[0]));
	free(g->title);
	kvlist_release(&g->keys);
}

void rep_table_release(struct rep_table *t)
{
	if (!t)
		return;
	ARRAY_RELEASE(t->v, t->n, rep_group_release);
	kvlist_release(&t->by);
	kvlist_release(&t->split);
	memset(t, 0, sizeof(*t));
}

/* ---- ratio table ------------------------------------------------------------------------------- */

int cmp_parse(const char *arg, char **key, char **a, char **b, struct errbuf *err)
{
	char **vals = NULL;
	size_t n = 0;

	if (cmp_parse_n(arg, key, &vals, &n, err) < 0 || n != 2) {
		if (n) {
			free(*key);
			for (size_t i = 0; i < n; i++)
				free(vals[i]);
		}
		free(vals);
		return err_set(err, ERR_USAGE, "--compare wants key=A:B (B is the baseline), e.g. "
				   "transport=nvmeof:iser, got '%s'", arg);
	}
	*a = vals[0];
	*b = vals[1];
	free(vals);
	return 0;
}

int cmp_parse_n(const char *arg, char **key, char ***vals, size_t *nvals, struct errbuf *err)
{
	char *k = NULL, *v = NULL, *colon = NULL;
	char **out = NULL;
	size_t n = 0, cap = 0;
	int ok;

	*nvals = 0;
	*vals = NULL;
	ok = kv_parse_label(arg, &k, &v) == 0 && (colon = strchr(v, ':')) && colon != v && colon[-1] != ',' &&
	     colon[1] && !strchr(colon + 1, ':') && !strchr(colon + 1, ',');
	for (const char *p = v; ok && p < colon;) {
		size_t l = strcspn(p, ",:");
		ok = l > 0;
		if (ok) {
			ARRAY_GROW(out, cap, n + 2);
			out[n++] = xstrndup(p, l);
		}
		p += l;
		if (*p == ',')
			p++;
	}
	if (ok) {
		out[n++] = xstrdup(colon + 1);
		for (size_t i = 0; ok && i < n; i++)
			for (size_t j = i + 1; ok && j < n; j++)
				ok = strcmp(out[i], out[j]) != 0;
	}
	free(v);
	if (!ok) {
		free(k);
		for (size_t i = 0; i < n; i++)
			free(out[i]);
		free(out);
		return err_set(err, ERR_USAGE, "--compare wants key=A:B or key=A,A2,...:B, each value once (B, after "
				   "the colon, is the baseline), e.g. transport=nvmeof,nvmeof-tcp:iser, got '%s'", arg);
	}
	*key = k;
	*vals = out;
	*nvals = n;
	return 0;
}

/* Rows of a side re-keyed by the match key (identity or name): runs of one key in a group become one row. */
static void rekey(struct rep_table *t, enum rep_match how, const struct kvlist *map)
{
	for (size_t gi = 0; gi < t->n; gi++) {
		struct rep_group *g = &t->v[gi];
		size_t out = 0;

		for (size_t ri = 0; ri < g->n; ri++) {
			/* by name: the row's label, which tells apart the workloads of one name */
			char *m = how == REP_MATCH_NAME ? xstrdup(g->rows[ri].name) : rep_match_key(g->rows[ri].runs[0], how);
			const char *mapped = how == REP_MATCH_NAME && map ? kvlist_get(map, m, NULL) : NULL;

			if (mapped) {
				free(m);
				m = xstrdup(mapped);
			}
			size_t j;

			for (j = 0; j < out; j++)
				if (!strcmp(g->rows[j].match, m))
					break;
			if (j < out) {
				/* Another name with the same identity: its runs join that row. */
				struct rep_row *dst = &g->rows[j], *src = &g->rows[ri];
				size_t cap = dst->nruns;
				ARRAY_GROW(dst->runs, cap, dst->nruns + src->nruns);
				memcpy(dst->runs + dst->nruns, src->runs, src->nruns * sizeof(*src->runs));
				dst->nruns += src->nruns;
				dst->partial |= src->partial;
				free(src->name);
				free(src->match);
				free(src->runs);
				free(m);
				continue;
			}
			if (out != ri)
				g->rows[out] = g->rows[ri];
			free(g->rows[out].match);
			g->rows[out].match = m;
			out++;
		}
		g->n = out;
	}
}

/* Whether the ratio x/y is within noise: 1 when lo(x)/hi(y) <= 1 <= hi(x)/lo(y), 0 when not, -1 when a side
 * has no interval (n < 3) or a bound is 0. */
static int ratio_noise(const struct rep_cell *x, const struct rep_cell *y)
{
	if (!x || !y || x->n < 3 || y->n < 3 || !(y->lo > 0) || !(y->hi > 0))
		return -1;
	return x->lo / y->hi <= 1.0 && x->hi / y->lo >= 1.0;
}

/* A row of the comparison from the rows of each value (at[i] NULL: value i has none). */
static void cmp_add_row(struct cmp_table *t, struct cmp_group *g, const struct rep_row **at)
{
	const struct rep_row *base = at[t->nvals - 1], *first = NULL;
	struct cmp_row *row;

	for (size_t i = 0; i < t->nvals && !first; i++)
		first = at[i];
	row = ARRAY_PUSH_ZEROED(g->rows, g->cap, g->n);
	row->at = xcalloc(t->nvals, sizeof(*row->at));
	row->ratios = xcalloc(t->nvals, sizeof(*row->ratios));
	row->noise = xcalloc(t->nvals, sizeof(*row->noise));
	memcpy(row->at, at, t->nvals * sizeof(*at));
	row->a = at[0];
	row->b = base;
	row->workload = xstrdup(first->name);
	row->match = xstrdup(first->match);
	for (size_t i = 0; i < t->nvals; i++) {
		row->present += at[i] != NULL;
		for (int m = 0; m < RM_NR; m++) {
			double x = at[i] && at[i]->c[m].n ? at[i]->c[m].med : NAN;
			double y = base && base->c[m].n ? base->c[m].med : NAN;
			row->ratios[i][m] = (isnan(x) || isnan(y) || y == 0) ? NAN : x / y;
			row->noise[i][m] = ratio_noise(at[i] ? &at[i]->c[m] : NULL, base ? &base->c[m] : NULL);
		}
	}
	memcpy(row->ratio, row->ratios[0], sizeof(row->ratio));
	if (row->present == t->nvals)
		t->matched++;
	else if (!base)
		t->unmatched_a++;
	else if (row->present == 1)
		t->unmatched_b++;
	if (row->present != t->nvals)
		t->unmatched++;
}

static struct cmp_group *cmp_group_for(struct cmp_table *t, const struct rep_group *src)
{
	struct cmp_group *g;

	for (size_t i = 0; i < t->n; i++)
		if (keys_equal(&t->v[i].keys, &src->keys))
			return &t->v[i];
	g = ARRAY_PUSH_ZEROED(t->v, t->cap, t->n);
	kvlist_init(&g->keys);
	kvlist_copy(&g->keys, &src->keys);
	g->title = xstrdup(src->title);
	return g;
}

static const struct rep_group *table_group(const struct rep_table *t, const struct kvlist *keys)
{
	for (size_t i = 0; i < t->n; i++)
		if (keys_equal(&t->v[i].keys, keys))
			return &t->v[i];
	return NULL;
}

static const struct rep_row *group_row(const struct rep_group *g, const char *match)
{
	for (size_t k = 0; g && k < g->n; k++)
		if (!strcmp(g->rows[k].match, match))
			return &g->rows[k];
	return NULL;
}

/* The index of the compared value run r has (its label or field `key`), or -1. */
static int side_of(const struct rep_run *r, const char *key, char *const *vals, size_t nvals)
{
	char buf[64];
	const char *v;

	if (strcmp(r->status, "done") && strcmp(r->status, "partial"))
		return -1;
	v = rep_run_value(r, key, buf, sizeof(buf));
	for (size_t i = 0; v && i < nvals; i++)
		if (!strcmp(v, vals[i]))
			return (int)i;
	return -1;
}

/* Whether label `lk`'s values (absent: "") on the runs of value a and on those of value b never meet
 * (side[i]: the value index of run i, or -1). */
static int values_apart(const struct rep_set *set, const int *side, const char *lk, int a, int b)
{
	for (size_t i = 0; i < set->n; i++) {
		const char *vi;
		if (side[i] != a)
			continue;
		vi = kvlist_get(&set->v[i].labels, lk, "");
		for (size_t j = 0; j < set->n; j++)
			if (side[j] == b && !strcmp(vi, kvlist_get(&set->v[j].labels, lk, "")))
				return 0;
	}
	return 1;
}

/* Whether no run of compared value `s` carries label lk at all. */
static int side_lacks(const struct rep_set *set, const int *side, const char *lk, int s)
{
	for (size_t i = 0; i < set->n; i++)
		if (side[i] == s && kvlist_find(&set->v[i].labels, lk))
			return 0;
	return 1;
}

/* The labels on the compared side (cmp_table.away): every label (not `key`, not label_not_group) whose
 * values never occur on two compared values: it changes with the key, so it can never be matched; and every
 * label some compared value's runs never carry (vdbench.rd of a study's vdbench runs against a published CSV
 * that has no such label): its groups could never be matched on that value's side. */
static void compared_away(struct cmp_table *t, const struct rep_set *set, const char *key)
{
	int *side = xcalloc(set->n ? set->n : 1, sizeof(*side));
	struct kvlist seen;

	kvlist_init(&t->away);
	kvlist_init(&seen);
	for (size_t i = 0; i < set->n; i++)
		side[i] = side_of(&set->v[i], key, t->vals, t->nvals);
	for (size_t i = 0; i < set->n; i++) {
		if (side[i] < 0)
			continue;
		for (size_t k = 0; k < set->v[i].labels.n; k++) {
			const char *lk = set->v[i].labels.v[k].key;
			int apart = 1;
			if (!strcmp(lk, key) || label_not_group(lk) || kvlist_find(&seen, lk))
				continue;
			kvlist_add(&seen, lk, NULL);
			for (size_t a = 0; apart && a < t->nvals; a++)
				for (size_t b = a + 1; apart && b < t->nvals; b++)
					apart = values_apart(set, side, lk, (int)a, (int)b);
			for (size_t a = 0; !apart && a < t->nvals; a++)
				apart = side_lacks(set, side, lk, (int)a);
			if (apart)
				kvlist_add(&t->away, lk, NULL);
		}
	}
	kvlist_release(&seen);
	free(side);
}

/* The cfg.* facts of each compared value's runs (cmp_table.cfg): "(several)" when its runs differ. */
static void cfg_facts(struct cmp_table *t, const struct rep_set *set, const char *key)
{
	t->cfg = xcalloc(t->nvals, sizeof(*t->cfg));
	for (size_t s = 0; s < t->nvals; s++)
		kvlist_init(&t->cfg[s]);
	for (size_t i = 0; i < set->n; i++) {
		int s = side_of(&set->v[i], key, t->vals, t->nvals);
		for (size_t k = 0; s >= 0 && k < set->v[i].labels.n; k++) {
			const struct kv *l = &set->v[i].labels.v[k];
			const char *have = kvlist_get(&t->cfg[s], l->key, NULL);
			if (!rep_label_is_cfg(l->key))
				continue;
			if (!have)
				kvlist_add(&t->cfg[s], l->key, l->value ? l->value : "");
			else if (strcmp(have, l->value ? l->value : ""))
				kvlist_set(&t->cfg[s], l->key, "(several)");
		}
	}
}

/* t->baseline: the baselines left out (rep_baseline_left) whose compared key has one of the values. */
static void baseline_count(struct cmp_table *t, const struct rep_set *set)
{
	if (!rep_baseline_left(set))
		return;
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		char buf[64];
		const char *v = rep_run_value(r, t->key, buf, sizeof(buf));

		for (size_t s = 0; v && run_counted(r) && rep_run_is_baseline(r) && s < t->nvals; s++)
			if (!strcmp(v, t->vals[s])) {
				t->baseline++;
				break;
			}
	}
}

int cmp_build(struct cmp_table *t, const struct rep_set *set, const char *key, const char *a, const char *b,
	      const struct kvlist *by, enum rep_match match, struct errbuf *err)
{
	char *vals[2] = { (char *)a, (char *)b };

	return cmp_build_n(t, set, key, vals, 2, by, match, err);
}

int cmp_build_n(struct cmp_table *t, const struct rep_set *set, const char *key, char *const *vals, size_t nvals,
		const struct kvlist *by, enum rep_match match, struct errbuf *err)
{
	return cmp_build_map(t, set, key, vals, nvals, by, match, NULL, err);
}

int cmp_map_parse(const char *text, const char *path, struct kvlist *map, struct errbuf *err)
{
	unsigned line = 0;

	for (const char *p = text; p && *p;) {
		size_t l = strcspn(p, "\n");
		char *ln = xstrndup(p, l), *eq, *a, *b;

		line++;
		p += l + (p[l] == '\n');
		a = ln + strspn(ln, " \t\r");
		if (!*a || *a == '#') {
			free(ln);
			continue;
		}
		eq = strstr(a, " = ");
		if (!eq) {
			free(ln);
			return err_set(err, ERR_INPUT, "%s:%u: want 'NAME = NAME' (a workload name of each side)", path, line);
		}
		*eq = '\0';
		b = eq + 3;
		b[strcspn(b, "\r")] = '\0';
		for (char *e = a + strlen(a); e > a && (e[-1] == ' ' || e[-1] == '\t'); )
			*--e = '\0';
		for (char *e = b + strlen(b); e > b && (e[-1] == ' ' || e[-1] == '\t'); )
			*--e = '\0';
		b += strspn(b, " \t");
		if (!*a || !*b || kvlist_find(map, a) || kvlist_find(map, b)) {
			int dup = *a && *b;
			err_set(err, ERR_INPUT, dup ? "%s:%u: '%s' is paired twice" : "%s:%u: want 'NAME = NAME' (a workload "
				"name of each side)", path, line, kvlist_find(map, a) ? a : b);
			free(ln);
			return -1;
		}
		kvlist_add(map, a, a);
		if (strcmp(a, b))
			kvlist_add(map, b, a);
		free(ln);
	}
	return 0;
}

int cmp_build_map(struct cmp_table *t, const struct rep_set *set, const char *key, char *const *vals, size_t nvals,
		  const struct kvlist *by, enum rep_match match, const struct kvlist *map, struct errbuf *err)
{
	struct kvlist by_eff, not_keys;
	const struct rep_row **at;

	memset(t, 0, sizeof(*t));
	t->key = xstrdup(key);
	t->nvals = nvals;
	t->vals = xcalloc(nvals, sizeof(*t->vals));
	for (size_t i = 0; i < nvals; i++)
		t->vals[i] = xstrdup(vals[i]);
	t->a = xstrdup(vals[0]);
	t->b = xstrdup(vals[nvals - 1]);
	t->match = match;
	t->sides = xcalloc(nvals, sizeof(*t->sides));
	kvlist_init(&by_eff);
	/* Grouping by the compared key itself would put the sides in different groups: leave it out. */
	for (size_t i = 0; by && i < by->n; i++)
		if (strcmp(by->v[i].key, key))
			kvlist_add(&by_eff, by->v[i].key, by->v[i].value);
	compared_away(t, set, key);
	cfg_facts(t, set, key);
	baseline_count(t, set);
	kvlist_init(&not_keys); /* no group keys: the labels compared away and those that only name the workload */
	kvlist_copy(&not_keys, &t->away);
	naming_labels(set, &not_keys);
	for (size_t s = 0; s < nvals; s++) {
		kvlist_init(&t->sides[s].by);
		kvlist_init(&t->sides[s].split);
		kvlist_copy(&t->sides[s].by, &by_eff);
		t->sides[s].baseline = t->baseline ? 1 : 0; /* a flag here: the count is the comparison's */
		table_add(&t->sides[s], set, &by_eff, key, key, vals[s], &not_keys, 0);
		label_rows(&t->sides[s], 0);
		rekey(&t->sides[s], match, map);
		finish_rows(&t->sides[s]);
	}
	kvlist_release(&by_eff);
	kvlist_release(&not_keys);
	for (size_t s = 0; s < nvals; s++)
		if (!t->sides[s].n)
			return err_set(err, ERR_INPUT, "--compare %s: no done runs with %s=%s in the selection", key,
				       key, vals[s]);

	/* Groups in order of first appearance on any side; rows in the first value's order, then the rows
	 * of the next values that no earlier value has. */
	at = xcalloc(nvals, sizeof(*at));
	for (size_t s = 0; s < nvals; s++) {
		for (size_t gi = 0; gi < t->sides[s].n; gi++) {
			const struct rep_group *src = &t->sides[s].v[gi];
			struct cmp_group *g = cmp_group_for(t, src);

			for (size_t ri = 0; ri < src->n; ri++) {
				const struct rep_row *row = &src->rows[ri];
				int earlier = 0;

				for (size_t o = 0; o < nvals; o++) {
					at[o] = o == s ? row : group_row(table_group(&t->sides[o], &src->keys), row->match);
					earlier |= o < s && at[o];
				}
				if (!earlier)
					cmp_add_row(t, g, at);
			}
		}
	}
	free(at);
	return 0;
}

/* Whether some group of side s has the value v for group key k. */
static int side_has(const struct rep_table *side, const char *k, const char *v)
{
	for (size_t g = 0; g < side->n; g++) {
		const char *x = kvlist_get(&side->v[g].keys, k, NULL);
		if (x && !strcmp(x, v))
			return 1;
	}
	return 0;
}

/* The values of group key k on a side, "a, b" (into sb). */
static void side_values(struct strbuf *sb, const struct rep_table *side, const char *k)
{
	struct kvlist vals;

	kvlist_init(&vals);
	for (size_t g = 0; g < side->n; g++) {
		const char *x = kvlist_get(&side->v[g].keys, k, "-");
		if (!kvlist_find(&vals, x)) {
			strbuf_addf(sb, "%s%s", vals.n ? "," : "", x);
			kvlist_add(&vals, x, NULL);
		}
	}
	kvlist_release(&vals);
}

int cmp_check_matched(const struct cmp_table *t, const char *base_cmd, struct errbuf *err)
{
	const struct rep_table *a = &t->sides[0], *b = &t->sides[t->nvals - 1];
	struct kvlist apart, keep;
	struct strbuf why, by;
	int rc;

	if (t->matched || !a->n || !b->n)
		return 0;
	kvlist_init(&apart);
	kvlist_init(&keep);
	/* a group key keeps the sides apart when no value of A's groups occurs among B's */
	for (size_t g = 0; g < a->n; g++)
		for (size_t k = 0; k < a->v[g].keys.n; k++) {
			const struct kv *x = &a->v[g].keys.v[k];
			if (kvlist_find(&apart, x->key) || kvlist_find(&keep, x->key))
				continue;
			int met = 0;
			for (size_t h = 0; h < a->n && !met; h++) {
				const char *v = kvlist_get(&a->v[h].keys, x->key, NULL);
				met = v && side_has(b, x->key, v);
			}
			kvlist_add(met ? &keep : &apart, x->key, NULL);
		}
	strbuf_init(&why);
	strbuf_init(&by);
	for (size_t i = 0; i < apart.n; i++) {
		strbuf_addf(&why, "%s'%s' (%s=", i ? ", " : "", apart.v[i].key, t->a);
		side_values(&why, a, apart.v[i].key);
		strbuf_addf(&why, "; %s=", t->b);
		side_values(&why, b, apart.v[i].key);
		strbuf_adds(&why, ")");
	}
	for (size_t i = 0; i < keep.n; i++)
		strbuf_addf(&by, "%s%s", i ? "," : "", keep.v[i].key);
	if (apart.n)
		rc = err_set(err, ERR_INPUT, "--compare %s=%s:%s matched no workload on both sides: the label%s %s "
			     "kept them apart; to compare across %s: %s --by %s", t->key, t->a, t->b,
			     apart.n > 1 ? "s" : "", why.buf, apart.n > 1 ? "them" : "it", base_cmd,
			     by.len ? by.buf : "tool");
	else
		rc = err_set(err, ERR_INPUT, "--compare %s=%s:%s matched no workload on both sides: no workload of %s "
			     "has the %s of one of %s; to match by name: %s --match name", t->key, t->a, t->b, t->a,
			     t->match == REP_MATCH_NAME ? "name" : "identity (every option that changes the load)",
			     t->b, base_cmd);
	strbuf_release(&why);
	strbuf_release(&by);
	kvlist_release(&apart);
	kvlist_release(&keep);
	return rc;
}

static const size_t cmp_row_ptrs[] = { offsetof(struct cmp_row, workload), offsetof(struct cmp_row, match),
					offsetof(struct cmp_row, at), offsetof(struct cmp_row, ratios),
					offsetof(struct cmp_row, noise) };

static void cmp_group_release(struct cmp_group *g)
{
	array_free_members(g->rows, g->n, sizeof(*g->rows), cmp_row_ptrs, sizeof(cmp_row_ptrs) / sizeof(cmp_row_ptrs[0]));
	free(g->title);
	kvlist_release(&g->keys);
}

void cmp_release(struct cmp_table *t)
{
	size_t nsides, nvals, ncfg;

	if (!t)
		return;
	nsides = t->sides ? t->nvals : 0;
	ncfg = t->cfg ? t->nvals : 0;
	nvals = t->vals ? t->nvals : 0;
	ARRAY_RELEASE(t->v, t->n, cmp_group_release);
	ARRAY_RELEASE(t->sides, nsides, rep_table_release);
	ARRAY_RELEASE(t->vals, nvals, strlist_free_str);
	ARRAY_RELEASE(t->cfg, ncfg, kvlist_release);
	kvlist_release(&t->away);
	free(t->key);
	free(t->a);
	free(t->b);
	memset(t, 0, sizeof(*t));
}

const char *cmp_class(enum rep_metric m, double ratio, int *level)
{
	double mag;
	int good;

	*level = 0;
	if (isnan(ratio) || ratio <= 0)
		return "";
	good = rep_metrics[m].higher_better ? ratio >= 1.0 : ratio <= 1.0;
	mag = fabs(log(ratio));
	/* 0: within 5 %, 1: within 25 %, 2: within 2x, 3: beyond */
	*level = mag < log(1.05) ? 0 : mag < log(1.25) ? 1 : mag < log(2.0) ? 2 : 3;
	return good ? "good" : "bad";
}
