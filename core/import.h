/*
 * import: what an importer hands back: a batch of finished runs (spec + results) read from one source, for
 * bench/cmd_import.c to store in one transaction. Importers live where their format's knowledge lives
 * (fio JSON and logs in engines/, vdbench output in engines/, published CSV in core/csv_import.c) and never
 * touch SQLite.
 */
#ifndef BENCH_CORE_IMPORT_H
#define BENCH_CORE_IMPORT_H

#include "core/errbuf.h"
#include "core/model.h"

struct imported_run {
	struct run_spec spec;    /* name, workload, labels of this run */
	struct run_result res;   /* per host + HOST_AGGREGATE */
	enum run_status status;  /* usually RUN_DONE */
	char *error;             /* or NULL */
	int64_t target_run_id;   /* log import: attach samples to this existing run (0 = new run) */
	char *spec_json;         /* the spec as run_spec_to_json() writes it (import_batch_finish), or NULL */
};

struct import_batch {
	char *suite_name;        /* e.g. the file name */
	struct kvlist suite_labels;
	struct imported_run *runs;
	size_t n, cap;
};

void import_batch_init(struct import_batch *b);
void import_batch_release(struct import_batch *b);
/* Appends an initialised run (status RUN_DONE) and returns it; valid until the next add. */
struct imported_run *import_batch_add(struct import_batch *b);

/*
 * Makes a batch ready to store, with no database needed (bench import does it in its reader thread): the
 * command's labels over the batch's suite labels, those under each new run's own labels, a seq for each new
 * run without one (its place in the batch), and each new run's spec_json. Runs that attach to an existing run
 * (target_run_id) are left as they are.
 */
void import_batch_finish(struct import_batch *b, const struct kvlist *labels);

/*
 * Whether `path` may be read as an import source without blocking: 0 for a regular file (and, with
 * `allow_dir`, a directory); -1 with ERR_INPUT naming what it is otherwise (a FIFO, a device, a socket: opening
 * or reading those can block or never end). Only stat()s the path, never opens it.
 */
int import_check_path(const char *path, int allow_dir, struct errbuf *err);

#endif
