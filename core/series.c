/*
 * series: aligned windows and aggregates over hosts and jobs (see series.h for the one definition).
 * Matching samples are referenced, sorted by series and slot, and folded in one pass; nothing is copied.
 */
#include "core/series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/strbuf.h"

struct ref {
	const struct store_sample *s;
	int64_t slot;
};

int series_metric_match(const char *m, const char *metric)
{
	size_t len = strlen(metric);

	if (!strcmp(m, metric))
		return 1;
	/* "iops" matches "iops.read" but "disk.iops" does not match "disk.iops.x" unless asked */
	return !strncmp(m, metric, len) && m[len] == '.' && strchr(m + len + 1, '.') == NULL &&
	       (!strcmp(m + len + 1, "read") || !strcmp(m + len + 1, "write") || !strcmp(m + len + 1, "trim"));
}

static int host_match(const struct store_sample *s, const char *host)
{
	return !host || !strcmp(host, HOST_AGGREGATE) ? strcmp(s->host, HOST_AGGREGATE) != 0 : !strcmp(s->host, host);
}

int64_t series_slot(int64_t t_ms, unsigned w)
{
	int64_t ww = w ? (int64_t)w : 1000;
	return t_ms >= 0 ? (t_ms + ww / 2) / ww : -((-t_ms + ww / 2) / ww);
}

unsigned series_window_ms(const struct store_sample *v, size_t n, const char *metric)
{
	unsigned w = 0;

	for (size_t i = 0; i < n; i++)
		if (series_metric_match(v[i].metric, metric) && v[i].window_ms > w)
			w = v[i].window_ms;
	return w ? w : 1000;
}

static int cmp_series(const struct store_sample *a, const struct store_sample *b)
{
	int c;

	if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->job, b->job)) || (c = strcmp(a->metric, b->metric)))
		return c;
	return strcmp(a->source, b->source);
}

static int cmp_ref(const void *pa, const void *pb)
{
	const struct ref *a = pa, *b = pb;
	int c = cmp_series(a->s, b->s);

	if (c)
		return c;
	return (a->slot > b->slot) - (a->slot < b->slot);
}

/* References to the matching samples (histogram rows when bins), sorted by series and slot. */
static size_t collect(const struct store_sample *v, size_t n, const char *metric, const char *host, unsigned w,
		      int bins, struct ref **out)
{
	struct ref *r = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].is_bin != !bins || !series_metric_match(v[i].metric, metric) || !host_match(&v[i], host))
			continue;
		ARRAY_GROW(r, cap, k + 1);
		r[k].s = &v[i];
		r[k].slot = series_slot(v[i].t_ms, w);
		k++;
	}
	if (k)
		qsort(r, k, sizeof(*r), cmp_ref);
	*out = r;
	return k;
}

/* Per-slot accumulators over [lo, lo + n). */
struct acc {
	int64_t lo;
	size_t n;
	double *sum, *wt;
};

static void acc_init(struct acc *a, const struct ref *r, size_t nr)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (size_t i = 0; i < nr; i++) {
		if (r[i].slot < lo)
			lo = r[i].slot;
		if (r[i].slot > hi)
			hi = r[i].slot;
	}
	a->lo = nr ? lo : 0;
	a->n = nr ? (size_t)(hi - lo + 1) : 0;
	a->sum = xcalloc(a->n + 1, sizeof(double));
	a->wt = xcalloc(a->n + 1, sizeof(double));
}

/* The IOPS of one series' direction in a slot (the mean of its samples there), or NAN. */
static double iops_at(const struct ref *io, size_t nio, const struct store_sample *lat, int64_t slot)
{
	const char *dot = strrchr(lat->metric, '.');
	char metric[32];
	struct store_sample key;
	struct ref k = { &key, slot };
	size_t lo = 0, hi = nio;
	double sum = 0;
	int cnt = 0;

	snprintf(metric, sizeof(metric), "iops%s", dot ? dot : "");
	key = *lat;
	key.metric = metric;
	snprintf(key.source, sizeof(key.source), "%s", lat->source);
	while (lo < hi) { /* first ref >= key */
		size_t mid = (lo + hi) / 2;
		if (cmp_ref(&io[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nio && cmp_ref(&io[lo], &k) == 0; lo++) {
		sum += io[lo].s->value;
		cnt++;
	}
	return cnt ? sum / cnt : NAN;
}

size_t series_aggregate(const struct store_sample *v, size_t n, const char *metric, const char *host, unsigned w,
			struct series_point **out)
{
	int is_lat = !strncmp(metric, "lat_ns", 6) || !strncmp(metric, "clat_ns", 7) || !strncmp(metric, "slat_ns", 7);
	int is_mean = !strncmp(metric, "cpu.", 4);
	struct ref *r, *io = NULL;
	size_t nr = collect(v, n, metric, host, w, 0, &r), nio = 0, np = 0;
	struct acc a;

	if (is_lat)
		nio = collect(v, n, "iops", host, w, 0, &io);
	acc_init(&a, r, nr);
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		double sum = 0, wt = 1;
		while (j < nr && cmp_ref(&r[j], &r[i]) == 0)
			sum += r[j++].s->value;
		sum /= (double)(j - i); /* the series' mean in this slot */
		if (is_lat) {
			double iops = iops_at(io, nio, r[i].s, r[i].slot);
			wt = isnan(iops) ? 1.0 : iops;
		}
		a.sum[r[i].slot - a.lo] += is_lat ? sum * wt : sum;
		a.wt[r[i].slot - a.lo] += wt;
		i = j;
	}
	*out = xcalloc(a.n + 1, sizeof(**out));
	for (size_t k = 0; k < a.n; k++) {
		if (a.wt[k] <= 0)
			continue;
		(*out)[np].t_ms = (a.lo + (int64_t)k) * (int64_t)w;
		(*out)[np].value = is_lat || is_mean ? a.sum[k] / a.wt[k] : a.sum[k];
		np++;
	}
	free(a.sum);
	free(a.wt);
	free(r);
	free(io);
	return np;
}

double series_hist_pct(const int64_t *lo, const int64_t *hi, const double *count, size_t n, double pct)
{
	double total = 0, so_far = 0, p = 0;

	for (size_t i = 0; i < n; i++)
		total += count[i];
	if (total <= 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double last;
		if (count[i] <= 0)
			continue;
		so_far += count[i];
		last = p;
		p = 100.0 * so_far / total;
		if ((pct >= 100.0 && p >= 99.9999) || (pct < 100.0 && p > pct))
			return (double)lo[i] + (pct - last) / (p - last) * (double)(hi[i] - lo[i]);
	}
	return (double)hi[n - 1];
}

static int cmp_bin(const void *pa, const void *pb)
{
	const struct ref *a = pa, *b = pb;

	if (a->slot != b->slot)
		return (a->slot > b->slot) - (a->slot < b->slot);
	return (a->s->bucket_lo_ns > b->s->bucket_lo_ns) - (a->s->bucket_lo_ns < b->s->bucket_lo_ns);
}

size_t series_percentile(const struct store_sample *v, size_t n, const char *metric, const char *host, unsigned w,
			 double pct, struct series_point **out)
{
	struct ref *r;
	size_t nr = collect(v, n, metric, host, w, 1, &r), np = 0;
	int64_t *lo = xcalloc(nr + 1, sizeof(int64_t)), *hi = xcalloc(nr + 1, sizeof(int64_t));
	double *cnt = xcalloc(nr + 1, sizeof(double));

	qsort(r, nr, sizeof(*r), cmp_bin); /* by slot, then bucket: bins of all hosts and jobs summed */
	*out = xcalloc(nr + 1, sizeof(**out));
	for (size_t i = 0; i < nr;) {
		size_t nb = 0, j = i;
		for (; j < nr && r[j].slot == r[i].slot; j++) {
			if (nb && lo[nb - 1] == r[j].s->bucket_lo_ns) {
				cnt[nb - 1] += r[j].s->value;
				continue;
			}
			lo[nb] = r[j].s->bucket_lo_ns;
			hi[nb] = r[j].s->bucket_hi_ns;
			cnt[nb++] = r[j].s->value;
		}
		(*out)[np].t_ms = r[i].slot * (int64_t)w;
		(*out)[np].value = series_hist_pct(lo, hi, cnt, nb, pct);
		if (!isnan((*out)[np].value))
			np++;
		i = j;
	}
	free(lo);
	free(hi);
	free(cnt);
	free(r);
	return np;
}

size_t series_hosts(const struct store_sample *v, size_t n, const char *metric, const char ***hosts)
{
	const char **h = NULL;
	size_t nh = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k;
		if (!series_metric_match(v[i].metric, metric) || !strcmp(v[i].host, HOST_AGGREGATE))
			continue;
		for (k = 0; k < nh && strcmp(h[k], v[i].host); k++)
			;
		if (k < nh)
			continue;
		ARRAY_GROW(h, cap, nh + 1);
		h[nh++] = v[i].host;
	}
	*hosts = h;
	return nh;
}
