/*
 * figures: a run's rows -> the figures every reader shows (see figures.h for the rules). Result rows come
 * from core/store_read.h (a scan's or store_read_results'), CPU by core's one rule (store_cpu_pick).
 */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void figures_init(struct figures *f)
{
	memset(f, 0, sizeof(*f));
	for (int d = 0; d < DDIR_NR; d++)
		f->iops[d] = f->bw_bytes[d] = f->lat_mean_ns[d] = f->p99_ns[d] = NAN;
	f->cpu_pct = f->cpu_us_per_io = f->target_cpu_pct = NAN;
}

const char *figures_host(const struct store_result *res, size_t n, int *nhosts)
{
	const char *first = NULL;
	int count = 0, aggregate = 0;

	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(res[i].host, res[i - 1].host)) {
			if (!first)
				first = res[i].host; /* '*' sorts first (store_read_results) */
			aggregate |= !strcmp(res[i].host, HOST_AGGREGATE);
			count++;
		}
	if (nhosts)
		*nhosts = count;
	if (aggregate)
		return HOST_AGGREGATE;
	return count == 1 ? first : NULL;
}

/* Whether row x is one of host's (and job's, when given). */
static int row_wanted(const struct store_result *x, const char *host, const char *job)
{
	if (strcmp(x->host, host))
		return 0;
	return !job || (x->job && !strcmp(x->job, job));
}

/* One direction row (with IOs) into f; its p99 given (p99_given) or read. */
static int direction_row(struct store *st, const struct store_result *x, const double *p99_given, struct figures *f,
			 struct errbuf *err)
{
	double p99 = NAN;

	if (p99_given)
		p99 = *p99_given;
	else if (store_read_percentile(st, x->id, 99.0, &p99, err) < 0)
		return -1;
	f->iops[x->ddir] = x->iops;
	f->bw_bytes[x->ddir] = x->bw_bytes;
	f->lat_mean_ns[x->ddir] = store_result_mean_lat_ns(x);
	f->p99_ns[x->ddir] = p99;
	return 0;
}

int figures_from_results(struct store *st, const struct store_result *res, const double *p99_ns, size_t n,
			 const char *host, const char *job, struct figures *f, struct errbuf *err)
{
	double sum_iops = 0, sum_bw = 0;
	uint64_t sum_ios = 0;
	int have_total = 0, have_dir = 0;

	figures_init(f);
	if (!host && !(host = figures_host(res, n, &f->result_hosts)))
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct store_result *x = &res[i];

		if (!row_wanted(x, host, job))
			continue;
		f->measured = 1;
		if (x->runtime_ms > f->runtime_ms)
			f->runtime_ms = x->runtime_ms;
		if (x->ddir == DDIR_TOTAL) {
			f->iops[DDIR_TOTAL] = x->iops;
			f->bw_bytes[DDIR_TOTAL] = x->bw_bytes;
			f->ios = x->ios;
			have_total = 1;
			continue;
		}
		if ((unsigned)x->ddir >= DDIR_TOTAL || (x->ios == 0 && !(x->iops > 0)))
			continue; /* a direction without IOs was not measured */
		sum_iops += x->iops;
		sum_bw += x->bw_bytes;
		sum_ios += x->ios;
		have_dir = 1;
		if (direction_row(st, x, p99_ns ? &p99_ns[i] : NULL, f, err) < 0)
			return -1;
	}
	if (!have_total && have_dir) {
		f->iops[DDIR_TOTAL] = sum_iops;
		f->bw_bytes[DDIR_TOTAL] = sum_bw;
		f->ios = sum_ios;
	}
	return 0;
}

void figures_cpu(struct figures *f, const struct store_cpu *cpu, size_t ncpu, const struct store_host *hosts,
		 size_t nhosts)
{
	struct store_cpu_pick p;

	store_cpu_pick(cpu, ncpu, hosts, nhosts, "initiator", &p);
	f->cpu_pct = p.util_pct;
	f->cpu_us_per_io = p.from_fio_job ? NAN : p.cpu_us_per_io;
	f->cpu_from_fio_job = p.from_fio_job;
	snprintf(f->cpu_source, sizeof(f->cpu_source), "%s", p.source ? p.source : "");
	store_cpu_pick(cpu, ncpu, NULL, 0, "target", &p);
	f->target_cpu_pct = p.util_pct;
}

int figures_of_run(struct store *st, int64_t run_id, struct figures *f, struct errbuf *err)
{
	struct store_result *res = NULL;
	struct store_host *hosts = NULL;
	struct store_cpu *cpu = NULL;
	size_t nres = 0, nhosts = 0, ncpu = 0;
	int ret = -1;

	figures_init(f);
	if (store_read_results(st, run_id, NULL, &res, &nres, err) < 0 ||
	    store_read_hosts(st, run_id, &hosts, &nhosts, err) < 0 || store_read_cpu(st, run_id, &cpu, &ncpu, err) < 0)
		goto out;
	if (figures_from_results(st, res, NULL, nres, NULL, NULL, f, err) < 0)
		goto out;
	figures_cpu(f, cpu, ncpu, hosts, nhosts);
	ret = 0;
out:
	store_results_free(res, nres);
	store_hosts_free(hosts, nhosts);
	store_cpu_free(cpu, ncpu);
	return ret;
}

double figures_worse_rw(const double v[DDIR_NR])
{
	double a = v[DDIR_READ], b = v[DDIR_WRITE];

	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}
