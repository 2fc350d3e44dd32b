/*
 * steady: the SNIA PTS steady-state rule over round values (see steady.h for the rule and its reading).
 */
#include "report/analysis/steady.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

/* "no more than": within a relative 1e-9 of the limit counts as at the limit. */
static int within(double value, double limit)
{
	return value <= limit + 1e-9 * fabs(limit);
}

void ss_rule_defaults(struct ss_rule *r)
{
	r->window = SS_WINDOW_DEFAULT;
	r->range_pct = SS_RANGE_PCT_DEFAULT;
	r->excursion_pct = SS_EXCURSION_PCT_DEFAULT;
	r->max_rounds = SS_MAX_ROUNDS_DEFAULT;
}

int ss_rule_check(const struct ss_rule *r, char *err, size_t errlen)
{
	if (r->window < 2) {
		snprintf(err, errlen, "steady state window must be 2 rounds or more, got %u", r->window);
		return -1;
	}
	if (!(r->range_pct >= 0) || !(r->excursion_pct >= 0)) {
		snprintf(err, errlen, "steady state limits must be >= 0 %%, got range %g %%, excursion %g %%",
			 r->range_pct, r->excursion_pct);
		return -1;
	}
	if (r->max_rounds < r->window) {
		snprintf(err, errlen, "steady state max rounds (%u) must be at least the window (%u)", r->max_rounds,
			 r->window);
		return -1;
	}
	return 0;
}

void ss_window_eval(const struct ss_rule *r, const double *v, size_t last, struct ss_window *w)
{
	size_t first = last + 1 - r->window;
	double n = (double)r->window, xm = (n - 1) / 2.0, sum = 0, sxy = 0, sxx = 0;

	w->last_round = (unsigned)last + 1;
	w->min = w->max = v[first];
	for (size_t i = first; i <= last; i++) {
		sum += v[i];
		if (v[i] < w->min)
			w->min = v[i];
		if (v[i] > w->max)
			w->max = v[i];
	}
	w->avg = sum / n;
	for (size_t i = first; i <= last; i++) {
		double x = (double)(i - first) - xm;

		sxy += x * (v[i] - w->avg);
		sxx += x * x;
	}
	w->slope = sxy / sxx;
	w->excursion = fabs(w->slope) * (n - 1);
	w->range_ok = within(w->max - w->min, r->range_pct / 100.0 * fabs(w->avg));
	w->excursion_ok = within(w->excursion, r->excursion_pct / 100.0 * fabs(w->avg));
}

void ss_check(const struct ss_rule *r, const double *const *vars, size_t nvars, size_t n, struct ss_result *out)
{
	size_t limit = n < r->max_rounds ? n : r->max_rounds;

	out->state = SS_CONTINUE;
	out->round = (unsigned)limit;
	out->avg = NAN;
	out->w.last_round = 0;
	for (size_t last = r->window - 1; last < limit && nvars > 0; last++) {
		int all = 1;

		for (size_t k = 0; k < nvars; k++) {
			struct ss_window w;

			ss_window_eval(r, vars[k], last, &w);
			if (k == 0)
				out->w = w;
			if (!w.range_ok || !w.excursion_ok)
				all = 0;
		}
		if (all) {
			out->state = SS_REACHED;
			out->round = (unsigned)last + 1;
			out->avg = out->w.avg;
			return;
		}
	}
	if (limit >= r->max_rounds)
		out->state = SS_NOT_REACHED;
}

void ss_check1(const struct ss_rule *r, const double *v, size_t n, struct ss_result *out)
{
	ss_check(r, &v, 1, n, out);
}

void ss_result_describe(const struct ss_rule *r, const struct ss_result *res, char *buf, size_t len)
{
	switch (res->state) {
	case SS_REACHED:
		snprintf(buf, len, "steady state reached at round %u (window %u-%u, average %.1f)", res->round,
			 res->round + 1 - r->window, res->round, res->avg);
		break;
	case SS_NOT_REACHED:
		snprintf(buf, len, "steady state not reached after %u rounds", res->round);
		break;
	case SS_CONTINUE:
	default:
		snprintf(buf, len, "steady state not decided after %u rounds", res->round);
		break;
	}
}

static const char *const label_words[] = { "running", "reached", "not-reached" }; /* by enum ss_state */

void ss_result_label(const struct ss_result *res, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", label_words[res->state], res->round);
}

int ss_result_parse(const char *label, const char *window_avg, struct ss_result *out)
{
	memset(out, 0, sizeof(*out));
	out->avg = NAN;
	for (size_t i = 0; label && i < sizeof(label_words) / sizeof(label_words[0]); i++) {
		size_t n = strlen(label_words[i]);
		long round;

		if (strncmp(label, label_words[i], n) || label[n] != ':' ||
		    parse_long(label + n + 1, 0, 0x7fffffffL, &round) < 0)
			continue;
		out->state = (enum ss_state)i;
		out->round = (unsigned)round;
		if (out->state == SS_REACHED && window_avg) {
			char *end;
			double v = strtod(window_avg, &end);
			if (end != window_avg && !*end)
				out->avg = v;
		}
		return 0;
	}
	return -1;
}

int ss_label_describe(const char *label, const char *window_avg, char *buf, size_t len)
{
	struct ss_rule rule;
	struct ss_result res;

	if (ss_result_parse(label, window_avg, &res) < 0)
		return -1;
	ss_rule_defaults(&rule);
	if (res.state == SS_REACHED && isnan(res.avg))
		snprintf(buf, len, "steady state reached at round %u", res.round);
	else
		ss_result_describe(&rule, &res, buf, len);
	return (int)res.state;
}
