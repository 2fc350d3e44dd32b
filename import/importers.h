/*
 * importers: the table of import formats (fio histogram logs, fio logs, vdbench output directories, published
 * CSV, fio JSON), one row each: a name, a detect hook that says whether a path is of that format, and an
 * import hook that reads the path into a batch of runs (import/import.h). The first row whose detect claims a
 * path reads it; the last row (fio JSON) claims everything else, so a file nobody knows gets the fio reader's
 * precise complaint. A new format is a new row in importers.c.
 */
#ifndef BENCH_IMPORT_IMPORTERS_H
#define BENCH_IMPORT_IMPORTERS_H

#include <stdint.h>

#include "core/errbuf.h"
#include "import/import.h"

/* What the command line passes to importers besides the path. */
struct import_opts {
	const char *map;  /* --map SPEC: column mapping for the csv importer, or NULL */
	int64_t run_id;   /* --run ID: attach to this existing run (log files), 0 = new run */
	int append;       /* --append: add to the run's series instead of replacing them */
	int again;        /* --again: store a source whose content was imported before */
};

enum importer_flags {
	IMPORTER_ATTACH = 1 << 0, /* understands --run ID */
	IMPORTER_MAP = 1 << 1,    /* understands --map SPEC */
};

struct importer {
	const char *name;
	/* 1 when path is of this format; NULL: only used when asked for by name (--csv). */
	int (*detect)(const char *path);
	/* Reads path into out (initialised). Returns 0, or -1 with err set (ERR_INPUT: "path: reason"). */
	int (*import)(const char *path, const struct import_opts *o, struct import_batch *out, struct errbuf *err);
	unsigned flags;
};

/* The row named `name` ("fio-json", "fio-log", "fio-histlog", "vdbench", "csv"), or NULL. */
const struct importer *importer_named(const char *name);

/* The first row whose detect claims path (fio-json claims every path no other row claimed). */
const struct importer *importer_for(const char *path);

#endif
