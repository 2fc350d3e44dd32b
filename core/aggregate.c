/*
 * aggregate: exact merging of per-job and per-host results (see aggregate.h).
 */
#include "core/aggregate.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const double agg_default_pcts[17] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

uint64_t hist_percentile(const struct hist_bin *bins, size_t nbins, double pct)
{
	uint64_t total = 0, cum = 0;
	long double want;

	for (size_t i = 0; i < nbins; i++)
		total += bins[i].count;
	if (!total)
		return 0;
	/* exactly fio's comparison (stat.c calc_clat_percentiles): sum >= (long double)p / 100.0 * nr; in
	 * double precision the threshold can land on the other side of an integer count (e.g. p=99, N=100) */
	want = (long double)pct / 100.0 * (long double)total;
	for (size_t i = 0; i < nbins; i++) {
		cum += bins[i].count;
		if ((long double)cum >= want)
			return bins[i].value_ns;
	}
	return bins[nbins - 1].value_ns;
}

static int bin_cmp(const void *a, const void *b)
{
	const struct hist_bin *x = a, *y = b;
	return x->value_ns < y->value_ns ? -1 : x->value_ns > y->value_ns;
}

void hist_normalise(struct hist_bin *bins, size_t *nbins)
{
	size_t j = 0;

	if (!*nbins)
		return;
	qsort(bins, *nbins, sizeof(*bins), bin_cmp);
	for (size_t i = 0; i < *nbins; i++) {
		if (!bins[i].count)
			continue;
		if (j && bins[j - 1].value_ns == bins[i].value_ns)
			bins[j - 1].count += bins[i].count;
		else
			bins[j++] = bins[i];
	}
	*nbins = j;
}

void hist_merge(struct hist_bin **a, size_t *na, size_t *cap, const struct hist_bin *b, size_t nb)
{
	ARRAY_GROW(*a, *cap, *na + nb);
	memcpy(*a + *na, b, nb * sizeof(*b));
	*na += nb;
	hist_normalise(*a, na);
}

void lat_combine(struct lat_summary *acc, const struct lat_summary *x)
{
	double n1, n2, n, mean, m2;

	if (!x->present || !x->n)
		return;
	if (!acc->present || !acc->n) {
		*acc = *x;
		acc->present = 1;
		return;
	}
	n1 = (double)acc->n;
	n2 = (double)x->n;
	n = n1 + n2;
	mean = (acc->mean_ns * n1 + x->mean_ns * n2) / n;
	/* Sum of squared deviations of each part around the pooled mean (fio reports the sample stddev). */
	m2 = acc->stddev_ns * acc->stddev_ns * (n1 > 1 ? n1 - 1 : 0) + n1 * (acc->mean_ns - mean) * (acc->mean_ns - mean) +
	     x->stddev_ns * x->stddev_ns * (n2 > 1 ? n2 - 1 : 0) + n2 * (x->mean_ns - mean) * (x->mean_ns - mean);
	acc->stddev_ns = n > 1 ? sqrt(m2 / (n - 1)) : 0;
	acc->mean_ns = mean;
	acc->n += x->n;
	if (x->min_ns < acc->min_ns)
		acc->min_ns = x->min_ns;
	if (x->max_ns > acc->max_ns)
		acc->max_ns = x->max_ns;
}

void dir_combine(struct dir_result *out, const struct dir_result *const *dirs, size_t n)
{
	size_t bins_cap = 0, with_bins = 0, with_ios = 0;
	const struct dir_result *pts = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct dir_result *d = dirs[i];
		if (!d || !d->present)
			continue;
		out->present = 1;
		out->ios += d->ios;
		out->short_ios += d->short_ios;
		out->drop_ios += d->drop_ios;
		out->bytes += d->bytes;
		if (d->runtime_ms > out->runtime_ms)
			out->runtime_ms = d->runtime_ms;
		out->iops += d->iops;
		out->bw_bytes += d->bw_bytes;
		lat_combine(&out->lat, &d->lat);
		lat_combine(&out->clat, &d->clat);
		lat_combine(&out->slat, &d->slat);
		if (d->ios)
			with_ios++;
		if (d->nbins) {
			with_bins++;
			hist_merge(&out->bins, &out->nbins, &bins_cap, d->bins, d->nbins);
			memcpy(out->pct_kind, d->pct_kind, sizeof(out->pct_kind));
		}
		if (d->npct && !pts)
			pts = d;
	}
	/* Percentiles only when every direction with IOs brought its bins: never guess. */
	if (with_bins && with_bins >= with_ios) {
		size_t np = pts ? pts->npct : 17;
		out->pct = xcalloc(np, sizeof(*out->pct));
		out->npct = np;
		for (size_t i = 0; i < np; i++) {
			out->pct[i].pct = pts ? pts->pct[i].pct : agg_default_pcts[i];
			out->pct[i].value_ns = hist_percentile(out->bins, out->nbins, out->pct[i].pct);
		}
	} else if (with_ios <= 1 && pts) {
		/* One part with IOs: its own percentiles are exact. */
		out->pct = xcalloc(pts->npct, sizeof(*out->pct));
		memcpy(out->pct, pts->pct, pts->npct * sizeof(*out->pct));
		out->npct = pts->npct;
		memcpy(out->pct_kind, pts->pct_kind, sizeof(out->pct_kind));
	} else {
		free(out->bins);
		out->bins = NULL;
		out->nbins = 0;
		out->pct_kind[0] = '\0';
	}
}

void host_result_total(struct host_result *h)
{
	const struct dir_result *parts[3] = { &h->dir[DDIR_READ], &h->dir[DDIR_WRITE], &h->dir[DDIR_TRIM] };

	dir_result_release(&h->dir[DDIR_TOTAL]);
	dir_combine(&h->dir[DDIR_TOTAL], parts, 3);
	/* A single direction's own percentiles are exact even without bins: keep them for the total. */
	if (!h->dir[DDIR_TOTAL].npct) {
		int only = -1, count = 0;
		for (int d = 0; d < 3; d++) {
			if (h->dir[d].present && h->dir[d].ios) {
				only = d;
				count++;
			}
		}
		if (count == 1 && h->dir[only].npct) {
			struct dir_result *t = &h->dir[DDIR_TOTAL];
			t->pct = xcalloc(h->dir[only].npct, sizeof(*t->pct));
			memcpy(t->pct, h->dir[only].pct, h->dir[only].npct * sizeof(*t->pct));
			t->npct = h->dir[only].npct;
			memcpy(t->pct_kind, h->dir[only].pct_kind, sizeof(t->pct_kind));
		}
	}
}

/* Which entries an aggregate combines. */
typedef int (*entry_match)(const struct host_result *h, const char *host, const char *job);

static int same_job(const char *a, const char *b)
{
	return !a == !b && (!a || !strcmp(a, b));
}

/* Jobs of one host into the host's entry over all jobs. */
static int match_host_jobs(const struct host_result *h, const char *host, const char *job)
{
	(void)job;
	return h->job && !strcmp(h->host, host);
}

/* Hosts of one job (NULL: the hosts' entries over all jobs) into the entry of all hosts. */
static int match_job_hosts(const struct host_result *h, const char *host, const char *job)
{
	(void)host;
	return strcmp(h->host, HOST_AGGREGATE) && same_job(h->job, job);
}

/* Appends the entry (host, job) combined from the entries `match` selects, of those without errmsg. */
static void add_combined(struct run_result *r, const char *host, const char *job, entry_match match)
{
	struct host_result agg;
	const struct dir_result **parts = xcalloc(r->nhosts + 1, sizeof(*parts));
	size_t ncpu = 0, nh;
	double usr = 0, sys = 0;

	host_result_init(&agg, host);
	agg.job = xstrdup(job);
	for (int d = 0; d < DDIR_TOTAL; d++) {
		nh = 0;
		for (size_t i = 0; i < r->nhosts; i++)
			if (!r->hosts[i].errmsg && match(&r->hosts[i], host, job))
				parts[nh++] = &r->hosts[i].dir[d];
		dir_combine(&agg.dir[d], parts, nh);
	}
	free(parts);
	host_result_total(&agg);
	for (size_t i = 0; i < r->nhosts; i++) {
		const struct host_result *h = &r->hosts[i];
		if (!match(h, host, job))
			continue;
		if (h->errmsg && !agg.errmsg && strcmp(host, HOST_AGGREGATE))
			agg.errmsg = xstrdup(h->errmsg); /* a host whose job failed failed */
		if (h->errmsg)
			continue;
		if (!agg.error)
			agg.error = h->error;
		if (!agg.fio_version && h->fio_version)
			agg.fio_version = xstrdup(h->fio_version);
		if (!isnan(h->job_start_ms) && (isnan(agg.job_start_ms) || h->job_start_ms < agg.job_start_ms))
			agg.job_start_ms = h->job_start_ms;
		if (!isnan(h->start_offset_ms) && isnan(agg.start_offset_ms) && strcmp(host, HOST_AGGREGATE))
			agg.start_offset_ms = h->start_offset_ms;
		if (isnan(h->usr_cpu_pct))
			continue;
		usr += h->usr_cpu_pct;
		sys += h->sys_cpu_pct;
		ncpu++;
	}
	if (ncpu) {
		agg.usr_cpu_pct = usr / (double)ncpu;
		agg.sys_cpu_pct = sys / (double)ncpu;
	}
	if (!strcmp(host, HOST_AGGREGATE))
		agg.error = 0; /* as before jobs: the aggregate carries figures, hosts carry their errors */
	ARRAY_GROW(r->hosts, r->hosts_cap, r->nhosts + 1);
	r->hosts[r->nhosts++] = agg;
}

static int has_jobs(const struct run_result *r, const char *host)
{
	for (size_t i = 0; i < r->nhosts; i++)
		if (r->hosts[i].job && !strcmp(r->hosts[i].host, host))
			return 1;
	return 0;
}

/* Drops the aggregates an earlier call made: every HOST_AGGREGATE entry, and a host's entry over all jobs
 * when the host has per-job entries. */
static void drop_aggregates(struct run_result *r)
{
	size_t k = 0;

	for (size_t i = 0; i < r->nhosts; i++) {
		struct host_result *h = &r->hosts[i];
		if (!strcmp(h->host, HOST_AGGREGATE) || (!h->job && has_jobs(r, h->host))) {
			host_result_release(h);
			continue;
		}
		r->hosts[k++] = *h;
	}
	r->nhosts = k;
}

void run_result_aggregate(struct run_result *r)
{
	size_t n;

	drop_aggregates(r);
	/* each host's jobs into its entry over all jobs (hosts of one job already have that entry) */
	n = r->nhosts;
	for (size_t i = 0; i < n; i++) {
		const char *host = r->hosts[i].host;
		int seen = 0;
		if (!r->hosts[i].job)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = r->hosts[k].job && !strcmp(r->hosts[k].host, host);
		if (!seen) {
			char *h = xstrdup(host);
			add_combined(r, h, NULL, match_host_jobs);
			free(h);
		}
	}
	/* each job over all hosts, then all of them: the entry over all hosts and jobs stays the last one */
	n = r->nhosts;
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		if (!r->hosts[i].job || !strcmp(r->hosts[i].host, HOST_AGGREGATE))
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = r->hosts[k].job && strcmp(r->hosts[k].host, HOST_AGGREGATE) &&
			       !strcmp(r->hosts[k].job, r->hosts[i].job);
		if (!seen) {
			char *j = xstrdup(r->hosts[i].job);
			add_combined(r, HOST_AGGREGATE, j, match_job_hosts);
			free(j);
		}
	}
	add_combined(r, HOST_AGGREGATE, NULL, match_job_hosts);
}
