/*
 * fio_values: the values of fio options that fio itself accepts at parse time and only fails on when the job
 * starts (a run stored as failed, after the suite began), checked when the plan is built so that
 * `bench plan` refuses them with file:line exactly as `bench run` does: size= percentages (1..100, fio's
 * rule), bssplit= items (size/percent, whole percentages, at most 100 per direction). Sizes are read with
 * fio_parse_size (fio_job.h).
 */
#ifndef BENCH_PROFILES_FIO_VALUES_H
#define BENCH_PROFILES_FIO_VALUES_H

#include "core/errbuf.h"
#include "core/kv.h"

/*
 * Checks every option of `opts` whose value fio reads as above. `files`/`lines` (parallel to opts, may be
 * NULL) say where each was written; otherwise messages name file:line. Returns 0 or -1 (ERR_INPUT).
 */
int fio_values_check(const struct kvlist *opts, const char *const *files, const int *lines, const char *file,
		     int line, struct errbuf *err);

/* One option; `where` starts the message ("file:line", "--matrix"). */
int fio_value_check(const char *key, const char *value, const char *where, struct errbuf *err);

#endif
