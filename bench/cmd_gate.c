/*
 * cmd_gate: `bench gate`, the CI performance regression gate. Selects baseline and candidate runs from the
 * store, judges every workload x metric cell (report/gate/gate.h), prints the table sorted by effect, writes the
 * Markdown, JUnit XML and JSON files asked for, and turns the outcome into the exit code:
 * 0 pass, 1 regression, 3 bad selection, too few valid runs or sides not like for like, 6 inconclusive
 * (--on-inconclusive pass gives 0, fail gives 1).
 *
 * With --run SUITE it first makes the runs itself (docs/gate.md "Repetitions until the answer is known"): the
 * suite's two profiles run as interleaved pairs through the run loop of `bench run` (each pair one stored suite,
 * the runs labelled gate.suite and gate.side), and after each pair the sequential gate (report/gate/gate_seq.h)
 * judges the pairs stored so far, until every judged cell is decided or --budget is spent.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>
#include <unistd.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "bench/runloop.h"
#include "core/paths.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/profile.h"
#include "profiles/suite.h"
#include "report/gate/gate.h"
#include "report/gate/gate_select.h"
#include "report/gate/gate_seq.h"

/* Exit code of an INCONCLUSIVE gate (no regression, not enough evidence for a pass); README and `bench help`
 * list it. TODO(lead): move into enum of bench/cli.h as EXIT_INCONCLUSIVE when merging. */
#define MAX_ALLOW_DIFF 64

static const char gate_help[] =
	"usage: bench gate --baseline SELECTION --candidate SELECTION [options]\n"
	"       bench gate --calibrate --baseline SELECTION --candidate SELECTION [--threshold PCT]\n"
	"       bench gate --plan --baseline SELECTION [--candidate SELECTION] [--threshold PCT]\n"
	"       bench gate --run SUITE [--budget N|DURATION] [--metric M,...] [--threshold ...]\n"
	"\n"
	"CI performance regression gate: compares the candidate's runs with the baseline's, workload by workload,\n"
	"for IOPS, MiB/s, mean and p99 latency per direction (read, write, trim) and CPU per IO (aggregate of all\n"
	"hosts). Each cell gets the candidate/baseline ratio with a confidence interval on log values (a Welch t\n"
	"interval, paired t with --paired, below 10 runs per side; from 10 runs Hodges-Lehmann with the exact\n"
	"Mann-Whitney or signed-rank interval), p-values adjusted over all cells (Benjamini-Hochberg false\n"
	"discovery rate) and a verdict:\n"
	"  REGRESSION    worse than the threshold and the interval excludes no change (fails the gate)\n"
	"  IMPROVEMENT   better than the threshold and the interval excludes no change\n"
	"  EQUIVALENT    the whole interval is within +-threshold\n"
	"  INCONCLUSIVE  anything else; says how many more runs per side would likely settle it\n"
	"  INVALID       fewer valid runs than --min-runs on a side, or the sides are not like for like (a fio\n"
	"                option, the engine or its options, the targets or the host count differ; named)\n"
	"The gate PASSes only when every cell is EQUIVALENT or IMPROVEMENT; a REGRESSION fails it; else it is\n"
	"INCONCLUSIVE (exit 6) or, with INVALID cells, exit 3.\n"
	"Runs that failed, are partial, aborted or still running, had a fio error on a host, ran short or are not\n"
	"at steady state (label steady_state=not-reached:N) are excluded and listed with the reason. A job that\n"
	"fio stopped early because its ss= criterion was met (label fio.ss=attained) is complete, not short.\n"
	"Higher is better for IOPS and MiB/s, lower for latency and CPU.\n"
	"Store repetitions with 'bench run --repeat N --label k=v'.\n"
	"With --run SUITE the gate makes the runs: the suite's two 'profile =' lines (the baseline first, the\n"
	"candidate second) run as interleaved pairs, each stored as usual (labels gate.suite, gate.side), and the\n"
	"pairs are judged after each pair with alpha spending over the looks, until every judged metric is\n"
	"decided or --budget is spent; run again, it continues from the stored pairs (docs/gate.md).\n"
	"\n"
	"selections (--baseline, --candidate):\n"
	"  suite:ID              the runs of one suite (ids: 'bench report')\n"
	"  key=value[,k=v...]    the runs matching all these labels (a run's label overrides its suite's), e.g. git=abc123\n"
	"  latest:key=value      the runs of the newest suite with that label, e.g. latest:branch=main\n"
	"\n"
	"";

static const char gate_help_tail[] =
	"\n"
	"exit codes: 0 pass, 1 regression (or inconclusive with --on-inconclusive fail), 2 usage error,\n"
	"3 bad selection (no runs match, no workload in common), cells with too few valid runs or sides not like\n"
	"for like, 5 storage error, 6 inconclusive (no regression, but not enough evidence for a pass).\n";



static int write_output(const char *path, const struct strbuf *sb)
{
	FILE *f;

	if (!strcmp(path, "-")) {
		fwrite(sb->buf, 1, sb->len, stdout);
		return 0;
	}
	f = fopen(path, "w");
	if (!f) {
		cli_error(EXIT_STORE, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len || fflush(f) != 0 || ferror(f)) {
		cli_error(EXIT_STORE, "cannot write '%s': %s", path, strerror(errno));
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0) {
		cli_error(EXIT_STORE, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* --match, --on-inconclusive, --method: 0, or the usage error's exit code. */
static int parse_choice(int opt, const char *arg, struct gate_opts *go, struct gate_select_opts *so)
{
	static const struct { int opt; const char *name; int value; } choices[] = {
		{ OK_MATCH, "identity", REP_MATCH_IDENTITY }, { OK_MATCH, "name", REP_MATCH_NAME },
		{ OK_ON_INCONCLUSIVE, "pass", GATE_INC_PASS }, { OK_ON_INCONCLUSIVE, "fail", GATE_INC_FAIL },
		{ OK_METHOD, "auto", GATE_METHOD_AUTO }, { OK_METHOD, "t", GATE_METHOD_T },
		{ OK_METHOD, "rank", GATE_METHOD_RANK },
	};

	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		if (choices[i].opt != opt || strcmp(choices[i].name, arg))
			continue;
		if (opt == OK_MATCH)
			so->match = (enum rep_match)choices[i].value;
		else if (opt == OK_ON_INCONCLUSIVE)
			go->on_inconclusive = (enum gate_on_inconclusive)choices[i].value;
		else
			go->method = (enum gate_method)choices[i].value;
		return 0;
	}
	/* not one of them: the usage error with the closest value (opt_choice) */
	if (opt == OK_MATCH)
		opt_choice("gate", "--match", "identity|name", arg);
	else if (opt == OK_ON_INCONCLUSIVE)
		opt_choice("gate", "--on-inconclusive", "pass|fail", arg);
	else
		opt_choice("gate", "--method", "auto|t|rank", arg);
	return EXIT_USAGE;
}

/* The exit code of a judged gate (INVALID prints its one-line error). */
static int outcome_exit(const struct gate *g)
{
	switch (gate_outcome(g)) {
	case GATE_PASS:
		return EXIT_OK;
	case GATE_FAIL_REGRESSION:
		return EXIT_REGRESSION;
	case GATE_UNDECIDED:
		return g->opts.on_inconclusive == GATE_INC_PASS ? EXIT_OK
		       : g->opts.on_inconclusive == GATE_INC_FAIL ? EXIT_REGRESSION : EXIT_INCONCLUSIVE;
	case GATE_FAIL_INVALID:
		break;
	}
	return cli_error(EXIT_INPUT,
			 "gate: %zu cell(s) are INVALID (too few valid runs per side, at least %u, or the sides are "
			 "not like for like; see the notes above), a gate without comparable data is not a pass "
			 "(--allow-diff OPTION, --allow-unsteady, --allow-invalid to accept)",
			 g->count[GATE_INVALID], gate_min_runs(&g->opts));
}

/* --threshold PCT or METRIC=PCT,..., and --metric M1,M2: what the verdict judges, at which threshold. */
static int judged_option(int c, const char *arg, struct gate_opts *go)
{
	struct errbuf err;

	errbuf_init(&err);
	if (c == OK_METRIC)
		return gate_parse_metrics(arg, &go->judged, &err) < 0 ? cli_usage("gate", "%s", err.msg) : 0;
	if (strchr(arg, '=')) /* METRIC=PCT,... */
		return gate_parse_thresholds(arg, go->group_threshold, &err) < 0 ? cli_usage("gate", "%s", err.msg) : 0;
	if (parse_percent_fraction(arg, 0, 100, &go->threshold) < 0)
		return cli_usage("gate", "--threshold wants a percentage between 0 and 100 or METRIC=PCT,... (e.g. "
				 "iops=5%%,p99=15%%), got '%s'", arg);
	return 0;
}

/* The files --markdown, --junit and --json write (NULL: not asked). */
struct gate_paths {
	const char *md, *junit, *json;
};

/* Prints the table (unless quiet), writes the files asked for and returns the exit code of the outcome. */
static int gate_outputs(const struct gate *g, int quiet, const struct gate_paths *paths)
{
	static void (*const renders[3])(const struct gate *, struct strbuf *) = {
		gate_render_markdown, gate_render_junit, gate_render_json,
	};
	const char *files[3] = { paths->md, paths->junit, paths->json };
	struct strbuf out;
	int rc = EXIT_OK;

	strbuf_init(&out);
	if (!quiet) {
		gate_render_text(g, &out);
		fwrite(out.buf, 1, out.len, stdout);
	}
	for (int i = 0; i < 3 && rc == EXIT_OK; i++) {
		if (!files[i])
			continue;
		strbuf_reset(&out);
		renders[i](g, &out);
		if (write_output(files[i], &out) < 0)
			rc = EXIT_STORE;
	}
	strbuf_release(&out);
	return rc == EXIT_OK ? outcome_exit(g) : rc;
}

/* ---- --run SUITE: repetitions until the answer is known --------------------------------------------- */

/* What a gate suite says (docs/gate.md): its name, the two profiles (baseline first) and what the runs share. */
struct gate_suite {
	struct suite su;
	char *name;            /* label gate.suite of every run: the suite's name, else its file */
	char *profile[2];      /* as bench run is given them: relative to the suite's folder when a file is there */
	const char *written[2]; /* as the suite writes them */
	unsigned pairs;        /* the budget in pairs (spending's K) */
	double budget_s;       /* the budget in seconds, or 0 */
};

/* Reads SUITE: exactly two `profile =` items. 0, or the exit code after printing the error. */
static int gate_suite_read(const char *path, struct gate_suite *gs)
{
	struct errbuf err;
	size_t n = 0;
	char *dir;

	errbuf_init(&err);
	if (suite_parse_file(path, &gs->su, &err) < 0)
		return cli_fail(&err);
	for (size_t i = 0; i < gs->su.nitems; i++)
		if (gs->su.items[i].kind == SUITE_PROFILE && n < 2)
			gs->written[n++] = gs->su.items[i].text;
	if (n != 2 || gs->su.nitems != 2)
		return cli_error(EXIT_INPUT, "%s:%d: a gate suite names its two sides as 'profile =' lines, the "
				 "baseline first, the candidate second (found %zu item(s), %zu of them 'profile =')",
				 path, gs->su.nitems ? gs->su.items[gs->su.nitems - 1].line : 1, gs->su.nitems, n);
	dir = path_dir(path);
	for (int i = 0; i < 2; i++) {
		char *p = gs->written[i][0] == '/' ? xstrdup(gs->written[i]) : xasprintf("%s/%s", dir, gs->written[i]);
		if (access(p, F_OK) != 0) { /* a built-in name, as bench run reads it */
			free(p);
			p = xstrdup(gs->written[i]);
		}
		gs->profile[i] = p;
	}
	free(dir);
	gs->name = xstrdup(gs->su.name ? gs->su.name : path);
	return EXIT_OK;
}

static void gate_suite_release(struct gate_suite *gs)
{
	suite_release(&gs->su);
	free(gs->name);
	free(gs->profile[0]);
	free(gs->profile[1]);
}

/* --budget N (pairs) or DURATION (10m): 0 or the usage error's exit code. */
static int parse_budget(const char *arg, struct gate_suite *gs)
{
	long n;

	gs->pairs = GATE_SEQ_DEFAULT_BUDGET;
	gs->budget_s = 0;
	if (!arg)
		return 0;
	if (parse_long(arg, GATE_SEQ_FIRST_LOOK, GATE_SEQ_MAX_BUDGET, &n) == 0) {
		gs->pairs = (unsigned)n;
		return 0;
	}
	if (strspn(arg, "0123456789") != strlen(arg) && parse_duration_s(arg, &gs->budget_s) == 0 &&
	    gs->budget_s > 0)
		return 0;
	return cli_usage("gate", "--budget wants a number of pairs %u..%u or a duration (10m, 1h), got '%s'",
			 GATE_SEQ_FIRST_LOOK, GATE_SEQ_MAX_BUDGET, arg);
}

static void no_usage(void)
{
}

/* The plan of one pair, A B: `bench run BASE CAND --interleave` with the suite's targets, engine and labels,
 * each run labelled gate.suite and gate.side. EXIT_OK or the exit code (printed). */
static int gate_suite_plan(struct gate_suite *gs, struct run_args *a, struct plan *plan)
{
	const char *argv[64] = { "run", gs->profile[0], gs->profile[1], "--interleave", "-q" };
	int argc = 5, code;
	char *targets = gs->su.targets ? xstrdup(gs->su.targets) : NULL, *save = NULL;

	if (gs->su.engine) {
		argv[argc++] = "--engine";
		argv[argc++] = gs->su.engine;
	}
	for (char *t = targets ? strtok_r(targets, " \t", &save) : NULL; t && argc < 60; t = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(t, "default"))
			continue;
		argv[argc++] = "--target";
		argv[argc++] = t;
	}
	argv[argc] = NULL;
	code = run_args_start(a, OPT_RUN, argc, (char **)argv, no_usage, plan);
	free(targets);
	if (code != EXIT_OK)
		return code;
	if (plan->n != 2)
		return cli_error(EXIT_INPUT, "%s: each side of a gate suite is one run (one fio job, or jobs fio runs "
				 "together), got %zu runs in all", gs->su.file, plan->n);
	kvlist_set(&plan->labels, "gate.suite", gs->name);
	for (size_t i = 0; i < plan->n; i++) {
		struct run_spec *s = &plan->runs[i];
		kvlist_copy(&s->labels, &gs->su.labels);
		kvlist_set(&s->labels, "gate.suite", gs->name);
		kvlist_set(&s->labels, "gate.side", i == 0 ? "baseline" : "candidate");
	}
	return EXIT_OK;
}

/* The stored pairs of the gate: sides loaded by their labels; *pairs = repetitions with a valid run on both
 * sides, *next = the repetition to run next. 0 or the exit code (printed). */
static int gate_suite_load(struct store *st, const struct gate_suite *gs, const struct gate_select_opts *so,
			   struct gate_side *base, struct gate_side *cand, unsigned *pairs, unsigned *next)
{
	struct gate_side *sides[2] = { base, cand };
	struct errbuf err;

	errbuf_init(&err);
	*pairs = 0;
	*next = 1;
	for (int i = 0; i < 2; i++) {
		char *sel = xasprintf("gate.suite=%s,gate.side=%s", gs->name, i ? "candidate" : "baseline");
		int r;
		gate_side_init(sides[i], sel);
		r = gate_select_load(st, sel, so, sides[i], &err);
		free(sel);
		if (r < 0)
			return cli_fail(&err);
		for (size_t k = 0; k < sides[i]->n; k++)
			if (sides[i]->runs[k].repetition >= *next)
				*next = sides[i]->runs[k].repetition + 1;
	}
	for (unsigned r = 1; r < *next; r++) {
		int have[2] = { 0, 0 };
		for (int i = 0; i < 2; i++)
			for (size_t k = 0; k < sides[i]->n; k++)
				have[i] |= sides[i]->runs[k].repetition == r && !sides[i]->runs[k].invalid;
		*pairs += have[0] && have[1];
	}
	return EXIT_OK;
}

/* Runs pair `rep` (A B when odd, B A when even) through the run loop: the exit code of runloop_run. */
static int gate_suite_pair(struct store *st, const struct plan *ab, const struct runloop_opts *ro, unsigned rep)
{
	struct plan pair;
	int code;

	plan_init(&pair);
	pair.name = xstrdup(ab->name ? ab->name : "gate");
	kvlist_copy(&pair.labels, &ab->labels);
	pair.repeat = 1;
	for (size_t j = 0; j < 2; j++) {
		const struct run_spec *src = &ab->runs[rep % 2 ? j : 1 - j];
		struct run_spec *s = plan_add_copy(&pair, src);

		s->repetition = rep;
	}
	code = runloop_run(st, &pair, ro);
	plan_release(&pair);
	return code;
}

/* One look: the gate of the pairs stored so far at look `k`'s level into *g (evaluated). 0 or the exit code. */
static int gate_suite_look(struct gate *g, const struct gate_opts *asked, unsigned k, unsigned budget,
			   const struct gate_side *base, const struct gate_side *cand)
{
	struct gate_opts look;
	struct errbuf err;

	errbuf_init(&err);
	gate_seq_look_opts(&look, asked, k, budget);
	gate_release(g);
	gate_init(g, &look);
	if (gate_build(g, base, cand, &err) < 0 || gate_evaluate(g, &err) < 0) {
		err_prefix(&err, "gate");
		return cli_fail(&err);
	}
	return EXIT_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The line that says how the sequential gate ended (asked: the overall confidence level). */
static void gate_suite_said(const struct gate *g, const struct gate_suite *gs, double asked, unsigned pairs,
			    int decided)
{
	unsigned need;

	printf("sequential gate '%s': ", cli_safe(gs->name));
	if (decided) {
		printf("decided after %u pair(s) of a budget of %u (this look's intervals at %.4g%%; alpha spending "
		       "over the looks keeps the whole gate at %g%%)\n", pairs, gs->pairs, g->opts.conf * 100,
		       asked * 100);
		return;
	}
	printf("the budget is spent after %u pair(s) (%u%s) and not every judged metric is decided", pairs,
	       gs->pairs, gs->budget_s > 0 ? " by time" : "");
	if ((need = gate_seq_pairs_needed(g, pairs)) > pairs)
		printf("; the measured noise needs about %u pairs in all (%u more)", need, need - pairs);
	printf("\n");
}

/* Sets gs->pairs from a time budget: the pairs that fit, at the plan's estimate of one pair. */
static void budget_pairs_of_time(struct gate_suite *gs, const struct plan *ab)
{
	double pair_s = plan_estimate_s(ab);
	double n = pair_s > 0 ? floor(gs->budget_s / pair_s) : GATE_SEQ_DEFAULT_BUDGET;

	gs->pairs = n < GATE_SEQ_FIRST_LOOK ? GATE_SEQ_FIRST_LOOK : n > GATE_SEQ_MAX_BUDGET ? GATE_SEQ_MAX_BUDGET :
		    (unsigned)n;
}

/* The loop: look at the stored pairs, stop when decided or the budget is spent, else run the next pair. */
static int gate_suite_loop(struct store *st, struct gate_suite *gs, const struct plan *ab,
			   const struct runloop_opts *ro, const struct gate_opts *go, const struct gate_select_opts *so,
			   int quiet, const struct gate_paths *paths)
{
	double t0 = now_s(), pair_s = plan_estimate_s(ab);
	struct gate_side base, cand;
	struct gate g;
	int code = EXIT_OK, decided = 0;
	unsigned pairs = 0, next = 1;

	gate_init(&g, go);
	gate_side_init(&base, "");
	gate_side_init(&cand, "");
	for (;;) {
		gate_side_release(&base);
		gate_side_release(&cand);
		if ((code = gate_suite_load(st, gs, so, &base, &cand, &pairs, &next)) != EXIT_OK)
			goto out;
		if (pairs >= GATE_SEQ_FIRST_LOOK) {
			if ((code = gate_suite_look(&g, go, pairs, gs->pairs, &base, &cand)) != EXIT_OK)
				goto out;
			decided = gate_seq_decided(&g);
			if (!quiet)
				printf("gate: after %u pair(s), intervals at %.4g%%: %s\n", pairs, g.opts.conf * 100,
				       decided ? gate_headline(&g) : g.count[GATE_INVALID] ? "INVALID" : "undecided");
			if (decided || (g.count[GATE_INVALID] && !go->allow_invalid))
				break;
		}
		if (next > gs->pairs || pairs >= gs->pairs ||
		    (gs->budget_s > 0 && now_s() - t0 + pair_s > gs->budget_s))
			break;
		if (!quiet)
			printf("gate: pair %u (%s) of at most %u\n", next, next % 2 ? "baseline, candidate" :
			       "candidate, baseline", gs->pairs), fflush(stdout);
		if ((code = gate_suite_pair(st, ab, ro, next)) != EXIT_OK)
			goto out;
	}
	if (pairs < GATE_SEQ_FIRST_LOOK) {
		code = cli_error(EXIT_INPUT, "gate: %u valid pair(s) stored for '%s' and the budget is spent; the "
				 "gate needs %u (see the runs with bench report -v --where gate.suite=%s)", pairs,
				 gs->name, GATE_SEQ_FIRST_LOOK, gs->name);
		goto out;
	}
	code = gate_outputs(&g, quiet, paths);
	if (!quiet)
		gate_suite_said(&g, gs, go->conf, pairs, decided);
out:
	gate_release(&g);
	gate_side_release(&base);
	gate_side_release(&cand);
	return code;
}

/* bench gate --run SUITE: reads the suite, plans one pair, checks it as bench run does and runs the loop. */
/*
 * The suite's gate.metric, gate.threshold and gate.budget where the command line did not give them (`given`:
 * bit 0 --metric, bit 1 --threshold): into go and *budget. 0, or the exit code after printing the error.
 */
static int gate_suite_settings(const struct gate_suite *gs, unsigned given, struct gate_opts *go,
			       const char **budget)
{
	static const char *const keys[2] = { "metric", "threshold" };
	struct errbuf err;
	const char *v;
	int rc;

	errbuf_init(&err);
	for (int i = 0; i < 2; i++) {
		char at[32];
		if ((given & (1u << i)) || !(v = kvlist_get(&gs->su.gate, keys[i], NULL)))
			continue;
		snprintf(at, sizeof(at), "%s.at", keys[i]);
		rc = i == 0 ? gate_parse_metrics(v, &go->judged, &err)
			    : strchr(v, '=') ? gate_parse_thresholds(v, go->group_threshold, &err)
					     : parse_percent_fraction(v, 0, 100, &go->threshold);
		if (rc < 0)
			return cli_error(EXIT_INPUT, "%s: gate.%s: %s", kvlist_get(&gs->su.gate, at, "?"), keys[i],
					 err.msg[0] ? err.msg : "wants a percentage between 0 and 100 or METRIC=PCT,...");
	}
	if (!*budget)
		*budget = kvlist_get(&gs->su.gate, "budget", NULL);
	return EXIT_OK;
}

static int gate_run_suite(const char *path, const char *budget, unsigned given, const struct gate_opts *go_cli,
			  const struct gate_select_opts *so, int quiet, const struct gate_paths *paths)
{
	struct gate_opts judged = *go_cli, *go = &judged;
	struct gate_suite gs;
	struct run_args a;
	struct plan ab;
	struct runloop_opts ro;
	struct store *st = NULL;
	char *args_text = NULL;
	int code;

	memset(&gs, 0, sizeof(gs));
	suite_init(&gs.su);
	run_args_init(&a, OPT_RUN);
	plan_init(&ab);
	if ((code = gate_suite_read(path, &gs)) != EXIT_OK || (code = gate_suite_settings(&gs, given, go, &budget)) ||
	    (code = parse_budget(budget, &gs)) != EXIT_OK)
		goto out;
	run_args_release(&a);
	plan_release(&ab);
	if ((code = gate_suite_plan(&gs, &a, &ab)) != EXIT_OK)
		goto out;
	if (gs.budget_s > 0)
		budget_pairs_of_time(&gs, &ab);
	ro = a.run;
	if ((code = runloop_preflight(&ab, &ro)) != EXIT_OK)
		goto out;
	if ((code = cli_open_store(go->db_path, 0, &st)) < 0) {
		code = -code;
		goto out;
	}
	args_text = run_args_suite_text(&a);
	ro.args = args_text;
	ro.sim_so = paths_sim_so();
	ro.quiet = 1;
	code = gate_suite_loop(st, &gs, &ab, &ro, go, so, quiet, paths);
out:
	store_close(st);
	free(args_text);
	plan_release(&ab);
	run_args_release(&a);
	gate_suite_release(&gs);
	return code;
}

int cmd_gate(int argc, char **argv)
{
	int argi = 0;
	const char *db = NULL, *base_sel = NULL, *cand_sel = NULL;
	struct gate_paths paths = { NULL, NULL, NULL };
	const char *run_suite = NULL, *budget = NULL;
	int calibrate = 0, plan = 0, quiet = 0, c, rc = EXIT_INTERNAL;
	unsigned given = 0; /* bit 0: --metric, bit 1: --threshold (a suite's gate.* keys do not override them) */
	const char *allow[MAX_ALLOW_DIFF];
	size_t nallow = 0;
	struct gate_opts go;
	struct gate_select_opts so;
	struct gate_side base, cand;
	struct gate g;
	struct store *st = NULL;
	struct errbuf err;
	struct strbuf out;

	gate_opts_default(&go);
	gate_select_opts_default(&so);
	errbuf_init(&err);
	argi = 0;
	while ((c = opt_getopt("gate", OPT_GATE, argc, argv, &argi)) != -1) {
		long n;
		switch (c) {
		case 'h':
			fputs(gate_help, stdout);
			opt_help(stdout, OPT_GATE);
			fputs(gate_help_tail, stdout);
			return EXIT_OK;
		case OK_DB: db = optarg; break;
		case OK_BASELINE: base_sel = optarg; break;
		case OK_CANDIDATE: cand_sel = optarg; break;
		case OK_THRESHOLD:
		case OK_METRIC:
			given |= c == OK_METRIC ? 1u : 2u;
			if ((n = judged_option(c, optarg, &go)) != 0)
				return (int)n;
			break;
		case OK_CONFIDENCE:
			if (parse_percent_fraction(optarg, 50, 100, &go.conf) < 0)
				return cli_usage("gate", "--confidence wants a percentage between 50 and 100, got '%s'",
						 optarg);
			break;
		case OK_MIN_RUNS:
			if (parse_long(optarg, 1, 100000, &n) < 0)
				return cli_usage("gate", "--min-runs wants a whole number of runs >= 1, got '%s'", optarg);
			go.min_runs = (unsigned)n;
			break;
		case OK_PAIRED: go.paired = 1; break;
		case OK_MIN_RUNTIME:
			if (parse_duration_s(optarg, &so.min_runtime_s) < 0 || so.min_runtime_s < 0)
				return cli_usage("gate", "--min-runtime wants a duration (e.g. 10, 500ms, 1m), got '%s'",
						 optarg);
			break;
		case OK_STRICT: go.on_inconclusive = GATE_INC_FAIL; break;
		case OK_ALLOW_DIFF:
			if (nallow >= MAX_ALLOW_DIFF || !*optarg)
				return cli_usage("gate", "--allow-diff wants an option name (at most %d), got '%s'",
						 MAX_ALLOW_DIFF, optarg);
			allow[nallow++] = optarg;
			break;
		case OK_MATCH:
		case OK_ON_INCONCLUSIVE:
		case OK_METHOD:
			if ((n = parse_choice(c, optarg, &go, &so)) != 0)
				return (int)n;
			break;
		case OK_PLAN: plan = 1; break;
		case OK_ALLOW_INVALID: go.allow_invalid = 1; break;
		case OK_ALLOW_UNSTEADY: so.allow_unsteady = 1; break;
		case OK_MARKDOWN: paths.md = optarg; break;
		case OK_JUNIT: paths.junit = optarg; break;
		case OK_JSON: paths.json = optarg; break;
		case OK_RUN: run_suite = optarg; break;
		case OK_BUDGET: budget = optarg; break;
		case OK_CALIBRATE: calibrate = 1; break;
		case 'q': quiet = 1; break;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("gate", "unexpected argument '%s'", argv[optind]);
	go.allow_diff = allow;
	go.nallow_diff = nallow;
	go.db_path = db;
	if (budget && !run_suite)
		return cli_usage("gate", "--budget goes with --run SUITE");
	if (run_suite) {
		if (base_sel || cand_sel || calibrate || plan)
			return cli_usage("gate", "--run SUITE chooses the sides itself (the suite's first profile is the "
					 "baseline, the second the candidate): no --baseline, --candidate, --calibrate "
					 "or --plan with it");
		return gate_run_suite(run_suite, budget, given, &go, &so, quiet, &paths);
	}
	if (plan && !cand_sel)
		cand_sel = base_sel; /* the noise of the baseline's runs alone */
	if (!base_sel || !cand_sel)
		return cli_usage("gate", "both --baseline and --candidate are required");
	if (gate_selection_check(base_sel, &err) < 0 || gate_selection_check(cand_sel, &err) < 0)
		return cli_usage("gate", "%s", err.msg);

	if (!(st = cli_store()))
		return cli_store_code();
	gate_side_init(&base, base_sel);
	gate_side_init(&cand, cand_sel);
	gate_init(&g, &go);
	strbuf_init(&out);

	if (gate_select_load(st, base_sel, &so, &base, &err) < 0) {
		err_prefix(&err, "baseline");
		rc = cli_fail(&err);
		goto out;
	}
	if (gate_select_load(st, cand_sel, &so, &cand, &err) < 0) {
		err_prefix(&err, "candidate");
		rc = cli_fail(&err);
		goto out;
	}
	if (gate_build(&g, &base, &cand, &err) < 0 || gate_evaluate(&g, &err) < 0) {
		err_prefix(&err, "gate");
		rc = cli_fail(&err);
		goto out;
	}

	if (calibrate || plan) {
		gate_render_calibration(&g, &out);
		fwrite(out.buf, 1, out.len, stdout);
		rc = EXIT_OK;
		goto out;
	}
	rc = gate_outputs(&g, quiet, &paths);
out:
	strbuf_release(&out);
	gate_release(&g);
	gate_side_release(&base);
	gate_side_release(&cand);
	return rc;
}
