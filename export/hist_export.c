/*
 * hist_export: a stored run's latency histogram for the sim ioengine (see hist_export.h).
 */
#include "export/hist_export.h"

#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/store_read.h"
#include "report/text/escape.h"

/*
 * The merged bins of the run's aggregate result for `ddir` into *bins, or, when ddir is NULL and the run has
 * no 'total' row, of its read, write and trim rows summed (*used says which). *kind is the pct_kind of the
 * rows ("lat" when any of them is).
 */
static int read_bins(struct store *st, int64_t run_id, const char *ddir, struct hist_bin **bins, size_t *nbins,
		     const char **used, const char **kind, struct errbuf *err)
{
	struct store_result *res;
	size_t nres, cap = 0;
	int have_total = 0, ret = 0;

	*bins = NULL;
	*nbins = 0;
	*kind = "clat";
	*used = ddir ? ddir : "total";
	if (store_read_results(st, run_id, HOST_AGGREGATE, &res, &nres, err) < 0)
		return -1;
	for (size_t i = 0; i < nres; i++)
		have_total |= res[i].ddir == DDIR_TOTAL;
	if (!ddir && !have_total)
		*used = "read+write+trim";
	for (size_t i = 0; i < nres && ret == 0; i++) {
		const char *name = ddir_name(res[i].ddir);
		struct hist_bin *b;
		size_t nb;

		if (ddir || have_total ? strcmp(name, *used) : res[i].ddir == DDIR_TOTAL)
			continue;
		if (res[i].pct_kind && !strcmp(res[i].pct_kind, "lat"))
			*kind = "lat";
		ret = store_read_bins(st, res[i].id, &b, &nb, err);
		if (ret == 0)
			hist_merge(bins, nbins, &cap, b, nb);
		if (ret == 0)
			free(b);
	}
	store_results_free(res, nres);
	if (ret < 0) {
		free(*bins);
		*bins = NULL;
		*nbins = 0;
	}
	return ret;
}

int hist_export(struct store *st, int64_t run_id, const char *ddir, struct strbuf *out, struct errbuf *err)
{
	struct hist_bin *bins = NULL;
	struct store_run run;
	const char *used = NULL, *kind = "clat";
	size_t nbins = 0;
	int found, ret = -1;

	memset(&run, 0, sizeof(run));
	found = store_read_run(st, run_id, &run, err);
	if (found < 0)
		return -1;
	if (found)
		return err_set(err, ERR_INPUT, "no run with id %lld in the database", (long long)run_id);
	/* The named direction, or 'total', or (runs stored without a total row) read + write + trim summed. */
	if (read_bins(st, run_id, ddir, &bins, &nbins, &used, &kind, err) < 0)
		goto out;
	if (!nbins) {
		err_set(err, ERR_INPUT, "run %lld ('%s') has no latency histogram for %s (store fio "
			"--output-format=json+ results, or runs of 'bench run')", (long long)run_id, run.name, used);
		goto out;
	}
	strbuf_addf(out, "# bench histogram: run %lld '", (long long)run_id);
	esc_text(out, run.name); /* one comment line of valid UTF-8 whatever the name holds */
	strbuf_addf(out, "', host '*', ddir %s, %s\n# value_ns count\n", used, kind);
	for (size_t i = 0; i < nbins; i++)
		strbuf_addf(out, "%llu %llu\n", (unsigned long long)bins[i].value_ns,
			    (unsigned long long)bins[i].count);
	ret = 0;
out:
	free(bins);
	store_run_release(&run);
	return ret;
}
