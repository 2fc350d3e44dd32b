/*
 * fio_workload: the normalised workload (core/model.h) computed from a job's fio options (fio_workload.c),
 * and kept in agreement with them when bench changes an option (--quick, --matrix).
 */
#ifndef BENCH_PROFILES_FIO_WORKLOAD_H
#define BENCH_PROFILES_FIO_WORKLOAD_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/model.h"

/* Fills the normalised fields of w from fio options (copied into w->opts unless they are w->opts). */
int workload_from_fio(struct workload *w, const struct kvlist *opts, const char *file, int line, struct errbuf *err);
/* Where each option of a list was written (parallel to the list), for file:line in messages. */
struct opt_locs {
	const char **file;
	const int *line;
	size_t n;
};
/* Same, naming the line of the offending option where `locs` knows it. */
int workload_from_fio_at(struct workload *w, const struct kvlist *opts, const struct opt_locs *locs,
			 const char *file, int line, struct errbuf *err);
/* Sets a fio option (replacing earlier ones) and renormalises. */
int workload_set_fio_opt(struct workload *w, const char *key, const char *value, struct errbuf *err);

#endif
