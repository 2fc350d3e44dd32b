/*
 * select: parsing and matching of `key=value` selections (see select.h for the keys and the label rule).
 */
#include "report/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	if (kv_parse_label(arg, &k, &v) < 0)
		return err_set(err, ERR_USAGE, "--where wants key=value (a label or name, tool, rw, bs, read_pct, "
				   "random_pct, iodepth, numjobs, engine, suite, status), got '%s'", arg);
	if (!strcmp(canonical_key(k), "bs")) {
		uint64_t b;
		if (parse_size(v, &b) < 0) {
			err_set(err, ERR_USAGE, "--where bs= wants a size such as 4k, got '%s'", v);
			free(k);
			free(v);
			return -1;
		}
	}
	kvlist_add(where, k, v);
	free(k);
	free(v);
	return 0;
}

static const char *int_value(int v, int known, char *buf, size_t len)
{
	if (!known)
		return NULL;
	snprintf(buf, len, "%d", v);
	return buf;
}

const char *select_value(const struct select_subject *s, const char *key, char *buf, size_t len)
{
	const char *k = canonical_key(key);
	const struct kv *kv = s->labels ? kvlist_find(s->labels, key) : NULL;

	if (kv)
		return kv->value ? kv->value : "";
	if (!strcmp(k, "name"))
		return s->name;
	if (!strcmp(k, "tool"))
		return s->tool;
	if (!strcmp(k, "rw"))
		return s->rw;
	if (!strcmp(k, "engine"))
		return s->engine;
	if (!strcmp(k, "suite"))
		return s->suite;
	if (!strcmp(k, "status"))
		return s->status;
	if (!strcmp(k, "bs"))
		return s->bs_bytes ? format_size_short(s->bs_bytes, buf, len) : NULL;
	if (!strcmp(k, "suite_id")) {
		snprintf(buf, len, "%lld", (long long)s->suite_id);
		return s->suite_id ? buf : NULL;
	}
	if (!strcmp(k, "read_pct"))
		return int_value(s->read_pct, s->read_pct >= 0, buf, len);
	if (!strcmp(k, "random_pct"))
		return int_value(s->random_pct, s->random_pct >= 0, buf, len);
	if (!strcmp(k, "iodepth"))
		return int_value(s->iodepth, s->iodepth > 0, buf, len);
	if (!strcmp(k, "numjobs"))
		return int_value(s->numjobs, s->numjobs > 0, buf, len);
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
