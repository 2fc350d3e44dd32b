/*
 * method: the run-time numbers of the measurement method (see method.h and docs/method.md): a curve point's
 * throttle and check, a sweep's stop, a phase's ETA. The plan-time half (parsing, preconditioning phases) is
 * profiles/method.c.
 */
#include "bench/method.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void method_settings_init(struct method_settings *m)
{
	struct ss_rule rule;

	memset(m, 0, sizeof(*m));
	ss_rule_defaults(&rule);
	m->ss_window = rule.window;
	m->ss_max_rounds = rule.max_rounds;
	m->label_is_point = rep_label_is_curve_point;
}

int method_curve_rate(double max_total_iops, double pct, unsigned numjobs, unsigned ntargets, unsigned nhosts,
		      int read_pct, struct method_rate *out, struct errbuf *err)
{
	double jobs = (double)(numjobs ? numjobs : 1) * (ntargets ? ntargets : 1) * (nhosts ? nhosts : 1);

	if (!(max_total_iops > 0) || !isfinite(max_total_iops))
		return err_set(err, ERR_INPUT, "curve: the max run measured no IOPS (%g): no point can be planned",
			       max_total_iops);
	if (!(pct > 0 && pct <= 100))
		return err_set(err, ERR_USAGE, "curve: point must be 0 < %% <= 100, got '%g'", pct);
	out->total_iops = max_total_iops * pct / 100.0;
	out->job_iops = out->total_iops / jobs;
	if (read_pct <= 0 || read_pct >= 100) {
		snprintf(out->rate_iops, sizeof(out->rate_iops), "%.0f", fmax(1.0, round(out->job_iops)));
	} else {
		double r = fmax(1.0, round(out->job_iops * read_pct / 100.0));
		double w = fmax(1.0, round(out->job_iops * (100 - read_pct) / 100.0));

		snprintf(out->rate_iops, sizeof(out->rate_iops), "%.0f,%.0f", r, w);
	}
	return 0;
}

int method_curve_ok(double target_total_iops, double achieved_total_iops, double tol_pct, double *miss_pct)
{
	double miss = target_total_iops > 0 ? (achieved_total_iops / target_total_iops - 1.0) * 100.0 : NAN;

	if (miss_pct)
		*miss_pct = miss;
	return isfinite(miss) && fabs(miss) <= tol_pct * (1 + 1e-9); /* at the limit passes */
}

int method_curve_stop(const struct method_curve *c, double mean_lat_ms)
{
	return c->stopcurve_ms > 0 && mean_lat_ms > c->stopcurve_ms;
}

int method_until_passed(const struct method_until *u, const struct method_point *pts, size_t n)
{
	double x;

	if (n == 0)
		return 0;
	switch (u->metric) {
	case UNTIL_P99: x = pts[n - 1].p99_ms; break;
	case UNTIL_LAT: x = pts[n - 1].lat_ms; break;
	case UNTIL_IOPS_GAIN:
	default:
		if (n < 2 || !(pts[n - 2].iops > 0))
			return 0;
		x = (pts[n - 1].iops / pts[n - 2].iops - 1.0) * 100.0;
		break;
	}
	if (!isfinite(x))
		return 0;
	return u->op == '>' ? x > u->value : x < u->value;
}

int method_sweep_stop(const struct method_until *u, size_t nu, const struct method_point *pts, size_t n)
{
	for (size_t i = 0; i < nu; i++)
		if (method_until_passed(&u[i], pts, n))
			return (int)i;
	return -1;
}

double precond_eta_s(uint64_t total_bytes, uint64_t done_bytes, double elapsed_s)
{
	if (done_bytes == 0 || !(elapsed_s > 0))
		return NAN;
	if (done_bytes >= total_bytes)
		return 0;
	return (double)(total_bytes - done_bytes) * elapsed_s / (double)done_bytes;
}
