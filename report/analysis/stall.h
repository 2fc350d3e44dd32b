/*
 * stall: the stall detector of `bench report -v` (docs/timeseries.md). A stall is a run of aligned windows
 * (core/series.h) in which one host's IOPS (all directions, all jobs) fell below a fraction of that host's
 * median IOPS over the run; a window of the host's span without any IOPS sample counts as 0 IOPS.
 */
#ifndef BENCH_REPORT_STALL_H
#define BENCH_REPORT_STALL_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/store.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "report/load.h"

#define STALL_DEFAULT_FRACTION 0.5

struct stall {
	char host[64];
	int64_t start_ms;   /* start of the first low window, on the run's clock (t = 0 at the end of ramp) */
	int64_t len_ms;     /* low windows x window length */
	double min_iops;    /* lowest IOPS in the stall */
	double median_iops; /* the host's median */
};

/* The stalls in one run's samples, by host then time. Returns their number; *out malloc'd (NULL if none). */
size_t stall_find(const struct store_sample *v, size_t n, double fraction, struct stall **out);

/*
 * Text for `bench report -v`: for every run of set with IOPS samples, one line per stall
 * ("  run 3 'name': host lab2 stalled at 3.0 s for 2.0 s (min 480 IOPS, median 9800)"), under a heading;
 * nothing when no run has IOPS samples. Returns 0, or -1 with err from the store.
 */
int stall_report(struct strbuf *out, struct store *st, const struct rep_set *set, double fraction,
		 struct errbuf *err);

#endif
