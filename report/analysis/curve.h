/*
 * curve: what storage engineers read off latency-vs-IOPS curves (docs/method.md): the curves themselves, one
 * per configuration (the runs of a curve or sweep grouped by label values, e.g. transport=iser vs
 * transport=nvmeof-rdma), their knee, the table "max IOPS at p99 <= X ms" per configuration and the ratios
 * between configurations at equal latency. chart_curve.c draws the curves. Read-only over a rep_set; nothing
 * here prints.
 *
 * Figures of a point: IOPS (all directions), and for latency the worse of read and write (mean and p99), so a
 * mixed workload is judged by its slower direction. Every stored run (done or partial) is one point; points are
 * ordered by IOPS.
 *
 * The knee: the point where more load stops buying throughput and starts costing latency. Among the points
 * whose latency is still <= k x the curve's minimum latency (k = 2 by default, latency = mean or p99), take those
 * within 5 % of the best such IOPS, and of them the one with the lowest latency. Maximum curvature was not
 * chosen: with the 5 to 10 points a curve has, a discrete second derivative follows the noise and the spacing of
 * the points, not the device; the k x minimum rule needs no fit, is scale-free and says in one sentence what
 * it means. On a modelled target (fixed service time S, U parallel units, transport latency T) it is the
 * first point with every unit busy: the first iodepth >= U (1 + T / S) of an iodepth sweep (as long as it is
 * below 2 U (1 + T / S), the 2 x minimum latency), the highest point below 100 % of a rate curve.
 *
 * "Max IOPS at p99 <= X": the best measured point whose p99 is <= X (never interpolated: a figure that was
 * not measured is not published; of equal IOPS, the lower p99); NAN when no point qualifies.
 */
#ifndef BENCH_REPORT_CURVE_H
#define BENCH_REPORT_CURVE_H

#include <stddef.h>

#include "core/kv.h"
#include "core/strbuf.h"
#include "report/load.h"
#include "report/method_labels.h"

struct curve_point {
	const struct rep_run *run;
	double iops;               /* all directions */
	double lat_ms;             /* mean completion latency, worse direction; NAN unknown */
	double p99_ms;             /* 99th percentile, worse direction; NAN unknown */
};

struct curve {
	char *title;               /* "transport=iser" or "(no labels)" */
	struct kvlist keys;        /* the label values of the configuration */
	char *of;                  /* the kind of point and the workload without its load level ("sweep.iodepth|
				    * bs=4096|..."): curves of one configuration differ by it */
	struct curve_point *v;     /* ordered by IOPS */
	size_t n, cap;
	double min_lat_ms;         /* minimum of the knee metric over the points; NAN when none known */
	long knee;                 /* index of the knee point, -1 when none */
};

enum curve_lat { CURVE_LAT_MEAN = 0, CURVE_LAT_P99 = 1 };

struct curve_set {
	struct curve *v;
	size_t n, cap;
	double knee_k;             /* k of the knee rule */
	enum curve_lat knee_lat;   /* latency the knee rule uses */
};

void curve_set_init(struct curve_set *cs);
void curve_set_release(struct curve_set *cs);

/*
 * Builds one curve per configuration from the done and partial runs of `set`: grouped by the values of the
 * `by` keys (labels or workload parameters, value ignored), or, with `by` empty, by the whole label set without
 * the method labels (rep_label_is_method) and phase; and always by the kind of point (a rate curve, or a sweep
 * over sweep.iodepth / sweep.numjobs / sweep.rate_iops) and the workload identity without its load level
 * (core/identity.h run_spec_identity_except: iodepth, numjobs, rate_iops, rate; a run without a spec: its
 * kind alone), so two workloads of one configuration are two curves (their titles then
 * end in the workload's name). Runs of phase=precondition are left out. Then finds each curve's knee with
 * k (> 1) on latency `lat`.
 */
int curve_build(struct curve_set *cs, const struct rep_set *set, const struct kvlist *by, double knee_k,
		enum curve_lat lat, struct errbuf *err);

/* The best measured IOPS of a curve whose p99 is <= p99_max_ms (NAN: none), and the point's index in *idx. */
double curve_max_iops_at(const struct curve *c, double p99_max_ms, long *idx);

/*
 * The table "max IOPS at p99 <= X ms" as text (columns: configuration, one per limit, and the ratio of each
 * configuration to the first at each limit), and the knee of each curve. For the terminal and tests; the
 * renderers of render.h may take the same figures.
 */
void curve_table_text(struct strbuf *out, const struct curve_set *cs, const double *p99_max_ms, size_t nlim);

struct chart_set; /* report/chart/charts.h */

/*
 * chart_curve.c: writes two latency-vs-IOPS gnuplot charts (kind 'g': p99 and mean latency against IOPS), one
 * line per curve, knees marked, into cs (its directory, or `dir` when cs has none yet: created if missing), as
 * charts_write does for the others; bench/ runs gnuplot on each script. The latency axis is logarithmic when
 * the plotted latencies span more than 20x. Fails with ERR_INPUT when the files cannot be written.
 */
int curve_charts_write(struct chart_set *cs, const char *dir, const struct curve_set *curves, unsigned fmts,
		       struct errbuf *err);

#endif
