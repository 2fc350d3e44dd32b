/*
 * import: what an importer hands back: a batch of finished runs (spec + results) read from one source, for
 * import_files.c to store in one transaction. The importers are this room's other files (import/importers.c
 * is their table); the parsers fio's engine shares with them (fio JSON, fio logs) stay in engines/. Importers
 * never touch the store.
 */
#ifndef BENCH_IMPORT_IMPORT_H
#define BENCH_IMPORT_IMPORT_H

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

/*
 * Parts: a source of many runs (a CSV table of 100,000 rows) may hand them over a part at a time, so that
 * memory stays flat. The importer returns the first part with `next` set; the caller stores it, then calls
 * import_batch_next(), which drops the stored runs and reads the next part into the same batch (same suite
 * name and labels, seq numbers going on), until `next` is NULL. A bad row in a later part fails that call:
 * the caller, whose transaction holds the earlier parts, rolls it all back.
 */
struct import_batch {
	char *suite_name;        /* e.g. the file name */
	struct kvlist suite_labels;
	struct imported_run *runs;
	size_t n, cap;
	unsigned planned;        /* runs of the whole source when it comes in parts (its suite's planned_runs) */
	void *part;              /* the importer's state between parts */
	int (*next)(struct import_batch *b, struct errbuf *err); /* reads the next part into b->runs */
	void (*part_free)(void *part);
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
 * The next part of a batch that comes in parts (b->next set): the runs stored so far are released, the next
 * part read and made ready (import_batch_finish with the same labels). 0, or -1 with err set (ERR_INPUT).
 */
int import_batch_next(struct import_batch *b, const struct kvlist *labels, struct errbuf *err);

/*
 * Whether `path` may be read as an import source without blocking: 0 for a regular file (and, with
 * `allow_dir`, a directory); -1 with ERR_INPUT naming what it is otherwise (a FIFO, a device, a socket: opening
 * or reading those can block or never end). Only stat()s the path, never opens it.
 */
int import_check_path(const char *path, int allow_dir, struct errbuf *err);

/*
 * The content digest of an import source, to tell a source imported again (bench import skips it unless
 * --again): SHA-256 (core/sha256.h) of a file's bytes; for a directory (a vdbench output directory), of its
 * regular files in name order, each as its name, a NUL, its size in decimal, a NUL and its bytes (other
 * entries, FIFOs included, are never opened). hex: 64 lower-case hex digits. 0, or -1 with err (ERR_INPUT).
 */
int import_digest(const char *path, char hex[65], struct errbuf *err);

/* The artifact name a run's source digest is stored under (on the first new run of each imported source). */
#define IMPORT_DIGEST_ARTIFACT "import.sha256"

#endif
