/*
 * cmd_import: `bench import FILE... [--label k=v]... [--db PATH] [--run ID] [--csv FILE [--map SPEC]]`.
 *
 * Stores results that were produced elsewhere: fio JSON/JSON+ output, fio log files, vdbench output
 * directories and published CSV tables. This file parses the command line, checks each file against the
 * options (a FIFO or device is refused unopened; --run and --map only where the format's importer row takes
 * them) and says what was stored; the importers and their table are the import/ room (import/importers.h),
 * and import/import_files.h reads and stores all files in ONE transaction: a bad file rolls everything back,
 * exits 3 and leaves the database as it was.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "import/import_files.h"
#include "import/importers.h"

static int usage(void)
{
	printf("usage: bench import FILE... [--label key=value]... [--db PATH] [--run ID [--append]]\n"
	       "       bench import --csv FILE [--map SPEC] [--label key=value]... [--db PATH]\n\n"
	       "Stores benchmark results produced elsewhere in the database, as runs that reports, comparisons\n"
	       "and the CI gate treat like runs bench made itself. Each FILE may be:\n"
	       "  fio JSON or JSON+ output (--output-format=json/json+), fio 2.x and 3.x: one document or several\n"
	       "    concatenated (--status-interval: the last one counts), text before or after the JSON,\n"
	       "    jobs or client/server output (one result per host plus the aggregate over hosts), per job\n"
	       "    or group_reporting, read/write/trim or unified (mixed) reporting. Every figure is stored as\n"
	       "    fio printed it (fio 2.x latencies converted from microseconds to nanoseconds). One run per\n"
	       "    job (or group); the whole file is kept with each run.\n"
	       "  fio log files (write_lat_log, write_bw_log, write_iops_log: NAME_lat.N.log, NAME_clat.N.log,\n"
	       "    NAME_bw.N.log, NAME_iops.N.log), per IO or averaged with log_avg_msec: every averaged line\n"
	       "    is one sample at its own time with its window (per-IO logs: 1-second intervals), per job\n"
	       "    and direction, plus, for per-IO latency logs, a latency histogram and percentiles.\n"
	       "  fio histogram logs (write_hist_log with log_hist_msec: NAME_clat_hist.N.log, fio 3.x, any\n"
	       "    log_hist_coarseness): the latency histogram of every interval (percentiles over time).\n\n"
	       "All files of one command are stored in one transaction: if any file is bad, nothing is stored,\n"
	       "the error names the file and bench exits with 3.\n\n"
	       "");
	opt_help(stdout, OPT_IMPORT);
	printf("\n"
	       "Prints one line per file, e.g. \"imported 2 runs from x.json\".\n"
	       "exit codes: 0 stored, 2 usage error, 3 bad input file, 5 storage error.\n");
	return EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
	int argi = 0;
	struct import_opts o = { NULL, 0, 0, 0 };
	struct kvlist labels;
	struct import_input *in = NULL;
	size_t nin = 0, cap = 0;
	struct store *st = NULL;
	struct errbuf err;
	int c, code = EXIT_OK;

	kvlist_init(&labels);
	errbuf_init(&err);
	argi = 0;
	while ((c = opt_getopt("import", OPT_IMPORT, argc, argv, &argi)) != -1) {
		switch (c) {
		case 'h':
			code = usage();
			goto out;
		case OK_LABEL:
			if (cli_add_label(&labels, "import", optarg) < 0) {
				code = EXIT_USAGE;
				goto out;
			}
			break;
		case OK_DB: /* opened by main (cli_store) */
			break;
		case OK_RUN: {
			long id;
			if (parse_long(optarg, 1, LONG_MAX, &id) < 0) {
				code = cli_usage("import", "--run wants a run id (a positive number), got '%s'", optarg);
				goto out;
			}
			o.run_id = id;
			break;
		}
		case OK_CSV:
			ARRAY_GROW(in, cap, nin + 1);
			in[nin].path = optarg;
			in[nin].nruns = 0;
			in[nin].same_as = 0;
			in[nin++].im = importer_named("csv");
			break;
		case OK_MAP:
			o.map = optarg;
			break;
		case OK_APPEND:
			o.append = 1;
			break;
		case OK_AGAIN:
			o.again = 1;
			break;
		default:
			code = EXIT_USAGE;
			goto out;
		}
	}
	for (int i = optind; i < argc; i++) {
		ARRAY_GROW(in, cap, nin + 1);
		in[nin].path = argv[i];
		in[nin].nruns = 0;
		in[nin].same_as = 0;
		in[nin++].im = NULL;
	}
	if (o.append && !o.run_id) {
		code = cli_usage("import", "--append applies with --run ID only");
		goto out;
	}
	if (!nin) {
		code = cli_usage("import", "no file to import given");
		goto out;
	}
	for (size_t i = 0; i < nin; i++) {
		if (import_check_path(in[i].path, 1, &err) < 0) { /* a FIFO or device: refused, never opened */
			code = cli_fail(&err);
			goto out;
		}
		if (!in[i].im && !o.run_id && !o.map)
			continue; /* no option to check against the format: the reader thread detects it */
		if (!in[i].im)
			in[i].im = importer_for(in[i].path);
		if (!in[i].im || !in[i].im->import) {
			code = cli_error(EXIT_USAGE, "%s: importing %s files is not available in this build", in[i].path,
					 in[i].im ? in[i].im->name : "such");
			goto out;
		}
		if (o.run_id && !(in[i].im->flags & IMPORTER_ATTACH)) {
			code = cli_usage("import", "--run applies to fio log files only, not to '%s' (%s)", in[i].path,
					 in[i].im->name);
			goto out;
		}
		if (o.map && !(in[i].im->flags & IMPORTER_MAP)) {
			code = cli_usage("import", "--map applies to --csv files only");
			goto out;
		}
	}

	if (!(st = cli_store())) {
		code = cli_store_code();
		goto out;
	}
	if (import_files(st, in, nin, &o, &labels, &err) < 0) {
		if (err.kind == ERR_NONE)
			err.kind = ERR_INTERNAL;
		code = cli_fail(&err);
		goto out;
	}
	for (size_t i = 0; i < nin; i++) {
		if (o.run_id) {
			printf("imported %s time series into run %lld\n", in[i].path, (long long)o.run_id);
		} else if (in[i].same_as) {
			fprintf(stderr, "bench: note: %s: already imported as run %lld: skipped; --again stores it anyway\n",
				cli_safe(in[i].path), (long long)in[i].same_as);
			printf("imported 0 runs from %s (already imported as run %lld)\n", in[i].path,
			       (long long)in[i].same_as);
		} else {
			printf("imported %u run%s from %s\n", in[i].nruns, in[i].nruns == 1 ? "" : "s", in[i].path);
		}
	}
out:
	free(in);
	kvlist_release(&labels);
	return code;
}
