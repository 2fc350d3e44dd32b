/*
 * cmd_export: `bench export`, its arguments and its flow (docs/export.md). Two uses:
 *
 *   bench export --format csv|json|influx|openmetrics [--where k=v]... [-o FILE | --push URL]
 *     loads the selected runs (report_load) and their samples (core/store_admin.h), renders them
 *     (export/export.h) and writes a file, standard output, or pushes them (export/push.h): line protocol
 *     to an InfluxDB 1.x /write endpoint in batches, OpenMetrics text (without timestamps or samples, which a
 *     Pushgateway refuses) to a Pushgateway group /metrics/job/JOB. A push that fails is exit 4 and says how
 *     many points the server had accepted before.
 *   bench export --histogram RUN [--ddir DIR] [-o FILE]
 *     a stored run's completion-latency histogram as the text the sim ioengine reads with sim_hist=FILE
 *     (export/hist_export.h), written through a temporary name.
 *
 * The writers are the export/ room; this file only parses, checks and calls them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/store_admin.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "export/export.h"
#include "export/hist_export.h"
#include "export/push.h"
#include "report/load.h"

static const char usage_text[] =
	"usage: bench export --format csv|json|influx|openmetrics [--db PATH] [--where key=value]... [--all]\n"
	"                    [--no-samples] [--samples] [-o FILE]\n"
	"       bench export --format influx --push URL [--influx-db NAME] [--batch N] [push options]\n"
	"       bench export --format openmetrics --push URL [--job NAME] [push options]\n"
	"       bench export --histogram RUN [--ddir DIR] [-o FILE]   (a latency histogram for the sim engine, sim_hist=FILE: --histogram 1 --help)\n"
	"\n"
	"Writes the selected runs and their samples as data for other tools: CSV (one row per run; --samples:\n"
	"one row per sample), JSON, InfluxDB line protocol (measurements bench_run and bench_sample) or\n"
	"OpenMetrics text (gauges bench_iops, bench_mbps, ..., bench_sample_<metric>). Runs are stamped with\n"
	"their start time, samples with start time + t_ms. Labels become tags (InfluxDB) or labels\n"
	"(OpenMetrics), escaped by each format's rules.\n"
	"\n"
	"";

static const char usage_text_tail[] =
	"\n"
	"A push gives up after at most (retries + 1) x timeout + the backoffs (default 31.5 s) per request.\n"
	"exit codes: 0 ok, 2 usage error, 3 bad input (a run without a start time), 4 the server refused or did\n"
	"not answer (the message says how many points it had accepted), 5 database error, 70 internal error.\n";

static int hist_usage(void)
{
	printf("usage: bench export --histogram RUN [--ddir read|write|trim|total] [--db PATH] [-o FILE]\n\n"
	       "Writes the latency histogram of a stored run (its completion-latency bins, all hosts merged) in the\n"
	       "text format that the sim ioengine reads (fio option sim_hist=FILE), to replay a measured latency\n"
	       "distribution on a modelled target. Lines: '# ...' comments, then 'value_ns count' per fio latency\n"
	       "bucket (bucket midpoint in nanoseconds, number of IOs), ascending.\n\n"
	       "");
	opt_help(stdout, OPT_EXPORT);
	printf("\n"
	       "The run must have latency bins: runs of 'bench run' and imports of fio --output-format=json+ have.\n");
	return EXIT_OK;
}

struct export_args {
	const char *db, *output, *push, *influx_db, *job;
	enum export_format format;
	int have_format, all;
	unsigned flags;
	long batch;
	struct push_opts push_opts;
	struct kvlist where;
	long hist_run;         /* --histogram RUN: the other use of the command (0: not given) */
	const char *ddir;      /* --ddir, with --histogram only */
	int data_opts;         /* options that go with --format only were given */
};

static int valid_job(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("_.-", *s)))
			return 0;
	return 1;
}

static int check_hist_args(const struct export_args *a)
{
	if (a->data_opts)
		return cli_usage("export", "--histogram RUN writes one run's histogram: --format, --where, --push and "
					   "their options do not go with it");
	if (!a->hist_run)
		return cli_usage("export", "say what to export: --histogram RUN");
	return 0;
}

static int check_data_args(const struct export_args *a)
{
	if (a->ddir)
		return cli_usage("export", "--ddir goes with --histogram RUN only");
	if (!a->have_format)
		return cli_usage("export", "say which format: --format csv|json|influx|openmetrics");
	if (a->push && a->output)
		return cli_usage("export", "--push and -o exclude each other");
	if (a->push && a->format != EXPORT_INFLUX && a->format != EXPORT_OPENMETRICS)
		return cli_usage("export", "--push sends influx (to InfluxDB) or openmetrics (to a Pushgateway)");
	if (a->push && a->format == EXPORT_INFLUX && strstr(a->push, "precision=") && !strstr(a->push, "precision=ns"))
		return cli_usage("export", "bench writes nanosecond timestamps: drop precision= from the URL or use "
					   "precision=ns");
	if (a->push && strncmp(a->push, "http://", 7) && strncmp(a->push, "https://", 8))
		return cli_usage("export", "--push wants an http:// or https:// URL, got '%s'", a->push);
	return 0;
}

static int parse_ddir(const char *s, struct export_args *a)
{
	static const char *const ddirs[] = { "read", "write", "trim", "total", NULL };

	for (int i = 0; ddirs[i]; i++)
		if (!strcmp(ddirs[i], s)) {
			a->ddir = s;
			return 0;
		}
	return cli_usage("export", "--ddir wants read, write, trim or total, got '%s'", s);
}

/* The options of the push; -1: not one of them, else 0 or the exit code of a usage error. */
static int parse_push_opt(int c, struct export_args *a)
{
	long v;

	switch (c) {
	case OK_PUSH:
		a->push = optarg;
		return 0;
	case OK_INFLUX_DB:
		a->influx_db = optarg;
		return 0;
	case OK_JOB:
		if (!valid_job(optarg))
			return cli_usage("export", "--job wants a name of [A-Za-z0-9_.-], got '%s'", optarg);
		a->job = optarg;
		return 0;
	case OK_BATCH:
		if (parse_long(optarg, 1, 1000000, &a->batch) < 0)
			return cli_usage("export", "--batch wants 1..1000000 points, got '%s'", optarg);
		return 0;
	case OK_CONNECT_TIMEOUT:
		return opt_duration_ms("export", "--connect-timeout", optarg, 86400, &a->push_opts.connect_timeout_ms)
			? EXIT_USAGE : 0;
	case OK_TIMEOUT:
		return opt_duration_ms("export", "--timeout", optarg, 86400, &a->push_opts.timeout_ms) ? EXIT_USAGE : 0;
	case OK_RETRIES:
		if (parse_long(optarg, 0, 10, &v) < 0)
			return cli_usage("export", "--retries wants 0..10, got '%s'", optarg);
		a->push_opts.retries = (int)v;
		return 0;
	}
	return -1;
}

/* The options that go with --format only (the data export, the push); -1: not one of them. */
static int parse_data_opt(int c, struct export_args *a)
{
	struct errbuf err;
	int rc;

	errbuf_init(&err);
	switch (c) {
	case OK_FORMAT:
		if (export_format_parse(optarg, &a->format) < 0)
			return opt_choice("export", "--format", "csv|json|influx|openmetrics", optarg), EXIT_USAGE;
		a->have_format = 1;
		break;
	case OK_WHERE:
		if (rep_where_add(&a->where, optarg, &err) < 0)
			return cli_usage("export", "%s", err.msg);
		break;
	case OK_ALL:
		a->all = 1;
		break;
	case OK_NO_SAMPLES:
		a->flags |= EXPORT_NO_SAMPLES;
		break;
	case OK_SAMPLES:
		a->flags |= EXPORT_SAMPLES_ONLY;
		break;
	default:
		if ((rc = parse_push_opt(c, a)) != 0)
			return rc;
	}
	a->data_opts = 1;
	return 0;
}

/* -1: --help was printed; 0: a holds the arguments; else the exit code of a usage error (printed). */
static int parse_args(int argc, char **argv, int histogram, struct export_args *a)
{
	int argi = 0, c, rc;

	while ((c = opt_getopt("export", OPT_EXPORT, argc, argv, &argi)) != -1) {
		switch (c) {
		case 'h':
			if (histogram)
				return hist_usage(), -1;
			printf("%s", usage_text);
			opt_help(stdout, OPT_EXPORT);
			fputs(usage_text_tail, stdout);
			return -1;
		case OK_DB: /* opened by main (cli_store) */
			a->db = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OK_HISTOGRAM:
			if (parse_long(optarg, 1, LONG_MAX, &a->hist_run) < 0)
				return cli_usage("export", "--histogram wants a run id (a positive number), got '%s'",
						 optarg);
			break;
		case OK_DDIR:
			if (parse_ddir(optarg, a) != 0)
				return EXIT_USAGE;
			break;
		default:
			if ((rc = parse_data_opt(c, a)) != 0)
				return rc < 0 ? EXIT_USAGE : rc; /* -1: a row of the table no use of export takes */
		}
	}
	if (optind < argc)
		return cli_usage("export", "unexpected argument '%s'", argv[optind]);
	return histogram ? check_hist_args(a) : check_data_args(a);
}

/* Writes the file through a temporary name, so a failed export leaves no half file behind. */
static int write_output(const char *path, const struct strbuf *text, struct errbuf *err)
{
	char *tmp;
	FILE *f;
	int ret = -1;

	if (!path) {
		if (fwrite(text->buf, 1, text->len, stdout) != text->len)
			return err_set(err, ERR_STORE, "cannot write to standard output: %s", strerror(errno));
		return 0;
	}
	tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	if (fwrite(text->buf, 1, text->len, f) != text->len || fflush(f) != 0 || ferror(f)) {
		err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

/* --histogram RUN: the run's histogram for the sim engine, to -o FILE (through a temporary name) or stdout. */
static int export_histogram(const struct export_args *a)
{
	struct store *st;
	struct strbuf text;
	struct errbuf err;
	int code = EXIT_OK;

	strbuf_init(&text);
	errbuf_init(&err);
	if (!(st = cli_store()))
		code = cli_store_code();
	else if (hist_export(st, a->hist_run, a->ddir, &text, &err) < 0 || write_output(a->output, &text, &err) < 0)
		code = cli_fail(&err);
	strbuf_release(&text);
	return code;
}

static int do_push(const struct export_args *a, const struct strbuf *text, size_t points)
{
	struct errbuf err;
	char *url = push_url(a->push, a->format == EXPORT_INFLUX ? PUSH_INFLUXDB : PUSH_PUSHGATEWAY, a->influx_db, a->job);
	size_t written = 0;
	int rc;

	errbuf_init(&err);
	if (a->format == EXPORT_INFLUX) {
		rc = push_influx(url, text->buf, text->len, (size_t)a->batch, &a->push_opts, &written, &err);
	} else {
		rc = push_request("PUT", url, "text/plain; version=0.0.4; charset=utf-8", text->buf, text->len,
				  &a->push_opts, &err);
		written = rc == 0 ? points : 0;
	}
	if (rc < 0) {
		err_prefix(&err, "push failed after %zu of %zu points were written", written, points);
		rc = cli_fail(&err);
	} else {
		printf("pushed %zu point%s to %s\n", points, points == 1 ? "" : "s", url);
		rc = EXIT_OK;
	}
	free(url);
	return rc;
}

/* --format: the selected runs and their samples, to -o FILE, stdout or --push URL. */
static int export_runs(struct export_args *a)
{
	struct admin_sample_list *samples = NULL;
	struct store *st = NULL;
	struct rep_set set;
	struct strbuf text;
	struct errbuf err;
	size_t points = 0;
	int code;

	rep_set_init(&set);
	strbuf_init(&text);
	errbuf_init(&err);
	if (a->push && a->format == EXPORT_OPENMETRICS)
		a->flags |= EXPORT_NO_TIMESTAMPS | EXPORT_NO_SAMPLES;
	if (!(st = cli_store())) {
		code = cli_store_code();
		goto out;
	}
	if (report_load(st, &a->where, a->all ? REP_ALL_STATUS : 0, &set, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	samples = xcalloc(set.n ? set.n : 1, sizeof(*samples));
	for (size_t i = 0; i < set.n && !(a->flags & EXPORT_NO_SAMPLES); i++)
		if (store_admin_samples(st, set.v[i].id, &samples[i], &err) < 0) {
			code = cli_fail(&err);
			goto out;
		}
	if (export_render(a->format, &set, samples, a->flags, &text, &points, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	code = a->push ? do_push(a, &text, points) : cli_write_file(a->output, &text);
out:
	for (size_t i = 0; samples && i < set.n; i++)
		admin_sample_list_release(&samples[i]);
	free(samples);
	rep_set_release(&set);
	strbuf_release(&text);
	return code;
}

/* `bench export --histogram RUN ...` writes a histogram for sim; everything else is the export of runs. */
int cmd_export(int argc, char **argv)
{
	struct export_args a = { .batch = 5000, .push_opts = PUSH_OPTS_DEFAULT };
	int histogram = 0, code;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--histogram", 11))
			histogram = 1;
	kvlist_init(&a.where);
	code = parse_args(argc, argv, histogram, &a);
	if (code)
		code = code < 0 ? EXIT_OK : code;
	else
		code = histogram ? export_histogram(&a) : export_runs(&a);
	kvlist_release(&a.where);
	return code;
}
