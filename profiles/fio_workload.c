/*
 * fio_workload: the normalised description of a workload (model.h) computed from a job's fio options, and
 * the reverse: keeping the options and the normalised fields in agreement when bench changes a field
 * (--quick, --matrix). The rules are fio's, in core/fio_options.c (the one normaliser, shared with import).
 */
#include "profiles/fio_workload.h"

#include <stdlib.h>

#include "core/fio_options.h"
#include "core/strbuf.h"

int workload_from_fio(struct workload *w, const struct kvlist *opts, const char *file, int line, struct errbuf *err)
{
	return workload_from_fio_at(w, opts, NULL, file, line, err);
}

/* fio's rules live in core/fio_options.c; bench refuses there what fio would misread ("1.5k" = 1 byte). */
int workload_from_fio_at(struct workload *w, const struct kvlist *opts, const struct opt_locs *locs,
			 const char *file, int line, struct errbuf *err)
{
	struct fio_opt_locs fl = { 0 };

	if (locs) {
		fl.file = locs->file;
		fl.line = locs->line;
		fl.n = locs->n;
	}
	if (!w->tool)
		w->tool = xstrdup("fio"); /* a vdbench workload stays one after bench changes an option */
	free(w->src_file);
	w->src_file = xstrdup(file);
	w->src_line = line;
	if (opts != &w->opts) {
		kvlist_release(&w->opts);
		kvlist_copy(&w->opts, opts);
	}
	return fio_options_normalise(&w->opts, locs ? &fl : NULL, file, line, FIO_OPT_STRICT, w, err);
}

/* Sets one fio option in the workload (last occurrence replaced, others removed) and renormalises. */
int workload_set_fio_opt(struct workload *w, const char *key, const char *value, struct errbuf *err)
{
	char *file = xstrdup(w->src_file ? w->src_file : "(profile)");
	int line = w->src_line, rc;

	if (kvlist_find(&w->opts, key)) {
		kvlist_del(&w->opts, key);
	}
	kvlist_add(&w->opts, key, value);
	rc = workload_from_fio(w, &w->opts, file, line, err);
	free(file);
	return rc;
}
