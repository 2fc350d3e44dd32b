/*
 * export: the four renderers of `bench export` (export.h, docs/export.md) and their format-specific
 * escapers. The InfluxDB line-protocol rules (docs.influxdata.com, "line protocol reference", 1.x):
 * measurement names escape commas and spaces; tag keys, tag values and field keys escape commas, equals
 * signs and spaces with a backslash. Line protocol cannot carry a newline in a tag, so newline and carriage
 * return are written as the two characters \n and \r, and a backslash is doubled so that it never escapes
 * the separator after it. OpenMetrics label values escape backslash, double quote and newline; metric names
 * are sanitised to [a-zA-Z_:][a-zA-Z0-9_:]* and label names to [a-zA-Z_][a-zA-Z0-9_]*. CSV and JSON use
 * report/text/escape.h.
 */
#include "export/export.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/text/escape.h"

int export_format_parse(const char *s, enum export_format *out)
{
	static const struct { const char *name; enum export_format f; } names[] = {
		{ "csv", EXPORT_CSV },		 { "json", EXPORT_JSON },
		{ "influx", EXPORT_INFLUX },	 { "line-protocol", EXPORT_INFLUX },
		{ "openmetrics", EXPORT_OPENMETRICS }, { "prometheus", EXPORT_OPENMETRICS },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name)) {
			*out = names[i].f;
			return 0;
		}
	return -1;
}

int export_parse_time_ms(const char *iso, int64_t *ms)
{
	struct tm tm;
	int n = 0, frac_ms = 0;
	const char *p;
	time_t t;

	if (!iso)
		return -1;
	memset(&tm, 0, sizeof(tm));
	if (sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
		   &tm.tm_sec, &n) != 6 || n != 19)
		return -1;
	p = iso + n;
	if (*p == '.') {
		int digits = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 3)
				frac_ms = frac_ms * 10 + (*p - '0');
		if (!digits)
			return -1;
		for (; digits < 3; digits++)
			frac_ms *= 10;
	}
	if (*p == 'Z')
		p++;
	if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	t = timegm(&tm);
	*ms = (int64_t)t * 1000 + frac_ms;
	return 0;
}

/* ---- escapers ----------------------------------------------------------------------------------- */

void export_esc_lp_measurement(struct strbuf *out, const char *s)
{
	esc_backslash(out, s, ", ", 1);
}

void export_esc_lp_key(struct strbuf *out, const char *s)
{
	esc_backslash(out, s, ",= ", 1);
}

void export_esc_om_value(struct strbuf *out, const char *s)
{
	esc_backslash(out, s, "\"", 0);
}

void export_om_name(struct strbuf *out, const char *s, int label)
{
	size_t start = out->len;

	while (s && *s) {
		int32_t c = utf8_next(&s); /* one '_' per character, whatever its UTF-8 length (or validity) */
		int digit = c >= '0' && c <= '9';
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!label && c == ':') || digit;

		if (digit && out->len == start)
			strbuf_addc(out, '_'); /* names cannot start with a digit */
		strbuf_addc(out, ok ? (char)c : '_');
	}
	if (out->len == start)
		strbuf_addc(out, '_');
}

/* The shortest of %.15g..%.17g that reads back as the same double. */
static void add_double(struct strbuf *out, double v)
{
	char buf[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_adds(out, buf);
}

/* ---- what is exported ----------------------------------------------------------------------------- */

/* Tags every point carries before the labels; a label with one of these keys is exported as label_<key>. */
static const char *const fixed_tags[] = { "run", "suite", "workload", "status", "engine", "host", "metric",
					  "job", "instance", NULL };

static int is_fixed(const char *key)
{
	for (int i = 0; fixed_tags[i]; i++)
		if (!strcmp(fixed_tags[i], key))
			return 1;
	return 0;
}

/*
 * The name a label with key `key` is written under, as written: an InfluxDB tag key (label_KEY for a key of
 * fixed_tags), an OpenMetrics label name (sanitised; label_NAME for a fixed one or one starting "__", which
 * Prometheus reserves), a JSON object key or a CSV header cell (label:KEY).
 */
static void label_name(enum export_format fmt, const char *key, struct strbuf *out)
{
	size_t start = out->len;

	switch (fmt) {
	case EXPORT_INFLUX:
		export_esc_lp_key(out, is_fixed(key) ? "label_" : "");
		export_esc_lp_key(out, key);
		break;
	case EXPORT_OPENMETRICS:
		export_om_name(out, key, 1);
		if (is_fixed(out->buf + start) || !strncmp(out->buf + start, "__", 2)) {
			out->len = start;
			out->buf[start] = '\0';
			strbuf_adds(out, "label_");
			export_om_name(out, key, 1);
		}
		break;
	case EXPORT_JSON:
		esc_json(out, key);
		break;
	case EXPORT_CSV: {
		char *h = xasprintf("label:%s", key);
		esc_csv(out, h);
		free(h);
		break;
	}
	}
}

static const char *format_what(enum export_format fmt)
{
	return fmt == EXPORT_INFLUX ? "InfluxDB tag" : fmt == EXPORT_OPENMETRICS ? "OpenMetrics label"
		: fmt == EXPORT_JSON ? "JSON key" : "CSV column";
}

/* ERR_INPUT when two of keys[0..n) would be written under one name (a server refuses a repeated label, and
 * one of the two would be lost): the message names both keys. `run`: the run they belong to, or NULL. */
static int check_names(enum export_format fmt, const char *const *keys, size_t n, const struct rep_run *run,
		       struct errbuf *err)
{
	struct strbuf *names = xcalloc(n ? n : 1, sizeof(*names));
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		strbuf_init(&names[i]);
		label_name(fmt, keys[i], &names[i]);
	}
	for (size_t i = 0; i < n && !ret; i++)
		for (size_t j = i + 1; j < n && !ret; j++)
			if (!strcmp(names[i].buf, names[j].buf)) {
				char id[40] = "";

				if (run)
					snprintf(id, sizeof(id), "run %" PRId64 ": ", run->id);
				ret = err_set(err, ERR_INPUT,
					      "%slabels '%s' and '%s' would both be written as %s %s: rename one of them "
					      "(labels are exported under one name each)", id, keys[i], keys[j],
					      format_what(fmt), names[i].buf);
			}
	for (size_t i = 0; i < n; i++)
		strbuf_release(&names[i]);
	free(names);
	return ret;
}

static const char **label_keys(const struct rep_set *runs, size_t *n);

/* Refuses label keys that collide once written (check_names): per run, and over the CSV header. */
static int check_label_names(enum export_format fmt, const struct rep_set *runs, struct errbuf *err)
{
	const char **keys;
	size_t n;
	int ret = 0;

	if (fmt == EXPORT_CSV) {
		keys = label_keys(runs, &n);
		ret = check_names(fmt, keys, n, NULL, err);
		free(keys);
		return ret;
	}
	for (size_t i = 0; i < runs->n && !ret; i++) {
		const struct rep_run *r = &runs->v[i];

		keys = xcalloc(r->labels.n ? r->labels.n : 1, sizeof(*keys));
		for (size_t k = 0; k < r->labels.n; k++)
			keys[k] = r->labels.v[k].key;
		ret = check_names(fmt, keys, r->labels.n, r, err);
		free(keys);
	}
	return ret;
}

static int sample_time_ms(const struct rep_run *r, const struct admin_sample *p, int64_t *ms)
{
	if (p->t_ms >= EXPORT_EPOCH_MS) {
		*ms = p->t_ms;
		return 0;
	}
	if (export_parse_time_ms(r->started_at, ms) < 0)
		return -1;
	*ms += p->t_ms;
	return 0;
}

static int bad_time(const struct rep_run *r, struct errbuf *err)
{
	return err_set(err, ERR_INPUT, "run %" PRId64 ": started_at '%s' is not an ISO 8601 UTC time", r->id,
		       r->started_at ? r->started_at : "");
}

/* ---- InfluxDB line protocol ------------------------------------------------------------------------- */

static void lp_tag(struct strbuf *out, const char *key, const char *value)
{
	if (!value || !*value) /* line protocol has no empty tag values: the tag is left out */
		return;
	strbuf_addc(out, ',');
	export_esc_lp_key(out, key);
	strbuf_addc(out, '=');
	export_esc_lp_key(out, value);
}

static void lp_tags(struct strbuf *out, const struct rep_run *r, int with_status)
{
	char id[32];

	snprintf(id, sizeof(id), "%" PRId64, r->id);
	lp_tag(out, "run", id);
	lp_tag(out, "suite", r->suite);
	lp_tag(out, "workload", r->name);
	if (with_status) {
		lp_tag(out, "status", r->status);
		lp_tag(out, "engine", r->engine);
	}
	for (size_t i = 0; i < r->labels.n; i++) {
		const struct kv *kv = &r->labels.v[i];

		if (!kv->value || !*kv->value)
			continue;
		strbuf_addc(out, ',');
		label_name(EXPORT_INFLUX, kv->key, out);
		strbuf_addc(out, '=');
		export_esc_lp_key(out, kv->value);
	}
}

static int render_influx(const struct rep_set *runs, const struct admin_sample_list *samples, unsigned flags,
			 struct strbuf *out, size_t *points, struct errbuf *err)
{
	for (size_t i = 0; i < runs->n; i++) {
		const struct rep_run *r = &runs->v[i];
		int64_t t_ms;

		if (export_parse_time_ms(r->started_at, &t_ms) < 0)
			return bad_time(r, err);
		export_esc_lp_measurement(out, "bench_run");
		lp_tags(out, r, 1);
		strbuf_addf(out, " repetition=%di", r->repetition);
		for (int m = 0; m < RM_NR; m++)
			if (!isnan(r->m[m])) {
				strbuf_addf(out, ",%s=", rep_metrics[m].key);
				add_double(out, r->m[m]);
			}
		if (!isnan(r->target_cpu_pct)) {
			strbuf_adds(out, ",target_cpu_pct=");
			add_double(out, r->target_cpu_pct);
		}
		strbuf_addf(out, " %" PRId64 "000000\n", t_ms);
		(*points)++;
		for (size_t k = 0; samples && !(flags & EXPORT_NO_SAMPLES) && k < samples[i].n; k++) {
			const struct admin_sample *p = &samples[i].v[k];

			if (sample_time_ms(r, p, &t_ms) < 0)
				return bad_time(r, err);
			export_esc_lp_measurement(out, "bench_sample");
			lp_tags(out, r, 0);
			lp_tag(out, "host", p->host);
			lp_tag(out, "metric", p->metric);
			strbuf_adds(out, " value=");
			add_double(out, p->value);
			strbuf_addf(out, " %" PRId64 "000000\n", t_ms);
			(*points)++;
		}
	}
	return 0;
}

/* ---- OpenMetrics ------------------------------------------------------------------------------------ */

static void om_label(struct strbuf *out, int *first, const char *key, const char *value)
{
	strbuf_adds(out, *first ? "{" : ",");
	*first = 0;
	export_om_name(out, key, 1);
	strbuf_adds(out, "=\"");
	export_esc_om_value(out, value ? value : "");
	strbuf_addc(out, '"');
}

static void om_series(struct strbuf *out, const char *family, const struct rep_run *r, const char *host,
		      const char *metric)
{
	char id[32];
	int first = 1;

	snprintf(id, sizeof(id), "%" PRId64, r->id);
	strbuf_adds(out, family);
	om_label(out, &first, "run", id);
	om_label(out, &first, "suite", r->suite);
	om_label(out, &first, "workload", r->name);
	if (host) {
		om_label(out, &first, "host", host);
		om_label(out, &first, "metric", metric);
	} else {
		om_label(out, &first, "status", r->status);
		om_label(out, &first, "engine", r->engine);
	}
	for (size_t i = 0; i < r->labels.n; i++) {
		struct strbuf key;

		strbuf_init(&key);
		label_name(EXPORT_OPENMETRICS, r->labels.v[i].key, &key);
		om_label(out, &first, key.buf, r->labels.v[i].value);
		strbuf_release(&key);
	}
	strbuf_adds(out, "} ");
}

static void om_time(struct strbuf *out, int64_t ms, unsigned flags)
{
	if (!(flags & EXPORT_NO_TIMESTAMPS))
		strbuf_addf(out, " %" PRId64 ".%03d", ms / 1000, (int)(ms % 1000));
	strbuf_addc(out, '\n');
}

/* One family per run figure: bench_iops, bench_mbps, ..., bench_run_started_seconds. */
static int om_runs(const struct rep_set *runs, unsigned flags, struct strbuf *out, size_t *points,
		   struct errbuf *err)
{
	for (int m = -1; m <= RM_NR; m++) {
		const char *key = m < 0 ? "run_started_seconds" : m == RM_NR ? "target_cpu_pct" : rep_metrics[m].key;
		const char *help = m < 0 ? "start of the run, Unix seconds" : m == RM_NR ? "target CPU utilisation, %"
						 : rep_metrics[m].title;
		struct strbuf fam;
		int any = 0;

		strbuf_init(&fam);
		strbuf_adds(&fam, "bench_");
		export_om_name(&fam, key, 0);
		for (size_t i = 0; i < runs->n; i++) {
			const struct rep_run *r = &runs->v[i];
			double v = m < 0 || m == RM_NR ? (m < 0 ? 0 : r->target_cpu_pct) : r->m[m];
			int64_t t_ms;

			if (export_parse_time_ms(r->started_at, &t_ms) < 0) {
				strbuf_release(&fam);
				return bad_time(r, err);
			}
			if (m < 0)
				v = (double)t_ms / 1000.0;
			if (isnan(v))
				continue;
			if (!any++)
				strbuf_addf(out, "# TYPE %s gauge\n# HELP %s bench: %s\n", fam.buf, fam.buf, help);
			om_series(out, fam.buf, r, NULL, NULL);
			add_double(out, v);
			om_time(out, t_ms, flags);
			(*points)++;
		}
		strbuf_release(&fam);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One family per sanitised sample metric: bench_sample_iops_read, ...; the raw name is label metric. */
static int om_samples(const struct rep_set *runs, const struct admin_sample_list *samples, unsigned flags,
		      struct strbuf *out, size_t *points, struct errbuf *err)
{
	char **fams = NULL;
	size_t nf = 0, cap = 0;
	int ret = -1;

	for (size_t i = 0; i < runs->n; i++)
		for (size_t k = 0; k < samples[i].n; k++) {
			struct strbuf f;
			int seen = 0;

			strbuf_init(&f);
			strbuf_adds(&f, "bench_sample_");
			export_om_name(&f, samples[i].v[k].metric, 0);
			for (size_t j = 0; j < nf && !seen; j++)
				seen = !strcmp(fams[j], f.buf);
			if (seen) {
				strbuf_release(&f);
				continue;
			}
			ARRAY_GROW(fams, cap, nf + 1);
			fams[nf++] = strbuf_detach(&f, NULL);
		}
	if (nf > 1)
		qsort(fams, nf, sizeof(*fams), cmp_str);
	for (size_t j = 0; j < nf; j++) {
		strbuf_addf(out, "# TYPE %s gauge\n# HELP %s bench sample\n", fams[j], fams[j]);
		for (size_t i = 0; i < runs->n; i++)
			for (size_t k = 0; k < samples[i].n; k++) {
				const struct admin_sample *p = &samples[i].v[k];
				struct strbuf f;
				int64_t t_ms;
				int same;

				strbuf_init(&f);
				strbuf_adds(&f, "bench_sample_");
				export_om_name(&f, p->metric, 0);
				same = !strcmp(f.buf, fams[j]);
				strbuf_release(&f);
				if (!same)
					continue;
				if (sample_time_ms(&runs->v[i], p, &t_ms) < 0) {
					bad_time(&runs->v[i], err);
					goto out;
				}
				om_series(out, fams[j], &runs->v[i], p->host, p->metric);
				add_double(out, p->value);
				om_time(out, t_ms, flags);
				(*points)++;
			}
	}
	ret = 0;
out:
	for (size_t j = 0; j < nf; j++)
		free(fams[j]);
	free(fams);
	return ret;
}

static int render_om(const struct rep_set *runs, const struct admin_sample_list *samples, unsigned flags,
		     struct strbuf *out, size_t *points, struct errbuf *err)
{
	if (om_runs(runs, flags, out, points, err) < 0)
		return -1;
	/* A Pushgateway refuses timestamps, and samples without their times mean nothing. */
	if (samples && !(flags & (EXPORT_NO_SAMPLES | EXPORT_NO_TIMESTAMPS)) &&
	    om_samples(runs, samples, flags, out, points, err) < 0)
		return -1;
	strbuf_adds(out, "# EOF\n");
	return 0;
}

/* ---- CSV and JSON ------------------------------------------------------------------------------------ */

/* The sorted union of the label keys of all runs (pointers into the runs). */
static const char **label_keys(const struct rep_set *runs, size_t *n)
{
	const char **keys = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < runs->n; i++)
		for (size_t k = 0; k < runs->v[i].labels.n; k++) {
			const char *key = runs->v[i].labels.v[k].key;
			int seen = 0;

			for (size_t j = 0; j < *n && !seen; j++)
				seen = !strcmp(keys[j], key);
			if (!seen) {
				ARRAY_GROW(keys, cap, *n + 1);
				keys[(*n)++] = key;
			}
		}
	if (*n > 1)
		qsort(keys, *n, sizeof(*keys), cmp_str);
	return keys;
}

static void csv_num(struct strbuf *out, double v)
{
	strbuf_addc(out, ',');
	if (!isnan(v))
		add_double(out, v);
}

/* Each of v[0..n) as ",<field>" (NULL: empty). */
static void csv_texts(struct strbuf *out, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_addc(out, ',');
		esc_csv(out, v[i] ? v[i] : "");
	}
}

static void csv_runs(const struct rep_set *runs, struct strbuf *out, size_t *points)
{
	size_t nk;
	const char **keys = label_keys(runs, &nk);

	strbuf_adds(out, "run_id,suite,workload,status,engine,started_at,finished_at,repetition,identity");
	for (int m = 0; m < RM_NR; m++)
		strbuf_addf(out, ",%s", rep_metrics[m].key);
	strbuf_adds(out, ",target_cpu_pct");
	for (size_t j = 0; j < nk; j++) {
		struct strbuf h;

		strbuf_init(&h);
		strbuf_addf(&h, "label:%s", keys[j]);
		strbuf_addc(out, ',');
		esc_csv(out, h.buf);
		strbuf_release(&h);
	}
	strbuf_addc(out, '\n');
	for (size_t i = 0; i < runs->n; i++) {
		const struct rep_run *r = &runs->v[i];
		const char *text[] = { r->suite, r->name, r->status, r->engine, r->started_at, r->finished_at };

		strbuf_addf(out, "%" PRId64, r->id);
		csv_texts(out, text, sizeof(text) / sizeof(text[0]));
		strbuf_addf(out, ",%d,", r->repetition);
		esc_csv(out, r->identity);
		for (int m = 0; m < RM_NR; m++)
			csv_num(out, r->m[m]);
		csv_num(out, r->target_cpu_pct);
		for (size_t j = 0; j < nk; j++) {
			strbuf_addc(out, ',');
			esc_csv(out, kvlist_get(&r->labels, keys[j], ""));
		}
		strbuf_addc(out, '\n');
		(*points)++;
	}
	free(keys);
}

static int csv_samples(const struct rep_set *runs, const struct admin_sample_list *samples, struct strbuf *out,
		       size_t *points, struct errbuf *err)
{
	strbuf_adds(out, "run_id,suite,workload,host,metric,t_ms,time_ms,value\n");
	for (size_t i = 0; samples && i < runs->n; i++)
		for (size_t k = 0; k < samples[i].n; k++) {
			const struct rep_run *r = &runs->v[i];
			const struct admin_sample *p = &samples[i].v[k];
			const char *text[] = { r->suite, r->name, p->host, p->metric };
			int64_t t_ms;

			if (sample_time_ms(r, p, &t_ms) < 0)
				return bad_time(r, err);

			strbuf_addf(out, "%" PRId64, r->id);
			csv_texts(out, text, sizeof(text) / sizeof(text[0]));
			strbuf_addf(out, ",%" PRId64 ",%" PRId64 ",", p->t_ms, t_ms);
			add_double(out, p->value);
			strbuf_addc(out, '\n');
			(*points)++;
		}
	return 0;
}

static void json_str(struct strbuf *out, const char *key, const char *value)
{
	strbuf_addf(out, "\"%s\":", key);
	if (value)
		esc_json(out, value);
	else
		strbuf_adds(out, "null");
}

static void json_num(struct strbuf *out, const char *sep, const char *key, double v)
{
	strbuf_addf(out, "%s\"%s\":", sep, key);
	if (isnan(v) || isinf(v))
		strbuf_adds(out, "null");
	else
		add_double(out, v);
}

static void json_run_head(struct strbuf *out, const struct rep_run *r)
{
	const char *const text[][2] = {
		{ "suite", r->suite }, { "workload", r->name }, { "status", r->status }, { "engine", r->engine },
		{ "started_at", r->started_at }, { "finished_at", r->finished_at }, { "identity", r->identity },
	};

	strbuf_addf(out, "{\"id\":%" PRId64 ",\"suite_id\":%" PRId64, r->id, r->suite_id);
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		strbuf_addc(out, ',');
		json_str(out, text[i][0], text[i][1]);
	}
	strbuf_addf(out, ",\"repetition\":%d,\"labels\":{", r->repetition);
	for (size_t k = 0; k < r->labels.n; k++) {
		if (k)
			strbuf_addc(out, ',');
		esc_json(out, r->labels.v[k].key);
		strbuf_addc(out, ':');
		esc_json(out, r->labels.v[k].value ? r->labels.v[k].value : "");
	}
	strbuf_adds(out, "},\"figures\":{");
	for (int m = 0; m < RM_NR; m++)
		json_num(out, m ? "," : "", rep_metrics[m].key, r->m[m]);
	json_num(out, ",", "target_cpu_pct", r->target_cpu_pct);
	strbuf_addc(out, '}');
}

static int render_json(const struct rep_set *runs, const struct admin_sample_list *samples, unsigned flags,
		       struct strbuf *out, size_t *points, struct errbuf *err)
{
	strbuf_adds(out, "{\"runs\":[");
	for (size_t i = 0; i < runs->n; i++) {
		const struct rep_run *r = &runs->v[i];

		strbuf_adds(out, i ? ",\n" : "\n");
		json_run_head(out, r);
		(*points)++;
		if (samples && !(flags & EXPORT_NO_SAMPLES)) {
			strbuf_adds(out, ",\"samples\":[");
			for (size_t k = 0; k < samples[i].n; k++) {
				const struct admin_sample *p = &samples[i].v[k];
				int64_t t_ms;

				if (sample_time_ms(r, p, &t_ms) < 0)
					return bad_time(r, err);
				strbuf_adds(out, k ? ",{" : "{");
				json_str(out, "host", p->host);
				strbuf_addc(out, ',');
				json_str(out, "metric", p->metric);
				strbuf_addf(out, ",\"t_ms\":%" PRId64 ",\"time_ms\":%" PRId64, p->t_ms, t_ms);
				json_num(out, ",", "value", p->value);
				strbuf_addc(out, '}');
				(*points)++;
			}
			strbuf_addc(out, ']');
		}
		strbuf_addc(out, '}');
	}
	strbuf_adds(out, "\n]}\n");
	return 0;
}

int export_render(enum export_format fmt, const struct rep_set *runs, const struct admin_sample_list *samples,
		  unsigned flags, struct strbuf *out, size_t *points, struct errbuf *err)
{
	*points = 0;
	if (check_label_names(fmt, runs, err) < 0)
		return -1;
	switch (fmt) {
	case EXPORT_CSV:
		if (flags & EXPORT_SAMPLES_ONLY)
			return csv_samples(runs, samples, out, points, err);
		csv_runs(runs, out, points);
		return 0;
	case EXPORT_JSON:
		return render_json(runs, samples, flags, out, points, err);
	case EXPORT_INFLUX:
		return render_influx(runs, samples, flags, out, points, err);
	case EXPORT_OPENMETRICS:
		return render_om(runs, samples, flags, out, points, err);
	}
	return err_set(err, ERR_INTERNAL, "unknown export format %d", (int)fmt);
}
