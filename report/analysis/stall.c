/*
 * stall: per-host IOPS below a fraction of the host's median (see stall.h). The IOPS series are
 * core/series.h's aggregates, so a stall is found on the same windows the charts draw.
 */
#include "report/analysis/stall.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/series.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Stalls of one host's series p[0..np) on grid w (values by slot, missing slots = 0). */
static void host_stalls(const char *host, const struct series_point *p, size_t np, unsigned w, double fraction,
			struct stall **out, size_t *n, size_t *cap)
{
	int64_t k0 = p[0].t_ms / (int64_t)w, k1 = p[np - 1].t_ms / (int64_t)w;
	size_t ns = (size_t)(k1 - k0 + 1), j = 0;
	double *val = calloc(ns, sizeof(double)), *sorted = calloc(ns, sizeof(double)), median;
	size_t i = 0;

	if (!val || !sorted)
		goto out;
	for (size_t k = 0; k < np; k++)
		val[p[k].t_ms / (int64_t)w - k0] = p[k].value;
	memcpy(sorted, val, ns * sizeof(double));
	qsort(sorted, ns, sizeof(double), cmp_double);
	median = ns % 2 ? sorted[ns / 2] : (sorted[ns / 2 - 1] + sorted[ns / 2]) / 2;
	if (median <= 0)
		goto out;
	while (i < ns) {
		double mn;
		if (val[i] >= fraction * median) {
			i++;
			continue;
		}
		mn = val[i];
		for (j = i; j < ns && val[j] < fraction * median; j++)
			if (val[j] < mn)
				mn = val[j];
		ARRAY_GROW(*out, *cap, *n + 1);
		snprintf((*out)[*n].host, sizeof((*out)[*n].host), "%s", host);
		/* slot k is the window ((k - 1) w, k w] */
		(*out)[*n].start_ms = (k0 + (int64_t)i - 1) * (int64_t)w;
		(*out)[*n].len_ms = (int64_t)(j - i) * (int64_t)w;
		(*out)[*n].min_iops = mn;
		(*out)[*n].median_iops = median;
		(*n)++;
		i = j;
	}
out:
	free(val);
	free(sorted);
}

size_t stall_find(const struct store_sample *v, size_t n, double fraction, struct stall **out)
{
	const char **hosts;
	size_t nh = series_hosts(v, n, "iops", &hosts), ns = 0, cap = 0;
	unsigned w = series_window_ms(v, n, "iops");

	*out = NULL;
	for (size_t h = 0; h < nh; h++) {
		struct series_point *p;
		size_t np = series_aggregate(v, n, "iops", hosts[h], w, &p);
		if (np)
			host_stalls(hosts[h], p, np, w, fraction, out, &ns, &cap);
		free(p);
	}
	free(hosts);
	return ns;
}

int stall_report(struct strbuf *out, struct store *st, const struct rep_set *set, double fraction,
		 struct errbuf *err)
{
	int heading = 0;

	for (size_t r = 0; r < set->n; r++) {
		struct store_sample *v;
		struct stall *s;
		size_t n, ns;
		const char **hosts;

		if (store_read_samples(st, set->v[r].id, &v, &n, err) < 0)
			return -1;
		if (!series_hosts(v, n, "iops", &hosts)) {
			free(hosts);
			store_samples_free(v, n);
			continue;
		}
		free(hosts);
		if (!heading) {
			strbuf_addf(out, "\nstalls (a host's IOPS below %.0f%% of its median, per aligned window):\n",
				    fraction * 100);
			heading = 1;
		}
		ns = stall_find(v, n, fraction, &s);
		if (!ns)
			strbuf_addf(out, "  run %lld '%s': none\n", (long long)set->v[r].id, set->v[r].name);
		for (size_t i = 0; i < ns; i++)
			strbuf_addf(out, "  run %lld '%s': host %s stalled at %.1f s for %.1f s (min %.0f IOPS, median %.0f)\n",
				    (long long)set->v[r].id, set->v[r].name, s[i].host, (double)s[i].start_ms / 1000.0,
				    (double)s[i].len_ms / 1000.0, s[i].min_iops, s[i].median_iops);
		free(s);
		store_samples_free(v, n);
	}
	return 0;
}
