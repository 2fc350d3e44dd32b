/*
 * steady: the SNIA Solid State Storage Performance Test Specification (PTS 2.0.2, section 2.1.24) steady-state
 * rule, as a pure function over the values of a tracked variable (IOPS by default) in successive rounds.
 *
 * A measurement window is the last `window` rounds (5). The window is at steady state when both hold:
 *   range:     max - min of the values in the window <= range_pct % of the window's average (20 %);
 *   excursion: the least-squares line fitted to the window's (round, value) points moves across the window by
 *              no more than slope_pct % of the average (10 %); the excursion is |slope| x (window - 1), the
 *              difference between the line's values at the window's first and last rounds.
 * "<=" is the PTS's "no more than": a window exactly at a limit passes (compared with a relative tolerance of
 * 1e-9 so that 20 % computed in floating point is still 20 %). At most max_rounds rounds (25) are run; the
 * reported result is the window's average (the PTS reports the window). Several tracked variables are at
 * steady state only when all of them pass on the same window. Nothing here prints or allocates.
 */
#ifndef BENCH_REPORT_STEADY_H
#define BENCH_REPORT_STEADY_H

#include <stddef.h>

#define SS_WINDOW_DEFAULT 5
#define SS_RANGE_PCT_DEFAULT 20.0
#define SS_EXCURSION_PCT_DEFAULT 10.0
#define SS_MAX_ROUNDS_DEFAULT 25

struct ss_rule {
	unsigned window;       /* rounds in the measurement window, >= 2 */
	double range_pct;      /* max - min limit, % of the window average */
	double excursion_pct;  /* least-squares excursion limit, % of the window average */
	unsigned max_rounds;   /* rounds after which the run stops without steady state, >= window */
};

/* The window ending at one round, evaluated. */
struct ss_window {
	unsigned last_round;   /* 1-based round number of the window's last value */
	double avg, min, max;  /* of the window's values */
	double slope;          /* least-squares slope, value units per round */
	double excursion;      /* |slope| x (window - 1), value units */
	int range_ok, excursion_ok;
};

enum ss_state {
	SS_CONTINUE = 0,       /* not yet: run another round */
	SS_REACHED = 1,        /* steady state reached at ss_result.round */
	SS_NOT_REACHED = 2,    /* max_rounds run without steady state */
};

struct ss_result {
	enum ss_state state;
	unsigned round;        /* SS_REACHED: the round that completed the first steady window; else rounds seen */
	double avg;            /* SS_REACHED: the window's average of the first variable; else NAN */
	struct ss_window w;    /* the first variable's last evaluated window (valid when w.last_round > 0) */
};

/* window 5, range 20 %, excursion 10 %, at most 25 rounds. */
void ss_rule_defaults(struct ss_rule *r);

/* Checks the rule's numbers; returns 0 or -1 with a message in err ("steady state window must be >= 2 ..."). */
int ss_rule_check(const struct ss_rule *r, char *err, size_t errlen);

/* Evaluates the window of r->window values ending at v[last] (last >= window - 1). */
void ss_window_eval(const struct ss_rule *r, const double *v, size_t last, struct ss_window *w);

/*
 * Scans rounds 1..n of `nvars` tracked variables (vars[k][0..n), one value per round) and finds the first
 * round at which every variable's window is at steady state. Rounds beyond max_rounds are ignored.
 */
void ss_check(const struct ss_rule *r, const double *const *vars, size_t nvars, size_t n, struct ss_result *out);

/*
 * The words every report and the gate use for a result: "steady state reached at round 7 (window 3-7, average
 * 1325.2)", "steady state not reached after 25 rounds", "steady state not decided after 3 rounds". And the
 * value of the run label steady_state: "reached:7", "not-reached:25", "running:3". Both into buf (truncated).
 */
void ss_result_describe(const struct ss_rule *r, const struct ss_result *res, char *buf, size_t len);
void ss_result_label(const struct ss_result *res, char *buf, size_t len);

/*
 * The other way: a steady_state label value as ss_result_label writes it, and the window's average (label
 * ss.window_iops; NULL or unreadable: NAN), into out. 0, or -1 when the value is not one bench writes.
 */
int ss_result_parse(const char *label, const char *window_avg, struct ss_result *out);

/*
 * The words for a run's steady_state and ss.window_iops labels: ss_result_describe of ss_result_parse, but
 * "steady state reached at round N" when the average is not known (none is invented). Returns the state, or -1
 * (buf untouched) when the label is not one bench writes.
 */
int ss_label_describe(const char *label, const char *window_avg, char *buf, size_t len);

/* One variable (the common case). */
void ss_check1(const struct ss_rule *r, const double *v, size_t n, struct ss_result *out);

#endif
