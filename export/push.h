/*
 * push: sending exported text to a metrics server over HTTP with libcurl (docs/export.md "Pushing"):
 * InfluxDB 1.x (POST /write?db=DB&precision=ns, in batches of lines) and the Prometheus Pushgateway
 * (PUT /metrics/job/JOB). Every request has a connect timeout and a total timeout; a failed attempt
 * (connection refused, timeout, HTTP 5xx or 429) is retried after a backoff that doubles. A request that
 * still fails leaves one printable line in err (ERR_HOST): the URL, the HTTP status or libcurl's message,
 * and the first line of the server's answer.
 */
#ifndef BENCH_EXPORT_PUSH_H
#define BENCH_EXPORT_PUSH_H

#include <stddef.h>

#include "core/errbuf.h"

struct push_opts {
	long connect_timeout_ms; /* per attempt */
	long timeout_ms;         /* per attempt, whole request */
	int retries;             /* attempts after the first */
	long backoff_ms;         /* wait before the first retry; doubles */
};

#define PUSH_OPTS_DEFAULT { 3000, 10000, 2, 500 }

/* The servers a push goes to. */
enum push_server { PUSH_INFLUXDB, PUSH_PUSHGATEWAY };

/*
 * The URL to push to (newly allocated): base without trailing slashes, with the endpoint of the server added
 * when it has none: InfluxDB /write?db=DB&precision=ns (influx_db, default "bench"; or only precision=ns when
 * base has /write), Pushgateway /metrics/job/JOB (job, default "bench").
 */
char *push_url(const char *base, enum push_server to, const char *influx_db, const char *job);

/* The longest a push_request() can take, ms: every attempt's timeout plus every backoff. */
long push_worst_case_ms(const struct push_opts *o);

/* One request (method "POST" or "PUT") with `body`; 0 on HTTP 2xx, else -1 with err. */
int push_request(const char *method, const char *url, const char *content_type, const char *body, size_t len,
		 const struct push_opts *o, struct errbuf *err);

/*
 * InfluxDB: posts line-protocol text (one point per line) in batches of `batch` lines to URL. *written
 * counts the points of the batches the server accepted, also on failure.
 */
int push_influx(const char *url, const char *text, size_t len, size_t batch, const struct push_opts *o,
		size_t *written, struct errbuf *err);

#endif
