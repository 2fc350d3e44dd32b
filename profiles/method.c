/*
 * method: the numbers of the measurement method (see method.h and docs/method.md): the --curve, --sweep and
 * --until values parsed, the SNIA preconditioning phases one measured workload needs, and the arithmetic the
 * run loop applies to measured figures (a curve point's throttle and check, a sweep's stop, a phase's ETA).
 * Pure functions over plain numbers and strings.
 */
#include "profiles/method.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

const double method_vdbench_curve[6] = { 10, 50, 70, 80, 90, 100 };

/* Parses a comma-separated list of numbers into v (at most METHOD_MAX_POINTS). */
static int number_list(const char *what, const char *arg, double *v, size_t *n, struct errbuf *err)
{
	const char *p = arg;

	*n = 0;
	if (!*p)
		return err_set(err, ERR_USAGE, "%s: empty list", what);
	for (;;) {
		char *end;
		double x;

		errno = 0;
		x = strtod(p, &end);
		if (end == p || errno || !isfinite(x) || (*end && *end != ','))
			return err_set(err, ERR_USAGE, "%s: '%s' is not a list of numbers", what, arg);
		if (*n == METHOD_MAX_POINTS)
			return err_set(err, ERR_USAGE, "%s: more than %d points in '%s'", what, METHOD_MAX_POINTS, arg);
		v[(*n)++] = x;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

int method_curve_parse(const char *arg, struct method_curve *c, struct errbuf *err)
{
	c->stopcurve_ms = 0;
	if (number_list("--curve", arg, c->pct, &c->n, err) < 0)
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		if (!(c->pct[i] > 0 && c->pct[i] <= 100))
			return err_set(err, ERR_USAGE, "--curve: each point must be 0 < %% <= 100, got '%g'", c->pct[i]);
		for (size_t j = 0; j < i; j++)
			if (c->pct[j] == c->pct[i])
				return err_set(err, ERR_USAGE, "--curve: point %g%% is given twice", c->pct[i]);
	}
	return 0;
}

static const struct {
	const char *name;
	enum method_sweep_key key;
	const char *option;
} sweep_keys[] = {
	{ "iodepth", SWEEP_IODEPTH, "iodepth" },
	{ "numjobs", SWEEP_NUMJOBS, "numjobs" },
	{ "rate", SWEEP_RATE_IOPS, "rate_iops" },
	{ "rate_iops", SWEEP_RATE_IOPS, "rate_iops" },
};

/* The index of the row of table (n rows of `size` bytes, each starting with its const char *name) named by the
 * len bytes at s, or n: none. */
static size_t row_named(const void *table, size_t n, size_t size, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const char *name = *(const char *const *)(const void *)((const char *)table + i * size);
		if (strlen(name) == len && !strncmp(s, name, len))
			return i;
	}
	return n;
}

int method_sweep_parse(const char *arg, struct method_sweep *s, struct errbuf *err)
{
	const size_t nkeys = sizeof(sweep_keys) / sizeof(sweep_keys[0]);
	const char *eq = strchr(arg, '=');
	size_t i = eq ? row_named(sweep_keys, nkeys, sizeof(sweep_keys[0]), arg, (size_t)(eq - arg)) : nkeys;

	if (i == nkeys)
		return err_set(err, ERR_USAGE, "--sweep: want iodepth=, numjobs= or rate= and a list, got '%s'", arg);
	s->key = sweep_keys[i].key;
	s->option = sweep_keys[i].option;
	if (number_list("--sweep", eq + 1, s->v, &s->n, err) < 0)
		return -1;
	for (i = 0; i < s->n; i++)
		if (!(s->v[i] >= 1) || s->v[i] != floor(s->v[i]))
			return err_set(err, ERR_USAGE, "--sweep: %s values must be whole numbers >= 1, got '%g'",
				       s->option, s->v[i]);
	return 0;
}

int method_until_parse(const char *expr, struct method_until *u, struct errbuf *err)
{
	static const struct { const char *name; enum method_until_metric m; int latency; } metrics[] = {
		{ "p99", UNTIL_P99, 1 }, { "lat", UNTIL_LAT, 1 }, { "iops_gain", UNTIL_IOPS_GAIN, 0 },
	};
	const size_t nmetrics = sizeof(metrics) / sizeof(metrics[0]);
	const char *op = strpbrk(expr, "<>");
	size_t i = op ? row_named(metrics, nmetrics, sizeof(metrics[0]), expr, (size_t)(op - expr)) : nmetrics;
	char *end;
	double scale = 1;

	if (i == nmetrics)
		return err_set(err, ERR_USAGE, "--until: want p99>DUR, lat>DUR or iops_gain<PCT%%, got '%s'", expr);
	u->metric = metrics[i].m;
	u->op = *op;
	errno = 0;
	u->value = strtod(op + 1, &end);
	if (end == op + 1 || errno || !(u->value >= 0))
		return err_set(err, ERR_USAGE, "--until: '%s' has no number after '%c'", expr, *op);
	if (metrics[i].latency) {
		if (!strcmp(end, "us"))
			scale = 1e-3;
		else if (!strcmp(end, "s"))
			scale = 1e3;
		else if (*end && strcmp(end, "ms"))
			return err_set(err, ERR_USAGE, "--until: latency unit must be us, ms or s, got '%s'", expr);
	} else if (*end && strcmp(end, "%")) {
		return err_set(err, ERR_USAGE, "--until: iops_gain is a percentage, got '%s'", expr);
	}
	u->value *= scale;
	snprintf(u->text, sizeof(u->text), "%s", expr);
	return 0;
}

/* ---- preconditioning --------------------------------------------------------------------------- */

void precond_opts_defaults(struct precond_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->purge = 1;
	o->wipc_multiple = 2.0;
	o->wipc_bs_bytes = 128 * 1024;
	o->wipc_iodepth = 32;
	o->round_s = 60;
}

void precond_history_init(struct precond_history *h)
{
	kvlist_init(&h->done);
}

void precond_history_release(struct precond_history *h)
{
	if (h)
		kvlist_release(&h->done);
}

const char *precond_class(const struct precond_target *t)
{
	int random = t->random_pct >= 50, write = t->read_pct < 100;

	return random ? (write ? "random-write" : "random-read") : (write ? "sequential-write" : "sequential-read");
}

static int history_has(const struct precond_history *h, const char *path, const char *cls)
{
	for (size_t i = 0; i < h->done.n; i++)
		if (!strcmp(h->done.v[i].key, path) && !strcmp(h->done.v[i].value, cls))
			return 1;
	return 0;
}

static struct precond_phase *phase_add(struct precond_plan *p, enum precond_kind kind, const char *name,
				       const char *cls)
{
	struct precond_phase *ph = &p->v[p->n++];

	memset(ph, 0, sizeof(*ph));
	ph->kind = kind;
	ph->name = name;
	ph->cls = cls;
	kvlist_init(&ph->fio_opts);
	return ph;
}

static void wipc_options(struct precond_phase *ph, const struct precond_opts *o, const struct precond_target *t)
{
	char buf[64];

	ph->bytes = (uint64_t)llround(o->wipc_multiple * (double)t->working_set_bytes);
	kvlist_set(&ph->fio_opts, "rw", "write");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->wipc_bs_bytes);
	kvlist_set(&ph->fio_opts, "bs", buf);
	snprintf(buf, sizeof(buf), "%u", o->wipc_iodepth);
	kvlist_set(&ph->fio_opts, "iodepth", buf);
	kvlist_set(&ph->fio_opts, "direct", "1");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t->working_set_bytes);
	kvlist_set(&ph->fio_opts, "size", buf);
	/* io_size past size wraps around to the start: exactly multiple x the working set, sequentially */
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)ph->bytes);
	kvlist_set(&ph->fio_opts, "io_size", buf);
	kvlist_set(&ph->fio_opts, "time_based", "0");
}

int precond_plan(const struct precond_opts *o, const struct precond_target *t, struct precond_history *hist,
		 struct precond_plan *plan, struct errbuf *err)
{
	const char *cls = precond_class(t);
	int first = !history_has(hist, t->path, "*"), read_only = t->read_pct >= 100;

	memset(plan, 0, sizeof(*plan));
	if (first && o->purge) {
		struct precond_phase *ph;

		if (t->is_block && !o->destructive)
			return err_set(err, ERR_USAGE, "precondition: purging block device '%s' discards its data: give "
				       "--destructive, or no purge", t->path);
		ph = phase_add(plan, PRECOND_PURGE, "purge", cls);
		if (t->is_block) {
			size_t k = 0;

			ph->argv[k++] = xstrdup("blkdiscard");
			if (o->secure)
				ph->argv[k++] = xstrdup("-s");
			ph->argv[k++] = xstrdup(t->path);
		} else {
			ph->recreate = 1;
		}
	}
	if (first && o->wipc_multiple > 0 && t->working_set_bytes > 0)
		wipc_options(phase_add(plan, PRECOND_WIPC, "wipc", cls), o, t);
	if (!read_only && !history_has(hist, t->path, cls))
		phase_add(plan, PRECOND_WDPC, "wdpc", cls);
	if (!first)
		snprintf(plan->skipped, sizeof(plan->skipped), "purge and wipc: '%s' was preconditioned earlier in "
			 "this suite", t->path);
	if (!read_only && history_has(hist, t->path, cls))
		snprintf(plan->skipped + strlen(plan->skipped), sizeof(plan->skipped) - strlen(plan->skipped),
			 "%swdpc: done for class %s", plan->skipped[0] ? "; " : "", cls);
	if (first)
		kvlist_add(&hist->done, t->path, "*");
	if (!read_only && !history_has(hist, t->path, cls))
		kvlist_add(&hist->done, t->path, cls);
	return 0;
}

void precond_plan_release(struct precond_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n; i++) {
		for (size_t k = 0; k < 5; k++)
			free(plan->v[i].argv[k]);
		kvlist_release(&plan->v[i].fio_opts);
	}
	plan->n = 0;
}

/* ---- run-time arithmetic (bench/runloop_method.c applies it to stored figures) ---- */

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
