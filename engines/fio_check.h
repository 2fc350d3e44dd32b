/*
 * fio_check: fio itself checks a plan before anything runs or is stored. bench's own readers know the options
 * bench models; fio knows all of its options, their ranges and their value lists. So every distinct job file a
 * plan will run (written as the fio engine writes it, per host with --hosts) goes to the local fio with
 * `--parse-only`, many files to one fio call and a few calls at once, and the ioengines the files name must be
 * ones this fio can load (`--parse-only` does not load engines). fio's first complaint becomes one message
 * with the place in the profile it came from: "bad4.fio:4: fio: bad option 'iodepht=4' (did you mean
 * 'iodepth'?)". Nothing is written but the job files, in a temporary directory removed afterwards; fio's
 * parse-only mode opens no target.
 */
#ifndef BENCH_ENGINES_FIO_CHECK_H
#define BENCH_ENGINES_FIO_CHECK_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/model.h"

/* Job files given to one fio call, and fio calls running at once. */
#define FIO_CHECK_BATCH 8192
#define FIO_CHECK_PARALLEL 3
/* Longest a fio call may take before the check gives up (ERR_HOST), milliseconds. */
#define FIO_CHECK_TIMEOUT_MS 60000
/* fio reads a job file line into a buffer of this many bytes (parse.h OPT_LEN_MAX): longer lines are cut. */
#define FIO_LINE_MAX 8192

struct fio_check_opts {
	const struct host_list *hosts; /* --hosts: one job file per initiator (its targets); NULL/empty: here */
	const char *sim_so;            /* the sim ioengine; NULL or "": runs of the sim engine are not checked */
	const char *fio;               /* the fio program; NULL: "fio" in PATH */
};

struct fio_check_stats {
	size_t runs_checked;           /* runs whose job files fio parsed */
	size_t runs_skipped;           /* runs of engines without a fio job (null; sim without its .so) */
	size_t files;                  /* distinct job files given to fio */
	size_t fio_calls;              /* fio processes started */
};

/*
 * Checks the job files of runs[0..n). 0: fio accepts every one (or there is none to check). -1 with:
 * ERR_INPUT: fio refused a job; err holds "FILE:LINE: fio: ..." (the run's profile line that holds the
 * option when it can be found, else its section's line; "--engine-opt K=V: fio: ..." for an engine option).
 * ERR_HOST: fio could not be asked (not installed, did not answer in time): err says so; the caller decides
 * whether to go on. `stats` may be NULL.
 */
int fio_check_plan(const struct run_spec *runs, size_t n, const struct fio_check_opts *o,
		   struct fio_check_stats *stats, struct errbuf *err);

/* fio's first complaint, read from what `fio --parse-only` wrote (stderr; stdout holds value lists). */
struct fio_complaint {
	int bad_option;    /* 1: an unknown option ("Bad option <...>"), 0: a bad value or another complaint */
	char *subject;     /* the option as fio quotes it ("iodepht=4", "rw=randwritee"), or NULL */
	char *detail;      /* fio's reason ("min value out of range: 0 (1 min)"), or NULL */
	char *suggestion;  /* fio's "Did you mean" or the closest of the valid values, or NULL */
	char *valid;       /* the valid values fio listed, ", "-separated, or NULL */
};

void fio_complaint_parse(const char *err_text, const char *out_text, struct fio_complaint *c);
void fio_complaint_release(struct fio_complaint *c);
/* The complaint as one message without place ("fio: bad option 'iodepht=4' (did you mean 'iodepth'?)"). */
char *fio_complaint_message(const struct fio_complaint *c);

/*
 * The line of `path` that holds `subject` (fio's "key=value" or "key", spaces around '=' ignored): first in
 * the section whose header is at `section_line` (1-based), else anywhere in the file (a [global] above it);
 * `section_line` when no line holds it or the file cannot be read.
 */
int fio_check_find_line(const char *path, int section_line, const char *subject);

#endif
