/*
 * cmd_trend: `bench trend`, the history of a metric. Reads the selected runs (report_load), groups them by
 * workload identity, orders them by start time or a label, finds the change points (report/analysis/trend.h), prints
 * them as text, Markdown or JSON, optionally writes a gnuplot chart per series (report/analysis/trend.h) and draws it
 * (bench/gnuplot_run.h), and exits 1 when the newest segment of a series is a regression beyond the
 * threshold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "bench/gnuplot_run.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/chart/chart_gnuplot.h"
#include "report/load.h"
#include "report/analysis/trend.h"


static const char trend_help[] =
	"usage: bench trend [--db PATH] [--metric KEY] [--sort started_at|LABEL] [--where key=value]...\n"
	"                   [--pvalue P] [--threshold PCT] [--min-segment N] [--format text|markdown|json]\n"
	"                   [--chart DIR [--dpi N]]\n"
	"\n"
	"The history of a metric: the selected runs, grouped by workload identity into series and ordered by\n"
	"start time or by a label (a build number: --sort git-seq), are split into segments where the metric\n"
	"changed: E-divisive means (Matteson & James) with a Welch t-test on the log values of the two segments of\n"
	"every split (kept when p < --pvalue, as Otava does), each change point re-tested against its\n"
	"neighbouring segments. Every change point is printed with the runs before and after it, the size of\n"
	"the step (ratio of the segments' geometric means) and its interval.\n"
	"\n"
	"";

static const char trend_help_tail[] =
	"\n"
	"exit codes: 0 no regression in the newest segment, 1 the newest segment of a series is a regression,\n"
	"2 usage error, 3 no run with the metric, 4 gnuplot failed or missing, 5 storage error.\n";



struct trend_args {
	const char *db, *order, *chart_dir;
	int metric;
	int dpi;     /* --dpi: PNG resolution (0: screen) */
	char format; /* 't', 'm', 'j' */
	struct kvlist where;
	struct trend_opts o;
};

/* Parses the options; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, struct trend_args *a)
{
	int argi = 0;
	struct errbuf err;
	int c;

	errbuf_init(&err);
	argi = 0;
	while ((c = opt_getopt("trend", OPT_TREND, argc, argv, &argi)) != -1) {
		long n;
		switch (c) {
		case 'h': fputs(trend_help, stdout);
			opt_help(stdout, OPT_TREND);
			fputs(trend_help_tail, stdout); return EXIT_OK;
		case OK_DB: a->db = optarg; break;
		case OK_SORT: a->order = optarg; break;
		case OK_CHART: a->chart_dir = optarg; break;
		case OK_DPI:
			if (chart_dpi_parse(optarg, &a->dpi) < 0)
				return cli_usage("trend", "--dpi wants a resolution of %d to %d, got '%s'", CHART_DPI_MIN,
						 CHART_DPI_MAX, optarg);
			break;
		case OK_METRIC:
			if ((a->metric = trend_metric_parse(optarg)) < 0)
				return cli_usage("trend", "--metric wants iops, mbps, cpu_pct, read_lat_ms, write_lat_ms, "
						 "read_p99_ms or write_p99_ms, got '%s'", optarg);
			break;
		case OK_WHERE:
			if (rep_where_add(&a->where, optarg, &err) < 0)
				return cli_usage("trend", "%s", err.msg);
			break;
		case OK_PVALUE:
			if (parse_double(optarg, &a->o.pvalue) < 0 || !(a->o.pvalue > 0 && a->o.pvalue < 1))
				return cli_usage("trend", "--pvalue wants a probability between 0 and 1, got '%s'", optarg);
			break;
		case OK_THRESHOLD:
			if (parse_percent_fraction(optarg, 0, 100, &a->o.threshold) < 0)
				return cli_usage("trend", "--threshold wants a percentage between 0 and 100, got '%s'", optarg);
			break;
		case OK_CONFIDENCE:
			if (parse_percent_fraction(optarg, 50, 100, &a->o.conf) < 0)
				return cli_usage("trend", "--confidence wants a percentage between 50 and 100, got '%s'",
						 optarg);
			break;
		case OK_MIN_SEGMENT:
			if (parse_long(optarg, 2, 100000, &n) < 0)
				return cli_usage("trend", "--min-segment wants a whole number >= 2, got '%s'", optarg);
			a->o.min_size = (unsigned)n;
			break;
		case OK_FORMAT:
			if (!strcmp(optarg, "text") || !strcmp(optarg, "markdown") || !strcmp(optarg, "md") ||
			    !strcmp(optarg, "json"))
				a->format = optarg[0];
			else
				return opt_choice("trend", "--format", "text|markdown|json", optarg), EXIT_USAGE;
			break;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("trend", "unexpected argument '%s'", argv[optind]);
	return -1;
}

/* --chart DIR: a chart per series, drawn (bench/gnuplot_run.h). 0, or an exit code after printing the error. */
static int draw(const struct trend *t, const struct trend_args *a)
{
	struct chart_set cs;
	struct errbuf err;
	int rc = EXIT_OK;

	chart_set_init(&cs);
	cs.dpi = a->dpi;
	errbuf_init(&err);
	if (chart_set_dir(&cs, a->chart_dir, &err) < 0 || trend_write_charts(t, &cs, &err) < 0 ||
	    gnuplot_run(&cs, 0, &err) < 0)
		rc = cli_fail(&err);
	chart_set_release(&cs);
	return rc;
}

int cmd_trend(int argc, char **argv)
{
	struct trend_args a;
	struct store *st = NULL;
	struct rep_set set;
	struct trend t;
	struct errbuf err;
	struct strbuf out;
	int rc;

	memset(&a, 0, sizeof(a));
	a.metric = RM_IOPS;
	a.order = "started_at";
	a.format = 't';
	kvlist_init(&a.where);
	trend_opts_default(&a.o);
	errbuf_init(&err);
	rep_set_init(&set);
	strbuf_init(&out);
	trend_init(&t, NULL, RM_IOPS, NULL);
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		goto out;
	trend_release(&t);
	trend_init(&t, &a.o, (enum rep_metric)a.metric, a.order);

	if (!(st = cli_store())) {
		rc = cli_store_code();
		goto out;
	}
	if (report_load(st, &a.where, 0, &set, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	if (trend_build(&t, &set, &err) < 0 || trend_analyse(&t, &err) < 0) {
		err_prefix(&err, "trend");
		rc = cli_fail(&err);
		goto out;
	}
	if (a.format == 'j')
		trend_render_json(&t, &out);
	else if (a.format == 'm')
		trend_render_markdown(&t, &out);
	else
		trend_render_text(&t, &out);
	fwrite(out.buf, 1, out.len, stdout);
	rc = trend_regressed(&t) ? EXIT_REGRESSION : EXIT_OK;
	if (a.chart_dir) {
		int crc = draw(&t, &a);
		if (crc != EXIT_OK)
			rc = crc;
	}
out:
	strbuf_release(&out);
	trend_release(&t);
	rep_set_release(&set);
	kvlist_release(&a.where);
	return rc;
}
