/*
 * fio_options: fio's option rules in one place (see fio_options.h): sizes and times with fio's units, the
 * per-direction splits, bssplit, rw and its mix options, turned into workload fields and canonical values.
 */
#include "core/fio_options.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"

/* ---- option names --------------------------------------------------------------------------------- */

/* fio 3.33's option aliases (fio --cmdhelp), folded to the name fio prints with --showcmd and in JSON. */
static const struct {
	const char *alias, *name;
} fio_aliases[] = {
	{ "readwrite", "rw" }, { "blocksize", "bs" }, { "blockalign", "ba" }, { "blocksize_range", "bsrange" },
	{ "blocksize_unaligned", "bs_unaligned" }, { "iodepth_batch_submit", "iodepth_batch" },
	{ "iodepth_batch_complete", "iodepth_batch_complete_min" }, { "io_limit", "io_size" },
	{ "fill_fs", "fill_device" }, { "fileoffset", "offset" }, { "nr_files", "nrfiles" }, { "timeout", "runtime" },
	{ "iomem", "mem" }, { "ratemin", "rate_min" }, { "ratecycle", "rate_cycle" },
	{ "wait_for_previous", "stonewall" }, { "disable_bw", "disable_bw_measurement" }, { "ss", "steadystate" },
	{ "ss_dur", "steadystate_duration" }, { "ss_ramp", "steadystate_ramp_time" },
};

const char *fio_opt_canonical_name(const char *name)
{
	for (size_t i = 0; i < sizeof(fio_aliases) / sizeof(fio_aliases[0]); i++)
		if (!strcmp(fio_aliases[i].alias, name))
			return fio_aliases[i].name;
	return name;
}

/* The last occurrence of an option (by canonical name) and its index, or NULL. */
static const struct kv *last_opt(const struct kvlist *opts, const char *name, size_t *idx)
{
	for (size_t i = opts->n; i-- > 0;) {
		if (!strcmp(fio_opt_canonical_name(opts->v[i].key), name)) {
			if (idx)
				*idx = i;
			return &opts->v[i];
		}
	}
	return NULL;
}

unsigned fio_opt_kb_base(const struct kvlist *opts)
{
	const struct kv *kv = last_opt(opts, "kb_base", NULL);

	if (kv && kv->value && !strcmp(kv->value, "1000"))
		return 1000;
	return 1024;
}

/* ---- numbers as fio reads them (parse.c) -------------------------------------------------------- */

/* Multiplier of a size suffix (already lower-case-insensitive matched by prefix, as __get_mult_bytes). */
static uint64_t size_mult(const char *sfx, unsigned kb_base, int *known, int *percent)
{
	static const char units[] = "kmgtp";
	char c[8] = { 0 }; /* zeroed: the compiler may compare c[1] and c[2] in one load (valgrind saw it read) */
	size_t n = 0;
	uint64_t mult = kb_base, ret = 1;
	int pow = 0;

	*known = 0;
	*percent = 0;
	while (sfx[n] && n < sizeof(c) - 1 && !strchr(":-,/", sfx[n])) {
		c[n] = (char)tolower((unsigned char)sfx[n]);
		n++;
	}
	c[n] = '\0';
	if (c[0] == '%') {
		*percent = 1;
		*known = !c[1];
		return 1;
	}
	for (int i = 0; units[i]; i++) {
		if (c[0] != units[i])
			continue;
		pow = i + 1;
		if (c[1] == 'i' && c[2] == 'b') {
			mult = kb_base == 1000 ? 1024 : 1000; /* kb_base=1024 swaps IEC and SI */
			*known = !c[3];
		} else {
			*known = !c[1] || (c[1] == 'b' && !c[2]);
		}
	}
	if (!pow)
		*known = !c[0] || !strcmp(c, "b");
	while (pow-- > 0)
		ret *= mult;
	return ret;
}

int fio_opt_size(const char *s, unsigned kb_base, unsigned flags, uint64_t *out)
{
	const char *p, *sfx;
	char *end;
	long long v;
	uint64_t mult;
	int known, percent;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, (strstr(s, "0x") || strstr(s, "0X")) ? 16 : 10);
	if ((v == 0 && end == s) || errno == ERANGE || v < 0)
		return -1;
	/* fio takes the unit from the first letter after the leading digits (get_mult_bytes) */
	p = s;
	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (strstr(s, "0x") || strstr(s, "0X"))
		p = end; /* hexadecimal: fio's scan stops at the 'x' and finds no unit there */
	sfx = (isalpha((unsigned char)*p) || *p == '%') ? p : "";
	mult = size_mult(sfx, kb_base, &known, &percent);
	if (strstr(s, "0x") || strstr(s, "0X")) {
		mult = 1;
		percent = 0;
		known = !*end;
	}
	/* strict: the number ends where the unit starts, and the unit is all that follows */
	if ((flags & FIO_OPT_STRICT) && (end != p || (*p && sfx != p) || !known || strcspn(sfx, ":-,/") != strlen(sfx)))
		return -1;
	if (percent) {
		*out = (uint64_t)v;
		return 1;
	}
	if (mult > 1 && (uint64_t)v > UINT64_MAX / mult)
		return -1;
	*out = (uint64_t)v * mult;
	return 0;
}

int fio_opt_time_us(const char *s, uint64_t unit_us, unsigned flags, uint64_t *out)
{
	static const struct { const char *sfx; int prefix; uint64_t us; } units[] = {
		{ "usec", 1, 1 }, { "us", 1, 1 }, { "msec", 1, 1000 }, { "ms", 1, 1000 }, { "s", 0, 1000000 },
		{ "m", 0, 60000000ULL }, { "h", 0, 3600000000ULL }, { "d", 0, 86400000000ULL },
	};
	const char *p = s;
	char *end;
	long long v;
	uint64_t mult = unit_us;
	int known = 1;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if ((v == 0 && end == s) || errno == ERANGE || v < 0)
		return -1;
	while (isdigit((unsigned char)*p) || *p == '+' || *p == '-')
		p++;
	if (isalpha((unsigned char)*p)) {
		known = 0;
		mult = 1; /* fio: an unknown unit leaves the number as microseconds */
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && !known; i++) {
			size_t l = strlen(units[i].sfx);
			if (units[i].prefix ? !strncasecmp(p, units[i].sfx, l) : !strcasecmp(p, units[i].sfx)) {
				mult = units[i].us;
				known = !p[l] || !units[i].prefix;
			}
		}
	}
	if ((flags & FIO_OPT_STRICT) && (end != p || !known || (*p && !isalpha((unsigned char)*p))))
		return -1;
	if ((uint64_t)v > UINT64_MAX / mult)
		return -1;
	*out = (uint64_t)v * mult;
	return 0;
}

/* ---- per-direction values ----------------------------------------------------------------------- */

/* Splits "r[,w[,t]]" into the three directions' texts (malloc'd; "" = fio's default), fio's rule: a value
 * not followed by a comma applies to the directions after it. */
static void split3(const char *v, char *out[3])
{
	const char *p = v ? v : "";
	int n = 0;

	while (n < 3) {
		size_t l = strcspn(p, ",");
		out[n++] = xstrndup(p, l);
		if (!p[l])
			break;
		p += l + 1;
	}
	for (int d = n; d < 3; d++)
		out[d] = xstrdup(out[n - 1]);
}

static void free3(char *v[3])
{
	for (int d = 0; d < 3; d++)
		free(v[d]);
}

/* ---- bssplit ------------------------------------------------------------------------------------ */

struct bs_entry {
	uint64_t bytes;
	unsigned pct;
};

static int bs_entry_cmp(const void *a, const void *b)
{
	const struct bs_entry *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return x->pct < y->pct ? -1 : x->pct > y->pct;
}

/* One direction of a bssplit ("4k/10:64k/90") in canonical text ("4096/10:65536/90", sorted by size, missing
 * percentages filled as fio fills them) appended to sb; -1 when fio would refuse it. "" stays empty. */
static int bssplit_dir(const char *text, unsigned kb_base, unsigned flags, struct strbuf *sb)
{
	struct bs_entry *e = NULL;
	size_t n = 0, cap = 0, missing = 0;
	unsigned sum = 0;
	const char *p = text;
	int ret = -1;

	while (*p) {
		size_t l = strcspn(p, ":");
		char *item = xstrndup(p, l), *slash = strchr(item, '/');
		long pct = -1;
		int rc;

		if (!l) {
			free(item);
			break; /* fio stops at an empty entry */
		}
		if (slash) {
			*slash = '\0';
			pct = strtol(slash + 1, NULL, 10); /* fio: atoi, capped at 100, 0 = not given */
			if (pct > 100)
				pct = 100;
			if (pct <= 0)
				pct = -1;
			if ((flags & FIO_OPT_STRICT) && (!slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1)))
				pct = -2;
		}
		ARRAY_GROW(e, cap, n + 1);
		rc = pct == -2 ? -1 : fio_opt_size(item, kb_base, flags, &e[n].bytes);
		free(item);
		if (rc != 0 || !e[n].bytes)
			goto out;
		e[n].pct = pct < 0 ? 0 : (unsigned)pct;
		if (pct < 0)
			missing++;
		else
			sum += (unsigned)pct;
		n++;
		p += l;
		if (*p == ':')
			p++;
	}
	if (sum > 100 && missing > 1)
		goto out;
	if (missing) {
		unsigned share = (missing == 1 && n == 1) ? 100 : (sum > 100 ? 0 : (100 - sum) / (unsigned)missing);
		for (size_t i = 0; i < n; i++)
			if (!e[i].pct)
				e[i].pct = share;
	}
	if ((flags & FIO_OPT_STRICT) && n && !missing && sum != 100)
		goto out; /* fio warns and scales; a plan should say what it means */
	if (n) /* qsort(NULL, 0, ...) is undefined */
		qsort(e, n, sizeof(*e), bs_entry_cmp);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%" PRIu64 "/%u", i ? ":" : "", e[i].bytes, e[i].pct);
	ret = 0;
out:
	free(e);
	return ret;
}

/* A whole bssplit in canonical text (malloc'd; directions joined by ',' unless all equal), or NULL. */
static char *bssplit_canonical(const char *v, unsigned kb_base, unsigned flags)
{
	char *d3[3];
	struct strbuf part[3];
	char *out = NULL;
	int ok = 1;

	split3(v, d3);
	for (int d = 0; d < 3; d++) {
		strbuf_init(&part[d]);
		if (bssplit_dir(d3[d], kb_base, flags, &part[d]) < 0)
			ok = 0;
	}
	if (ok) {
		if (!strcmp(part[0].buf, part[1].buf) && !strcmp(part[1].buf, part[2].buf))
			out = xstrdup(part[0].buf);
		else
			out = xasprintf("%s,%s,%s", part[0].buf, part[1].buf, part[2].buf);
	}
	for (int d = 0; d < 3; d++)
		strbuf_release(&part[d]);
	free3(d3);
	return out;
}

/* ---- the workload fields -------------------------------------------------------------------------- */

static const char *const fio_rw_values[] = { "read", "write", "trim", "randread", "randwrite", "randtrim", "rw",
					     "readwrite", "randrw", "trimwrite", "randtrimwrite", NULL };

struct norm {
	const struct kvlist *opts;
	const struct fio_opt_locs *locs;
	const char *file0;
	int line0;
	unsigned flags, kb_base;
	struct errbuf *err;
	const char *file; /* the place of the option being read */
	int line;
};

/* The last occurrence of option `name`, with file/line set to where it was written. */
static const struct kv *take(struct norm *n, const char *name)
{
	size_t i = 0;
	const struct kv *kv = last_opt(n->opts, name, &i);

	n->file = n->file0;
	n->line = n->line0;
	if (kv && n->locs && i < n->locs->n && n->locs->file && n->locs->file[i]) {
		n->file = n->locs->file[i];
		n->line = n->locs->line[i];
	}
	return kv;
}

/* A whole number option as fio reads it (size rules), in [min, max]. */
static int int_value(struct norm *n, const char *key, const char *v, long min, long max, const char *what, long *out)
{
	uint64_t x;

	if (!v || fio_opt_size(v, n->kb_base, n->flags | FIO_OPT_STRICT, &x) != 0 || x < (uint64_t)min ||
	    x > (uint64_t)max)
		return err_set(n->err, ERR_INPUT, "%s:%d: '%s' must be %s, got '%s'", n->file, n->line, key, what,
			       v ? v : "");
	*out = (long)x;
	return 0;
}

static int pct_opt(struct norm *n, const char *key, int def, int *out)
{
	const struct kv *kv = take(n, key);
	long v = def;

	if (kv && int_value(n, key, kv->value, 0, 100, "0..100", &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int count_opt(struct norm *n, const char *key, unsigned *out)
{
	const struct kv *kv = take(n, key);
	long v = 1;

	if (kv && int_value(n, key, kv->value, 1, 1000000, "a whole number >= 1", &v) < 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int time_opt(struct norm *n, const char *key, unsigned *out)
{
	const struct kv *kv = take(n, key);
	uint64_t us;

	*out = 0;
	if (!kv)
		return 0;
	if (!kv->value || fio_opt_time_us(kv->value, 1000000, n->flags, &us) < 0 || us / 1000000 > 100000000)
		return err_set(n->err, ERR_INPUT, "%s:%d: '%s' is not a time fio reads (e.g. 60, 90s, 2m, 1h), got '%s'",
			       n->file, n->line, key, kv->value ? kv->value : "");
	*out = (unsigned)((us + 999999) / 1000000);
	return 0;
}

static int norm_rw(struct norm *n, struct workload *w)
{
	const struct kv *kv = take(n, "rw");
	const char *rw = kv && kv->value ? kv->value : "read";
	size_t blen = strcspn(rw, ":");
	char *base = xstrndup(rw, blen);
	int ok = 0;

	for (int i = 0; fio_rw_values[i]; i++)
		ok |= !strcmp(base, fio_rw_values[i]);
	if (ok && rw[blen]) {
		uint64_t stride;
		ok = fio_opt_size(rw + blen + 1, n->kb_base, n->flags, &stride) == 0;
	}
	if (!ok) {
		free(base);
		return err_set(n->err, ERR_INPUT, "%s:%d: 'rw' must be one of read write randread randwrite rw randrw "
			       "trim randtrim trimwrite randtrimwrite (optionally ':N'), got '%s'", n->file, n->line, rw);
	}
	if (!strcmp(base, "readwrite")) {
		free(base);
		base = xstrdup("rw");
	}
	free(w->rw);
	w->rw = base;
	return 0;
}

/* read % and random % from rw, rwmixread/rwmixwrite (the later one wins, as fio applies them in order) and
 * percentage_random (per direction; the share of all IOs for a mix). */
static int norm_mix(struct norm *n, struct workload *w)
{
	size_t ir = 0, iw = 0;
	const struct kv *r = last_opt(n->opts, "rwmixread", &ir), *wr = last_opt(n->opts, "rwmixwrite", &iw);
	const struct kv *kv;
	int mix = 50, rnd[3] = { 100, 100, 100 };
	int mixed = !strcmp(w->rw, "rw") || !strcmp(w->rw, "randrw");

	if (wr && (!r || iw > ir)) {
		if (pct_opt(n, "rwmixwrite", 50, &mix) < 0)
			return -1;
		mix = 100 - mix;
	} else if (pct_opt(n, "rwmixread", 50, &mix) < 0) {
		return -1;
	}
	if ((kv = take(n, "percentage_random"))) {
		char *d3[3];
		int rc = 0;
		split3(kv->value, d3);
		for (int d = 0; d < 3 && !rc; d++) {
			long v = 100;
			if (*d3[d] && int_value(n, "percentage_random", d3[d], 0, 100, "0..100 (per direction: r,w,t)",
						&v) < 0)
				rc = -1;
			rnd[d] = (int)v;
		}
		free3(d3);
		if (rc < 0)
			return -1;
	}
	if (!strcmp(w->rw, "read") || !strcmp(w->rw, "randread"))
		w->read_pct = 100;
	else if (mixed)
		w->read_pct = mix;
	else
		w->read_pct = 0;
	if (strncmp(w->rw, "rand", 4))
		w->random_pct = 0;
	else if (mixed)
		w->random_pct = (mix * rnd[0] + (100 - mix) * rnd[1] + 50) / 100;
	else
		w->random_pct = rnd[!strcmp(w->rw, "randread") ? 0 : !strcmp(w->rw, "randwrite") ? 1 : 2];
	return 0;
}

static int norm_bs(struct norm *n, struct workload *w)
{
	const struct kv *kv = take(n, "bs"), *split;
	uint64_t b[3] = { 4096, 4096, 4096 };
	int dir;

	if (kv) {
		char *d3[3];
		int bad = 0;
		split3(kv->value, d3);
		for (int d = 0; d < 3; d++)
			if (*d3[d] && (fio_opt_size(d3[d], n->kb_base, n->flags, &b[d]) != 0 || !b[d]))
				bad = 1;
		free3(d3);
		if (bad)
			return err_set(n->err, ERR_INPUT, "%s:%d: 'bs' is not a block size fio reads (e.g. 4k, 256k, "
				       "4k,64k; fio reads '1.5k' as 1 byte: write 1536), got '%s'", n->file, n->line,
				       kv->value ? kv->value : "");
	}
	/* the block size of the direction the workload does (reads first) */
	dir = w->read_pct > 0 ? 0 : (strstr(w->rw, "trim") && strcmp(w->rw, "trimwrite") ? 2 : 1);
	w->bs_bytes = b[dir];
	free(w->bssplit);
	w->bssplit = NULL;
	if ((split = take(n, "bssplit")) && split->value) {
		char *c = bssplit_canonical(split->value, n->kb_base, n->flags);
		if (!c)
			return err_set(n->err, ERR_INPUT, "%s:%d: 'bssplit' is not a split fio reads, or its "
				       "percentages do not add up to 100 (e.g. 4k/30:64k/70), got '%s'", n->file, n->line, split->value);
		free(c);
		w->bssplit = xstrdup(split->value);
		if (!kv)
			w->bs_bytes = 0;
	}
	return 0;
}

static int norm_size(struct norm *n, struct workload *w)
{
	const struct kv *kv = take(n, "size");
	uint64_t b;

	free(w->size);
	w->size = NULL;
	if (!kv || !kv->value)
		return 0;
	if (fio_opt_size(kv->value, n->kb_base, n->flags, &b) < 0)
		return err_set(n->err, ERR_INPUT, "%s:%d: 'size' is not a size fio reads (e.g. 1g, 100%%), got '%s'",
			       n->file, n->line, kv->value);
	w->size = xstrdup(kv->value);
	return 0;
}

int fio_options_normalise(const struct kvlist *opts, const struct fio_opt_locs *locs, const char *file, int line,
			  unsigned flags, struct workload *w, struct errbuf *err)
{
	struct norm n = { opts, locs, file ? file : "(options)", line, flags, fio_opt_kb_base(opts), err, NULL, 0 };

	if (norm_rw(&n, w) < 0 || norm_mix(&n, w) < 0 || norm_bs(&n, w) < 0)
		return -1;
	if (count_opt(&n, "iodepth", &w->iodepth) < 0 || count_opt(&n, "numjobs", &w->numjobs) < 0)
		return -1;
	if (time_opt(&n, "runtime", &w->runtime_s) < 0 || time_opt(&n, "ramp_time", &w->ramp_s) < 0)
		return -1;
	if (norm_size(&n, w) < 0)
		return -1;
	if (pct_opt(&n, "buffer_compress_percentage", 0, &w->compress_pct) < 0 ||
	    pct_opt(&n, "dedupe_percentage", 0, &w->dedupe_pct) < 0)
		return -1;
	return 0;
}

/* ---- roles and canonical values for the identity ---------------------------------------------------- */

enum val_kind { V_AUTO = 0, V_SIZE3, V_INT3, V_TIME_US, V_FLAG, V_TEXT, V_BSSPLIT, V_RW, V_SIZE_PCT };

static const struct opt_info {
	const char *name;
	enum fio_opt_role role;
	enum val_kind kind;
	const char *def;       /* fio's default in canonical form: an option with it is left out; NULL: none */
} opt_table[] = {
#define M(name, kind, def) { #name, FIO_OPT_MODELLED, kind, def }
#define L(name, kind, def) { #name, FIO_OPT_LOAD, kind, def }
	/* the modelled options: normalised workload fields (kb_base is applied to every value) */
	M(rw, V_RW, NULL), M(bs, V_SIZE3, "4096"), M(bssplit, V_BSSPLIT, NULL), M(rwmixread, V_AUTO, "50"),
	M(rwmixwrite, V_AUTO, "50"), M(percentage_random, V_INT3, "100"), M(iodepth, V_AUTO, "1"),
	M(numjobs, V_AUTO, "1"), M(size, V_SIZE_PCT, NULL), M(buffer_compress_percentage, V_AUTO, "0"),
	M(dedupe_percentage, V_AUTO, "0"), M(kb_base, V_TEXT, NULL),
	/* options that change the load, by the kind of their value, with fio's default */
	L(direct, V_FLAG, "0"), L(buffered, V_FLAG, "1"), L(end_fsync, V_FLAG, "0"), L(fsync_on_close, V_FLAG, "0"),
	L(randrepeat, V_FLAG, "1"), L(norandommap, V_FLAG, "0"), L(refill_buffers, V_FLAG, "0"),
	L(scramble_buffers, V_FLAG, "1"), L(zero_buffers, V_FLAG, "0"), L(invalidate, V_FLAG, "1"),
	L(overwrite, V_FLAG, "0"),
	L(thinktime, V_TIME_US, "0"), L(thinktime_spin, V_TIME_US, "0"), L(thinktime_iotime, V_TIME_US, "0"),
	L(latency_target, V_TIME_US, "0"), L(latency_window, V_TIME_US, "0"), L(max_latency, V_TIME_US, "0"),
	L(rate, V_SIZE3, "0"), L(rate_min, V_SIZE3, "0"), L(ba, V_SIZE3, NULL), L(rate_iops, V_INT3, "0"),
	L(rate_iops_min, V_INT3, "0"), L(fsync, V_AUTO, "0"), L(fdatasync, V_AUTO, "0"),
	L(ioengine, V_TEXT, "psync"), L(sync, V_TEXT, "0"), L(verify, V_TEXT, "0"),
	L(random_distribution, V_TEXT, "random"), L(random_generator, V_TEXT, NULL), L(cpus_allowed, V_TEXT, NULL),
	L(sync_file_range, V_TEXT, NULL),
#undef M
#undef L
};

/* Options that do not change the load (value kind V_TEXT, no default). runtime and ramp_time: how long, not
 * what (runtime_s and ramp_s keep them). */
static const char *const no_load_names[] = {
	"name", "description", "filename", "directory", "filename_format", "unique_filename", "opendir", "output",
	"output-format", "runtime", "ramp_time", "time_based", "startdelay", "group_reporting", "new_group",
	"stonewall", "thread", "unified_rw_reporting", "percentile_list", "clat_percentiles", "lat_percentiles",
	"slat_percentiles", "significant_figures", "disable_lat", "disable_clat", "disable_slat",
	"disable_bw_measurement", "stats", "gtod_reduce", "clocksource", "unit_base", "bwavgtime", "iopsavgtime",
	"exitall", "exitall_on_error", "exec_prerun", "exec_postrun", "write_iolog", "per_job_logs", "steadystate",
	"steadystate_duration", "steadystate_ramp_time", NULL,
};
static const struct opt_info no_load_info = { NULL, FIO_OPT_NO_LOAD, V_TEXT, NULL };

/* Option-name prefixes that do not change the load: fio's logs (write_bw_log, log_avg_msec ...) and bench's
 * own keys (bench.label.K, bench.disks). */
static const char *const no_load_prefixes[] = { "write_bw_log", "write_lat_log", "write_iops_log",
						"write_hist_log", "log_", "bench.", NULL };

static const struct opt_info *opt_find(const char *name)
{
	const char *c = fio_opt_canonical_name(name);

	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (!strcmp(opt_table[i].name, c))
			return &opt_table[i];
	for (size_t i = 0; no_load_names[i]; i++)
		if (!strcmp(no_load_names[i], c))
			return &no_load_info;
	return NULL;
}

enum fio_opt_role fio_opt_role(const char *name)
{
	const struct opt_info *o = opt_find(name);

	if (o)
		return o->role;
	for (size_t i = 0; no_load_prefixes[i]; i++)
		if (!strncmp(name, no_load_prefixes[i], strlen(no_load_prefixes[i])))
			return FIO_OPT_NO_LOAD;
	return FIO_OPT_LOAD;
}

/* One direction's value of a V_SIZE3/V_INT3 option in canonical text, or NULL when it does not parse. */
static char *num_canonical(const char *v, unsigned kb_base, const char *def)
{
	uint64_t x;

	if (!*v)
		return xstrdup(def ? def : "");
	if (fio_opt_size(v, kb_base, 0, &x) != 0)
		return NULL;
	return xasprintf("%" PRIu64, x);
}

/* "r,w,t" values: each direction canonical, one value when all three agree. */
static char *split3_canonical(const char *v, unsigned kb_base, const char *def)
{
	char *d3[3], *c[3];
	char *out = NULL;

	split3(v, d3);
	for (int d = 0; d < 3; d++)
		c[d] = num_canonical(d3[d], kb_base, def);
	if (c[0] && c[1] && c[2]) {
		if (!strcmp(c[0], c[1]) && !strcmp(c[1], c[2]))
			out = xstrdup(c[0]);
		else
			out = xasprintf("%s,%s,%s", c[0], c[1], c[2]);
	}
	free3(c);
	free3(d3);
	return out;
}

static char *flag_canonical(const char *v)
{
	long long x;
	char *end;

	if (!v)
		return xstrdup("1");
	errno = 0;
	x = strtoll(v, &end, 10);
	if (end == v || *end || errno)
		return NULL;
	return xstrdup(x ? "1" : "0");
}

static char *rw_canonical(const char *v, unsigned kb_base)
{
	size_t blen = strcspn(v, ":");
	char *base = xstrndup(v, blen), *out;
	uint64_t stride;

	if (!strcmp(base, "readwrite")) {
		free(base);
		base = xstrdup("rw");
	}
	if (v[blen] && fio_opt_size(v + blen + 1, kb_base, 0, &stride) == 0)
		out = stride > 1 ? xasprintf("%s:%" PRIu64, base, stride) : xstrdup(base);
	else
		out = v[blen] ? xstrdup(v) : xstrdup(base);
	free(base);
	return out;
}

static char *value_canonical(const struct opt_info *o, const char *value, unsigned kb_base)
{
	enum val_kind k = o ? o->kind : V_AUTO;
	const char *def = o ? o->def : NULL;
	uint64_t x;
	int rc;

	switch (k) {
	case V_SIZE3:
	case V_INT3:
		return value ? split3_canonical(value, kb_base, def) : NULL;
	case V_BSSPLIT:
		return value ? bssplit_canonical(value, kb_base, 0) : NULL;
	case V_RW:
		return value ? rw_canonical(value, kb_base) : NULL;
	case V_FLAG:
		return flag_canonical(value);
	case V_TIME_US:
		if (value && fio_opt_time_us(value, 1, 0, &x) == 0)
			return xasprintf("%" PRIu64, x);
		return NULL;
	case V_SIZE_PCT:
		if (!value)
			return NULL;
		rc = fio_opt_size(value, kb_base, 0, &x);
		return rc < 0 ? NULL : xasprintf(rc ? "%" PRIu64 "%%" : "%" PRIu64, x);
	case V_TEXT:
		return xstrdup(value ? value : "1");
	case V_AUTO:
	default:
		if (!value)
			return xstrdup("1");
		/* a number as fio reads it, anything else as written */
		if (fio_opt_size(value, kb_base, FIO_OPT_STRICT, &x) == 0)
			return xasprintf("%" PRIu64, x);
		return NULL;
	}
}

char *fio_opt_value_canonical(const char *name, const char *value, unsigned kb_base)
{
	const struct opt_info *o = opt_find(name);
	char *c = value_canonical(o, value, kb_base);

	if (!c)
		c = xstrdup(value ? value : "1"); /* not readable: verbatim, so that it still differs */
	if (o && o->def && !strcmp(c, o->def)) {
		free(c);
		return NULL;
	}
	return c;
}
