/*
 * csv_import: published results as CSV (one row per run) into an import_batch (import/import.h), for
 * `bench import --csv FILE [--map col=field,...]`. The column format is documented in docs/csv-format.md:
 * a header row; workload identity columns (workload, tool, bs, rdpct, randpct, ...), metric columns whose
 * names carry their unit (iops, mbps = MiB/s, read_lat_ms, write_p99_us, cpu_pct, ...), description columns
 * (note, comment, description, label, *_label) kept with the run but not as labels, and every other column a
 * label (transport, stack, kernel). Nothing here touches SQLite.
 */
#ifndef BENCH_IMPORT_CSV_IMPORT_H
#define BENCH_IMPORT_CSV_IMPORT_H

#include <stddef.h>

#include "core/errbuf.h"
#include "import/import.h"
#include "core/kv.h"

/*
 * Adds "--map" pairs "col=field[,col=field...]" to `map` (column header -> field name). A field is one of
 * the documented field names, "label:KEY" (the column is the label KEY) or "-" (ignore the column).
 * Fails with ERR_USAGE on a bad form or an unknown field.
 */
int csv_map_add(struct kvlist *map, const char *arg, struct errbuf *err);

/*
 * Parses CSV text. `name` (the file name) prefixes messages and names the batch's suite. Appends one run per
 * data row to `out` (initialised by the caller). On error (ERR_INPUT, "name:LINE: ...") `out` may hold
 * partial runs: the caller releases it and stores nothing.
 */
int csv_import_parse(const char *text, size_t len, const char *name, const struct kvlist *map,
		     struct import_batch *out, struct errbuf *err);

/* Reads the file at `path` and parses it (see csv_import_parse). */
int csv_import_file(const char *path, const struct kvlist *map, struct import_batch *out, struct errbuf *err);

#endif
