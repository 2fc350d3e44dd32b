/*
 * cmd_report: `bench report`: the stored results as the tables and charts storage articles publish.
 * Without --compare: the raw-data table (one block per label group, one row per workload). With --compare
 * key=A:B: the ratio table A/B; key=A,A2,...:B compares each value with the baseline B. --alias, --order,
 * --title, --caption, --log, --dpi and --names shape the charts and the HTML page. --charts DIR writes the
 * chart scripts (report/chart/charts.h, chart_curve.c) and draws them (bench/gnuplot_run.h); --html FILE writes one
 * self-contained page. The store is opened read-only.
 */
#include <errno.h>
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
#include "core/model.h"
#include "report/chart/charts.h"
#include "report/cpuview.h"
#include "report/format/curve_report.h"
#include "report/format/explain_render.h"
#include "report/format/html.h"
#include "report/format/render.h"
#include "report/analysis/stall.h"
#include "report/load.h"
#include "report/table.h"
#include "report/labels.h"
#include "report/strlist.h"

static const char usage_text[] =
	"usage: bench report [--db PATH] [--format text|csv|json|markdown|html] [--where key=value]...\n"
	"                    [--by key[,key]...] [--compare key=A[,A2...]:B [--match identity|name]]\n"
	"                    [--show values,ratios] [--order key=v1,v2...] [--alias key=value:Alias]...\n"
	"                    [--title TEXT] [--caption TEXT] [--log auto|on|off] [--dpi N]\n"
	"                    [--names full|short] [--color auto|always|never] [--charts DIR] [--html FILE]\n"
	"                    [--p99-limit DUR]... [--jobs] [-v]\n"
	"\n"
	"Prints the stored results as the raw-data table storage articles publish: one block per label group\n"
	"(runs with the same labels), one row per workload with IOPS, MiB/s, CPU %, read and write mean latency\n"
	"and read and write 99th percentile latency (ms). Every figure shows its n; several runs of one workload\n"
	"(repetitions) show the median and min-max (n >= 6: the 95 % interval of the median); single and short\n"
	"runs are marked n=1 and short. --by never folds runs whose other labels differ: it splits the row.\n"
	"Only finished runs count (done; partial ones are marked).\n"
	"--compare key=A:B groups by the labels both sides share: labels that change with the key (stack with\n"
	"config) and cfg.* facts are shown under the table, not grouped by; ratios within noise are marked ~;\n"
	"a compare that matches nothing exits 3 naming the labels that kept the sides apart.\n"
	"Runs of the measurement method (docs/method.md) add sections: curve and sweep points (labels\n"
	"curve_pct=, sweep.*=) give one latency-vs-IOPS curve per configuration with its knee and the max\n"
	"IOPS at p99 <= X; runs with steady_state= or fio.ss* labels get their steady-state result.\n"
	"Precondition runs and steady-state rounds are left out of the tables, with a line saying how many.\n"
	"\n"
	"";

static const char usage_text_tail[] =
	"\n"
	"exit codes: 0 ok, 2 usage error, 3 nothing to compare (or nothing matched), 4 gnuplot failed or missing,\n"
	"5 database error.\n";

struct report_args {
	const char *db;
	enum rep_format format;
	struct kvlist where;
	struct kvlist by;
	char *cmp_key;
	char **cmp_vals;    /* the compared values, the baseline last */
	size_t cmp_n;
	enum rep_match match;
	unsigned show;      /* render.h SHOW_* (0 default) */
	struct kvlist order, aliases;
	struct chart_opts chart;
	int color;          /* -1 auto */
	const char *charts_dir;
	const char *html_path;
	int verbose;
	double p99_ms[8];   /* --p99-limit values, ms */
	size_t nlim;
	int jobs;           /* --jobs */
	int explain;        /* --explain: ceiling, % of it and what limited each row (docs/explain.md) */
	const char *map_path; /* --map FILE: workload names paired for --match name */
	struct kvlist map;
};

static int parse_by(struct kvlist *by, const char *arg)
{
	const char *p = arg;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *k = xstrndup(p, n);
		int ok = n > 0;

		for (size_t i = 0; i < n && ok; i++) {
			char c = k[i];
			ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
			     c == '-' || c == '.';
		}
		if (!ok) {
			free(k);
			return -1;
		}
		if (!kvlist_find(by, k))
			kvlist_add(by, k, NULL);
		free(k);
		p += n;
		if (*p == ',')
			p++;
	}
	return by->n ? 0 : -1;
}

static void compare_free(struct report_args *a)
{
	for (size_t i = 0; i < a->cmp_n; i++)
		free(a->cmp_vals[i]);
	free(a->cmp_vals);
	free(a->cmp_key);
	a->cmp_vals = NULL;
	a->cmp_key = NULL;
	a->cmp_n = 0;
}

/* A latency limit in ms: "1ms", "500us", "0.002s"; a bare number is ms. */
static int parse_limit_ms(const char *s, double *ms)
{
	double v;

	if (parse_double(s, &v) == 0)
		*ms = v;
	else if (parse_duration_s(s, &v) == 0)
		*ms = v * 1000;
	else
		return -1;
	return *ms > 0 ? 0 : -1;
}

/* --where (c OK_WHERE), --order (OK_ORDER) or --alias (OK_ALIAS): arg added to its list; -1 with err on a bad form. */
static int add_list_arg(struct report_args *a, int c, const char *arg, struct errbuf *err)
{
	if (c == OK_WHERE)
		return rep_where_add(&a->where, arg, err);
	if (c == OK_ORDER)
		return rep_order_add(&a->order, arg, err);
	return rep_alias_add(&a->aliases, arg, err);
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	int argi = 0;
	struct errbuf err;
	int c;

	errbuf_init(&err);
	argi = 0;
	while ((c = opt_getopt("report", OPT_REPORT, argc, argv, &argi)) != -1) {
		switch (c) {
		case OK_DB:
			a->db = optarg;
			break;
		case OK_EXPLAIN:
			a->explain = 1;
			break;
		case OK_FORMAT:
			if (rep_format_parse(optarg, &a->format) < 0)
				return opt_choice("report", "--format", "text|csv|json|markdown|html", optarg), EXIT_USAGE;
			break;
		case OK_WHERE:
		case OK_ORDER:
		case OK_ALIAS:
			if (add_list_arg(a, c, optarg, &err) < 0)
				return cli_usage("report", "%s", err.msg);
			break;
		case OK_BY:
			if (parse_by(&a->by, optarg) < 0)
				return cli_usage("report", "--by wants key[,key...] (labels or workload parameters), "
							   "got '%s'", optarg);
			break;
		case OK_COMPARE:
			compare_free(a);
			if (cmp_parse_n(optarg, &a->cmp_key, &a->cmp_vals, &a->cmp_n, &err) < 0)
				return cli_usage("report", "%s", err.msg);
			break;
		case OK_SHOW:
			if (render_show_parse(optarg, &a->show) < 0)
				return cli_usage("report", "--show wants values, ratios or values,ratios, got '%s'", optarg);
			break;
		case OK_TITLE:
			a->chart.title = optarg;
			break;
		case OK_CAPTION:
			a->chart.caption = optarg;
			break;
		case OK_LOG: {
			int k = opt_choice("report", "--log", "auto|on|off", optarg);
			if (k < 0)
				return EXIT_USAGE;
			a->chart.log = k == 0 ? -1 : k == 1;
			break;
		}
		case OK_DPI:
			if (chart_dpi_parse(optarg, &a->chart.dpi) < 0)
				return cli_usage("report", "--dpi wants a resolution of %d to %d, got '%s'", CHART_DPI_MIN,
						 CHART_DPI_MAX, optarg);
			break;
		case OK_NAMES:
			if (opt_choice("report", "--names", "full|short", optarg) < 0)
				return EXIT_USAGE;
			a->chart.short_names = !strcmp(optarg, "short");
			break;
		case OK_MATCH:
			if (opt_choice("report", "--match", "identity|name", optarg) < 0)
				return EXIT_USAGE;
			a->match = !strcmp(optarg, "identity") ? REP_MATCH_IDENTITY : REP_MATCH_NAME;
			break;
		case OK_COLOR:
			if (!strcmp(optarg, "auto"))
				a->color = -1;
			else if (!strcmp(optarg, "always"))
				a->color = 1;
			else if (!strcmp(optarg, "never"))
				a->color = 0;
			else
				return cli_usage("report", "--color wants auto, always or never, got '%s'", optarg);
			break;
		case OK_CHARTS:
			a->charts_dir = optarg;
			break;
		case OK_HTML:
			a->html_path = optarg;
			break;
		case OK_P99_LIMIT:
			if (parse_limit_ms(optarg, &a->p99_ms[a->nlim < 8 ? a->nlim : 7]) < 0 || a->nlim >= 8)
				return cli_usage("report", "--p99-limit wants a latency such as 1ms, 500us or 2 (ms), at "
							   "most 8 of them, got '%s'", optarg);
			a->nlim++;
			break;
		case OK_JOBS:
			a->jobs = 1;
			break;
		case OK_MAP:
			a->map_path = optarg;
			break;
		case 'v':
			a->verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			opt_help(stdout, OPT_REPORT);
			fputs(usage_text_tail, stdout);
			return -2;
		default: /* no ':' in the option string: a missing value comes here as '?' too */
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("report", "unexpected argument '%s'", argv[optind]);
	if (a->match == REP_MATCH_NAME && !a->cmp_key)
		return cli_usage("report", "--match only applies to --compare");
	if (a->show && !a->cmp_key)
		return cli_usage("report", "--show only applies to --compare");
	if (a->map_path && a->match != REP_MATCH_NAME)
		return cli_usage("report", "--map only applies to --compare with --match name");
	return 0;
}

/* A comparison that matches nothing is bad input (exit 3), with the command that would match: the
 * command as given (--db, --where, --compare, --match) for cmp_check_matched to complete. */
static int check_matched(const struct report_args *a, const struct cmp_table *cmp, struct errbuf *err)
{
	struct strbuf cmd;
	int rc;

	strbuf_init(&cmd);
	strbuf_adds(&cmd, "bench report");
	if (a->db)
		strbuf_addf(&cmd, " --db %s", a->db);
	for (size_t i = 0; i < a->where.n; i++)
		strbuf_addf(&cmd, " --where %s=%s", a->where.v[i].key, a->where.v[i].value);
	strbuf_addf(&cmd, " --compare %s=", a->cmp_key);
	for (size_t i = 0; i < a->cmp_n; i++)
		strbuf_addf(&cmd, "%s%s", i ? (i + 1 == a->cmp_n ? ":" : ",") : "", a->cmp_vals[i]);
	if (a->match == REP_MATCH_NAME)
		strbuf_adds(&cmd, " --match name");
	if (a->map_path)
		strbuf_addf(&cmd, " --map %s", a->map_path);
	rc = cmp_check_matched(cmp, cmd.buf, err);
	strbuf_release(&cmd);
	return rc;
}

/* --map FILE: read and parsed into a->map; the exit code. */
static int read_map(struct report_args *a)
{
	struct strbuf sb;
	struct errbuf err;
	int rc = EXIT_OK;

	strbuf_init(&sb);
	errbuf_init(&err);
	if (strbuf_read_file(&sb, a->map_path) < 0)
		rc = cli_error(EXIT_INPUT, "cannot read '%s': %s", a->map_path, strerror(errno));
	else if (cmp_map_parse(sb.buf, a->map_path, &a->map, &err) < 0)
		rc = cli_fail(&err);
	strbuf_release(&sb);
	return rc;
}

static int write_file(const char *path, const struct strbuf *sb)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return cli_error(EXIT_INPUT, "cannot write '%s': %s", path, strerror(errno));
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len || fclose(f) != 0) {
		int e = errno;
		return cli_error(EXIT_INPUT, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

/*
 * --explain after the table in `f`. JSON: out holds one report document ({...} and a newline); the verdicts'
 * document {"explain":[...]} becomes its "explain" member, so stdout stays one JSON document.
 */
static int explain_after(struct strbuf *out, struct store *st, const struct rep_set *set,
			 const struct rep_table *table, const struct cmp_table *cmp, enum rep_format f,
			 struct errbuf *err)
{
	struct strbuf x;
	size_t end = out->len, xb, xe;
	int rc;

	if (f != FMT_JSON)
		return explain_render(out, st, set, table, cmp, f, err);
	strbuf_init(&x);
	rc = explain_render(&x, st, set, table, cmp, f, err);
	while (end && (out->buf[end - 1] == '\n' || out->buf[end - 1] == ' '))
		end--;
	xb = 0;
	xe = x.len;
	while (xe && (x.buf[xe - 1] == '\n' || x.buf[xe - 1] == ' '))
		xe--;
	while (xb < xe && x.buf[xb] == ' ')
		xb++;
	if (rc == 0 && end && out->buf[end - 1] == '}' && xe > xb + 2 && x.buf[xb] == '{' && x.buf[xe - 1] == '}') {
		out->len = end - 1;
		out->buf[out->len] = '\0';
		strbuf_adds(out, out->buf[out->len - 1] == '{' ? "" : ",");
		strbuf_add(out, x.buf + xb + 1, xe - xb - 2);
		strbuf_adds(out, "}\n");
	} else if (rc == 0) {
		strbuf_add(out, x.buf, x.len);
	}
	strbuf_release(&x);
	return rc;
}

/* -v: each run's disk IOs counted over the devices it names (cpuview_count_named): its members, else its
 * target devices (every job's). */
static void count_named_disks(struct rep_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		const struct run_spec *sp = r->spec;
		struct strlist t = { 0 };

		if (!r->cpuview)
			continue;
		for (size_t k = 0; k < sp->ntargets; k++)
			strlist_add(&t, sp->targets[k]);
		for (size_t j = 0; j < sp->njobs; j++)
			for (size_t k = 0; k < sp->jobs[j].ntargets; k++)
				strlist_add(&t, sp->jobs[j].targets[k]);
		cpuview_count_named(r->cpuview, &r->labels, t.v, t.n);
		strlist_release(&t);
	}
}

/* --charts DIR and/or --html FILE. Returns the exit code. */
static int charts_and_html(const struct report_args *a, struct store *st, const struct rep_set *set,
			   const struct rep_table *table, const struct cmp_table *cmp, const struct method_view *mv,
			   const char *method_html, const char *explain_html)
{
	unsigned fmts = a->charts_dir ? CHART_PNG | CHART_SVG : CHART_SVG;
	struct chart_set cs;
	struct errbuf err;
	const char *tmpdir = getenv("TMPDIR");
	char *tmp = NULL;
	const char *dir = a->charts_dir;
	int rc = EXIT_OK;

	chart_set_init(&cs);
	cs.dpi = a->chart.dpi;
	errbuf_init(&err);
	if (!dir) {
		/* HTML only: the SVGs are made in a temporary directory and removed afterwards. */
		tmp = xasprintf("%s/bench-charts-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
		if (!mkdtemp(tmp)) {
			rc = cli_error(EXIT_INPUT, "cannot make a temporary directory '%s': %s", tmp, strerror(errno));
			free(tmp);
			return rc;
		}
		dir = tmp;
	}
	if (charts_write_opts(&cs, dir, st, set, table, cmp, fmts, &a->chart, &err) < 0 ||
	    (mv->curves.n && curve_charts_write(&cs, dir, &mv->curves, fmts, &err) < 0)) {
		rc = cli_fail(&err);
		goto out;
	}
	if (gnuplot_run(&cs, GNUPLOT_LEAVE_OUT, &err) < 0) {
		if (a->charts_dir) {
			rc = cli_fail(&err);
			goto out;
		}
		cli_warn("the HTML report has no charts: %s", err.msg);
		charts_remove(&cs);
		chart_set_release(&cs);
	} else if (a->charts_dir) {
		fprintf(stderr, "bench: wrote %zu charts (PNG and SVG) to %s\n", cs.n, cs.dir);
	}
	if (a->html_path) {
		struct html_opts ho = { a->chart.title, a->chart.caption, &a->aliases, st, method_html, explain_html };
		struct strbuf html;
		strbuf_init(&html);
		html_report_page(&html, set, table, cmp, &cs, &ho, 1);
		rc = write_file(a->html_path, &html) ? EXIT_INPUT : EXIT_OK;
		if (rc == EXIT_OK)
			fprintf(stderr, "bench: wrote the HTML report to %s (%zu charts)\n", a->html_path, cs.n);
		strbuf_release(&html);
	}
out:
	if (tmp) {
		free(cs.dir);
		cs.dir = xstrdup(tmp);
		charts_remove(&cs);
		free(tmp);
	}
	chart_set_release(&cs);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	struct store *st = NULL;
	struct rep_set set;
	struct rep_table table;
	struct cmp_table cmp;
	struct render_opts ro;
	struct method_view mv;
	struct strbuf out, mhtml, xhtml;
	struct errbuf err;
	int rc, have_cmp = 0;

	memset(&a, 0, sizeof(a));
	a.color = -1;
	a.chart.log = -1;
	a.chart.aliases = &a.aliases;
	kvlist_init(&a.order);
	kvlist_init(&a.aliases);
	kvlist_init(&a.where);
	kvlist_init(&a.by);
	rep_set_init(&set);
	memset(&table, 0, sizeof(table));
	memset(&cmp, 0, sizeof(cmp));
	memset(&mv, 0, sizeof(mv));
	curve_set_init(&mv.curves);
	strbuf_init(&out);
	strbuf_init(&mhtml);
	strbuf_init(&xhtml);
	errbuf_init(&err);

	kvlist_init(&a.map);
	rc = parse_args(argc, argv, &a);
	if (rc) {
		rc = rc == -2 ? EXIT_OK : rc;
		goto out;
	}
	if (a.map_path && (rc = read_map(&a)) != EXIT_OK)
		goto out;
	if (!(st = cli_store())) {
		rc = cli_store_code();
		goto out;
	}
	if (report_load(st, &a.where, a.verbose ? REP_ALL_STATUS | REP_CPU_DETAIL : 0, &set, &err) < 0 ||
	    rep_check_keys(&set, &a.by, a.cmp_key, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	count_named_disks(&set);
	rep_alias_from_runs(&a.aliases, &set);
	rep_set_drop_method(&set, &mv.left);
	if (!a.nlim)
		a.p99_ms[a.nlim++] = 1.0;
	mv.p99_ms = a.p99_ms;
	mv.nlim = a.nlim;
	mv.cmp_key = a.cmp_key;
	mv.cmp_vals = a.cmp_vals;
	mv.cmp_n = a.cmp_n;
	mv.st = st;
	if (method_view_build(&mv, &set, &a.by, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	rep_table_build(&table, &set, &a.by);
	rep_table_order(&table, &a.order);
	if (a.cmp_key) {
		if (cmp_build_map(&cmp, &set, a.cmp_key, a.cmp_vals, a.cmp_n, &a.by, a.match, &a.map, &err) < 0 ||
		    check_matched(&a, &cmp, &err) < 0) {
			rc = cli_fail(&err);
			goto out;
		}
		cmp_order(&cmp, &a.order);
		have_cmp = 1;
	}
	ro.verbose = a.verbose;
	ro.show = a.show;
	ro.color = a.color < 0 ? isatty(1) && getenv("NO_COLOR") == NULL : a.color;

	if ((a.html_path || a.format == FMT_HTML) && method_render(&mhtml, &mv, FMT_HTML, a.jobs, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	/* --explain in the page: its own section (report/format/explain_render.h) */
	if (a.explain && (a.html_path || a.format == FMT_HTML) &&
	    explain_render_html_section(&xhtml, st, &table, have_cmp ? &cmp : NULL, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	if (a.charts_dir || a.html_path) {
		rc = charts_and_html(&a, st, &set, &table, have_cmp ? &cmp : NULL, &mv, mhtml.buf, xhtml.buf);
		if (rc)
			goto out;
	}

	if (a.format == FMT_HTML) {
		struct html_opts ho = { a.chart.title, a.chart.caption, &a.aliases, st, mhtml.buf, xhtml.buf };
		struct chart_set none;

		chart_set_init(&none);
		html_report_page(&out, &set, &table, have_cmp ? &cmp : NULL, &none, &ho, 1);
		chart_set_release(&none);
	} else if (have_cmp) {
		render_compare(&out, &cmp, a.format, &ro);
	} else {
		render_table(&out, &table, &set, a.format, &ro);
	}
	/* --explain: one verdict per row after the table (report/format/explain_render.h); HTML has it as a section
	 * of the page, JSON as the report document's "explain" member */
	if (a.explain && a.format != FMT_HTML && explain_after(&out, st, &set, &table, have_cmp ? &cmp : NULL,
							       a.format, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	/* curves, steady state, runs left out and --jobs (report/format/curve_report.h) */
	if (a.format != FMT_HTML && method_render(&out, &mv, a.format, a.jobs, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	/* -v: the stall list (report/analysis/stall.h) */
	if (a.verbose && a.format == FMT_TEXT && stall_report(&out, st, &set, STALL_DEFAULT_FRACTION, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	fwrite(out.buf, 1, out.len, stdout);
	rc = EXIT_OK;
out:
	strbuf_release(&out);
	strbuf_release(&mhtml);
	strbuf_release(&xhtml);
	method_view_release(&mv);
	cmp_release(&cmp);
	rep_table_release(&table);
	rep_set_release(&set);
	kvlist_release(&a.where);
	kvlist_release(&a.by);
	compare_free(&a);
	kvlist_release(&a.order);
	kvlist_release(&a.aliases);
	kvlist_release(&a.map);
	return rc;
}
