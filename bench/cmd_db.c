/*
 * cmd_db: `bench db list|show|rm|relabel|merge|check|vacuum` (docs/db.md): looking after the database
 * without sqlite3. One option table serves every subcommand (an option means the same thing in each), and a
 * subcommand table says which options each one takes and whether it writes. Runs are selected by id or by
 * the --where selection of `bench report` (report/load.h); the SQL lives in core/store_admin.c.
 *
 * exit codes: 0 ok, 2 usage error, 3 bad input (no such run, OTHER.db is not a bench database of this
 * version), 5 storage error (cannot open or write the database; check found damage), 70 internal error.
 */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "core/store_admin.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/analysis/config_diff.h"
#include "report/cpuview.h"
#include "report/text/escape.h"
#include "report/load.h"

enum db_opt {
	O_DB = 1 << 0, O_FORMAT = 1 << 1, O_WHERE = 1 << 2, O_ALL = 1 << 3, O_DRY = 1 << 4, O_SET = 1 << 5,
	O_RAW = 1 << 6, O_ARTIFACT = 1 << 7, O_OUTPUT = 1 << 8,
};

struct db_args {
	const char *db, *artifact, *output;
	int64_t id;             /* show: the run */
	int json, all, dry_run, raw;
	struct kvlist where;
	struct kvlist changes;  /* relabel: --set k=v (value) and --unset k (NULL) in order */
	char **pos;             /* positional arguments */
	int npos;
};

/*
 * A subcommand: the options it takes, how many positional arguments (and the usage errors for too few and
 * too many; NULL too_many: "unexpected argument"), a check of the arguments that needs no database, and how
 * cmd_db opens --db for it (store.h flags) before calling fn with the store (closed after it).
 */
struct db_sub {
	const char *name;
	int (*fn)(struct db_args *a, struct store *st);
	unsigned opts;          /* enum db_opt accepted besides --help */
	unsigned store_flags;
	int min_pos, max_pos;   /* max_pos -1: any number */
	const char *too_few, *too_many;
	int (*check)(struct db_args *a); /* or NULL; EXIT_OK or the exit code */
	const char *usage;
};

static int db_list(struct db_args *a, struct store *st);
static int db_show(struct db_args *a, struct store *st);
static int db_rm(struct db_args *a, struct store *st);
static int db_relabel(struct db_args *a, struct store *st);
static int db_merge(struct db_args *a, struct store *st);
static int db_check(struct db_args *a, struct store *st);
static int db_vacuum(struct db_args *a, struct store *st);
static int db_diff_config(struct db_args *a, struct store *st);
static int show_check(struct db_args *a);
static int rm_check(struct db_args *a);
static int relabel_check(struct db_args *a);

#define RO (STORE_READONLY | STORE_MUST_EXIST)
#define RW STORE_MUST_EXIST

static const struct db_sub subs[] = {
	{ "list", db_list, O_DB | O_FORMAT | O_WHERE | O_ALL, RO, 0, 0, NULL, NULL, NULL,
	  "usage: bench db list [--db PATH] [--where key=value]... [--all] [--format text|json]\n\n"
	  "Lists the stored runs: id, suite, status, start time, workload name and labels. --where selects as in\n"
	  "'bench report' (a label or name, tool, rw, bs, read_pct, random_pct, iodepth, numjobs, engine, suite,\n"
	  "status); without --all only done and partial runs are listed.\n" },
	{ "show", db_show, O_DB | O_FORMAT | O_RAW | O_ARTIFACT | O_OUTPUT, RO, 1, 1,
	  "say which run: bench db show RUN", "show one run at a time", show_check,
	  "usage: bench db show RUN [--db PATH] [--format text|json]\n"
	  "       bench db show RUN --raw [--artifact NAME] [-o FILE]\n\n"
	  "Shows one run whole: suite, workload and spec, labels, job file, results per host and direction with\n"
	  "percentiles, hosts, CPU, a summary of its samples and its artifacts. --raw writes the engine's stored\n"
	  "output (artifact fio-output.json, or the one named by --artifact) byte for byte.\n" },
	{ "rm", db_rm, O_DB | O_FORMAT | O_WHERE | O_ALL | O_DRY, RW, 0, -1, NULL, NULL, rm_check,
	  "usage: bench db rm (RUN... | --where key=value...) [--all] [--dry-run] [--db PATH] [--format text|json]\n\n"
	  "Deletes runs with their results, CPU figures, samples and artifacts, and the suites left without runs,\n"
	  "in one transaction. --where selects done and partial runs (with --all: every status). --dry-run\n"
	  "counts what would go and changes nothing.\n" },
	{ "relabel", db_relabel, O_DB | O_FORMAT | O_WHERE | O_ALL | O_DRY | O_SET, RW, 0, -1, NULL, NULL,
	  relabel_check,
	  "usage: bench db relabel (RUN... | --where key=value...) (--set key=value | --unset key)... [--dry-run]\n"
	  "                        [--all] [--db PATH] [--format text|json]\n\n"
	  "Sets or removes run labels, in one transaction. A run's own label overrides its suite's; --unset\n"
	  "removes the run's own label (a suite label of that key then applies again).\n" },
	{ "merge", db_merge, O_DB | O_FORMAT | O_DRY, RW, 1, 1, "say which file: bench db merge OTHER.db",
	  "merge one file at a time", NULL,
	  "usage: bench db merge OTHER.db [--dry-run] [--db PATH] [--format text|json]\n\n"
	  "Copies the suites and runs of another bench database (opened read-only) that this one lacks, with new\n"
	  "ids, in one transaction. A suite is the same when name, source, args and created_at are equal; a run\n"
	  "of it when seq, repetition, name and started_at are: merging the same file twice adds nothing.\n" },
	{ "check", db_check, O_DB | O_FORMAT, RO, 0, 0, NULL, NULL, NULL,
	  "usage: bench db check [--db PATH] [--format text|json]\n\n"
	  "Checks the file: PRAGMA integrity_check, foreign keys (rows whose run, suite or result is gone), and\n"
	  "notes suites without runs and runs still marked running. Exit 5 when the file is damaged.\n" },
	{ "vacuum", db_vacuum, O_DB, RW, 0, 0, NULL, NULL, NULL,
	  "usage: bench db vacuum [--db PATH]\n\n"
	  "Rebuilds the file without its free pages (SQLite VACUUM) and prints the size before and after.\n" },
	{ "diff-config", db_diff_config, O_DB | O_WHERE, RO, 2, 2, "name two configurations: bench db diff-config A B",
	  "name two configurations: bench db diff-config A B", NULL,
	  "usage: bench db diff-config A B [--db PATH] [--where key=value]...\n\n"
	  "Compares two configurations of a study (runs labelled config=A and config=B, docs/recipes.md): the\n"
	  "labels of the newest run of each (kernel, fio, CPU, memory, devices: cfg.*, and the configuration's\n"
	  "own), then a line diff of their stored records (artifact config.record: /sys facts and the output of\n"
	  "the record steps, e.g. btrfs filesystem show, mdadm --detail, zpool status). '-' lines are A's, '+'\n"
	  "lines B's. Exit 0 whether or not they differ.\n" },
	{ NULL, NULL, 0, 0, 0, 0, NULL, NULL, NULL, NULL },
};

static const char exit_text[] =
	"\nexit codes: 0 ok, 2 usage error, 3 bad input (no such run, not a bench database), 5 storage error\n"
	"(cannot open or write the database, check found damage), 70 internal error.\n";

static int db_usage(void)
{
	printf("usage: bench db <command> [options]\n\n"
	       "Looks after the database: list, show, relabel, delete and merge runs, check and vacuum the file.\n\n"
	       "commands:\n"
	       "  list      list runs (--where, --all, --format json)\n"
	       "  show      show one run whole; --raw writes fio's stored output\n"
	       "  rm        delete runs (and suites left empty); --dry-run\n"
	       "  relabel   set or remove run labels; --dry-run\n"
	       "  merge     bring in the suites of another bench database, without duplicates\n"
	       "  check     integrity and foreign-key check, orphans\n"
	       "  vacuum    compact the file\n"
	       "  diff-config  what differs between two configurations' records\n\n"
	       "'bench db <command> --help' describes a command.\n\n");
	opt_help(stdout, OPT_DB);
	printf("\n%s", exit_text);
	return EXIT_OK;
}

/* ---- arguments -------------------------------------------------------------------------------- */

static int parse_args(const struct db_sub *sub, int argc, char **argv, struct db_args *a)
{
	int argi = 0;
	static const struct { int c; unsigned opt; } needs[] = {
		{ OK_DB, O_DB }, { OK_FORMAT, O_FORMAT }, { OK_WHERE, O_WHERE }, { OK_ALL, O_ALL }, { OK_DRY_RUN, O_DRY },
		{ OK_SET, O_SET }, { OK_UNSET, O_SET }, { OK_RAW, O_RAW }, { OK_ARTIFACT, O_ARTIFACT }, { 'o', O_OUTPUT },
	};
	char cmd[32];
	struct errbuf err;
	int c;

	snprintf(cmd, sizeof(cmd), "db %s", sub->name);
	errbuf_init(&err);
	argi = 0;
	while ((c = opt_getopt(cmd, OPT_DB, argc, argv, &argi)) != -1) {
		for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
			if (needs[i].c == c && !(sub->opts & needs[i].opt))
				return cli_usage(cmd, "'bench %s' has no option '--%s'", cmd, opt_name(c));
		switch (c) {
		case 'h':
			printf("%s%s", sub->usage, exit_text);
			return -1;
		case OK_DB:
			a->db = optarg;
			break;
		case OK_FORMAT:
			if (opt_choice(cmd, "--format", "text|json", optarg) < 0)
				return EXIT_USAGE;
			a->json = !strcmp(optarg, "json");
			break;
		case OK_WHERE:
			if (rep_where_add(&a->where, optarg, &err) < 0)
				return cli_usage(cmd, "%s", err.msg);
			break;
		case OK_ALL:
			a->all = 1;
			break;
		case OK_DRY_RUN:
			a->dry_run = 1;
			break;
		case OK_SET: {
			char *k, *v;
			if (kv_parse_label(optarg, &k, &v) < 0)
				return cli_usage(cmd, "--set wants key=value, got '%s'", optarg);
			kvlist_add(&a->changes, k, v);
			free(k);
			free(v);
			break;
		}
		case OK_UNSET: {
			char *k, *v;
			char *arg = xasprintf("%s=x", optarg);
			int bad = kv_parse_label(arg, &k, &v) < 0 || strchr(optarg, '=');

			free(arg);
			if (bad)
				return cli_usage(cmd, "--unset wants a label key, got '%s'", optarg);
			kvlist_add(&a->changes, k, NULL);
			free(k);
			free(v);
			break;
		}
		case OK_RAW:
			a->raw = 1;
			break;
		case OK_ARTIFACT:
			a->artifact = optarg;
			a->raw = 1;
			break;
		case 'o':
			if (!(sub->opts & O_OUTPUT))
				return cli_usage(cmd, "'bench %s' has no option '-o'", cmd);
			a->output = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	a->pos = argv + optind;
	a->npos = argc - optind;
	return 0;
}

static int parse_run_id(const char *cmd, const char *s, int64_t *id)
{
	long v;

	if (parse_long(s, 1, LONG_MAX, &v) < 0)
		return cli_usage(cmd, "a run is given by its id (a positive number, see 'bench db list'), got '%s'", s);
	*id = v;
	return 0;
}

/* Run ids from the positional arguments and the --where selection. */
static int select_runs(const char *cmd, struct db_args *a, struct store *st, int64_t **ids, size_t *n)
{
	size_t cap = 0;
	struct errbuf err;

	errbuf_init(&err);
	*n = 0;
	for (int i = 0; i < a->npos; i++) {
		ARRAY_GROW(*ids, cap, *n + 1);
		if (parse_run_id(cmd, a->pos[i], &(*ids)[*n]) != 0)
			return EXIT_USAGE;
		(*n)++;
	}
	if (a->where.n) {
		struct rep_set set;
		int rc;

		rep_set_init(&set);
		rc = report_load(st, &a->where, a->all ? REP_ALL_STATUS : 0, &set, &err);
		for (size_t i = 0; rc == 0 && i < set.n; i++) {
			ARRAY_GROW(*ids, cap, *n + 1);
			(*ids)[(*n)++] = set.v[i].id;
		}
		rep_set_release(&set);
		if (rc < 0)
			return cli_fail(&err);
	}
	return EXIT_OK;
}

/* ---- output helpers ------------------------------------------------------------------------------ */

static int print_json(cJSON *root)
{
	char *s = cJSON_Print(root);

	cJSON_Delete(root);
	if (!s)
		return cli_error(EXIT_INTERNAL, "cannot format JSON");
	printf("%s\n", s);
	free(s);
	return EXIT_OK;
}

static void json_num(cJSON *o, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

static void json_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* The members of a struct the JSON output shows, each under its own name: one table per struct. */
enum jf_kind { JF_STR, JF_DBL, JF_I64, JF_INT, JF_SIZE };

struct json_field {
	const char *key;
	enum jf_kind kind;
	size_t off;
};

#define JF(type, member, kind) { #member, kind, offsetof(type, member) }
#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* Adds the fields of `obj` to `o`: strings (NULL: null), numbers (NaN or infinite: null). */
static void json_fields(cJSON *o, const void *obj, const struct json_field *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		const char *p = (const char *)obj + f[i].off;
		double v = 0;

		switch (f[i].kind) {
		case JF_STR: json_str(o, f[i].key, *(char *const *)p); continue;
		case JF_DBL: v = *(const double *)p; break;
		case JF_I64: v = (double)*(const int64_t *)p; break;
		case JF_INT: v = *(const int *)p; break;
		case JF_SIZE: v = (double)*(const size_t *)p; break;
		}
		json_num(o, f[i].key, v);
	}
}

/* An array `key` of n objects (each `size` bytes from v) shown with the fields f; returns the array. */
static cJSON *json_rows(cJSON *o, const char *key, const void *v, size_t n, size_t size, const struct json_field *f,
			size_t nf)
{
	cJSON *arr = cJSON_AddArrayToObject(o, key);

	for (size_t i = 0; i < n; i++) {
		cJSON *e = cJSON_CreateObject();
		json_fields(e, (const char *)v + i * size, f, nf);
		cJSON_AddItemToArray(arr, e);
	}
	return arr;
}

#define RUN(m, k) JF(struct rep_run, m, k)
#define RES(m, k) JF(struct admin_result, m, k)
#define HOST(m, k) JF(struct rep_host, m, k)
#define CPU(m, k) JF(struct store_cpu, m, k)
#define SAMPLE(m, k) JF(struct admin_sample_summary, m, k)

static const struct json_field run_fields[] = {
	RUN(id, JF_I64), RUN(suite_id, JF_I64), RUN(suite, JF_STR), RUN(name, JF_STR), RUN(status, JF_STR),
	RUN(error, JF_STR), RUN(engine, JF_STR), RUN(started_at, JF_STR), RUN(finished_at, JF_STR),
	RUN(repetition, JF_INT), RUN(identity, JF_STR),
};

static const struct json_field result_fields[] = {
	RES(host, JF_STR), RES(ddir, JF_STR), RES(ios, JF_I64), RES(bytes, JF_I64), RES(runtime_ms, JF_I64),
	RES(iops, JF_DBL), RES(bw_bytes, JF_DBL), RES(lat_mean_ns, JF_DBL), RES(lat_min_ns, JF_DBL),
	RES(lat_max_ns, JF_DBL), RES(lat_stddev_ns, JF_DBL), RES(clat_mean_ns, JF_DBL), RES(pct_kind, JF_STR),
};

static const struct json_field host_fields[] = {
	HOST(host, JF_STR), HOST(fio_version, JF_STR), HOST(error_code, JF_INT), HOST(error, JF_STR),
	HOST(usr_cpu_pct, JF_DBL), HOST(sys_cpu_pct, JF_DBL),
};

static const struct json_field cpu_fields[] = {
	CPU(host, JF_STR), CPU(role, JF_STR), CPU(source, JF_STR), CPU(util_pct, JF_DBL), CPU(cpu_us_per_io, JF_DBL),
};

static const struct json_field sample_fields[] = {
	SAMPLE(host, JF_STR), SAMPLE(metric, JF_STR), SAMPLE(n, JF_SIZE), SAMPLE(t_first_ms, JF_I64),
	SAMPLE(t_last_ms, JF_I64),
	SAMPLE(min, JF_DBL), SAMPLE(max, JF_DBL), SAMPLE(mean, JF_DBL),
};

#undef RUN
#undef RES
#undef HOST
#undef CPU
#undef SAMPLE

static cJSON *run_json(const struct rep_run *r)
{
	cJSON *o = cJSON_CreateObject(), *l;

	json_fields(o, r, run_fields, NFIELDS(run_fields));
	l = cJSON_AddObjectToObject(o, "labels");
	for (size_t i = 0; i < r->labels.n; i++)
		cJSON_AddStringToObject(l, r->labels.v[i].key, r->labels.v[i].value ? r->labels.v[i].value : "");
	for (int m = 0; m < RM_NR; m++)
		json_num(o, rep_metrics[m].key, r->m[m]);
	return o;
}

static void print_labels(const struct kvlist *labels)
{
	for (size_t k = 0; k < labels->n; k++) {
		printf("%s%s=", k ? " " : "", cli_safe(labels->v[k].key));
		printf("%s", cli_safe(labels->v[k].value));
	}
}

/* ---- list --------------------------------------------------------------------------------------- */

static int db_list(struct db_args *a, struct store *st)
{
	struct rep_set set;
	struct errbuf err;
	int code = EXIT_OK;

	rep_set_init(&set);
	errbuf_init(&err);
	if (report_load(st, &a->where, a->all ? REP_ALL_STATUS : 0, &set, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (a->json) {
		cJSON *arr = cJSON_CreateArray();
		for (size_t i = 0; i < set.n; i++)
			cJSON_AddItemToArray(arr, run_json(&set.v[i]));
		code = print_json(arr);
		goto out;
	}
	printf("%6s %6s  %-8s %-24s %s\n", "run", "suite", "status", "started", "workload  labels");
	for (size_t i = 0; i < set.n; i++) {
		const struct rep_run *r = &set.v[i];

		printf("%6" PRId64 " %6" PRId64 "  %-8s %-24s ", r->id, r->suite_id, r->status,
		       cli_safe(r->started_at));
		printf("%s  ", cli_safe(r->name));
		print_labels(&r->labels);
		printf("\n");
	}
	printf("%zu run%s\n", set.n, set.n == 1 ? "" : "s");
out:
	rep_set_release(&set);
	return code;
}

/* ---- show --------------------------------------------------------------------------------------- */

struct show_data {
	const struct rep_run *run;
	struct admin_run_detail detail;
	struct admin_result_list results;
	struct admin_sample_summary_list samples;
	struct kvlist artifacts;
	struct strbuf jobfile;
	const char *jobfile_name;
};

static int show_load(struct store *st, int64_t id, struct rep_set *set, struct show_data *d, struct errbuf *err)
{
	struct kvlist where; /* report_load has no id selection: its suite and name narrow the read */
	int rc;

	if (store_admin_run_detail(st, id, &d->detail, err) < 0)
		return -1;
	kvlist_init(&where);
	kvlist_add(&where, "suite", d->detail.suite_name ? d->detail.suite_name : "");
	kvlist_add(&where, "name", d->detail.name ? d->detail.name : "");
	rc = report_load(st, &where, REP_ALL_STATUS | REP_CPU_DETAIL, set, err);
	kvlist_release(&where);
	if (rc < 0 ||
	    store_admin_results(st, id, &d->results, err) < 0 ||
	    store_admin_sample_summary(st, id, &d->samples, err) < 0 ||
	    store_admin_artifacts(st, id, &d->artifacts, err) < 0)
		return -1;
	for (int pass = 0; pass < 2 && !d->run; pass++) {
		if (pass) { /* a label named suite or name overrides the column in a selection: read all runs */
			rep_set_release(set);
			if (report_load(st, NULL, REP_ALL_STATUS | REP_CPU_DETAIL, set, err) < 0)
				return -1;
		}
		for (size_t i = 0; i < set->n; i++)
			if (set->v[i].id == id)
				d->run = &set->v[i];
	}
	if (!d->run)
		return err_set(err, ERR_INTERNAL, "run %" PRId64 " not found by report_load", id);
	for (size_t i = 0; i < d->artifacts.n && !d->jobfile_name; i++)
		if (!strncmp(d->artifacts.v[i].key, "jobfile", 7)) {
			d->jobfile_name = d->artifacts.v[i].key;
			if (store_admin_artifact(st, id, d->jobfile_name, &d->jobfile, err) < 0)
				return -1;
		}
	return 0;
}

static cJSON *show_json(const struct show_data *d)
{
	const struct rep_run *r = d->run;
	cJSON *o = run_json(r), *arr, *spec, *e;

	cJSON_AddNumberToObject(o, "seq", d->detail.seq);
	json_str(o, "suite_source", d->detail.suite_source);
	json_str(o, "suite_args", d->detail.suite_args);
	spec = d->detail.spec ? cJSON_Parse(d->detail.spec) : NULL;
	if (spec)
		cJSON_AddItemToObject(o, "spec", spec);
	else
		json_str(o, "spec", d->detail.spec);
	json_str(o, "jobfile", d->jobfile_name ? d->jobfile.buf : NULL);
	arr = json_rows(o, "results", d->results.v, d->results.n, sizeof(*d->results.v), result_fields,
			NFIELDS(result_fields));
	e = arr->child;
	for (size_t i = 0; i < d->results.n; i++, e = e->next) {
		const struct admin_result *x = &d->results.v[i];
		cJSON *p;

		cJSON_AddNumberToObject(e, "bins", (double)x->nbins);
		p = cJSON_AddObjectToObject(e, "percentiles_ns");
		for (size_t k = 0; k < x->npcts; k++) {
			char key[32];
			snprintf(key, sizeof(key), "%g", x->pcts[k].pct);
			cJSON_AddNumberToObject(p, key, (double)x->pcts[k].value_ns);
		}
	}
	json_rows(o, "hosts", r->hosts, r->nhosts, sizeof(*r->hosts), host_fields, NFIELDS(host_fields));
	json_rows(o, "cpu", r->cpuview ? r->cpuview->cpu : NULL, r->cpuview ? r->cpuview->ncpu : 0,
		  sizeof(struct store_cpu), cpu_fields, NFIELDS(cpu_fields));
	json_rows(o, "samples", d->samples.v, d->samples.n, sizeof(*d->samples.v), sample_fields,
		  NFIELDS(sample_fields));
	arr = cJSON_AddArrayToObject(o, "artifacts");
	for (size_t i = 0; i < d->artifacts.n; i++) {
		e = cJSON_CreateObject();
		json_str(e, "name", d->artifacts.v[i].key);
		cJSON_AddNumberToObject(e, "bytes", strtod(d->artifacts.v[i].value, NULL));
		cJSON_AddItemToArray(arr, e);
	}
	return o;
}

static void show_results_text(const struct show_data *d)
{
	printf("\nresults:\n  %-12s %-5s %12s %14s %10s %12s %10s %12s  percentiles (us)\n", "host", "ddir", "ios",
	       "bytes", "runtime_ms", "iops", "MiB/s", "lat mean us");
	for (size_t i = 0; i < d->results.n; i++) {
		const struct admin_result *x = &d->results.v[i];
		double lat = isnan(x->lat_mean_ns) ? x->clat_mean_ns : x->lat_mean_ns;

		printf("  %-12s %-5s %12" PRId64 " %14" PRId64 " %10" PRId64 " %12.1f %10.2f %12.2f ",
		       cli_safe(x->host), x->ddir, x->ios, x->bytes, x->runtime_ms, x->iops, x->bw_bytes / 1048576.0,
		       lat / 1000.0);
		for (size_t k = 0; k < x->npcts; k++)
			printf(" p%g=%.2f", x->pcts[k].pct, (double)x->pcts[k].value_ns / 1000.0);
		if (!x->npcts && x->nbins)
			printf(" (%zu histogram bins)", x->nbins);
		printf("\n");
	}
}

static void show_text(const struct show_data *d)
{
	const struct rep_run *r = d->run;

	printf("run %" PRId64 " '%s'\n", r->id, cli_safe(r->name));
	printf("  status    %s%s%s\n", r->status, r->error ? ": " : "", r->error ? cli_safe(r->error) : "");
	printf("  suite     %" PRId64 " '%s' (%s, created %s", r->suite_id, cli_safe(r->suite),
	       d->detail.suite_source, r->suite_created);
	printf("%s%s)\n", d->detail.suite_args ? ", args " : "", cli_safe(d->detail.suite_args));
	printf("  seq       %u, repetition %d, engine %s\n", d->detail.seq, r->repetition, cli_safe(r->engine));
	printf("  started   %s, finished %s\n", cli_safe(r->started_at), r->finished_at ? r->finished_at : "-");
	printf("  identity  %s\n  labels    ", cli_safe(r->identity));
	print_labels(&r->labels);
	printf("\n\nspec:\n%s\n", d->detail.spec ? cli_safe(d->detail.spec) : "(none)");
	if (d->jobfile_name) {
		printf("\njob file (%s):\n", d->jobfile_name);
		fwrite(d->jobfile.buf, 1, d->jobfile.len, stdout);
		if (d->jobfile.len && d->jobfile.buf[d->jobfile.len - 1] != '\n')
			printf("\n");
	}
	show_results_text(d);
	printf("\nhosts:\n");
	for (size_t i = 0; i < r->nhosts; i++)
		printf("  %-12s fio %s, usr %.2f%% sys %.2f%%%s%s\n", cli_safe(r->hosts[i].host),
		       r->hosts[i].fio_version ? r->hosts[i].fio_version : "-", r->hosts[i].usr_cpu_pct,
		       r->hosts[i].sys_cpu_pct, r->hosts[i].error ? ", error: " : "",
		       r->hosts[i].error ? cli_safe(r->hosts[i].error) : "");
	printf("\ncpu:\n");
	for (size_t i = 0; r->cpuview && i < r->cpuview->ncpu; i++) {
		const struct store_cpu *c = &r->cpuview->cpu[i];
		printf("  %-12s %-9s %-13s util %.2f%%\n", cli_safe(c->host), c->role, c->source, c->util_pct);
	}
	printf("\nsamples:\n");
	for (size_t i = 0; i < d->samples.n; i++) {
		const struct admin_sample_summary *s = &d->samples.v[i];
		printf("  %-12s %-20s %6zu samples, t %" PRId64 "..%" PRId64 " ms, min %g max %g mean %g\n",
		       cli_safe(s->host), cli_safe(s->metric), s->n, s->t_first_ms, s->t_last_ms, s->min, s->max,
		       s->mean);
	}
	printf("\nartifacts:\n");
	for (size_t i = 0; i < d->artifacts.n; i++)
		printf("  %-28s %s bytes\n", cli_safe(d->artifacts.v[i].key), d->artifacts.v[i].value);
}

/* The stored engine output: fio-output.json, else a vdbench or CSV artifact, else the only one that is not the
 * import's checksum (import.sha256 says where a run came from; it is no output). */
static const char *raw_name(const struct kvlist *arts)
{
	static const char *const prefer[] = { "fio-output.json", "vdbench", "csv-row", NULL };
	const char *only = NULL;
	size_t n = 0;

	for (int p = 0; prefer[p]; p++)
		for (size_t i = 0; i < arts->n; i++)
			if (!strncmp(arts->v[i].key, prefer[p], strlen(prefer[p])))
				return arts->v[i].key;
	for (size_t i = 0; i < arts->n; i++)
		if (strcmp(arts->v[i].key, "import.sha256")) {
			only = arts->v[i].key;
			n++;
		}
	return n == 1 ? only : NULL;
}

static int show_raw(struct store *st, int64_t id, struct db_args *a)
{
	struct admin_run_detail detail;
	struct kvlist arts;
	struct strbuf data;
	struct errbuf err;
	const char *name = a->artifact;
	int code;

	memset(&detail, 0, sizeof(detail));
	kvlist_init(&arts);
	strbuf_init(&data);
	errbuf_init(&err);
	if (store_admin_run_detail(st, id, &detail, &err) < 0 ||
	    store_admin_artifacts(st, id, &arts, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (!name)
		name = raw_name(&arts);
	if (!name) {
		code = cli_error(EXIT_INPUT, "run %" PRId64 " has no stored engine output (%zu artifacts; name one "
				 "with --artifact, see 'bench db show %" PRId64 "')", id, arts.n, id);
		goto out;
	}
	if (store_admin_artifact(st, id, name, &data, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	code = cli_write_file(a->output, &data);
out:
	admin_run_detail_release(&detail);
	kvlist_release(&arts);
	strbuf_release(&data);
	return code;
}

static int show_check(struct db_args *a)
{
	if (parse_run_id("db show", a->pos[0], &a->id) != 0)
		return EXIT_USAGE;
	if (a->output && !a->raw)
		return cli_usage("db show", "-o FILE is for --raw");
	return EXIT_OK;
}

static int db_show(struct db_args *a, struct store *st)
{
	struct show_data d;
	struct rep_set set;
	struct errbuf err;
	int code = EXIT_OK;

	if (a->raw)
		return show_raw(st, a->id, a);
	memset(&d, 0, sizeof(d));
	kvlist_init(&d.artifacts);
	strbuf_init(&d.jobfile);
	rep_set_init(&set);
	errbuf_init(&err);
	if (show_load(st, a->id, &set, &d, &err) < 0)
		code = cli_fail(&err);
	else if (a->json)
		code = print_json(show_json(&d));
	else
		show_text(&d);
	admin_run_detail_release(&d.detail);
	admin_result_list_release(&d.results);
	admin_sample_summary_list_release(&d.samples);
	kvlist_release(&d.artifacts);
	strbuf_release(&d.jobfile);
	rep_set_release(&set);
	return code;
}

/* ---- rm and relabel ---------------------------------------------------------------------------- */

static int rm_check(struct db_args *a)
{
	if (!a->npos && !a->where.n)
		return cli_usage("db rm", "say which runs: run ids or --where key=value (nothing is removed by default)");
	return EXIT_OK;
}

static int relabel_check(struct db_args *a)
{
	if (!a->changes.n)
		return cli_usage("db relabel", "say what to change: --set key=value or --unset key");
	if (!a->npos && !a->where.n)
		return cli_usage("db relabel", "say which runs: run ids or --where key=value");
	return EXIT_OK;
}

/* rm and relabel: the runs selected (ids or --where); none is bad input. */
static int selected(struct db_args *a, struct store *st, const char *cmd, const char *none, int64_t **ids,
		    size_t *n)
{
	int code = select_runs(cmd, a, st, ids, n);

	if (code == EXIT_OK && !*n)
		code = cli_error(EXIT_INPUT, "no run matches the selection; %s", none);
	return code;
}

/* The JSON answer of rm and relabel: dry_run, the runs and the counts. */
static cJSON *changed_json(const struct db_args *a, const int64_t *ids, size_t n)
{
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "runs");

	cJSON_AddBoolToObject(o, "dry_run", a->dry_run);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)ids[i]));
	return o;
}

static int db_rm(struct db_args *a, struct store *st)
{
	struct admin_counts c;
	struct errbuf err;
	int64_t *ids = NULL;
	size_t n = 0;
	int code;

	errbuf_init(&err);
	if ((code = selected(a, st, "db rm", "nothing removed", &ids, &n)) != EXIT_OK)
		goto out;
	if (store_admin_rm(st, ids, n, a->dry_run, &c, &err) < 0) {
		code = cli_fail(&err);
	} else if (a->json) {
		cJSON *o = changed_json(a, ids, n);
		cJSON_AddNumberToObject(o, "suites", (double)c.suites);
		cJSON_AddNumberToObject(o, "results", (double)c.results);
		cJSON_AddNumberToObject(o, "samples", (double)c.samples);
		cJSON_AddNumberToObject(o, "artifacts", (double)c.artifacts);
		code = print_json(o);
	} else {
		printf("%s %zu run%s (%zu results, %zu samples, %zu artifacts) and %zu empty suite%s\n",
		       a->dry_run ? "would remove" : "removed", c.runs, c.runs == 1 ? "" : "s", c.results, c.samples,
		       c.artifacts, c.suites, c.suites == 1 ? "" : "s");
	}
out:
	free(ids);
	return code;
}

static int db_relabel(struct db_args *a, struct store *st)
{
	struct errbuf err;
	int64_t *ids = NULL;
	size_t n = 0, changed = 0;
	int code;

	errbuf_init(&err);
	if ((code = selected(a, st, "db relabel", "nothing changed", &ids, &n)) != EXIT_OK)
		goto out;
	if (store_admin_relabel(st, ids, n, &a->changes, a->dry_run, &changed, &err) < 0) {
		code = cli_fail(&err);
	} else if (a->json) {
		cJSON *o = changed_json(a, ids, n);
		cJSON_AddNumberToObject(o, "labels_changed", (double)changed);
		code = print_json(o);
	} else {
		printf("%s %zu label%s on %zu run%s\n", a->dry_run ? "would change" : "changed", changed,
		       changed == 1 ? "" : "s", n, n == 1 ? "" : "s");
	}
out:
	free(ids);
	return code;
}

/* ---- merge, check, vacuum ---------------------------------------------------------------------- */

static int db_merge(struct db_args *a, struct store *st)
{
	struct admin_merge m;
	struct errbuf err;

	errbuf_init(&err);
	if (store_admin_merge(st, a->pos[0], a->dry_run, &m, &err) < 0)
		return cli_fail(&err);
	if (a->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddBoolToObject(o, "dry_run", a->dry_run);
		cJSON_AddNumberToObject(o, "suites_new", (double)m.suites_new);
		cJSON_AddNumberToObject(o, "suites_same", (double)m.suites_same);
		cJSON_AddNumberToObject(o, "runs_new", (double)m.runs_new);
		cJSON_AddNumberToObject(o, "runs_same", (double)m.runs_same);
		return print_json(o);
	}
	printf("%s %zu new suite%s and %zu new run%s; %zu suite%s and %zu run%s already present\n",
	       a->dry_run ? "would merge" : "merged", m.suites_new, m.suites_new == 1 ? "" : "s", m.runs_new,
	       m.runs_new == 1 ? "" : "s", m.suites_same, m.suites_same == 1 ? "" : "s", m.runs_same,
	       m.runs_same == 1 ? "" : "s");
	return EXIT_OK;
}

static int db_check(struct db_args *a, struct store *st)
{
	struct kvlist problems;
	struct errbuf err;
	size_t damage = 0;
	int code;

	kvlist_init(&problems);
	errbuf_init(&err);
	if (store_admin_check(st, &problems, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	for (size_t i = 0; i < problems.n; i++)
		damage += !strcmp(problems.v[i].key, "integrity") || !strcmp(problems.v[i].key, "foreign_key");
	if (a->json) {
		cJSON *o = cJSON_CreateObject(), *arr;
		cJSON_AddBoolToObject(o, "ok", damage == 0);
		arr = cJSON_AddArrayToObject(o, "problems");
		for (size_t i = 0; i < problems.n; i++) {
			cJSON *e = cJSON_CreateObject();
			json_str(e, "kind", problems.v[i].key);
			json_str(e, "message", problems.v[i].value);
			cJSON_AddItemToArray(arr, e);
		}
		code = print_json(o);
	} else {
		for (size_t i = 0; i < problems.n; i++)
			printf("%s: %s\n", problems.v[i].key, cli_safe(problems.v[i].value));
		printf("%s: %zu problem%s, %zu note%s\n", damage ? "damaged" : "ok", damage, damage == 1 ? "" : "s",
		       problems.n - damage, problems.n - damage == 1 ? "" : "s");
		code = EXIT_OK;
	}
	if (code == EXIT_OK && damage)
		code = EXIT_STORE;
out:
	kvlist_release(&problems);
	return code;
}

static int db_vacuum(struct db_args *a, struct store *st)
{
	struct errbuf err;
	int64_t before = 0, after = 0;

	(void)a;
	errbuf_init(&err);
	if (store_admin_vacuum(st, &before, &after, &err) < 0)
		return cli_fail(&err);
	printf("vacuumed '%s': %" PRId64 " -> %" PRId64 " bytes\n", store_path(st), before, after);
	return EXIT_OK;
}

/* ---- diff-config ------------------------------------------------------------------------------- */

static int db_diff_config(struct db_args *a, struct store *st)
{
	struct config_view va, vb;
	struct errbuf err;
	struct strbuf out;
	int code = EXIT_OK;

	config_view_init(&va);
	config_view_init(&vb);
	errbuf_init(&err);
	strbuf_init(&out);
	if (config_view_load(st, a->pos[0], &a->where, &va, &err) < 0 ||
	    config_view_load(st, a->pos[1], &a->where, &vb, &err) < 0) {
		code = cli_fail(&err);
	} else {
		config_diff_text(&va, &vb, &out);
		fputs(out.buf ? out.buf : "", stdout);
	}
	strbuf_release(&out);
	config_view_release(&va);
	config_view_release(&vb);
	return code;
}

/* ---- dispatch ---------------------------------------------------------------------------------- */

/* Checks the arguments of `sub`, opens --db as it says and runs it: the exit code. */
static int db_run(const struct db_sub *sub, struct db_args *a)
{
	char cmd[32];
	struct store *st = NULL;
	int code = EXIT_OK;

	snprintf(cmd, sizeof(cmd), "db %s", sub->name);
	if (a->npos < sub->min_pos)
		return cli_usage(cmd, "%s", sub->too_few);
	if (sub->max_pos >= 0 && a->npos > sub->max_pos) {
		if (!sub->too_many)
			return cli_usage(cmd, "unexpected argument '%s'", a->pos[sub->max_pos]);
		return cli_usage(cmd, "%s", sub->too_many);
	}
	if (sub->check && (code = sub->check(a)) != EXIT_OK)
		return code;
	code = cli_open_store(a->db, sub->store_flags, &st);
	if (code < 0)
		return -code;
	code = sub->fn(a, st);
	store_close(st);
	return code;
}

int cmd_db(int argc, char **argv)
{
	const struct db_sub *sub = NULL;
	struct db_args a;
	int code;

	if (argc < 2)
		return cli_usage("db", "say what to do: list, show, rm, relabel, merge, check, vacuum or diff-config");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return db_usage();
	for (const struct db_sub *s = subs; s->name; s++)
		if (!strcmp(s->name, argv[1]))
			sub = s;
	if (!sub)
		return cli_usage("db", "unknown subcommand '%s' (list, show, rm, relabel, merge, check, vacuum, diff-config)",
				 argv[1]);
	memset(&a, 0, sizeof(a));
	kvlist_init(&a.where);
	kvlist_init(&a.changes);
	code = parse_args(sub, argc - 1, argv + 1, &a);
	if (code == 0)
		code = db_run(sub, &a);
	else if (code < 0)
		code = EXIT_OK; /* --help */
	kvlist_release(&a.where);
	kvlist_release(&a.changes);
	if (fflush(stdout) != 0 || ferror(stdout))
		code = cli_error(EXIT_STORE, "cannot write to standard output: %s", strerror(errno));
	return code;
}
