/*
 * table: the raw-data table and the ratio table (table.h). Runs are grouped by their label set (or the --by
 * keys), rows are workloads: one row per name and workload identity (core/identity.h), so runs of one name
 * but different configurations (a vdbench for-loop, a changed rate_iops) are separate rows, named by what
 * differs. Several runs of one row (repetitions) become one cell per figure holding the median and the
 * min-max spread. The comparison pairs the rows of every value of a --compare label (two or more; the last
 * is the baseline) by workload identity or by name, gives every value's ratio to the baseline, and lists
 * what has no counterpart instead of dropping it.
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

void rep_cell_fill(struct rep_cell *c, const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	memset(c, 0, sizeof(*c));
	c->med = c->min = c->max = NAN;
	if (k) {
		qsort(s, k, sizeof(*s), dbl_cmp);
		c->n = (unsigned)k;
		c->min = s[0];
		c->max = s[k - 1];
		c->med = (k % 2) ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2.0;
	}
	free(s);
}

/* The group keys of a run: the --by keys with their values ("-" when the run lacks one), or all labels
 * except `skip`, presentation (alias.*) and method labels (rep_label_is_method). */
static void group_keys(struct kvlist *keys, const struct rep_run *r, const struct kvlist *by, const char *skip)
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
		if ((!skip || strcmp(r->labels.v[i].key, skip)) && strncmp(r->labels.v[i].key, "alias.", 6) &&
		    !rep_label_is_method(r->labels.v[i].key))
			kvlist_add(keys, r->labels.v[i].key, r->labels.v[i].value ? r->labels.v[i].value : "");
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

/* The row of a run in its group: one per name and identity, so that runs of one name but different
 * workloads are never folded into one median (label_rows tells them apart). */
static struct rep_row *find_row(struct rep_group *g, const struct rep_run *r)
{
	struct rep_row *row;

	for (size_t i = 0; i < g->n; i++)
		if (rep_run_is_workload(r, g->rows[i].name, g->rows[i].runs[0]->identity))
			return &g->rows[i];
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
static void label_group(struct rep_group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct rep_row *row = &g->rows[i];
		struct kvlist mine, diff;
		struct strbuf sb;
		int shared = 0;

		kvlist_init(&mine);
		kvlist_init(&diff);
		identity_items(row->runs[0]->identity, &mine);
		for (size_t j = 0; j < g->n; j++) {
			struct kvlist other;
			if (j == i || strcmp(g->rows[j].runs[0]->name, row->runs[0]->name))
				continue;
			shared = 1;
			kvlist_init(&other);
			identity_items(g->rows[j].runs[0]->identity, &other);
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

static void label_rows(struct rep_table *t)
{
	for (size_t gi = 0; gi < t->n; gi++)
		label_group(&t->v[gi]);
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
		}
	}
}

/* Adds the done/partial runs of `set` whose label pick_key is pick_value (pick_key NULL: all) to t, one row
 * per workload name. */
static void table_add(struct rep_table *t, const struct rep_set *set, const struct kvlist *by, const char *skip,
		      const char *pick_key, const char *pick_value)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		struct kvlist keys;
		struct rep_group *g;
		struct rep_row *row;
		size_t cap;

		if (strcmp(r->status, "done") && strcmp(r->status, "partial"))
			continue;
		if (pick_key) {
			const char *v = kvlist_get(&r->labels, pick_key, NULL);
			if (!v || strcmp(v, pick_value))
				continue;
		}
		kvlist_init(&keys);
		group_keys(&keys, r, by, skip);
		g = find_group(t, &keys);
		kvlist_release(&keys);
		row = find_row(g, r);
		cap = row->nruns;
		ARRAY_GROW(row->runs, cap, row->nruns + 1);
		row->runs[row->nruns++] = r;
		if (!strcmp(r->status, "partial"))
			row->partial = 1;
	}
}

void rep_table_build(struct rep_table *t, const struct rep_set *set, const struct kvlist *by)
{
	memset(t, 0, sizeof(*t));
	kvlist_init(&t->by);
	if (by)
		kvlist_copy(&t->by, by);
	table_add(t, set, by, NULL, NULL, NULL);
	label_rows(t);
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
static void rekey(struct rep_table *t, enum rep_match how)
{
	for (size_t gi = 0; gi < t->n; gi++) {
		struct rep_group *g = &t->v[gi];
		size_t out = 0;

		for (size_t ri = 0; ri < g->n; ri++) {
			/* by name: the row's label, which tells apart the workloads of one name */
			char *m = how == REP_MATCH_NAME ? xstrdup(g->rows[ri].name) : rep_match_key(g->rows[ri].runs[0], how);
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

int cmp_build(struct cmp_table *t, const struct rep_set *set, const char *key, const char *a, const char *b,
	      const struct kvlist *by, enum rep_match match, struct errbuf *err)
{
	char *vals[2] = { (char *)a, (char *)b };

	return cmp_build_n(t, set, key, vals, 2, by, match, err);
}

int cmp_build_n(struct cmp_table *t, const struct rep_set *set, const char *key, char *const *vals, size_t nvals,
		const struct kvlist *by, enum rep_match match, struct errbuf *err)
{
	struct kvlist by_eff;
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
	for (size_t s = 0; s < nvals; s++) {
		kvlist_init(&t->sides[s].by);
		kvlist_copy(&t->sides[s].by, &by_eff);
		table_add(&t->sides[s], set, &by_eff, key, key, vals[s]);
		label_rows(&t->sides[s]);
		rekey(&t->sides[s], match);
		finish_rows(&t->sides[s]);
	}
	kvlist_release(&by_eff);
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

static const size_t cmp_row_ptrs[] = { offsetof(struct cmp_row, workload), offsetof(struct cmp_row, match),
					offsetof(struct cmp_row, at), offsetof(struct cmp_row, ratios) };

static void cmp_group_release(struct cmp_group *g)
{
	array_free_members(g->rows, g->n, sizeof(*g->rows), cmp_row_ptrs, sizeof(cmp_row_ptrs) / sizeof(cmp_row_ptrs[0]));
	free(g->title);
	kvlist_release(&g->keys);
}

void cmp_release(struct cmp_table *t)
{
	size_t nsides, nvals;

	if (!t)
		return;
	nsides = t->sides ? t->nvals : 0;
	nvals = t->vals ? t->nvals : 0;
	ARRAY_RELEASE(t->v, t->n, cmp_group_release);
	ARRAY_RELEASE(t->sides, nsides, rep_table_release);
	ARRAY_RELEASE(t->vals, nvals, strlist_free_str);
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
