/*
 * fio_json: reading fio's JSON and JSON+ output (--output-format=json / json+) of any version into model
 * structs, exactly: every stored figure equals fio's own. Knows fio 2.x (latencies in microseconds under
 * clat/lat, io_bytes in KiB before 2.21) and 3.x (*_ns), several concatenated documents (the last one wins),
 * text before/after the JSON, jobs[] and client_stats[] (one entry per host), duplicate keys.
 * See docs/fio-facts.md.
 */
#ifndef BENCH_ENGINES_FIO_JSON_H
#define BENCH_ENGINES_FIO_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"
#include "engines/fio_ss.h"

/* One entry of jobs[] or client_stats[]. */
struct fio_job {
	char *jobname;
	int groupid;
	char *hostname;             /* client_stats: the server's host name; jobs[]: NULL */
	unsigned port;              /* client_stats: the server's port */
	struct kvlist options;      /* "global options" then "job options" (job wins), as fio printed them */
	struct host_result res;     /* res.host = hostname or "localhost"; dir[] read/write/trim filled,
	                               dir[DDIR_TOTAL] computed; usr/sys CPU; error; fio_version */
	struct fio_ss ss;           /* fio's steadystate object (ss=), ss_ramp from the job's or the global
	                               options; ss.present = 0 without ss= */
};

struct fio_output {
	char *fio_version;          /* "fio-3.33" */
	int64_t timestamp_ms;       /* 0 when absent (fio 2.x) */
	int client_server;          /* 1: read from client_stats[] */
	struct kvlist global_options;
	struct fio_job *jobs;       /* in fio's order; the "All clients" entry is left out */
	size_t njobs, cap;
	char *text_before;          /* non-JSON text before the last document (e.g. "client: host=... disconnected") */
};

void fio_output_init(struct fio_output *o);
void fio_output_release(struct fio_output *o);

/*
 * Parses fio's output text. `name` (a file name) prefixes error messages. Fails with ERR_INPUT when there
 * is no fio JSON document in the text or the document is not fio's.
 */
int fio_json_parse(const char *text, size_t len, const char *name, struct fio_output *out, struct errbuf *err);

/*
 * fio's version string ("fio-3.33", "fio-2.2.10-4-gabcdef", "3.1") as one comparable number
 * major * 10000 + minor * 100 + patch (3.33 -> 33300, 2.21 -> 22100); 0 when it cannot be read.
 */
unsigned fio_version_number(const char *s);

/* Moves job's host result into r as host `host` and returns it; the job keeps an empty, releasable one. */
struct host_result *fio_job_take_result(struct fio_job *job, struct run_result *r, const char *host);

/*
 * Combines several entries of one server in one group (client mode without group_reporting) into h (a host
 * result of the run, named): directions combined exactly (core/aggregate.h), the total from them (or from the
 * entries' own totals with unified_rw_reporting), CPU the mean of the entries that report it, the first
 * error and fio version.
 */
void fio_jobs_combine(const struct fio_job *const *jobs, size_t n, struct host_result *h);

/* The steady-state labels of a run made of all of o's jobs (fio_ss_combine, fio_ss_labels); none without ss=. */
void fio_output_ss_labels(const struct fio_output *o, struct kvlist *labels);

#endif
