/*
 * node_exporter: a remote host's CPU and disk counters, scraped over HTTP(S) from a Prometheus node_exporter
 * in the Prometheus text exposition format (version 0.0.4). The parser and the metric mapping are exported
 * for the unit tests; the collector (collector_node_exporter) does the HTTP part with libcurl.
 */
#ifndef BENCH_COLLECTORS_NODE_EXPORTER_H
#define BENCH_COLLECTORS_NODE_EXPORTER_H

#include "collectors/collector.h"

#define PROM_MAX_LABELS 32

struct prom_label {
	const char *name;
	const char *value;             /* escapes (\\ \" \n) already decoded */
};

/* One sample line; the strings are valid only during the callback. */
struct prom_sample {
	const char *name;
	struct prom_label label[PROM_MAX_LABELS];
	size_t nlabels;
	double value;                  /* NaN and +-Inf allowed */
	int has_timestamp;
	int64_t timestamp_ms;
	int lineno;
};

const char *prom_label_value(const struct prom_sample *s, const char *name); /* NULL if absent */

/*
 * Parses exposition text: blank lines, comments, "# HELP" and "# TYPE" lines are skipped; every other line
 * must be `name[{label="value",...}] value [timestamp]`. Calls fn for each sample; a negative return from fn
 * stops parsing and is returned. Errors name `what` and the line.
 */
int prom_parse(const char *text, size_t len, const char *what,
	       int (*fn)(void *ctx, const struct prom_sample *s, struct errbuf *err), void *ctx, struct errbuf *err);

/*
 * Fills a snapshot from node_exporter text: node_cpu_seconds_total{cpu,mode} (kept in microseconds:
 * cpu_unit_s = 1e-6) and per device node_disk_reads_completed_total, node_disk_writes_completed_total,
 * node_disk_read_bytes_total, node_disk_written_bytes_total (as 512-byte sectors) and
 * node_disk_io_time_seconds_total (as ms). Text without node_cpu_seconds_total is an error.
 */
int node_exporter_parse(const char *text, size_t len, const char *what, struct collect_snapshot *out,
			struct errbuf *err);

/*
 * The URL actually scraped: `url` itself when it has a query string, else url + "?collect[]=cpu&collect[]=
 * diskstats" so that node_exporter runs only the two collectors bench reads (less work on the measured host).
 * Caller frees.
 */
char *node_exporter_scrape_url(const char *url);

/* Initialises libcurl once per process (thread-safe); ne_open calls it, so does the session before threads. */
int node_exporter_global_init(struct errbuf *err);

/* Largest answer accepted, bytes. */
#define NODE_EXPORTER_MAX_BYTES (16u << 20)

#endif
