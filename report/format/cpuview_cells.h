/*
 * cpuview_cells: the CPU and disk figures of runs (cpuview.h) as small tables of already formatted cells
 * (numbers rounded for reading, text raw: the renderer escapes it) for the text and Markdown renderers.
 */
#ifndef BENCH_REPORT_CPUVIEW_CELLS_H
#define BENCH_REPORT_CPUVIEW_CELLS_H

#include <stddef.h>

struct rep_run; /* report/load.h */

struct cpuview_table {
	const char *title;
	size_t ncols, nrows;      /* row 0 is the header */
	char **cells;             /* nrows * ncols, malloc'd */
	unsigned right_mask;      /* bit k: column k is right-aligned */
};

/* The "CPU", "Disks" and "IO amplification" tables of the runs that have such rows (rep_run.cpuview). */
void cpuview_tables(struct cpuview_table t[3], const struct rep_run *runs, size_t nruns);
void cpuview_table_release(struct cpuview_table *t);

#endif
