/*
 * fio_json: fio's JSON and JSON+ output of any version (2.x and 3.x) into model structs, exactly (see fio_json.h
 * and docs/fio-facts.md). The text may hold noise before or after the JSON and several documents one
 * after another (--status-interval, SIGUSR1): every document that starts at the beginning of a line is parsed
 * and the last one is kept. Numbers are copied as fio printed them; only units change (2.x microseconds ->
 * nanoseconds, KiB -> bytes for io_bytes before fio 2.21). Figures fio did not print in old versions are
 * derived the way fio itself computes them (bw_bytes = 1000 * io_bytes / runtime, N = total_ios).
 */
#include "engines/fio_json.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/strbuf.h"

static void fio_job_release(struct fio_job *j);

void fio_output_release(struct fio_output *o)
{
	if (!o)
		return;
	free(o->fio_version);
	kvlist_release(&o->global_options);
	ARRAY_RELEASE(o->jobs, o->njobs, fio_job_release);
	free(o->text_before);
	fio_output_init(o);
}

unsigned fio_version_number(const char *s)
{
	unsigned part[3] = { 0, 0, 0 };
	int i = 0;

	if (!s)
		return 0;
	if (!strncmp(s, "fio-", 4))
		s += 4;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (i < 3 && isdigit((unsigned char)*s)) {
		unsigned v = 0;
		while (isdigit((unsigned char)*s) && v < 1000)
			v = v * 10 + (unsigned)(*s++ - '0');
		part[i++] = v > 99 ? 99 : v;
		if (*s != '.')
			break;
		s++;
	}
	return part[0] * 10000 + part[1] * 100 + part[2];
}

void fio_output_init(struct fio_output *o)
{
	memset(o, 0, sizeof(*o));
	kvlist_init(&o->global_options);
}

/* ---- small typed readers ------------------------------------------------------------------------ */

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int num(const cJSON *o, const char *key, double *out)
{
	const cJSON *v = get(o, key);

	if (!cJSON_IsNumber(v))
		return 0;
	*out = v->valuedouble;
	return 1;
}

static uint64_t to_u64(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)(v + 0.5); /* fio prints integers: exact below 2^53 */
}

/* Clamped conversions: a wild number in a file must not be undefined behaviour. */
static int to_int(double v)
{
	return v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? -2147483647 - 1 : isnan(v) ? 0 : (int)v;
}

/* Option values as text: fio prints strings, but be lenient with numbers and booleans. */
static char *value_text(const cJSON *v)
{
	if (cJSON_IsString(v))
		return xstrdup(v->valuestring);
	if (cJSON_IsNumber(v)) {
		char buf[64];
		if (v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9e15)
			snprintf(buf, sizeof(buf), "%lld", (long long)v->valuedouble);
		else
			snprintf(buf, sizeof(buf), "%.17g", v->valuedouble);
		return xstrdup(buf);
	}
	if (cJSON_IsBool(v))
		return xstrdup(cJSON_IsTrue(v) ? "1" : "0");
	return NULL;
}

/* Adds every member of an options object; a key seen again (fio 3.x client mode repeats the global options
 * once per server) replaces the earlier value in place. */
static void read_options(const cJSON *o, struct kvlist *out)
{
	const cJSON *c;

	if (!cJSON_IsObject(o))
		return;
	cJSON_ArrayForEach(c, o) {
		char *v;
		if (!c->string)
			continue;
		v = value_text(c);
		kvlist_set(out, c->string, v);
		free(v);
	}
}

/* ---- one direction ------------------------------------------------------------------------------ */

struct ctx {
	const char *name;   /* file name for messages */
	unsigned version;   /* fio_version_number */
};

static void read_lat(const cJSON *o, double scale, uint64_t ios, struct lat_summary *l)
{
	double v;

	memset(l, 0, sizeof(*l));
	if (!cJSON_IsObject(o))
		return;
	l->present = 1;
	if (num(o, "min", &v))
		l->min_ns = to_u64(v * scale);
	if (num(o, "max", &v))
		l->max_ns = to_u64(v * scale);
	if (num(o, "mean", &v))
		l->mean_ns = v * scale;
	if (num(o, "stddev", &v))
		l->stddev_ns = v * scale;
	if (num(o, "N", &v))
		l->n = to_u64(v);
	else if (l->max_ns || l->mean_ns > 0)
		l->n = ios; /* fio < 3.18: every IO gives one sample */
}

static int pct_cmp(const void *a, const void *b)
{
	const struct percentile *x = a, *y = b;
	return x->pct < y->pct ? -1 : x->pct > y->pct;
}

static void read_percentiles(const cJSON *o, double scale, struct dir_result *d)
{
	const cJSON *c;
	size_t n = 0, cap = 0, j = 0;

	cJSON_ArrayForEach(c, o) {
		char *end;
		double p;

		if (!c->string || !cJSON_IsNumber(c))
			continue;
		errno = 0;
		p = strtod(c->string, &end);
		if (errno || end == c->string || *end || !(p > 0) || p > 100)
			continue; /* fio 2.x pads the list with "0.00" : 0 */
		ARRAY_GROW(d->pct, cap, n + 1);
		d->pct[n].pct = p;
		d->pct[n].value_ns = to_u64(c->valuedouble * scale);
		n++;
	}
	if (n)
		qsort(d->pct, n, sizeof(*d->pct), pct_cmp);
	for (size_t i = 0; i < n; i++)
		if (!j || d->pct[j - 1].pct != d->pct[i].pct)
			d->pct[j++] = d->pct[i];
	d->npct = j;
	if (!j) {
		free(d->pct);
		d->pct = NULL;
	}
}

/* fio's plat_idx_to_val for FIO_IO_U_PLAT_BITS 6 (the layout of every version). */
static uint64_t plat_idx_to_val(unsigned idx)
{
	unsigned eb;

	if (idx < 128)
		return idx;
	eb = (idx >> 6) - 1;
	return (1ULL << (eb + 6)) + (uint64_t)(((double)(idx % 64) + 0.5) * (double)(1ULL << eb));
}

/*
 * json+ bins. 2.99 and later: key = bucket value in ns. 2.20-2.21: key = value in us. 2.2.12-2.19: key = bucket
 * index (plus FIO_IO_U_PLAT_* keys), value = plat_idx_to_val(index) in us.
 */
static void read_bins(const struct ctx *cx, const cJSON *o, struct dir_result *d)
{
	const cJSON *c;
	size_t n = 0, cap = 0;
	int by_index = get(o, "FIO_IO_U_PLAT_NR") != NULL ||
		       (cx->version && cx->version < 22000 && cx->version >= 20212);
	uint64_t mult = cx->version && cx->version < 29900 ? 1000 : 1;

	cJSON_ArrayForEach(c, o) {
		char *end;
		unsigned long long k;
		uint64_t cnt;

		if (!c->string || !cJSON_IsNumber(c) || !isdigit((unsigned char)c->string[0]))
			continue;
		errno = 0;
		k = strtoull(c->string, &end, 10);
		if (errno || *end)
			continue;
		cnt = to_u64(c->valuedouble);
		if (!cnt || (by_index && k >= 29 * 64))
			continue; /* no such bucket in any fio layout */
		ARRAY_GROW(d->bins, cap, n + 1);
		d->bins[n].value_ns = (by_index ? plat_idx_to_val((unsigned)k) : (uint64_t)k) * mult;
		d->bins[n].count = cnt;
		n++;
	}
	d->nbins = n;
	hist_normalise(d->bins, &d->nbins);
	if (!d->nbins) {
		free(d->bins);
		d->bins = NULL;
	}
}

static void read_dir(const struct ctx *cx, const cJSON *o, int asked, struct dir_result *d)
{
	double v, scale;
	const char *names[3][2] = { { "lat_ns", "lat" }, { "clat_ns", "clat" }, { "slat_ns", "slat" } };
	struct lat_summary *sums[3] = { &d->lat, &d->clat, &d->slat };
	const cJSON *lobj[3];
	const cJSON *pobj = NULL;
	int ns = get(o, "clat_ns") || get(o, "lat_ns") || get(o, "slat_ns");

	dir_result_init(d);
	if (num(o, "io_bytes", &v)) {
		/* io_bytes was KiB until fio 2.21 added io_kbytes */
		int kib = !get(o, "io_kbytes") && !(cx->version >= 22100);
		d->bytes = to_u64(kib ? v * 1024.0 : v);
	}
	if (num(o, "runtime", &v))
		d->runtime_ms = to_u64(v);
	if (num(o, "iops", &v))
		d->iops = v;
	if (num(o, "bw_bytes", &v))
		d->bw_bytes = v;
	else if (d->runtime_ms) /* how fio computes it */
		d->bw_bytes = (double)(uint64_t)(((unsigned __int128)d->bytes * 1000) / d->runtime_ms);
	if (num(o, "total_ios", &v))
		d->ios = to_u64(v);
	else if (d->runtime_ms) /* fio < 2.2 does not print the count */
		d->ios = to_u64(d->iops * (double)d->runtime_ms / 1000.0);
	if (num(o, "short_ios", &v))
		d->short_ios = to_u64(v);
	if (num(o, "drop_ios", &v))
		d->drop_ios = to_u64(v);
	scale = ns ? 1.0 : 1000.0;
	for (int i = 0; i < 3; i++) {
		lobj[i] = get(o, names[i][ns ? 0 : 1]);
		read_lat(lobj[i], scale, d->ios, sums[i]);
	}
	/* lat_percentiles=1 puts them under lat; otherwise clat (the default) */
	if (cJSON_IsObject(lobj[0]) && cJSON_IsObject(get(lobj[0], "percentile"))) {
		pobj = lobj[0];
		memcpy(d->pct_kind, "lat", 4);
	} else if (cJSON_IsObject(lobj[1]) && cJSON_IsObject(get(lobj[1], "percentile"))) {
		pobj = lobj[1];
		memcpy(d->pct_kind, "clat", 5);
	}
	d->present = asked || d->ios || d->bytes;
	if (pobj && d->ios) {
		read_percentiles(get(pobj, "percentile"), scale, d);
		if (cJSON_IsObject(get(pobj, "bins")))
			read_bins(cx, get(pobj, "bins"), d);
	}
	if (!d->npct && !d->nbins)
		d->pct_kind[0] = '\0';
}

/* Which directions the job's rw= asks for. */
static void asked_dirs(const struct kvlist *opts, int asked[3])
{
	const char *rw = kvlist_get(opts, "rw", kvlist_get(opts, "readwrite", NULL));

	asked[0] = asked[1] = asked[2] = 0;
	if (!rw)
		return;
	if (!strcmp(rw, "read") || !strcmp(rw, "randread"))
		asked[0] = 1;
	else if (!strcmp(rw, "write") || !strcmp(rw, "randwrite"))
		asked[1] = 1;
	else if (!strcmp(rw, "trim") || !strcmp(rw, "randtrim"))
		asked[2] = 1;
	else if (!strcmp(rw, "trimwrite"))
		asked[1] = asked[2] = 1;
	else if (!strcmp(rw, "rw") || !strcmp(rw, "readwrite") || !strcmp(rw, "randrw"))
		asked[0] = asked[1] = 1;
}

/* ---- one job --------------------------------------------------------------------------------------- */

static int read_job(const struct ctx *cx, const cJSON *j, const cJSON *doc, const struct kvlist *globals,
		    const char *version, const char *where, struct fio_job *job, struct errbuf *err)
{
	const cJSON *v;
	const char *dnames[3] = { "read", "write", "trim" };
	int asked[3];
	double x;

	if (!cJSON_IsObject(j))
		return err_set(err, ERR_INPUT, "%s: not fio output: a job entry is not an object", cx->name);
	v = get(j, "jobname");
	if (!cJSON_IsString(v))
		return err_set(err, ERR_INPUT, "%s: not fio output: a job entry has no 'jobname'", cx->name);
	job->jobname = xstrdup(v->valuestring);
	if (num(j, "groupid", &x))
		job->groupid = to_int(x);
	v = get(j, "hostname");
	if (cJSON_IsString(v))
		job->hostname = xstrdup(v->valuestring);
	if (num(j, "port", &x))
		job->port = (unsigned)to_int(x);
	kvlist_copy(&job->options, globals);
	read_options(get(j, "job options"), &job->options);
	if (fio_ss_read(j, get(doc, "global options"), &job->ss, err) < 0)
		return err_prefix(err, "%s: %s", cx->name, where);

	host_result_init(&job->res, job->hostname ? job->hostname : "localhost");
	job->res.fio_version = xstrdup(version);
	if (num(j, "error", &x))
		job->res.error = to_int(x);
	if (num(j, "usr_cpu", &x))
		job->res.usr_cpu_pct = x;
	if (num(j, "sys_cpu", &x))
		job->res.sys_cpu_pct = x;
	if (num(j, "job_start", &x) && x > 0 && x < 9.2e15)
		job->res.job_start_ms = x; /* newer fio: when the job started, ms since the epoch */
	asked_dirs(&job->options, asked);
	for (int d = 0; d < 3; d++) {
		v = get(j, dnames[d]);
		if (cJSON_IsObject(v))
			read_dir(cx, v, asked[d], &job->res.dir[d]);
	}
	v = get(j, "mixed");
	if (cJSON_IsObject(v)) {
		/* unified_rw_reporting: fio's own total over all directions */
		read_dir(cx, v, 1, &job->res.dir[DDIR_TOTAL]);
	} else {
		host_result_total(&job->res);
	}
	return 0;
}

/* ---- validation: figures fio cannot have written ----------------------------------------------- */

/*
 * A stored figure must be one fio could print: a JSON number (not "lots"), finite and not negative. Each
 * error names the file and the JSON path of the value (jobs[2].read.total_ios).
 */
static int check_number(const struct ctx *cx, const cJSON *o, const char *key, const char *where,
			struct errbuf *err)
{
	const cJSON *v = get(o, key);

	if (!v)
		return 0;
	if (!cJSON_IsNumber(v)) {
		char *txt = cJSON_PrintUnformatted(v);
		err_set(err, ERR_INPUT, "%s: %s.%s: not a number (%.40s)", cx->name, where, key, txt ? txt : "?");
		free(txt);
		return -1;
	}
	if (!isfinite(v->valuedouble) || v->valuedouble < 0)
		return err_set(err, ERR_INPUT, "%s: %s.%s: %g is negative: fio never prints that", cx->name, where,
			       key, v->valuedouble);
	return 0;
}

static int check_bins(const struct ctx *cx, const cJSON *bins, const char *where, struct errbuf *err)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, bins) {
		const char *k = c->string ? c->string : "";
		size_t i = 0;

		if (!strncmp(k, "FIO_IO_U_PLAT_", 14))
			continue; /* fio 2.x layout constants */
		while (isdigit((unsigned char)k[i]))
			i++;
		if (!i || k[i] || i > 19) {
			char shown[41]; /* the key as text that stays on one line: control bytes become '?' */
			size_t n = 0;
			for (; k[n] && n < sizeof(shown) - 1; n++)
				shown[n] = (unsigned char)k[n] < 0x20 || k[n] == 0x7f ? '?' : k[n];
			shown[n] = 0;
			return err_set(err, ERR_INPUT, "%s: %s.bins: key \"%s\" is not a bucket value", cx->name, where,
				       shown);
		}
		if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || c->valuedouble < 0 ||
		    c->valuedouble != floor(c->valuedouble))
			return err_set(err, ERR_INPUT, "%s: %s.bins.%s: the count is not a whole number >= 0", cx->name,
				       where, k);
	}
	return 0;
}

static int check_lat(const struct ctx *cx, const cJSON *l, const char *where, struct errbuf *err)
{
	static const char *const keys[] = { "min", "max", "mean", "stddev", "N" };
	const cJSON *pc = get(l, "percentile"), *c;
	char *sub;
	int ret = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (check_number(cx, l, keys[i], where, err) < 0)
			return -1;
	if (cJSON_IsObject(pc))
		cJSON_ArrayForEach(c, pc) {
			if (!cJSON_IsNumber(c) || c->valuedouble < 0)
				return err_set(err, ERR_INPUT, "%s: %s.percentile.%s: not a latency", cx->name, where,
					       c->string ? c->string : "?");
		}
	sub = xasprintf("%s", where);
	if (cJSON_IsObject(get(l, "bins")))
		ret = check_bins(cx, get(l, "bins"), sub, err);
	free(sub);
	return ret;
}

/* IOs and IOPS x runtime agree as fio computes IOPS (1000 * total_ios / runtime_ms), up to its rounding. */
static int check_dir(const struct ctx *cx, const cJSON *o, const char *where, struct errbuf *err)
{
	static const char *const keys[] = { "io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime",
					    "total_ios", "short_ios", "drop_ios" };
	static const char *const lats[] = { "lat_ns", "clat_ns", "slat_ns", "lat", "clat", "slat" };
	double ios, iops, rt;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (check_number(cx, o, keys[i], where, err) < 0)
			return -1;
	for (size_t i = 0; i < sizeof(lats) / sizeof(lats[0]); i++) {
		const cJSON *l = get(o, lats[i]);
		if (cJSON_IsObject(l)) {
			char *w = xasprintf("%s.%s", where, lats[i]);
			int ret = check_lat(cx, l, w, err);
			free(w);
			if (ret < 0)
				return -1;
		}
	}
	if (num(o, "total_ios", &ios) && num(o, "iops", &iops) && num(o, "runtime", &rt) && rt > 0) {
		double want = iops * rt / 1000.0;
		if (fabs(ios - want) > 1.0 + rt / 1000.0 + ios * 1e-3)
			return err_set(err, ERR_INPUT,
				       "%s: %s.total_ios: %.0f IOs, but iops %g x runtime %.0f ms is %.0f IOs", cx->name,
				       where, ios, iops, rt, want);
	}
	return 0;
}

/*
 * fio counts a direction that did any IO as at least 1 ms (backend.c rounds elapsed microseconds up), so IOs
 * or bytes with runtime 0 are not fio's: they would give an infinite rate.
 */
static int check_runtime(const struct ctx *cx, const cJSON *o, const char *where, const char *job,
			 struct errbuf *err)
{
	double rt, ios = 0, bytes = 0;

	if (!num(o, "runtime", &rt) || rt != 0)
		return 0;
	(void)num(o, "total_ios", &ios);
	(void)num(o, "io_bytes", &bytes);
	if (ios > 0 || bytes > 0)
		return err_set(err, ERR_INPUT,
			       "%s: %s.runtime: job '%s' has %.0f IOs (%.0f bytes) in 0 ms: fio counts a direction "
			       "that did IO as at least 1 ms", cx->name, where, job, ios, bytes);
	return 0;
}

static int check_job(const struct ctx *cx, const cJSON *j, const char *where, struct errbuf *err)
{
	static const char *const dirs[] = { "read", "write", "trim", "mixed" };
	const char *job = cJSON_GetStringValue(get(j, "jobname"));
	int found = 0;

	if (!cJSON_IsObject(j))
		return 0; /* read_job says so */
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		const cJSON *o = get(j, dirs[d]);
		char *w;
		int ret;

		if (!o)
			continue;
		w = xasprintf("%s.%s", where, dirs[d]);
		ret = cJSON_IsObject(o) ? check_dir(cx, o, w, err)
					: err_set(err, ERR_INPUT, "%s: %s: not an object", cx->name, w);
		if (ret == 0)
			ret = check_runtime(cx, o, w, job ? job : "?", err);
		free(w);
		if (ret < 0)
			return -1;
		found = 1;
	}
	if (!found)
		return err_set(err, ERR_INPUT, "%s: %s: no read, write, trim or mixed results", cx->name, where);
	return 0;
}

/* ---- documents ------------------------------------------------------------------------------------ */

static int line_of(const char *text, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

/* Whether position i starts a candidate document: '{' first on its line, or right after a document. */
static size_t next_candidate(const char *text, size_t len, size_t from)
{
	for (size_t i = from; i < len; i++) {
		if (text[i] != '{')
			continue;
		if (i == 0 || text[i - 1] == '\n' || text[i - 1] == '\r')
			return i;
		/* leading blanks on the first line of the text */
		size_t k = i;
		while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t'))
			k--;
		if (k == 0)
			return i;
	}
	return len;
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * A NUL character inside a JSON string of text[from, to) (the escape \u0000 or a raw 0 byte): cJSON ends its
 * C strings there, so the key "io\u0000_bytes" would silently become "io". fio never writes one (its strings
 * are C strings). Returns the offset of the first, or `to` when there is none; *path gets the JSON path of
 * the object or array holding it ("jobs[0].read"), as far as 32 levels.
 */
#define NUL_SCAN_DEPTH 32
struct scan_frame {
	int array;
	size_t index;            /* array: the element */
	size_t key_at, key_len;  /* object: the current key in text */
};

static void scan_path(const char *text, const struct scan_frame *f, size_t depth, struct strbuf *path)
{
	for (size_t i = 1; i < depth && i < NUL_SCAN_DEPTH; i++) {
		if (f[i - 1].array)
			strbuf_addf(path, "[%zu]", f[i - 1].index);
		else
			strbuf_addf(path, "%s%.*s", path->len ? "." : "", (int)f[i - 1].key_len, text + f[i - 1].key_at);
	}
}

static size_t nul_in_strings(const char *text, size_t from, size_t to, struct strbuf *path)
{
	struct scan_frame f[NUL_SCAN_DEPTH];
	size_t depth = 0, str_at = 0, last_at = 0, last_len = 0;
	int in_string = 0;

	for (size_t i = from; i < to; i++) {
		char c = text[i];

		if (c == '\0' || (in_string && c == '\\' && i + 5 < to && !memcmp(text + i + 1, "u0000", 5))) {
			scan_path(text, f, depth, path);
			return i;
		}
		if (in_string) {
			if (c == '\\')
				i++; /* the escaped character */
			else if (c == '"') {
				in_string = 0;
				last_at = str_at;
				last_len = i - str_at;
			}
			continue;
		}
		if (c == '"') {
			in_string = 1;
			str_at = i + 1;
		} else if (c == '{' || c == '[') {
			if (depth < NUL_SCAN_DEPTH)
				f[depth] = (struct scan_frame){ c == '[', 0, 0, 0 };
			depth++;
		} else if ((c == '}' || c == ']') && depth) {
			depth--;
		} else if (c == ',' && depth && depth <= NUL_SCAN_DEPTH && f[depth - 1].array) {
			f[depth - 1].index++;
		} else if (c == ':' && depth && depth <= NUL_SCAN_DEPTH) {
			f[depth - 1].key_at = last_at;
			f[depth - 1].key_len = last_len;
		}
	}
	return to;
}

static int read_document(const struct ctx *cx, const cJSON *doc, struct fio_output *out, struct errbuf *err)
{
	const cJSON *ver = get(doc, "fio version"), *arr, *j;
	double x;
	int cs = 0;
	size_t idx = 0;

	arr = get(doc, "jobs");
	if (!cJSON_IsArray(arr)) {
		arr = get(doc, "client_stats");
		cs = 1;
	}
	if (!cJSON_IsString(ver) || !cJSON_IsArray(arr))
		return err_set(err, ERR_INPUT, "%s: not fio output: a JSON document without 'fio version' and 'jobs'",
			       cx->name);
	out->fio_version = xstrdup(ver->valuestring);
	if (num(doc, "timestamp_ms", &x))
		out->timestamp_ms = x > 0 && x < 9.2e18 ? (int64_t)x : 0;
	else if (num(doc, "timestamp", &x)) /* client/server output and fio 2.x: seconds only */
		out->timestamp_ms = x > 0 && x < 9.2e15 ? (int64_t)x * 1000 : 0;
	out->client_server = cs;
	read_options(get(doc, "global options"), &out->global_options);
	cJSON_ArrayForEach(j, arr) {
		const cJSON *jn = get(j, "jobname");
		struct fio_job *job;
		char where[48];

		snprintf(where, sizeof(where), "%s[%zu]", cs ? "client_stats" : "jobs", idx++);
		if (cs && cJSON_IsString(jn) && !strcmp(jn->valuestring, "All clients"))
			continue;
		ARRAY_GROW(out->jobs, out->cap, out->njobs + 1);
		job = &out->jobs[out->njobs++];
		memset(job, 0, sizeof(*job));
		kvlist_init(&job->options);
		if (read_job(cx, j, doc, &out->global_options, out->fio_version, where, job, err) < 0 ||
		    check_job(cx, j, where, err) < 0)
			return -1;
	}
	return 0;
}

struct host_result *fio_job_take_result(struct fio_job *job, struct run_result *r, const char *host)
{
	struct host_result *h = run_result_add_host(r, host);

	host_result_release(h);
	*h = job->res;
	memset(&job->res, 0, sizeof(job->res));
	free(h->host);
	h->host = xstrdup(host);
	return h;
}

void fio_jobs_combine(const struct fio_job *const *jobs, size_t n, struct host_result *h)
{
	const struct dir_result **parts = xcalloc(n ? n : 1, sizeof(*parts));
	double usr = 0, sys = 0;
	size_t ncpu = 0;
	int has_dirs = 0;

	for (int d = 0; d < DDIR_TOTAL; d++) {
		for (size_t i = 0; i < n; i++) {
			parts[i] = &jobs[i]->res.dir[d];
			has_dirs |= parts[i]->present;
		}
		dir_combine(&h->dir[d], parts, n);
	}
	if (has_dirs) {
		host_result_total(h);
	} else {
		for (size_t i = 0; i < n; i++)
			parts[i] = &jobs[i]->res.dir[DDIR_TOTAL];
		dir_combine(&h->dir[DDIR_TOTAL], parts, n);
	}
	free(parts);
	for (size_t i = 0; i < n; i++) {
		const struct host_result *x = &jobs[i]->res;
		if (!h->fio_version)
			h->fio_version = xstrdup(x->fio_version);
		if (!h->error)
			h->error = x->error;
		if (!isnan(x->usr_cpu_pct)) {
			usr += x->usr_cpu_pct;
			sys += x->sys_cpu_pct;
			ncpu++;
		}
	}
	if (ncpu) {
		h->usr_cpu_pct = usr / (double)ncpu;
		h->sys_cpu_pct = sys / (double)ncpu;
	}
}

void fio_output_ss_labels(const struct fio_output *o, struct kvlist *labels)
{
	struct fio_ss all;

	memset(&all, 0, sizeof(all));
	for (size_t i = 0; i < o->njobs; i++)
		fio_ss_combine(&all, &o->jobs[i].ss);
	fio_ss_labels(&all, labels);
}

int fio_json_parse(const char *text, size_t len, const char *name, struct fio_output *out, struct errbuf *err)
{
	struct ctx cx = { name ? name : "fio output", 0 };
	cJSON *last = NULL;
	size_t pos = 0, first_start = 0, ndocs = 0;
	int ret = -1;

	fio_output_release(out);
	for (;;) {
		const char *end = NULL;
		cJSON *doc;
		size_t at = next_candidate(text, len, pos), doc_end, nul_at;
		struct strbuf path;

		if (at >= len)
			break;
		doc = cJSON_ParseWithLengthOpts(text + at, len - at, &end, 0);
		if (!doc) {
			const char *ep = cJSON_GetErrorPtr();
			size_t off = ep && ep >= text && ep <= text + len ? (size_t)(ep - text) : at;
			/* cJSON points at the last byte when the input ends inside the document */
			if (off + 1 >= len || is_blank(text + off + 1, len - off - 1))
				err_set(err, ERR_INPUT, "%s:%d: truncated JSON: the document that starts here ends early",
					cx.name, line_of(text, at));
			else
				err_set(err, ERR_INPUT, "%s:%d: invalid JSON", cx.name, line_of(text, off));
			goto out;
		}
		if (!cJSON_IsObject(doc) || !get(doc, "fio version")) {
			cJSON_Delete(doc);
			err_set(err, ERR_INPUT, "%s:%d: not fio output: a JSON document without 'fio version'", cx.name,
				line_of(text, at));
			goto out;
		}
		doc_end = end ? (size_t)(end - text) : len;
		strbuf_init(&path);
		nul_at = nul_in_strings(text, at, doc_end, &path);
		if (nul_at < doc_end) {
			cJSON_Delete(doc);
			err_set(err, ERR_INPUT, "%s:%d: %s: a key or string holds a NUL character (\\u0000): not fio "
				"output", cx.name, line_of(text, nul_at), path.len ? path.buf : "(top level)");
			strbuf_release(&path);
			goto out;
		}
		strbuf_release(&path);
		cJSON_Delete(last);
		last = doc;
		if (!ndocs++)
			first_start = at;
		pos = doc_end;
	}
	if (!last) {
		if (is_blank(text, len))
			err_set(err, ERR_INPUT, "%s: empty: no fio JSON output in it", cx.name);
		else
			err_set(err, ERR_INPUT, "%s: not fio output: no JSON document in it", cx.name);
		goto out;
	}
	cx.version = fio_version_number(cJSON_GetStringValue(get(last, "fio version")));
	if (read_document(&cx, last, out, err) < 0)
		goto out;
	if (first_start && !is_blank(text, first_start))
		out->text_before = xstrndup(text, first_start);
	ret = 0;
out:
	cJSON_Delete(last);
	if (ret < 0)
		fio_output_release(out);
	return ret;
}

static void fio_job_release(struct fio_job *j)
{
	free(j->jobname);
	free(j->hostname);
	kvlist_release(&j->options);
	host_result_release(&j->res);
}
