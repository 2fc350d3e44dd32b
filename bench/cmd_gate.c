/*
 * cmd_gate: `bench gate`, the CI performance regression gate. Selects baseline and candidate runs from the
 * store, judges every workload x metric cell (report/gate/gate.h), prints the table sorted by effect, writes the
 * Markdown, JUnit XML and JSON files asked for, and turns the outcome into the exit code:
 * 0 pass, 1 regression, 3 bad selection, too few valid runs or sides not like for like, 6 inconclusive
 * (--on-inconclusive pass gives 0, fail gives 1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/gate/gate.h"
#include "report/gate/gate_select.h"

/* Exit code of an INCONCLUSIVE gate (no regression, not enough evidence for a pass); README and `bench help`
 * list it. TODO(lead): move into enum of bench/cli.h as EXIT_INCONCLUSIVE when merging. */
#define MAX_ALLOW_DIFF 64

static const char gate_help[] =
	"usage: bench gate --baseline SELECTION --candidate SELECTION [options]\n"
	"       bench gate --calibrate --baseline SELECTION --candidate SELECTION [--threshold PCT]\n"
	"       bench gate --plan --baseline SELECTION [--candidate SELECTION] [--threshold PCT]\n"
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

int cmd_gate(int argc, char **argv)
{
	int argi = 0;
	const char *db = NULL, *base_sel = NULL, *cand_sel = NULL;
	const char *md_path = NULL, *junit_path = NULL, *json_path = NULL;
	int calibrate = 0, plan = 0, quiet = 0, c, rc = EXIT_INTERNAL;
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
		case OK_MARKDOWN: md_path = optarg; break;
		case OK_JUNIT: junit_path = optarg; break;
		case OK_JSON: json_path = optarg; break;
		case OK_CALIBRATE: calibrate = 1; break;
		case 'q': quiet = 1; break;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("gate", "unexpected argument '%s'", argv[optind]);
	if (plan && !cand_sel)
		cand_sel = base_sel; /* the noise of the baseline's runs alone */
	if (!base_sel || !cand_sel)
		return cli_usage("gate", "both --baseline and --candidate are required");
	go.allow_diff = allow;
	go.nallow_diff = nallow;
	go.db_path = db;
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
	if (!quiet) {
		gate_render_text(&g, &out);
		fwrite(out.buf, 1, out.len, stdout);
	}
	rc = EXIT_OK;
	if (md_path) {
		strbuf_reset(&out);
		gate_render_markdown(&g, &out);
		if (write_output(md_path, &out) < 0)
			rc = EXIT_STORE;
	}
	if (junit_path && rc == EXIT_OK) {
		strbuf_reset(&out);
		gate_render_junit(&g, &out);
		if (write_output(junit_path, &out) < 0)
			rc = EXIT_STORE;
	}
	if (json_path && rc == EXIT_OK) {
		strbuf_reset(&out);
		gate_render_json(&g, &out);
		if (write_output(json_path, &out) < 0)
			rc = EXIT_STORE;
	}
	if (rc != EXIT_OK)
		goto out;
	rc = outcome_exit(&g);
out:
	strbuf_release(&out);
	gate_release(&g);
	gate_side_release(&base);
	gate_side_release(&cand);
	return rc;
}
