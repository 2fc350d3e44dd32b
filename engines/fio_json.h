/*
 * fio_json: reading fio's JSON and JSON+ output (--output-format=json / json+) of any version into model
 * structs, exactly: every stored figure equals fio's own. Knows fio 2.x (latencies in microseconds under
 * clat/lat, io_bytes in KiB before 2.21) and 3.x (*_ns), several concatenated documents (the last one wins),
 * text before/after the JSON, jobs[] and client_stats[] (one entry per host), duplicate keys.
 * See ../shared/reference/fio.md.
 */
#ifndef BENCH_ENGINES_FIO_JSON_H
#define BENCH_ENGINES_FIO_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

/* One entry of jobs[] or client_stats[]. */
struct fio_job {
	char *jobname;
	int groupid;
	char *hostname;             /* client_stats: the server's host name; jobs[]: NULL */
	unsigned port;              /* client_stats: the server's port */
	struct kvlist options;      /* "global options" then "job options" (job wins), as fio printed them */
	struct host_result res;     /* res.host = hostname or "localhost"; dir[] read/write/trim filled,
	                               dir[DDIR_TOTAL] computed; usr/sys CPU; error; fio_version */
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

#endif
