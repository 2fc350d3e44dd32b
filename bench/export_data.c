/*
 * export_data: `bench export --format csv|json|influx|openmetrics [--where k=v]... [-o FILE | --push URL]`
 * (docs/export.md). Loads the selected runs (report_load) and their samples (core/store_admin.h), renders
 * them with report/format/export.h and writes a file, standard output, or pushes them: line protocol to an
 * InfluxDB 1.x /write endpoint in batches, OpenMetrics text (without timestamps or samples, which a
 * Pushgateway refuses) to a Pushgateway group /metrics/job/JOB. A push that fails is exit 4 and says how
 * many points the server had accepted before.
 *
 * Reached from `bench export` (cmd_export.c) when the arguments are not --histogram ones.
 */
#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/push.h"
#include "core/store_admin.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/format/export.h"
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

struct export_args {
	const char *db, *output, *push, *influx_db, *job;
	enum export_format format;
	int have_format, all;
	unsigned flags;
	long batch;
	struct push_opts push_opts;
	struct kvlist where;
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

static int parse_args(int argc, char **argv, struct export_args *a)
{
	int argi = 0;
	struct errbuf err;
	long v;
	int c;

	errbuf_init(&err);
	argi = 0;
	while ((c = opt_getopt("export", OPT_EXPORT, argc, argv, &argi)) != -1) {
		switch (c) {
		case 'h':
			printf("%s", usage_text);
			opt_help(stdout, OPT_EXPORT);
			fputs(usage_text_tail, stdout);
			return -1;
		case OK_FORMAT:
			if (export_format_parse(optarg, &a->format) < 0)
				return opt_choice("export", "--format", "csv|json|influx|openmetrics", optarg), EXIT_USAGE;
			a->have_format = 1;
			break;
		case OK_DB:
			a->db = optarg;
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
		case 'o':
			a->output = optarg;
			break;
		case OK_PUSH:
			a->push = optarg;
			break;
		case OK_INFLUX_DB:
			a->influx_db = optarg;
			break;
		case OK_JOB:
			if (!valid_job(optarg))
				return cli_usage("export", "--job wants a name of [A-Za-z0-9_.-], got '%s'", optarg);
			a->job = optarg;
			break;
		case OK_BATCH:
			if (parse_long(optarg, 1, 1000000, &a->batch) < 0)
				return cli_usage("export", "--batch wants 1..1000000 points, got '%s'", optarg);
			break;
		case OK_CONNECT_TIMEOUT:
			if (opt_duration_ms("export", "--connect-timeout", optarg, 86400, &a->push_opts.connect_timeout_ms) != 0)
				return EXIT_USAGE;
			break;
		case OK_TIMEOUT:
			if (opt_duration_ms("export", "--timeout", optarg, 86400, &a->push_opts.timeout_ms) != 0)
				return EXIT_USAGE;
			break;
		case OK_RETRIES:
			if (parse_long(optarg, 0, 10, &v) < 0)
				return cli_usage("export", "--retries wants 0..10, got '%s'", optarg);
			a->push_opts.retries = (int)v;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("export", "unexpected argument '%s'", argv[optind]);
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

/* The URL to send to: the base URL with the endpoint of the format added when it has none. */
static char *push_url(const struct export_args *a)
{
	struct strbuf sb;
	size_t n = strlen(a->push);

	while (n > 0 && a->push[n - 1] == '/')
		n--;
	strbuf_init(&sb);
	strbuf_add(&sb, a->push, n);
	if (a->format == EXPORT_INFLUX && !strstr(a->push, "/write")) {
		char *db = curl_easy_escape(NULL, a->influx_db ? a->influx_db : "bench", 0);
		strbuf_addf(&sb, "/write?db=%s&precision=ns", db ? db : "bench");
		curl_free(db);
	} else if (a->format == EXPORT_INFLUX && !strstr(a->push, "precision=")) {
		strbuf_addf(&sb, "%cprecision=ns", strchr(a->push, '?') ? '&' : '?');
	} else if (a->format == EXPORT_OPENMETRICS && !strstr(a->push, "/metrics/")) {
		strbuf_addf(&sb, "/metrics/job/%s", a->job ? a->job : "bench");
	} else {
		strbuf_reset(&sb);
		strbuf_adds(&sb, a->push);
	}
	return strbuf_detach(&sb, NULL);
}

static int do_push(const struct export_args *a, const struct strbuf *text, size_t points)
{
	struct errbuf err;
	char *url = push_url(a);
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

int export_data_main(int argc, char **argv)
{
	struct export_args a = { .batch = 5000, .push_opts = PUSH_OPTS_DEFAULT };
	struct admin_sample_list *samples = NULL;
	struct store *st = NULL;
	struct rep_set set;
	struct strbuf text;
	struct errbuf err;
	size_t points = 0;
	int code;

	kvlist_init(&a.where);
	rep_set_init(&set);
	strbuf_init(&text);
	errbuf_init(&err);
	code = parse_args(argc, argv, &a);
	if (code) {
		code = code < 0 ? EXIT_OK : code;
		goto out;
	}
	if (a.push && a.format == EXPORT_OPENMETRICS)
		a.flags |= EXPORT_NO_TIMESTAMPS | EXPORT_NO_SAMPLES;
	if (!(st = cli_store())) {
		code = cli_store_code();
		goto out;
	}
	if (report_load(st, &a.where, a.all ? REP_ALL_STATUS : 0, &set, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	samples = xcalloc(set.n ? set.n : 1, sizeof(*samples));
	for (size_t i = 0; i < set.n && !(a.flags & EXPORT_NO_SAMPLES); i++)
		if (store_admin_samples(st, set.v[i].id, &samples[i], &err) < 0) {
			code = cli_fail(&err);
			goto out;
		}
	if (export_render(a.format, &set, samples, a.flags, &text, &points, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	code = a.push ? do_push(&a, &text, points) : cli_write_file(a.output, &text);
out:
	for (size_t i = 0; samples && i < set.n; i++)
		admin_sample_list_release(&samples[i]);
	free(samples);
	rep_set_release(&set);
	strbuf_release(&text);
	kvlist_release(&a.where);
	return code;
}
