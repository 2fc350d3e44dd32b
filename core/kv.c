/*
 * kv: ordered key=value lists (see kv.h).
 */
#include "core/kv.h"
#include "core/strbuf.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void kvlist_init(struct kvlist *l)
{
	l->v = NULL;
	l->n = l->cap = 0;
}

void kvlist_release(struct kvlist *l)
{
	static const size_t strs[] = { offsetof(struct kv, key), offsetof(struct kv, value) };

	if (!l)
		return;
	array_free_members(l->v, l->n, sizeof(*l->v), strs, 2);
	kvlist_init(l);
}

void kvlist_copy(struct kvlist *dst, const struct kvlist *src)
{
	for (size_t i = 0; i < src->n; i++)
		kvlist_add(dst, src->v[i].key, src->v[i].value);
}

void kvlist_add(struct kvlist *l, const char *key, const char *value)
{
	ARRAY_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = xstrdup(value);
	l->n++;
}

void kvlist_set(struct kvlist *l, const char *key, const char *value)
{
	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i].key, key)) {
			free(l->v[i].value);
			l->v[i].value = xstrdup(value);
			return;
		}
	}
	kvlist_add(l, key, value);
}

size_t kvlist_del(struct kvlist *l, const char *key)
{
	size_t j = 0, removed = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i].key, key)) {
			free(l->v[i].key);
			free(l->v[i].value);
			removed++;
			continue;
		}
		l->v[j++] = l->v[i];
	}
	l->n = j;
	return removed;
}

const struct kv *kvlist_find(const struct kvlist *l, const char *key)
{
	for (size_t i = l->n; i-- > 0;)
		if (!strcmp(l->v[i].key, key))
			return &l->v[i];
	return NULL;
}

const char *kvlist_get(const struct kvlist *l, const char *key, const char *def)
{
	const struct kv *kv = kvlist_find(l, key);
	return kv && kv->value ? kv->value : def;
}

int kv_parse_label(const char *arg, char **key, char **value)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return -1;
	for (const char *p = arg; p < eq; p++) {
		char c = *p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '-' || c == '.'))
			return -1;
	}
	*key = xstrndup(arg, (size_t)(eq - arg));
	*value = xstrdup(eq + 1);
	return 0;
}
