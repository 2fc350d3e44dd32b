/*
 * cmd_import: `bench import FILE... [--label k=v]... [--db PATH] [--run ID] [--csv FILE [--map SPEC]]`.
 *
 * Stores results that were produced elsewhere: fio JSON/JSON+ output, fio log files, and (rows added by their
 * owners) vdbench output directories and published CSV tables. Each format is one row of the importer table
 * below: a name, a detect hook that says whether a path is of that format, and an import hook that reads the
 * path into a batch of runs (core/import.h). The first row whose detect claims a path reads it; the last row
 * (fio JSON) claims everything else, so a file nobody knows gets the fio reader's precise complaint.
 *
 * All files of one command are stored in ONE transaction: a bad file rolls everything back, exits 3 and leaves
 * the database as it was, and a kill leaves it as it was too (the transaction is never committed). A reader
 * thread reads, parses and prepares the files ahead of the storing thread, at most IMPORT_AHEAD at a time, so
 * memory stays flat whatever the number of files (see "Reading ahead" below); a source of many runs (a CSV
 * table) comes in parts (core/import.h), each stored before the next is read.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/csv_import.h"
#include "core/import.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/fio_json.h"
#include "engines/fio_histlog.h"
#include "engines/fio_log.h"
#include "engines/vdbench_output.h"

/* What the command line passes to importers besides the path. */
struct import_opts {
	const char *map;  /* --map SPEC: column mapping for the csv importer, or NULL */
	int64_t run_id;   /* --run ID: attach to this existing run (log files), 0 = new run */
	int append;       /* --append: add to the run's series instead of replacing them */
	int again;        /* --again: store a source whose content was imported before */
};

enum importer_flags {
	IMPORTER_ATTACH = 1 << 0, /* understands --run ID */
	IMPORTER_MAP = 1 << 1,    /* understands --map SPEC */
};

struct importer {
	const char *name;
	/* 1 when path is of this format; NULL: only used when asked for by name (--csv). */
	int (*detect)(const char *path);
	/* Reads path into out (initialised). Returns 0, or -1 with err set (ERR_INPUT: "path: reason"). */
	int (*import)(const char *path, const struct import_opts *o, struct import_batch *out, struct errbuf *err);
	unsigned flags;
};

static int fio_json_detect(const char *path)
{
	(void)path;
	return 1; /* the fallback: any file (or directory) no other importer claimed */
}

static int fio_json_row(const char *path, const struct import_opts *o, struct import_batch *out,
			struct errbuf *err)
{
	(void)o;
	return fio_json_import(path, out, err);
}

static int fio_log_row(const char *path, const struct import_opts *o, struct import_batch *out,
		       struct errbuf *err)
{
	return fio_log_import(path, o->run_id, out, err);
}

static int fio_histlog_row(const char *path, const struct import_opts *o, struct import_batch *out,
			   struct errbuf *err)
{
	return fio_histlog_import(path, o->run_id, out, err);
}

/* Published results as CSV (core/csv_import.c, docs/csv-format.md); --map renames columns. */
static int csv_row(const char *path, const struct import_opts *o, struct import_batch *out, struct errbuf *err)
{
	struct kvlist map;
	int ret;

	kvlist_init(&map);
	ret = o->map ? csv_map_add(&map, o->map, err) : 0;
	if (ret == 0)
		ret = csv_import_file(path, &map, out, err);
	kvlist_release(&map);
	return ret;
}

/* A vdbench output directory (engines/vdbench_output.c): one run per avg_ row of flatfile.html. */
static int vdbench_row(const char *path, const struct import_opts *o, struct import_batch *out,
		       struct errbuf *err)
{
	(void)o;
	return vdbench_output_import(path, out, err);
}

/*
 * The importers, most specific first. Other formats add a row here (vdbench output directories before
 * fio-json; "csv" is reached only through --csv).
 */
static const struct importer importers[] = {
	{ "fio-histlog", fio_histlog_name, fio_histlog_row, IMPORTER_ATTACH },
	{ "fio-log", fio_log_detect, fio_log_row, IMPORTER_ATTACH },
	{ "vdbench", vdbench_output_detect, vdbench_row, 0 },
	{ "csv", NULL, csv_row, IMPORTER_MAP },
	{ "fio-json", fio_json_detect, fio_json_row, 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct importer *importer_named(const char *name)
{
	for (const struct importer *im = importers; im->name; im++)
		if (!strcmp(im->name, name))
			return im;
	return NULL;
}

static const struct importer *importer_for(const char *path)
{
	for (const struct importer *im = importers; im->name; im++)
		if (im->detect && im->import && im->detect(path))
			return im;
	return NULL;
}

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

static int run_exists(struct store *st, int64_t id, struct errbuf *err)
{
	struct store_run r;
	int rc = store_read_run(st, id, &r, err);

	if (rc < 0)
		return -1;
	if (rc)
		return err_set(err, ERR_INPUT, "--run %lld: no such run in the database", (long long)id);
	store_run_release(&r);
	return 0;
}

/*
 * Stores one batch made ready by import_batch_finish() (inside the caller's transaction). *suite_id: 0 for a
 * batch's first part, which adds the suite of its new runs; later parts go into the same suite.
 */
static int store_batch(struct store *st, const char *path, struct import_batch *b, int append, int64_t *suite_id,
		       int64_t *first_run, struct errbuf *err)
{
	size_t new_runs = 0;

	for (size_t i = 0; i < b->n; i++)
		if (!b->runs[i].target_run_id)
			new_runs++;
	if (new_runs && !*suite_id &&
	    store_suite_add(st, b->suite_name ? b->suite_name : path, "import", path,
			    b->planned ? b->planned : (unsigned)new_runs, &b->suite_labels, suite_id, err) < 0)
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		struct imported_run *ir = &b->runs[i];
		int64_t run_id = ir->target_run_id;

		if (run_id) {
			if (run_exists(st, run_id, err) < 0)
				return -1;
			/* a log imported again replaces its series (host, job, metric, source), unless --append */
			if (!append && store_run_replace_series(st, run_id, &ir->res, err) < 0)
				return -1;
		} else if (store_run_add_json(st, *suite_id, &ir->spec, ir->spec_json, ir->status, &run_id, err) < 0) {
			return -1;
		} else if (!*first_run) {
			*first_run = run_id;
		}
		if (store_run_write_result(st, run_id, &ir->res, err) < 0)
			return -1;
	}
	return 0;
}

struct input {
	const char *path;
	const struct importer *im; /* NULL: detected when read (importer_for) */
	unsigned nruns; /* runs stored from it, for the summary printed after the commit */
	int64_t same_as; /* skipped: its content was imported before as this run (0: stored) */
};

/*
 * Reading ahead: a reader thread reads and parses the files (importers never touch the database) into a ring
 * of IMPORT_AHEAD batches while the command's thread stores them, in the files' order, so that parsing one
 * file overlaps storing the one before. Memory stays bounded by the ring, whatever the number of files. The
 * reader stops after the first file it cannot read: the storing side reports that file and stores nothing.
 */
#define IMPORT_AHEAD 32

struct reader {
	const struct input *in;
	size_t nin;
	const struct import_opts *o;
	const struct kvlist *labels; /* the command's --label */
	struct {
		struct import_batch b;
		char digest[65]; /* the source's content digest (import_digest), "" for --run imports */
		struct errbuf err;
		int rc;     /* the importer's return */
		int filled; /* b holds a batch to release before the slot is used again */
	} slot[IMPORT_AHEAD];
	size_t produced; /* files read (or failed) so far */
	size_t consumed; /* files stored: their slots may be used again */
	int stop;        /* the storing side gave up: read no more */
	int threaded;    /* 0: pthread_create failed, files are read on demand by the storing thread */
	/* Each side sleeps on its own condition and is woken only when it has work, the reader when half the
	 * ring is free: not one context switch per file. */
	int reader_waits, storer_waits;
	pthread_mutex_t mu;
	pthread_cond_t reader_cv, storer_cv;
	pthread_t tid;
};

static void reader_fill(struct reader *r, size_t i)
{
	size_t k = i % IMPORT_AHEAD;
	const struct importer *im = r->in[i].im ? r->in[i].im : importer_for(r->in[i].path);

	if (r->slot[k].filled)
		import_batch_release(&r->slot[k].b);
	import_batch_init(&r->slot[k].b);
	errbuf_init(&r->slot[k].err);
	r->slot[k].filled = 1;
	if (!im || !im->import)
		r->slot[k].rc = err_set(&r->slot[k].err, ERR_USAGE, "%s: importing %s files is not available in this build",
					r->in[i].path, im ? im->name : "such");
	else
		r->slot[k].rc = im->import(r->in[i].path, r->o, &r->slot[k].b, &r->slot[k].err);
	r->slot[k].digest[0] = '\0';
	if (r->slot[k].rc == 0 && !r->o->run_id)
		r->slot[k].rc = import_digest(r->in[i].path, r->slot[k].digest, &r->slot[k].err);
	if (r->slot[k].rc == 0)
		import_batch_finish(&r->slot[k].b, r->labels);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	for (size_t i = 0; i < r->nin; i++) {
		int stop, rc;

		pthread_mutex_lock(&r->mu);
		while (!r->stop && i - r->consumed >= IMPORT_AHEAD) {
			r->reader_waits = 1;
			pthread_cond_wait(&r->reader_cv, &r->mu);
		}
		stop = r->stop;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			break;
		reader_fill(r, i);
		rc = r->slot[i % IMPORT_AHEAD].rc;
		pthread_mutex_lock(&r->mu);
		r->produced = i + 1;
		if (r->storer_waits) {
			r->storer_waits = 0;
			pthread_cond_signal(&r->storer_cv);
		}
		pthread_mutex_unlock(&r->mu);
		if (rc < 0)
			break;
	}
	return NULL;
}

static void reader_start(struct reader *r, const struct input *in, size_t nin, const struct import_opts *o,
			 const struct kvlist *labels)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->nin = nin;
	r->o = o;
	r->labels = labels;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->reader_cv, NULL);
	pthread_cond_init(&r->storer_cv, NULL);
	r->threaded = nin > 1 && pthread_create(&r->tid, NULL, reader_main, r) == 0;
}

/* File i's batch and digest (files are taken in order); the slot stays the caller's until reader_next(i + 1). */
static int reader_next(struct reader *r, size_t i, struct import_batch **b, const char **digest, struct errbuf *err)
{
	size_t k = i % IMPORT_AHEAD;

	if (!r->threaded) {
		reader_fill(r, i);
	} else {
		pthread_mutex_lock(&r->mu);
		r->consumed = i; /* files before i are stored: their slots are free */
		if (r->reader_waits && r->produced - r->consumed <= IMPORT_AHEAD / 2) {
			r->reader_waits = 0;
			pthread_cond_signal(&r->reader_cv);
		}
		while (r->produced <= i) {
			r->storer_waits = 1;
			pthread_cond_wait(&r->storer_cv, &r->mu);
		}
		pthread_mutex_unlock(&r->mu);
	}
	*b = &r->slot[k].b;
	*digest = r->slot[k].digest;
	if (r->slot[k].rc < 0) {
		*err = r->slot[k].err;
		return -1;
	}
	return 0;
}

static void reader_finish(struct reader *r)
{
	if (r->threaded) {
		pthread_mutex_lock(&r->mu);
		r->stop = 1;
		pthread_cond_signal(&r->reader_cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->tid, NULL);
	}
	for (size_t k = 0; k < IMPORT_AHEAD; k++)
		if (r->slot[k].filled)
			import_batch_release(&r->slot[k].b);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->reader_cv);
	pthread_cond_destroy(&r->storer_cv);
}

/*
 * Imported again: the content digests of the sources imported before (artifact IMPORT_DIGEST_ARTIFACT of the
 * first run of each), read once per command, sorted, and the ones this command stores added, so that a file
 * given twice is stored once too.
 */
struct known {
	struct store_named_artifact *v; /* content = digest */
	size_t n, cap;
};

static int known_cmp(const void *a, const void *b)
{
	const struct store_named_artifact *x = a, *y = b;
	int c = strcmp(x->content, y->content);

	return c ? c : (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

static int known_load(struct store *st, struct known *k, struct errbuf *err)
{
	if (store_read_artifact_runs(st, IMPORT_DIGEST_ARTIFACT, &k->v, &k->n, err) < 0)
		return -1;
	k->cap = k->n;
	if (k->n > 1)
		qsort(k->v, k->n, sizeof(*k->v), known_cmp); /* the earliest run first among equal digests */
	return 0;
}

/* Where digest is, or would go, in k (the first of equal ones). */
static size_t known_pos(const struct known *k, const char *digest)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(k->v[mid].content, digest) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The run the content `digest` was first imported as, or 0. */
static int64_t known_run(const struct known *k, const char *digest)
{
	size_t i = known_pos(k, digest);

	return i < k->n && !strcmp(k->v[i].content, digest) ? k->v[i].run_id : 0;
}

static void known_add(struct known *k, const char *digest, int64_t run_id)
{
	size_t i = known_pos(k, digest);

	while (i < k->n && !strcmp(k->v[i].content, digest))
		i++; /* after the earlier runs of that content */
	ARRAY_GROW(k->v, k->cap, k->n + 1);
	memmove(k->v + i + 1, k->v + i, (k->n - i) * sizeof(*k->v));
	k->v[i].run_id = run_id;
	k->v[i].content = xstrdup(digest);
	k->n++;
}

/* The digest goes with the first new run of the source (its batch's first part), as an artifact. */
static void batch_add_digest(struct import_batch *b, const char *digest)
{
	for (size_t i = 0; i < b->n; i++)
		if (!b->runs[i].target_run_id) {
			run_result_add_artifact(&b->runs[i].res, IMPORT_DIGEST_ARTIFACT, digest, strlen(digest));
			return;
		}
}

/* Reads and stores every file in one transaction: all of them, or (bad file, storage error) none. */
static int import_all(struct store *st, struct input *in, size_t nin, const struct import_opts *o,
		      const struct kvlist *labels, struct errbuf *err)
{
	struct reader *r = xmalloc(sizeof(*r));
	struct known known = { NULL, 0, 0 };
	int ret = -1;

	if (store_begin(st, err) < 0) {
		free(r);
		return -1;
	}
	reader_start(r, in, nin, o, labels);
	if (!o->run_id && known_load(st, &known, err) < 0)
		goto out;
	for (size_t i = 0; i < nin; i++) {
		struct import_batch *b;
		const char *digest;
		int64_t suite_id = 0, first_run = 0;

		if (reader_next(r, i, &b, &digest, err) < 0)
			goto out;
		if (digest[0] && !o->again && (in[i].same_as = known_run(&known, digest)) != 0)
			continue; /* said after the commit: a failed import says one thing, its error */
		if (digest[0])
			batch_add_digest(b, digest);
		for (;;) { /* a batch in parts (a big CSV table): each part stored before the next is read */
			if (store_batch(st, in[i].path, b, o->append, &suite_id, &first_run, err) < 0)
				goto out;
			in[i].nruns += (unsigned)b->n;
			if (!b->next)
				break;
			if (import_batch_next(b, labels, err) < 0)
				goto out;
		}
		if (digest[0] && first_run)
			known_add(&known, digest, first_run);
	}
	ret = 0;
out:
	reader_finish(r);
	free(r);
	store_named_artifacts_free(known.v, known.n);
	if (ret < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}

int cmd_import(int argc, char **argv)
{
	int argi = 0;
	struct import_opts o = { NULL, 0, 0, 0 };
	struct kvlist labels;
	struct input *in = NULL;
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
	if (import_all(st, in, nin, &o, &labels, &err) < 0) {
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
