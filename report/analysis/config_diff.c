/*
 * config_diff: two configuration records compared (see config_diff.h).
 */
#include "report/analysis/config_diff.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_read.h"
#include "report/load.h"

#define DIFF_MAX_LINES 4000 /* longer records are compared line by line without alignment */

void config_view_init(struct config_view *v)
{
	memset(v, 0, sizeof(*v));
	kvlist_init(&v->labels);
}

static const size_t view_strs[] = { offsetof(struct config_view, name), offsetof(struct config_view, record) };

void config_view_release(struct config_view *v)
{
	if (!v)
		return;
	free_members(v, view_strs, 2);
	kvlist_release(&v->labels);
	config_view_init(v);
}

static char *record_of(struct store *st, int64_t run_id, struct errbuf *err, int *failed)
{
	struct store_artifact *art = NULL;
	size_t n = 0;
	char *rec = NULL;

	*failed = 0;
	if (store_read_artifacts(st, run_id, &art, &n, err) < 0) {
		*failed = 1;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(art[i].name, "config.record"))
			rec = xstrndup((const char *)art[i].content, art[i].len);
	store_artifacts_free(art, n);
	return rec;
}

int config_view_load(struct store *st, const char *name, const struct kvlist *where, struct config_view *out,
		     struct errbuf *err)
{
	struct kvlist sel;
	struct rep_set set;
	const struct rep_run *best = NULL;
	int rc = -1;

	kvlist_init(&sel);
	if (where)
		kvlist_copy(&sel, where);
	kvlist_set(&sel, "config", name);
	rep_set_init(&set);
	if (report_load(st, &sel, REP_ALL_STATUS, &set, err) < 0)
		goto out;
	/* the newest run with a record; else the newest run */
	for (size_t i = 0; i < set.n; i++) {
		int failed;
		char *rec = record_of(st, set.v[i].id, err, &failed);
		if (failed)
			goto out;
		if (rec && (!out->record || set.v[i].id > out->run_id)) {
			free(out->record);
			out->record = rec;
			out->run_id = set.v[i].id;
			best = &set.v[i];
		} else {
			free(rec);
		}
		if (!out->record && (!best || set.v[i].id > best->id))
			best = &set.v[i];
	}
	if (!best) {
		err_set(err, ERR_INPUT, "no stored run of configuration '%s' (label config=%s)", name, name);
		goto out;
	}
	out->name = xstrdup(name);
	out->run_id = best->id;
	kvlist_copy(&out->labels, &best->labels);
	rc = 0;
out:
	rep_set_release(&set);
	kvlist_release(&sel);
	return rc;
}

static char **split_lines(const char *s, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0;

	for (const char *p = s; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		v = xrealloc(v, (cnt + 1) * sizeof(*v));
		v[cnt++] = xstrndup(p, l);
		p += l + (nl ? 1 : 0);
	}
	*n = cnt;
	return v;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Line diff by longest common subsequence: "- " lines of a only, "+ " lines of b only. */
static size_t diff_lines(const char *ta, const char *tb, struct strbuf *out)
{
	size_t na, nb, diffs = 0;
	char **a = split_lines(ta, &na), **b = split_lines(tb, &nb);
	unsigned *lcs;

	if (na > DIFF_MAX_LINES || nb > DIFF_MAX_LINES) {
		size_t i;
		for (i = 0; i < na || i < nb; i++) {
			if (i < na && i < nb && !strcmp(a[i], b[i]))
				continue;
			if (i < na)
				strbuf_addf(out, "  - %s\n", a[i]);
			if (i < nb)
				strbuf_addf(out, "  + %s\n", b[i]);
			diffs++;
		}
		goto out;
	}
	lcs = xcalloc((na + 1) * (nb + 1), sizeof(*lcs));
#define L(i, j) lcs[(i) * (nb + 1) + (j)]
	for (size_t i = na; i-- > 0;)
		for (size_t j = nb; j-- > 0;)
			L(i, j) = !strcmp(a[i], b[j]) ? L(i + 1, j + 1) + 1
						       : (L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1));
	for (size_t i = 0, j = 0; i < na || j < nb;) {
		if (i < na && j < nb && !strcmp(a[i], b[j])) {
			i++;
			j++;
		} else if (j >= nb || (i < na && L(i + 1, j) >= L(i, j + 1))) {
			strbuf_addf(out, "  - %s\n", a[i++]);
			diffs++;
		} else {
			strbuf_addf(out, "  + %s\n", b[j++]);
			diffs++;
		}
	}
#undef L
	free(lcs);
out:
	free_lines(a, na);
	free_lines(b, nb);
	return diffs;
}

size_t config_diff_text(const struct config_view *a, const struct config_view *b, struct strbuf *out)
{
	size_t diffs = 0, w = 5;

	strbuf_addf(out, "configuration %s (run %lld) vs %s (run %lld)\n", a->name, (long long)a->run_id, b->name,
		    (long long)b->run_id);
	for (int side = 0; side < 2; side++) {
		const struct kvlist *l = side ? &b->labels : &a->labels;
		for (size_t i = 0; i < l->n; i++)
			if (strlen(l->v[i].key) > w)
				w = strlen(l->v[i].key);
	}
	strbuf_addf(out, "labels (- %s, + %s):\n", a->name, b->name);
	for (int side = 0; side < 2; side++) {
		const struct kvlist *x = side ? &b->labels : &a->labels, *y = side ? &a->labels : &b->labels;
		for (size_t i = 0; i < x->n; i++) {
			const char *k = x->v[i].key, *vx = x->v[i].value ? x->v[i].value : "";
			const char *vy = kvlist_get(y, k, NULL);
			if (!strcmp(k, "config") || (vy && !strcmp(vx, vy)) || (side && vy))
				continue;
			if (!side)
				strbuf_addf(out, "  %-*s  - %s\n", (int)w, k, vx);
			if (!side && vy)
				strbuf_addf(out, "  %-*s  + %s\n", (int)w, "", vy);
			if (!side && !vy)
				strbuf_addf(out, "  %-*s  + (none)\n", (int)w, "");
			if (side) {
				strbuf_addf(out, "  %-*s  - (none)\n", (int)w, k);
				strbuf_addf(out, "  %-*s  + %s\n", (int)w, "", vx);
			}
			diffs++;
		}
	}
	strbuf_addf(out, "record (config.record, - %s, + %s):\n", a->name, b->name);
	if (!a->record || !b->record) {
		strbuf_addf(out, "  (no record stored for %s)\n", !a->record ? a->name : b->name);
		diffs += !a->record != !b->record;
	} else {
		diffs += diff_lines(a->record, b->record, out);
	}
	strbuf_addf(out, "%zu difference%s\n", diffs, diffs == 1 ? "" : "s");
	return diffs;
}
