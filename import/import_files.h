/*
 * import_files: what `bench import` does once its arguments are checked: reads every source through the
 * importer table (importers.h) and stores all of them in ONE transaction of the store. A bad file rolls
 * everything back and leaves the database as it was, and a kill leaves it as it was too (the transaction is
 * never committed). A reader thread reads, parses and prepares the files ahead of the storing thread, so
 * memory stays flat whatever the number of files; a source of many runs (a CSV table) comes in parts
 * (import.h), each stored before the next is read. A source whose content was imported before is skipped
 * (unless --again), by its content digest. Prints nothing: the command says what was stored.
 */
#ifndef BENCH_IMPORT_IMPORT_FILES_H
#define BENCH_IMPORT_IMPORT_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "import/importers.h"

/* One source of an import command, and what became of it. */
struct import_input {
	const char *path;
	const struct importer *im; /* NULL: detected when read (importer_for) */
	unsigned nruns;            /* out: runs stored from it */
	int64_t same_as;           /* out: skipped, its content was imported before as this run (0: stored) */
};

/*
 * Reads and stores every source of in[] in one transaction of st: all of them, or (bad file, storage error)
 * none. labels: the command's --label, over each batch's own. 0, or -1 with err set (ERR_INPUT for a bad
 * source, ERR_STORE for the store; the transaction rolled back).
 */
int import_files(struct store *st, struct import_input *in, size_t nin, const struct import_opts *o,
		 const struct kvlist *labels, struct errbuf *err);

#endif
