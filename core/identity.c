/*
 * identity: see identity.h. The modelled fields give the shape (tool, rw, bs or bssplit, read %, random %,
 * iodepth, numjobs, working set, compress/dedupe %); every other fio option of the workload that changes the
 * load (core/fio_options.c fio_opt_role) adds one item with its value in fio_opt_value_canonical's form.
 */
#include "core/identity.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fio_options.h"
#include "core/strbuf.h"

/* Sets key=value, replacing an earlier item of that key (the last occurrence wins, as in fio). */
static void put(struct kvlist *l, const char *key, const char *value)
{
	kvlist_del(l, key);
	kvlist_add(l, key, value);
}

static void put_num(struct kvlist *l, const char *key, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	put(l, key, buf);
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* The canonical value of the last occurrence of a modelled option in opts, or NULL. */
static char *opt_canonical(const struct workload *w, const char *name, unsigned kb_base)
{
	for (size_t i = w->opts.n; i-- > 0;)
		if (!strcmp(fio_opt_canonical_name(w->opts.v[i].key), name))
			return fio_opt_value_canonical(name, w->opts.v[i].value, kb_base);
	return NULL;
}

static void shape_items(const struct workload *w, unsigned kb_base, struct kvlist *l)
{
	char *c;

	put(l, "tool", w->tool ? w->tool : "?");
	/* rw with its ":N" modifier when the options carry one */
	c = opt_canonical(w, "rw", kb_base);
	put(l, "rw", c && strchr(c, ':') ? c : (w->rw ? w->rw : "?"));
	free(c);
	if (w->bssplit) {
		c = fio_opt_value_canonical("bssplit", w->bssplit, kb_base);
		put(l, "bssplit", c ? c : w->bssplit);
		free(c);
	} else {
		/* per-direction block sizes when they differ ("4096,65536,65536"), else the block size */
		c = opt_canonical(w, "bs", kb_base);
		if (c && strchr(c, ','))
			put(l, "bs", c);
		else
			put_num(l, "bs", (long long)w->bs_bytes);
		free(c);
	}
	put_num(l, "read_pct", w->read_pct);
	put_num(l, "random_pct", w->random_pct);
	c = opt_canonical(w, "percentage_random", kb_base);
	if (c && strchr(c, ','))
		put(l, "percentage_random", c);
	free(c);
	put_num(l, "iodepth", w->iodepth ? w->iodepth : 1);
	put_num(l, "numjobs", w->numjobs ? w->numjobs : 1);
	if (w->size) {
		c = fio_opt_value_canonical("size", w->size, kb_base);
		put(l, "size", c ? c : w->size);
		free(c);
	}
	if (w->compress_pct)
		put_num(l, "buffer_compress_percentage", w->compress_pct);
	if (w->dedupe_pct)
		put_num(l, "dedupe_percentage", w->dedupe_pct);
}

void workload_identity_kv(const struct workload *w, struct kvlist *out)
{
	unsigned kb_base = fio_opt_kb_base(&w->opts);
	struct kvlist l;

	kvlist_init(&l);
	/* the other options first, so that a modelled field can never be overridden by a stray option */
	for (size_t i = 0; i < w->opts.n; i++) {
		const char *key = fio_opt_canonical_name(w->opts.v[i].key);
		char *c;

		if (fio_opt_role(key) != FIO_OPT_LOAD)
			continue;
		c = fio_opt_value_canonical(key, w->opts.v[i].value, kb_base);
		if (!strcmp(key, "buffered")) {
			/* buffered=0 is direct=1 */
			const char *d = c && !strcmp(c, "0") ? "1" : NULL;
			kvlist_del(&l, "direct");
			if (d)
				kvlist_add(&l, "direct", d);
		} else if (c) {
			put(&l, key, c);
		} else {
			kvlist_del(&l, key); /* set back to fio's default */
		}
		free(c);
	}
	shape_items(w, kb_base, &l);
	qsort(l.v, l.n, sizeof(*l.v), kv_cmp);
	kvlist_copy(out, &l);
	kvlist_release(&l);
}

/* The identity text of a kv list ("k=v|k=v"), which it releases. */
static char *joined_release(struct kvlist *kv)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < kv->n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? "|" : "", kv->v[i].key, kv->v[i].value);
	kvlist_release(kv);
	return strbuf_detach(&sb, NULL);
}

char *workload_identity(const struct workload *w)
{
	struct kvlist kv;

	kvlist_init(&kv);
	workload_identity_kv(w, &kv);
	return joined_release(&kv);
}

/* ---- runs of several jobs ----------------------------------------------------------------------------- */

void run_spec_identity_kv(const struct run_spec *s, struct kvlist *out)
{
	if (s->njobs == 0) {
		workload_identity_kv(&s->wl, out);
		return;
	}
	put_num(out, "jobs", (long long)s->njobs);
	for (size_t j = 0; j < s->njobs; j++) {
		struct kvlist one;

		kvlist_init(&one);
		workload_identity_kv(&s->jobs[j].wl, &one);
		for (size_t i = 0; i < one.n; i++) {
			char *key = xasprintf("job%zu.%s", j + 1, one.v[i].key);
			kvlist_add(out, key, one.v[i].value);
			free(key);
		}
		kvlist_release(&one);
	}
}

char *run_spec_identity(const struct run_spec *s)
{
	struct kvlist kv;

	kvlist_init(&kv);
	run_spec_identity_kv(s, &kv);
	return joined_release(&kv);
}

/* Whether identity item key (or, for "jobN.KEY", its KEY) is one of drop[]. */
static int item_dropped(const char *key, const char *const *drop)
{
	const char *dot = strchr(key, '.');

	if (!strncmp(key, "job", 3) && key[3] >= '1' && key[3] <= '9' && dot)
		key = dot + 1;
	for (size_t i = 0; drop && drop[i]; i++)
		if (!strcmp(key, drop[i]))
			return 1;
	return 0;
}

char *run_spec_identity_except(const struct run_spec *s, const char *const *drop)
{
	struct kvlist kv, keep;

	kvlist_init(&kv);
	kvlist_init(&keep);
	run_spec_identity_kv(s, &kv);
	for (size_t i = 0; i < kv.n; i++)
		if (!item_dropped(kv.v[i].key, drop))
			kvlist_add(&keep, kv.v[i].key, kv.v[i].value);
	kvlist_release(&kv);
	return joined_release(&keep);
}
