/*
 * import_files: every source of one `bench import`, read through the importer table and stored in one
 * transaction (see import_files.h).
 */
#include "import/import_files.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_read.h"
#include "core/strbuf.h"
#include "import/import.h"

static int run_exists(struct store *st, int64_t id, struct errbuf *err)
{
	struct store_run r;
	int rc = store_read_run(st, id, &r, err);

	if (rc < 0)
		return -1;
	if (rc)
		return err_set(err, ERR_INPUT, "--run %lld: no such run in the database", (long long)id);
	store_run_release(&r);
	return 0;
}

/*
 * Stores one batch made ready by import_batch_finish() (inside the caller's transaction). *suite_id: 0 for a
 * batch's first part, which adds the suite of its new runs; later parts go into the same suite.
 */
static int store_batch(struct store *st, const char *path, struct import_batch *b, int append, int64_t *suite_id,
		       int64_t *first_run, struct errbuf *err)
{
	size_t new_runs = 0;

	for (size_t i = 0; i < b->n; i++)
		if (!b->runs[i].target_run_id)
			new_runs++;
	if (new_runs && !*suite_id &&
	    store_suite_add(st, b->suite_name ? b->suite_name : path, "import", path,
			    b->planned ? b->planned : (unsigned)new_runs, &b->suite_labels, suite_id, err) < 0)
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		struct imported_run *ir = &b->runs[i];
		int64_t run_id = ir->target_run_id;

		if (run_id) {
			if (run_exists(st, run_id, err) < 0)
				return -1;
			/* a log imported again replaces its series (host, job, metric, source), unless --append */
			if (!append && store_run_replace_series(st, run_id, &ir->res, err) < 0)
				return -1;
		} else if (store_run_add_json(st, *suite_id, &ir->spec, ir->spec_json, ir->status, &run_id, err) < 0) {
			return -1;
		} else if (!*first_run) {
			*first_run = run_id;
		}
		if (store_run_write_result(st, run_id, &ir->res, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * Reading ahead: a reader thread reads and parses the files (importers never touch the database) into a ring
 * of IMPORT_AHEAD batches while the command's thread stores them, in the files' order, so that parsing one
 * file overlaps storing the one before. Memory stays bounded by the ring, whatever the number of files. The
 * reader stops after the first file it cannot read: the storing side reports that file and stores nothing.
 */
#define IMPORT_AHEAD 32

struct reader {
	const struct import_input *in;
	size_t nin;
	const struct import_opts *o;
	const struct kvlist *labels; /* the command's --label */
	struct {
		struct import_batch b;
		char digest[65]; /* the source's content digest (import_digest), "" for --run imports */
		struct errbuf err;
		int rc;     /* the importer's return */
		int filled; /* b holds a batch to release before the slot is used again */
	} slot[IMPORT_AHEAD];
	size_t produced; /* files read (or failed) so far */
	size_t consumed; /* files stored: their slots may be used again */
	int stop;        /* the storing side gave up: read no more */
	int threaded;    /* 0: pthread_create failed, files are read on demand by the storing thread */
	/* Each side sleeps on its own condition and is woken only when it has work, the reader when half the
	 * ring is free: not one context switch per file. */
	int reader_waits, storer_waits;
	pthread_mutex_t mu;
	pthread_cond_t reader_cv, storer_cv;
	pthread_t tid;
};

static void reader_fill(struct reader *r, size_t i)
{
	size_t k = i % IMPORT_AHEAD;
	const struct importer *im = r->in[i].im ? r->in[i].im : importer_for(r->in[i].path);

	if (r->slot[k].filled)
		import_batch_release(&r->slot[k].b);
	import_batch_init(&r->slot[k].b);
	errbuf_init(&r->slot[k].err);
	r->slot[k].filled = 1;
	if (!im || !im->import)
		r->slot[k].rc = err_set(&r->slot[k].err, ERR_USAGE, "%s: importing %s files is not available in this build",
					r->in[i].path, im ? im->name : "such");
	else
		r->slot[k].rc = im->import(r->in[i].path, r->o, &r->slot[k].b, &r->slot[k].err);
	r->slot[k].digest[0] = '\0';
	if (r->slot[k].rc == 0 && !r->o->run_id)
		r->slot[k].rc = import_digest(r->in[i].path, r->slot[k].digest, &r->slot[k].err);
	if (r->slot[k].rc == 0)
		import_batch_finish(&r->slot[k].b, r->labels);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	for (size_t i = 0; i < r->nin; i++) {
		int stop, rc;

		pthread_mutex_lock(&r->mu);
		while (!r->stop && i - r->consumed >= IMPORT_AHEAD) {
			r->reader_waits = 1;
			pthread_cond_wait(&r->reader_cv, &r->mu);
		}
		stop = r->stop;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			break;
		reader_fill(r, i);
		rc = r->slot[i % IMPORT_AHEAD].rc;
		pthread_mutex_lock(&r->mu);
		r->produced = i + 1;
		if (r->storer_waits) {
			r->storer_waits = 0;
			pthread_cond_signal(&r->storer_cv);
		}
		pthread_mutex_unlock(&r->mu);
		if (rc < 0)
			break;
	}
	return NULL;
}

static void reader_start(struct reader *r, const struct import_input *in, size_t nin, const struct import_opts *o,
			 const struct kvlist *labels)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->nin = nin;
	r->o = o;
	r->labels = labels;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->reader_cv, NULL);
	pthread_cond_init(&r->storer_cv, NULL);
	r->threaded = nin > 1 && pthread_create(&r->tid, NULL, reader_main, r) == 0;
}

/* File i's batch and digest (files are taken in order); the slot stays the caller's until reader_next(i + 1). */
static int reader_next(struct reader *r, size_t i, struct import_batch **b, const char **digest, struct errbuf *err)
{
	size_t k = i % IMPORT_AHEAD;

	if (!r->threaded) {
		reader_fill(r, i);
	} else {
		pthread_mutex_lock(&r->mu);
		r->consumed = i; /* files before i are stored: their slots are free */
		if (r->reader_waits && r->produced - r->consumed <= IMPORT_AHEAD / 2) {
			r->reader_waits = 0;
			pthread_cond_signal(&r->reader_cv);
		}
		while (r->produced <= i) {
			r->storer_waits = 1;
			pthread_cond_wait(&r->storer_cv, &r->mu);
		}
		pthread_mutex_unlock(&r->mu);
	}
	*b = &r->slot[k].b;
	*digest = r->slot[k].digest;
	if (r->slot[k].rc < 0) {
		*err = r->slot[k].err;
		return -1;
	}
	return 0;
}

static void reader_finish(struct reader *r)
{
	if (r->threaded) {
		pthread_mutex_lock(&r->mu);
		r->stop = 1;
		pthread_cond_signal(&r->reader_cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->tid, NULL);
	}
	for (size_t k = 0; k < IMPORT_AHEAD; k++)
		if (r->slot[k].filled)
			import_batch_release(&r->slot[k].b);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->reader_cv);
	pthread_cond_destroy(&r->storer_cv);
}

/*
 * Imported again: the content digests of the sources imported before (artifact IMPORT_DIGEST_ARTIFACT of the
 * first run of each), read once per command, sorted, and the ones this command stores added, so that a file
 * given twice is stored once too.
 */
struct known {
	struct store_named_artifact *v; /* content = digest */
	size_t n, cap;
};

static int known_cmp(const void *a, const void *b)
{
	const struct store_named_artifact *x = a, *y = b;
	int c = strcmp(x->content, y->content);

	return c ? c : (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

static int known_load(struct store *st, struct known *k, struct errbuf *err)
{
	if (store_read_artifact_runs(st, IMPORT_DIGEST_ARTIFACT, &k->v, &k->n, err) < 0)
		return -1;
	k->cap = k->n;
	if (k->n > 1)
		qsort(k->v, k->n, sizeof(*k->v), known_cmp); /* the earliest run first among equal digests */
	return 0;
}

/* Where digest is, or would go, in k (the first of equal ones). */
static size_t known_pos(const struct known *k, const char *digest)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(k->v[mid].content, digest) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The run the content `digest` was first imported as, or 0. */
static int64_t known_run(const struct known *k, const char *digest)
{
	size_t i = known_pos(k, digest);

	return i < k->n && !strcmp(k->v[i].content, digest) ? k->v[i].run_id : 0;
}

static void known_add(struct known *k, const char *digest, int64_t run_id)
{
	size_t i = known_pos(k, digest);

	while (i < k->n && !strcmp(k->v[i].content, digest))
		i++; /* after the earlier runs of that content */
	ARRAY_GROW(k->v, k->cap, k->n + 1);
	memmove(k->v + i + 1, k->v + i, (k->n - i) * sizeof(*k->v));
	k->v[i].run_id = run_id;
	k->v[i].content = xstrdup(digest);
	k->n++;
}

/* The digest goes with the first new run of the source (its batch's first part), as an artifact. */
static void batch_add_digest(struct import_batch *b, const char *digest)
{
	for (size_t i = 0; i < b->n; i++)
		if (!b->runs[i].target_run_id) {
			run_result_add_artifact(&b->runs[i].res, IMPORT_DIGEST_ARTIFACT, digest, strlen(digest));
			return;
		}
}

int import_files(struct store *st, struct import_input *in, size_t nin, const struct import_opts *o,
		 const struct kvlist *labels, struct errbuf *err)
{
	struct reader *r = xmalloc(sizeof(*r));
	struct known known = { NULL, 0, 0 };
	int ret = -1;

	if (store_begin(st, err) < 0) {
		free(r);
		return -1;
	}
	reader_start(r, in, nin, o, labels);
	if (!o->run_id && known_load(st, &known, err) < 0)
		goto out;
	for (size_t i = 0; i < nin; i++) {
		struct import_batch *b;
		const char *digest;
		int64_t suite_id = 0, first_run = 0;

		if (reader_next(r, i, &b, &digest, err) < 0)
			goto out;
		if (digest[0] && !o->again && (in[i].same_as = known_run(&known, digest)) != 0)
			continue; /* said after the commit: a failed import says one thing, its error */
		if (digest[0])
			batch_add_digest(b, digest);
		for (;;) { /* a batch in parts (a big CSV table): each part stored before the next is read */
			if (store_batch(st, in[i].path, b, o->append, &suite_id, &first_run, err) < 0)
				goto out;
			in[i].nruns += (unsigned)b->n;
			if (!b->next)
				break;
			if (import_batch_next(b, labels, err) < 0)
				goto out;
		}
		if (digest[0] && first_run)
			known_add(&known, digest, first_run);
	}
	ret = 0;
out:
	reader_finish(r);
	free(r);
	store_named_artifacts_free(known.v, known.n);
	if (ret < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}
