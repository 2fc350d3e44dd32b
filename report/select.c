/*
 * select: parsing and matching of `key=value` selections (see select.h for the keys and the label rule).
 */
#include "report/select.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/suggest.h"
#include "core/units.h"

static const char *canonical_key(const char *k)
{
	if (!strcmp(k, "rdpct") || !strcmp(k, "read") || !strcmp(k, "rwmixread"))
		return "read_pct";
	if (!strcmp(k, "randpct") || !strcmp(k, "random"))
		return "random_pct";
	if (!strcmp(k, "workload"))
		return "name";
	return k;
}

int select_add(struct kvlist *where, const char *arg, struct errbuf *err)
{
	char *k, *v;
	uint64_t b;
	int rc = 0;

	if (kv_parse_label(arg, &k, &v) < 0)
		return err_set(err, ERR_USAGE, "--where wants key=value (a label or name, tool, rw, bs, read_pct, "
				   "random_pct, iodepth, numjobs, engine, suite, status), got '%s'", arg);
	if (!strcmp(canonical_key(k), "bs") && parse_size(v, &b) < 0)
		rc = err_set(err, ERR_USAGE, "--where bs= wants a size such as 4k, got '%s'", v);
	else
		kvlist_add(where, k, v);
	free(k);
	free(v);
	return rc;
}

static const struct {
	const char *key;
	size_t off;
	int is_int, min_known;
} fields[] = {
	{ "name", offsetof(struct select_subject, name), 0, 0 },
	{ "tool", offsetof(struct select_subject, tool), 0, 0 },
	{ "rw", offsetof(struct select_subject, rw), 0, 0 },
	{ "engine", offsetof(struct select_subject, engine), 0, 0 },
	{ "suite", offsetof(struct select_subject, suite), 0, 0 },
	{ "status", offsetof(struct select_subject, status), 0, 0 },
	{ "read_pct", offsetof(struct select_subject, read_pct), 1, 0 },
	{ "random_pct", offsetof(struct select_subject, random_pct), 1, 0 },
	{ "iodepth", offsetof(struct select_subject, iodepth), 1, 1 },
	{ "numjobs", offsetof(struct select_subject, numjobs), 1, 1 },
};

const char *select_value(const struct select_subject *s, const char *key, char *buf, size_t len)
{
	const char *k = canonical_key(key);
	const struct kv *kv = s->labels ? kvlist_find(s->labels, key) : NULL;

	if (kv)
		return kv->value ? kv->value : "";
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const char *p = (const char *)s + fields[i].off;
		int v;

		if (strcmp(k, fields[i].key))
			continue;
		if (!fields[i].is_int)
			return *(const char *const *)p;
		v = *(const int *)p;
		if (v < fields[i].min_known)
			return NULL;
		snprintf(buf, len, "%d", v);
		return buf;
	}
	if (!strcmp(k, "bs"))
		return s->bs_bytes ? format_size_short(s->bs_bytes, buf, len) : NULL;
	if (!strcmp(k, "suite_id")) {
		snprintf(buf, len, "%lld", (long long)s->suite_id);
		return s->suite_id ? buf : NULL;
	}
	return NULL;
}

int select_matches(const struct select_subject *s, const struct kvlist *where)
{
	if (!where)
		return 1;
	for (size_t i = 0; i < where->n; i++) {
		char buf[64];
		const char *want = where->v[i].value ? where->v[i].value : "";
		const char *have = select_value(s, where->v[i].key, buf, sizeof(buf));

		if (!have)
			return 0;
		if (!strcmp(canonical_key(where->v[i].key), "bs") &&
		    !(s->labels && kvlist_find(s->labels, where->v[i].key))) {
			uint64_t b;
			if (parse_size(want, &b) < 0 || b != s->bs_bytes)
				return 0;
			continue;
		}
		if (strcmp(have, want))
			return 0;
	}
	return 1;
}

int select_labels_exclude(const struct kvlist *labels, const struct kvlist *where)
{
	for (size_t i = 0; where && i < where->n; i++) {
		const char *key = where->v[i].key, *k = canonical_key(key);
		const char *want = where->v[i].value ? where->v[i].value : "";
		const struct kv *kv = labels ? kvlist_find(labels, key) : NULL;
		int field = !strcmp(k, "bs") || !strcmp(k, "suite_id");

		for (size_t f = 0; !field && f < sizeof(fields) / sizeof(fields[0]); f++)
			field = !strcmp(k, fields[f].key);
		if (kv && strcmp(kv->value ? kv->value : "", want))
			return 1; /* the label answers the condition (a label overrides a field): not it */
		if (!kv && !field)
			return 1; /* only a label could answer it, and there is none */
	}
	return 0;
}

/* The field names a condition may use besides labels, aliases included (select.h). */
static const char *const field_names[] = { "name", "workload", "tool", "rw", "bs", "read_pct", "rdpct", "read",
					   "rwmixread", "random_pct", "randpct", "random", "iodepth", "numjobs",
					   "engine", "suite", "suite_id", "status" };
#define NFIELD_NAMES (sizeof(field_names) / sizeof(field_names[0]))

int select_key_is_field(const char *key)
{
	for (size_t i = 0; i < NFIELD_NAMES; i++)
		if (!strcmp(key, field_names[i]))
			return 1;
	return 0;
}

void select_note_keys(struct kvlist *keys, const struct kvlist *labels)
{
	for (size_t i = 0; labels && i < labels->n; i++)
		if (!kvlist_find(keys, labels->v[i].key))
			kvlist_add(keys, labels->v[i].key, NULL);
}

int select_check_keys(const struct kvlist *where, const struct kvlist *keys, const char *option, struct errbuf *err)
{
	for (size_t i = 0; where && i < where->n; i++) {
		const char *key = where->v[i].key, *best;
		const char **names;
		size_t n = 0;

		if (select_key_is_field(key) || kvlist_find(keys, key))
			continue;
		names = xcalloc(keys->n + NFIELD_NAMES, sizeof(*names));
		for (size_t k = 0; k < keys->n; k++)
			names[n++] = keys->v[k].key;
		for (size_t k = 0; k < NFIELD_NAMES; k++)
			names[n++] = field_names[k];
		best = suggest_closest(key, names, n);
		if (best)
			err_set(err, ERR_INPUT, "%s %s%s%s: no run has a label '%s' and it is no workload field (did you "
				"mean '%s'?)", option, key, where->v[i].value ? "=" : "",
				where->v[i].value ? where->v[i].value : "", key, best);
		else
			err_set(err, ERR_INPUT, "%s %s%s%s: no run has a label '%s' and it is no workload field (see "
				"'bench db list' for the labels stored)", option, key, where->v[i].value ? "=" : "",
				where->v[i].value ? where->v[i].value : "", key);
		free(names);
		return -1;
	}
	return 0;
}
