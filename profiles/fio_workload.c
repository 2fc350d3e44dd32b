/*
 * fio_workload: the normalised description of a workload (model.h) computed from a job's fio options, and
 * the reverse: keeping the options and the normalised fields in agreement when bench changes a field
 * (--quick, --matrix). fio's defaults apply where an option is absent (rw=read, rwmixread=50, iodepth=1 ...).
 */
#include "profiles/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/fio_job.h"

static const char *const fio_rw_values[] = { "read", "write", "trim", "randread", "randwrite", "randtrim", "rw",
					     "readwrite", "randrw", "trimwrite", "randtrimwrite", NULL };

static int pct_value(const char *v, const char *key, const char *file, int line, int *out, struct errbuf *err)
{
	long n;
	if (!v || parse_long(v, -1000000, 1000000, &n) < 0)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' must be a whole number 0..100, got '%s'", file, line, key,
			       v ? v : "");
	if (n < 0 || n > 100)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' must be 0..100, got '%s'", file, line, key, v);
	*out = (int)n;
	return 0;
}

static int uint_value(const char *v, const char *key, const char *file, int line, unsigned *out, struct errbuf *err)
{
	long n;
	if (!v || parse_long(v, 1, 1000000, &n) < 0)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' must be a whole number >= 1, got '%s'", file, line, key,
			       v ? v : "");
	*out = (unsigned)n;
	return 0;
}

static int time_value(const char *v, const char *key, const char *file, int line, unsigned *out, struct errbuf *err)
{
	uint64_t us;
	if (!v || fio_parse_time_us(v, 1000000, &us) < 0 || us / 1000000 > 100000000)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' is not a time fio reads (e.g. 60, 90s, 2m, 1h), got '%s'",
			       file, line, key, v ? v : "");
	*out = (unsigned)((us + 999999) / 1000000);
	return 0;
}

/* Where the last occurrence of `key` came from, for messages (the workload's own place otherwise). */
static void where(const struct kvlist *opts, const struct opt_locs *locs, const char *key, const char **file,
		  int *line)
{
	if (!locs)
		return;
	for (size_t i = opts->n; i-- > 0;) {
		if (!strcmp(opts->v[i].key, key)) {
			if (i < locs->n && locs->file[i]) {
				*file = locs->file[i];
				*line = locs->line[i];
			}
			return;
		}
	}
}

int workload_from_fio(struct workload *w, const struct kvlist *opts, const char *file, int line, struct errbuf *err)
{
	return workload_from_fio_at(w, opts, NULL, file, line, err);
}

int workload_from_fio_at(struct workload *w, const struct kvlist *opts, const struct opt_locs *locs,
			 const char *file0, int line0, struct errbuf *err)
{
	const char *file = file0;
	int line = line0;
#define AT(key) (file = file0, line = line0, where(opts, locs, (key), &file, &line))
	const char *rw = kvlist_get(opts, "rw", "read");
	const struct kv *kv;
	char *base;
	size_t blen;
	int mix = 50, rnd = 100;

	if (!w->tool)
		w->tool = xstrdup("fio"); /* a vdbench workload stays one after bench changes an option */
	free(w->src_file);
	w->src_file = xstrdup(file0);
	w->src_line = line0;
	if (opts != &w->opts) {
		kvlist_release(&w->opts);
		kvlist_copy(&w->opts, opts);
	}

	AT("rw");
	blen = strcspn(rw, ":");
	base = xstrndup(rw, blen);
	{
		int ok = 0;
		for (int i = 0; fio_rw_values[i]; i++)
			if (!strcmp(base, fio_rw_values[i]))
				ok = 1;
		if (!ok) {
			err_set(err, ERR_INPUT, "%s:%d: 'rw' must be one of read write randread randwrite rw randrw trim "
				"randtrim trimwrite randtrimwrite, got '%s'", file, line, rw);
			free(base);
			return -1;
		}
	}
	free(w->rw);
	w->rw = base;

	AT("rwmixread");
	if ((kv = kvlist_find(opts, "rwmixread")) && pct_value(kv->value, "rwmixread", file, line, &mix, err) < 0)
		return -1;
	if (!kvlist_find(opts, "rwmixread") && (kv = kvlist_find(opts, "rwmixwrite"))) {
		int wr = 0;
		AT("rwmixwrite");
		if (pct_value(kv->value, "rwmixwrite", file, line, &wr, err) < 0)
			return -1;
		mix = 100 - wr;
	}
	if ((kv = kvlist_find(opts, "percentage_random"))) {
		/* "50" or "50,50" (read,write): the first is what bench reports */
		char *first = xstrndup(kv->value ? kv->value : "", strcspn(kv->value ? kv->value : "", ","));
		int rc;
		AT("percentage_random");
		rc = pct_value(first, "percentage_random", file, line, &rnd, err);
		free(first);
		if (rc < 0)
			return -1;
	}
	if (!strcmp(w->rw, "read") || !strcmp(w->rw, "randread"))
		w->read_pct = 100;
	else if (!strcmp(w->rw, "rw") || !strcmp(w->rw, "readwrite") || !strcmp(w->rw, "randrw"))
		w->read_pct = mix;
	else
		w->read_pct = 0;
	w->random_pct = !strncmp(w->rw, "rand", 4) ? rnd : 0;

	w->bs_bytes = 4096; /* fio's default */
	if ((kv = kvlist_find(opts, "bs"))) {
		const char *v = kv->value ? kv->value : "";
		char *first = xstrndup(v, strcspn(v, ","));
		uint64_t b;
		AT("bs");
		if (fio_parse_size(first, &b) < 0 || b == 0) {
			err_set(err, ERR_INPUT, "%s:%d: 'bs' is not a block size fio reads (e.g. 4k, 256k), got '%s'",
				file, line, v);
			free(first);
			return -1;
		}
		free(first);
		w->bs_bytes = b;
	}
	free(w->bssplit);
	w->bssplit = NULL;
	if ((kv = kvlist_find(opts, "bssplit")) && kv->value) {
		w->bssplit = xstrdup(kv->value);
		if (!kvlist_find(opts, "bs"))
			w->bs_bytes = 0;
	}
	w->iodepth = 1;
	AT("iodepth");
	if ((kv = kvlist_find(opts, "iodepth")) && uint_value(kv->value, "iodepth", file, line, &w->iodepth, err) < 0)
		return -1;
	w->numjobs = 1;
	AT("numjobs");
	if ((kv = kvlist_find(opts, "numjobs")) && uint_value(kv->value, "numjobs", file, line, &w->numjobs, err) < 0)
		return -1;
	w->runtime_s = 0;
	AT("runtime");
	if ((kv = kvlist_find(opts, "runtime")) && time_value(kv->value, "runtime", file, line, &w->runtime_s, err) < 0)
		return -1;
	w->ramp_s = 0;
	AT("ramp_time");
	if ((kv = kvlist_find(opts, "ramp_time")) &&
	    time_value(kv->value, "ramp_time", file, line, &w->ramp_s, err) < 0)
		return -1;
	free(w->size);
	w->size = NULL;
	if ((kv = kvlist_find(opts, "size")) && kv->value) {
		uint64_t b;
		const char *v = kv->value;
		size_t l = strlen(v);
		AT("size");
		if (!(l > 1 && v[l - 1] == '%') && fio_parse_size(v, &b) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: 'size' is not a size fio reads (e.g. 1g, 100%%), got '%s'",
				       file, line, v);
		w->size = xstrdup(v);
	}
	w->compress_pct = 0;
	AT("buffer_compress_percentage");
	if ((kv = kvlist_find(opts, "buffer_compress_percentage")) &&
	    pct_value(kv->value, "buffer_compress_percentage", file, line, &w->compress_pct, err) < 0)
		return -1;
	w->dedupe_pct = 0;
	AT("dedupe_percentage");
	if ((kv = kvlist_find(opts, "dedupe_percentage")) &&
	    pct_value(kv->value, "dedupe_percentage", file, line, &w->dedupe_pct, err) < 0)
		return -1;
	return 0;
#undef AT
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
