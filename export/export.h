/*
 * export: stored runs and their samples as data for other tools (docs/export.md): CSV, JSON, InfluxDB line
 * protocol and OpenMetrics text. The runs come from report_load() (load.h), the samples from
 * store_admin_samples() (core/store_admin.h), one list per run in the same order.
 *
 * Every run is one point (InfluxDB measurement "bench_run", OpenMetrics families bench_<figure>) at its
 * started_at time; every sample is one point (measurement "bench_sample", families bench_sample_<metric>) at
 * started_at + t_ms (t_ms at or above EXPORT_EPOCH_MS is already an epoch time). Text given by users (labels,
 * names) is escaped by the rules of each format; the escapers are here because they are format-specific.
 * Nothing here prints or does network IO.
 */
#ifndef BENCH_EXPORT_EXPORT_H
#define BENCH_EXPORT_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/store_admin.h"
#include "core/strbuf.h"
#include "report/load.h"

enum export_format { EXPORT_CSV = 0, EXPORT_JSON, EXPORT_INFLUX, EXPORT_OPENMETRICS };

enum export_flags {
	EXPORT_NO_SAMPLES = 1 << 0,    /* runs only */
	EXPORT_SAMPLES_ONLY = 1 << 1,  /* CSV: one row per sample instead of one per run */
	EXPORT_NO_TIMESTAMPS = 1 << 2, /* OpenMetrics for a Pushgateway (it refuses timestamps): runs only */
};

/* t_ms values from here on are epoch milliseconds (fio's log_unix_epoch), not offsets: 2001-09-09. */
#define EXPORT_EPOCH_MS 1000000000000LL

/* Parses "csv", "json", "influx" (or "line-protocol"), "openmetrics" (or "prometheus"). */
int export_format_parse(const char *s, enum export_format *out);

/*
 * Renders runs (and samples[i] for runs->v[i]; samples may be NULL) into out. *points counts the points
 * written (influx: lines; openmetrics: samples; csv: rows; json: runs + samples). ERR_INPUT when a run's
 * started_at is not an ISO 8601 time and the format needs timestamps.
 */
int export_render(enum export_format fmt, const struct rep_set *runs, const struct admin_sample_list *samples,
		  unsigned flags, struct strbuf *out, size_t *points, struct errbuf *err);

/* ISO 8601 UTC ("2026-12-01T20:36:03.123Z", fraction and Z optional) to epoch ms; -1 on a bad form. */
int export_parse_time_ms(const char *iso, int64_t *ms);

/* Escapers, exported for the tests. */
void export_esc_lp_measurement(struct strbuf *out, const char *s); /* commas, spaces */
void export_esc_lp_key(struct strbuf *out, const char *s);   /* tag keys, tag values, field keys: , = space */
void export_esc_om_value(struct strbuf *out, const char *s); /* OpenMetrics label value: \ " newline */
void export_om_name(struct strbuf *out, const char *s, int label); /* sanitised metric (label: label) name */

#endif
