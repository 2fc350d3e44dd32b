/*
 * fio_ss: reading fio's steadystate object (see fio_ss.h).
 */
#include "engines/fio_ss.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "0.500000%", "12.5" or a number: value and whether it is a percentage. */
static int pct_or_number(const cJSON *v, double *out, int *pct)
{
	char *end;

	*pct = 0;
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return 0;
	}
	if (!cJSON_IsString(v) || !v->valuestring)
		return -1;
	*out = strtod(v->valuestring, &end);
	if (end == v->valuestring)
		return -1;
	if (*end == '%') {
		*pct = 1;
		end++;
	}
	return *end ? -1 : 0;
}

/* fio's time option text ("2", "2s", "500ms", "1m") in seconds; NAN when it cannot be read. */
static double seconds(const char *s)
{
	char *end;
	double v = s ? strtod(s, &end) : NAN;

	if (!s || end == s)
		return NAN;
	if (!*end || !strcmp(end, "s"))
		return v;
	if (!strcmp(end, "ms"))
		return v / 1e3;
	if (!strcmp(end, "us"))
		return v / 1e6;
	if (!strcmp(end, "m"))
		return v * 60;
	if (!strcmp(end, "h"))
		return v * 3600;
	return NAN;
}

static double ramp_from(const cJSON *opts)
{
	static const char *const keys[] = { "steadystate_ramp_time", "ss_ramp" };

	for (size_t i = 0; opts && i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(opts, keys[i]);

		if (cJSON_IsString(v))
			return seconds(v->valuestring);
	}
	return NAN;
}

static double number_or_nan(const cJSON *o, const char *key)
{
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

int fio_ss_read(const cJSON *job, const cJSON *global_options, struct fio_ss *out, struct errbuf *err)
{
	static const char *const ddirs[] = { "read", "write", "trim" };
	const cJSON *ss = cJSON_GetObjectItemCaseSensitive(job, "steadystate"), *v, *data;
	const char *colon;
	int pct;

	memset(out, 0, sizeof(*out));
	out->ramp_s = out->iops_mean = out->bw_mean_bytes = NAN;
	if (!ss)
		return 0;
	v = cJSON_GetObjectItemCaseSensitive(ss, "ss");
	if (!cJSON_IsObject(ss) || !cJSON_IsString(v) || !(colon = strchr(v->valuestring, ':')) ||
	    (size_t)(colon - v->valuestring) >= sizeof(out->metric))
		return err_set(err, ERR_INPUT, "fio steadystate: no 'ss' criterion of the form metric:limit");
	out->present = 1;
	memcpy(out->metric, v->valuestring, (size_t)(colon - v->valuestring));
	{
		cJSON lim = { .type = cJSON_String, .valuestring = (char *)colon + 1 };

		if (pct_or_number(&lim, &out->limit, &out->limit_pct) < 0)
			return err_set(err, ERR_INPUT, "fio steadystate: bad limit in '%s'", v->valuestring);
	}
	v = cJSON_GetObjectItemCaseSensitive(ss, "attained");
	if (!cJSON_IsNumber(v) && !cJSON_IsBool(v))
		return err_set(err, ERR_INPUT, "fio steadystate: no 'attained'");
	out->attained = cJSON_IsBool(v) ? cJSON_IsTrue(v) : v->valuedouble != 0;
	if (pct_or_number(cJSON_GetObjectItemCaseSensitive(ss, "criterion"), &out->criterion, &pct) < 0)
		out->criterion = NAN;
	out->window_s = number_or_nan(ss, "duration");
	out->max_deviation = number_or_nan(ss, "max_deviation");
	out->slope = number_or_nan(ss, "slope");
	data = cJSON_GetObjectItemCaseSensitive(ss, "data");
	out->iops_mean = number_or_nan(data, "iops_mean");
	out->bw_mean_bytes = number_or_nan(data, "bw_mean");
	out->ramp_s = ramp_from(cJSON_GetObjectItemCaseSensitive(job, "job options"));
	if (isnan(out->ramp_s))
		out->ramp_s = ramp_from(global_options);
	for (size_t i = 0; i < sizeof(ddirs) / sizeof(ddirs[0]); i++) {
		double ms = number_or_nan(cJSON_GetObjectItemCaseSensitive(job, ddirs[i]), "runtime");

		if (ms / 1e3 > out->ran_s)
			out->ran_s = ms / 1e3;
	}
	return 0;
}

int fio_ss_parse(const char *text, size_t len, size_t index, struct fio_ss *out, struct errbuf *err)
{
	size_t at = 0;
	const char *end = NULL;
	cJSON *doc, *jobs;
	int ret;

	for (size_t i = 0; i < len; i++) /* the last document that starts a line */
		if (text[i] == '{' && (i == 0 || text[i - 1] == '\n'))
			at = i;
	doc = cJSON_ParseWithLengthOpts(text + at, len - at, &end, 0);
	if (!doc)
		return err_set(err, ERR_INPUT, "fio output: no JSON document (error near byte %zu)",
			       end ? (size_t)(end - text) : at);
	jobs = cJSON_GetObjectItemCaseSensitive(doc, "client_stats");
	if (!cJSON_IsArray(jobs))
		jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!cJSON_IsArray(jobs) || (size_t)cJSON_GetArraySize(jobs) <= index) {
		cJSON_Delete(doc);
		return err_set(err, ERR_INPUT, "fio output: no job %zu", index);
	}
	ret = fio_ss_read(cJSON_GetArrayItem(jobs, (int)index),
			  cJSON_GetObjectItemCaseSensitive(doc, "global options"), out, err);
	cJSON_Delete(doc);
	return ret;
}

int fio_ss_complete(const struct fio_ss *ss, double ran_s, double planned_s, double min_share)
{
	if (ss && ss->present && ss->attained)
		return 1;
	return !(planned_s > 0) || ran_s >= min_share * planned_s;
}

void fio_ss_combine(struct fio_ss *acc, const struct fio_ss *one)
{
	if (!one->present)
		return;
	if (!acc->present) {
		*acc = *one;
		return;
	}
	acc->attained = acc->attained && one->attained;
	if (one->ran_s > acc->ran_s)
		acc->ran_s = one->ran_s;
}

/* Sets key to a number as "%g" (no trailing zeros); leaves it out when the number is not known. */
static void set_number(struct kvlist *labels, const char *key, double v, const char *unit)
{
	char buf[48];

	if (isnan(v))
		return;
	snprintf(buf, sizeof(buf), "%.6g%s", v, unit);
	kvlist_set(labels, key, buf);
}

void fio_ss_labels(const struct fio_ss *ss, struct kvlist *labels)
{
	char buf[64];

	if (!ss || !ss->present)
		return;
	kvlist_set(labels, "fio.ss", ss->attained ? "attained" : "not-attained");
	snprintf(buf, sizeof(buf), "%s:%.6g%s", ss->metric, ss->limit, ss->limit_pct ? "%" : "");
	kvlist_set(labels, "fio.ss.criterion", buf);
	set_number(labels, "fio.ss.after_s", round(ss->ran_s * 1000) / 1000, "");
	set_number(labels, "fio.ss.window_s", ss->window_s, "");
	set_number(labels, "fio.ss.ramp_s", ss->ramp_s, "");
	set_number(labels, "fio.ss.value", ss->criterion, ss->limit_pct ? "%" : "");
}
