/*
 * cmd_export: `bench export --histogram RUN [--ddir DIR] [--db PATH] [-o FILE]`.
 *
 * Writes a stored run's completion-latency histogram (table result_bin of the run's aggregate result, host '*')
 * as text that the sim ioengine reads with sim_hist=FILE, so that a modelled target can replay the latency
 * distribution of a measured one. The format, one bin per line after '#' comment lines:
 *
 *   # bench histogram: run 12 'fio-4k-randread', host '*', ddir total, clat
 *   # value_ns count
 *   98304 17
 *
 * value_ns is fio's bucket value (the bucket's midpoint in nanoseconds, shared/reference/fio.md), ascending;
 * count is the number of IOs in the bucket. Without --ddir the 'total' result is used; a run stored without
 * one gets its read, write and trim bins summed (exact: bins of the same bucket add).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli.h"
#include "bench/commands.h"
#include "core/strbuf.h"
#include "core/units.h"

static int usage(void)
{
	printf("usage: bench export --histogram RUN [--ddir read|write|trim|total] [--db PATH] [-o FILE]\n\n"
	       "Writes the latency histogram of a stored run (its completion-latency bins, all hosts merged) in the\n"
	       "text format that the sim ioengine reads (fio option sim_hist=FILE), to replay a measured latency\n"
	       "distribution on a modelled target. Lines: '# ...' comments, then 'value_ns count' per fio latency\n"
	       "bucket (bucket midpoint in nanoseconds, number of IOs), ascending.\n\n"
	       "options:\n"
	       "  --histogram RUN  the run id (as 'bench report' shows it) whose histogram to write\n"
	       "  --ddir DIR       direction: read, write, trim or total (default total: all directions)\n"
	       "  --db PATH        database file (default bench.db)\n"
	       "  -o, --output FILE  write to FILE instead of standard output\n"
	       "  -h, --help       show this help\n\n"
	       "The run must have latency bins: runs of 'bench run' and imports of fio --output-format=json+ have.\n");
	return EXIT_OK;
}

struct bin {
	long long value_ns; /* fio bucket value, ns */
	long long count;    /* IOs in the bucket */
};

struct bins {
	struct bin *v;
	size_t n, cap;
};

/* Reads the merged bins of run_id for one ddir (or read+write+trim when ddir is NULL). */
static int read_bins(sqlite3 *db, long long run_id, const char *ddir, struct bins *out, struct errbuf *err)
{
	static const char *sql =
		"SELECT b.value_ns, SUM(b.count) FROM result r JOIN result_bin b ON b.result_id = r.id "
		"WHERE r.run_id = ?1 AND r.host = '*' AND "
		"(r.ddir = ?2 OR (?2 IS NULL AND r.ddir IN ('read','write','trim'))) "
		"GROUP BY b.value_ns HAVING SUM(b.count) > 0 ORDER BY b.value_ns";
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		err_set(err, ERR_STORE, "cannot read latency bins: %s", sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(st, 1, run_id);
	if (ddir)
		sqlite3_bind_text(st, 2, ddir, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ARRAY_GROW(out->v, out->cap, out->n + 1);
		out->v[out->n].value_ns = sqlite3_column_int64(st, 0);
		out->v[out->n].count = sqlite3_column_int64(st, 1);
		out->n++;
	}
	if (rc != SQLITE_DONE) {
		err_set(err, ERR_STORE, "cannot read latency bins: %s", sqlite3_errmsg(db));
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* The run's name; ERR_INPUT when there is no such run. */
static int run_info(sqlite3 *db, long long run_id, char *name, size_t namelen, struct errbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(db, "SELECT name FROM run WHERE id = ?1", -1, &st, NULL) != SQLITE_OK) {
		err_set(err, ERR_STORE, "cannot read runs: %s", sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		err_set(err, ERR_INPUT, "no run with id %lld in the database", run_id);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		err_set(err, ERR_STORE, "cannot read runs: %s", sqlite3_errmsg(db));
		goto out;
	}
	snprintf(name, namelen, "%s", (const char *)sqlite3_column_text(st, 0));
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* 1 when the run has an aggregate result row for ddir, 0 when not, -1 on error. */
static int has_result(sqlite3 *db, long long run_id, const char *ddir, char *kind, size_t kindlen,
		      struct errbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(db, "SELECT coalesce(pct_kind, 'clat') FROM result WHERE run_id = ?1 AND host = '*' "
			       "AND ddir = ?2", -1, &st, NULL) != SQLITE_OK) {
		err_set(err, ERR_STORE, "cannot read results: %s", sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, ddir, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(kind, kindlen, "%s", (const char *)sqlite3_column_text(st, 0));
		ret = 1;
	} else if (rc == SQLITE_DONE)
		ret = 0;
	else
		err_set(err, ERR_STORE, "cannot read results: %s", sqlite3_errmsg(db));
out:
	sqlite3_finalize(st);
	return ret;
}

/* Writes the file through a temporary name, so a failed export leaves no half file behind. */
static int write_output(const char *path, const struct strbuf *text, struct errbuf *err)
{
	char *tmp;
	FILE *f;
	int ret = -1;

	if (!path) {
		if (fwrite(text->buf, 1, text->len, stdout) != text->len)
			return err_set(err, ERR_INTERNAL, "cannot write to standard output: %s", strerror(errno));
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

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "histogram", required_argument, NULL, 'H' }, { "ddir", required_argument, NULL, 'D' },
		{ "db", required_argument, NULL, 'd' },        { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },            { NULL, 0, NULL, 0 },
	};
	static const char *const ddirs[] = { "read", "write", "trim", "total", NULL };
	const char *db = NULL, *output = NULL, *ddir = NULL;
	long run_id = 0;
	struct store *st = NULL;
	struct bins bins = { NULL, 0, 0 };
	struct strbuf text;
	struct errbuf err;
	char name[256], kind[16] = "clat";
	const char *used = NULL;
	int c, code = EXIT_OK;

	strbuf_init(&text);
	errbuf_init(&err);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			code = usage();
			goto out;
		case 'H':
			if (parse_long(optarg, 1, LONG_MAX, &run_id) < 0) {
				code = cli_usage("export", "--histogram wants a run id (a positive number), got '%s'",
						 optarg);
				goto out;
			}
			break;
		case 'D': {
			int ok = 0;

			for (int i = 0; ddirs[i]; i++)
				ok |= !strcmp(ddirs[i], optarg);
			if (!ok) {
				code = cli_usage("export", "--ddir wants read, write, trim or total, got '%s'", optarg);
				goto out;
			}
			ddir = optarg;
			break;
		}
		case 'd':
			db = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case ':':
			code = cli_usage("export", "option '%s' needs a value", argv[optind - 1]);
			goto out;
		default:
			code = cli_usage("export", "unknown option '%s'", argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		code = cli_usage("export", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!run_id) {
		code = cli_usage("export", "say what to export: --histogram RUN");
		goto out;
	}
	if (cli_open_store(db, STORE_READONLY | STORE_MUST_EXIST, &st) < 0) {
		code = EXIT_STORE;
		goto out;
	}
	if (run_info(store_db(st), run_id, name, sizeof(name), &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	/* The named direction, or 'total', or (runs stored without a total row) read + write + trim summed. */
	used = ddir ? ddir : "total";
	c = has_result(store_db(st), run_id, used, kind, sizeof(kind), &err);
	if (c < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (read_bins(store_db(st), run_id, c || ddir ? used : NULL, &bins, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (!c && !ddir) {
		used = "read+write+trim";
		for (int i = 0; i < 3 && !strcmp(kind, "clat"); i++)
			if (has_result(store_db(st), run_id, ddirs[i], kind, sizeof(kind), &err) < 0) {
				code = cli_fail(&err);
				goto out;
			}
	}
	if (!bins.n) {
		code = cli_error(EXIT_INPUT, "run %ld ('%s') has no latency histogram for %s (store fio "
			"--output-format=json+ results, or runs of 'bench run')", run_id, name, used);
		goto out;
	}
	strbuf_addf(&text, "# bench histogram: run %ld '", run_id);
	for (const char *p = name; *p; p++) /* one comment line whatever the name holds */
		strbuf_addc(&text, *p == '\n' || *p == '\r' ? ' ' : *p);
	strbuf_addf(&text, "', host '*', ddir %s, %s\n# value_ns count\n", used, kind);
	for (size_t i = 0; i < bins.n; i++)
		strbuf_addf(&text, "%lld %lld\n", bins.v[i].value_ns, bins.v[i].count);
	if (write_output(output, &text, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
out:
	free(bins.v);
	strbuf_release(&text);
	store_close(st);
	return code;
}
