/*
 * gnuplot_run: the one runner of gnuplot, for every command that draws charts (report, trend). It runs the
 * scripts of a chart set (report/chart/chart_gnuplot.h) in the set's directory, a few scripts per process (its
 * start-up costs more than a chart), each process from an argv array with a time limit (gnuplot_process). It
 * lives in bench/ because report/ never runs a program (design.md).
 */
#ifndef BENCH_BENCH_GNUPLOT_RUN_H
#define BENCH_BENCH_GNUPLOT_RUN_H

#include "core/errbuf.h"
#include "report/chart/chart_gnuplot.h"

enum gnuplot_run_flags {
	/* A chart gnuplot cannot draw is left out of the set with a warning and the others are drawn (report:
	 * one bad chart never takes the others or the HTML page with it). Without it the first failure is the
	 * error "gnuplot failed in DIR: ..." (trend). */
	GNUPLOT_LEAVE_OUT = 1 << 0,
};

/*
 * Draws every chart of cs. Returns 0, or -1 with err (ERR_HOST) when gnuplot is missing, did not finish in
 * time or (without GNUPLOT_LEAVE_OUT) failed on a script.
 */
int gnuplot_run(struct chart_set *cs, unsigned flags, struct errbuf *err);

#endif
