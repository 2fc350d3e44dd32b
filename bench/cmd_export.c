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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/aggregate.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/text/escape.h"

static int usage(void)
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

/*
 * The merged bins of the run's aggregate result for `ddir` into *bins, or, when ddir is NULL and the run has
 * no 'total' row, of its read, write and trim rows summed (*used says which). *kind is the pct_kind of the
 * rows ("lat" when any of them is).
 */
static int read_bins(struct store *st, long long run_id, const char *ddir, struct hist_bin **bins, size_t *nbins,
		     const char **used, const char **kind, struct errbuf *err)
{
	struct store_result *res;
	size_t nres, cap = 0;
	int have_total = 0, ret = 0;

	*bins = NULL;
	*nbins = 0;
	*kind = "clat";
	*used = ddir ? ddir : "total";
	if (store_read_results(st, run_id, HOST_AGGREGATE, &res, &nres, err) < 0)
		return -1;
	for (size_t i = 0; i < nres; i++)
		have_total |= res[i].ddir == DDIR_TOTAL;
	if (!ddir && !have_total)
		*used = "read+write+trim";
	for (size_t i = 0; i < nres && ret == 0; i++) {
		const char *name = ddir_name(res[i].ddir);
		struct hist_bin *b;
		size_t nb;

		if (ddir || have_total ? strcmp(name, *used) : res[i].ddir == DDIR_TOTAL)
			continue;
		if (res[i].pct_kind && !strcmp(res[i].pct_kind, "lat"))
			*kind = "lat";
		ret = store_read_bins(st, res[i].id, &b, &nb, err);
		if (ret == 0)
			hist_merge(bins, nbins, &cap, b, nb);
		if (ret == 0)
			free(b);
	}
	store_results_free(res, nres);
	if (ret < 0) {
		free(*bins);
		*bins = NULL;
		*nbins = 0;
	}
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

static int export_histogram(int argc, char **argv)
{
	int argi = 0;
	static const char *const ddirs[] = { "read", "write", "trim", "total", NULL };
	const char *output = NULL, *ddir = NULL;
	long run_id = 0;
	struct store *st = NULL;
	struct hist_bin *bins = NULL;
	size_t nbins = 0;

	struct store_run run;
	struct strbuf text;
	struct errbuf err;
	const char *used = NULL, *kind = "clat";
	int c, found, code = EXIT_OK;

	strbuf_init(&text);
	errbuf_init(&err);
	memset(&run, 0, sizeof(run));
	argi = 0;
	while ((c = opt_getopt("export", OPT_EXPORT, argc, argv, &argi)) != -1) {
		switch (c) {
		case 'h':
			code = usage();
			goto out;
		case OK_HISTOGRAM:
			if (parse_long(optarg, 1, LONG_MAX, &run_id) < 0) {
				code = cli_usage("export", "--histogram wants a run id (a positive number), got '%s'",
						 optarg);
				goto out;
			}
			break;
		case OK_DDIR: {
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
		case OK_DB: /* opened by main (cli_store) */
			break;
		case 'o':
			output = optarg;
			break;
		default:
			code = EXIT_USAGE;
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
	if (!(st = cli_store())) {
		code = cli_store_code();
		goto out;
	}
	found = store_read_run(st, run_id, &run, &err);
	if (found < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (found) {
		code = cli_error(EXIT_INPUT, "no run with id %ld in the database", run_id);
		goto out;
	}
	/* The named direction, or 'total', or (runs stored without a total row) read + write + trim summed. */
	if (read_bins(st, run_id, ddir, &bins, &nbins, &used, &kind, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (!nbins) {
		code = cli_error(EXIT_INPUT, "run %ld ('%s') has no latency histogram for %s (store fio "
			"--output-format=json+ results, or runs of 'bench run')", run_id, run.name, used);
		goto out;
	}
	strbuf_addf(&text, "# bench histogram: run %ld '", run_id);
	esc_text(&text, run.name); /* one comment line of valid UTF-8 whatever the name holds */
	strbuf_addf(&text, "', host '*', ddir %s, %s\n# value_ns count\n", used, kind);
	for (size_t i = 0; i < nbins; i++)
		strbuf_addf(&text, "%llu %llu\n", (unsigned long long)bins[i].value_ns,
			    (unsigned long long)bins[i].count);
	if (write_output(output, &text, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
out:
	free(bins);
	store_run_release(&run);
	strbuf_release(&text);
	return code;
}

/* `bench export --histogram RUN ...` writes a histogram for sim; everything else is the export of runs
 * (bench/export_data.c). */
int cmd_export(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--histogram", 11))
			return export_histogram(argc, argv);
	return export_data_main(argc, argv);
}
