/*
 * labels: how label values are presented, not what they are (that the method's labels are never a group key
 * is method_labels.h's): aliases (--alias transport=nvmeof:NVMe-oF, or a suite label alias.transport = "nvmeof:NVMe-oF,iser:iSER")
 * and the order of groups as given (--order stack=mdadm-raid0,zfs-raidz). Aliases are kept as pairs
 * "key=value" -> alias; nothing here escapes, every renderer escapes the alias as it escapes any label
 * (report/text/escape.h).
 */
#include "report/labels.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "report/load.h"
#include "report/table.h"

int rep_alias_add(struct kvlist *aliases, const char *arg, struct errbuf *err)
{
	char *k = NULL, *v = NULL, *colon;
	struct strbuf sb;

	if (kv_parse_label(arg, &k, &v) < 0 || !(colon = strchr(v, ':')) || colon == v || !colon[1]) {
		free(k);
		free(v);
		return err_set(err, ERR_USAGE, "--alias wants key=value:Alias (e.g. transport=nvmeof:NVMe-oF), got "
				   "'%s'", arg);
	}
	*colon = '\0';
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s=%s", k, v);
	kvlist_set(aliases, sb.buf, colon + 1);
	strbuf_release(&sb);
	free(k);
	free(v);
	return 0;
}

/* Adds the pairs of one suite label alias.KEY = "value:Alias,value:Alias" that `aliases` lacks. */
static void alias_label(struct kvlist *aliases, const char *key, const char *spec)
{
	const char *p = spec;

	while (p && *p) {
		size_t l = strcspn(p, ",");
		char *item = xstrndup(p, l), *colon = strchr(item, ':');

		if (colon && colon != item && colon[1]) {
			char *pair;
			*colon = '\0';
			pair = xasprintf("%s=%s", key, item);
			if (!kvlist_find(aliases, pair))
				kvlist_add(aliases, pair, colon + 1);
			free(pair);
		}
		free(item);
		p += l;
		if (*p == ',')
			p++;
	}
}

void rep_alias_from_runs(struct kvlist *aliases, const struct rep_set *set)
{
	struct kvlist given;

	/* a --alias wins over every suite's: only pairs no option gave are taken */
	kvlist_init(&given);
	kvlist_copy(&given, aliases);
	for (size_t i = 0; i < set->n; i++)
		for (size_t j = 0; j < set->v[i].labels.n; j++) {
			const struct kv *l = &set->v[i].labels.v[j];
			if (!strncmp(l->key, "alias.", 6) && l->key[6] && l->value) {
				struct kvlist mine;
				kvlist_init(&mine);
				alias_label(&mine, l->key + 6, l->value);
				for (size_t k = 0; k < mine.n; k++)
					if (!kvlist_find(&given, mine.v[k].key) && !kvlist_find(aliases, mine.v[k].key))
						kvlist_add(aliases, mine.v[k].key, mine.v[k].value);
				kvlist_release(&mine);
			}
		}
	kvlist_release(&given);
}

const char *rep_alias_get(const struct kvlist *aliases, const char *key, const char *value)
{
	struct strbuf sb;
	const char *a;

	if (!aliases || !aliases->n || !key || !value)
		return value;
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s=%s", key, value);
	a = kvlist_get(aliases, sb.buf, NULL);
	strbuf_release(&sb);
	return a ? a : value;
}

/* ---- order ---------------------------------------------------------------------------------------- */

int rep_order_add(struct kvlist *order, const char *arg, struct errbuf *err)
{
	char *k = NULL, *v = NULL;

	if (kv_parse_label(arg, &k, &v) < 0 || !*v) {
		free(k);
		free(v);
		return err_set(err, ERR_USAGE, "--order wants key=value[,value...] (e.g. stack=mdadm-raid0,zfs-raidz), "
				   "got '%s'", arg);
	}
	kvlist_set(order, k, v);
	free(k);
	free(v);
	return 0;
}

/* The rank of a group by the order lists: the position of its value in the first list that names it
 * (lists in the order given), or a large number (kept after the listed ones). */
static long group_rank(const struct kvlist *keys, const struct kvlist *order)
{
	long base = 0;

	for (size_t i = 0; i < order->n; i++, base += 100000) {
		const char *v = kvlist_get(keys, order->v[i].key, NULL);
		const char *p = order->v[i].value;
		long pos = 0;

		if (!v)
			continue;
		while (p && *p) {
			size_t l = strcspn(p, ",");
			if (l == strlen(v) && !strncmp(p, v, l))
				return base + pos;
			pos++;
			p += l;
			if (*p == ',')
				p++;
		}
	}
	return 1L << 30;
}

/* Stable insertion sort of n elements of `size` bytes whose kvlist of keys is at `keys_off`. */
static void order_sort(void *base, size_t n, size_t size, size_t keys_off, const struct kvlist *order)
{
	char *v = base, *tmp = xmalloc(size);

	for (size_t i = 1; i < n; i++) {
		long r = group_rank((const struct kvlist *)(v + i * size + keys_off), order);
		size_t j = i;

		memcpy(tmp, v + i * size, size);
		while (j > 0 && group_rank((const struct kvlist *)(v + (j - 1) * size + keys_off), order) > r) {
			memcpy(v + j * size, v + (j - 1) * size, size);
			j--;
		}
		memcpy(v + j * size, tmp, size);
	}
	free(tmp);
}

void rep_table_order(struct rep_table *t, const struct kvlist *order)
{
	if (order && order->n)
		order_sort(t->v, t->n, sizeof(*t->v), offsetof(struct rep_group, keys), order);
}

void cmp_order(struct cmp_table *t, const struct kvlist *order)
{
	if (!order || !order->n)
		return;
	order_sort(t->v, t->n, sizeof(*t->v), offsetof(struct cmp_group, keys), order);
	for (size_t s = 0; s < t->nvals; s++)
		rep_table_order(&t->sides[s], order);
}
