/*
 * null: an engine that does no IO and finishes at once with a fixed, recognisable result. It exists to test
 * the run loop, the store and the reports without fio.
 */
#include "engines/engine.h"
#include "core/aggregate.h"

#include <string.h>

/* prepare and start: nothing to do. */
static int null_nothing(struct engine_run *run, struct errbuf *err)
{
	(void)run;
	(void)err;
	return 0;
}

static int null_wait(struct engine_run *run, int timeout_ms, struct errbuf *err)
{
	(void)run;
	(void)timeout_ms;
	(void)err;
	return 1;
}

static int null_collect(struct engine_run *run, struct run_result *out, enum run_status *status,
			struct errbuf *err)
{
	struct host_result *h = run_result_add_host(out, "localhost");
	unsigned rt = run->spec->wl.runtime_s ? run->spec->wl.runtime_s : 1;

	(void)err;
	for (int d = DDIR_READ; d <= DDIR_WRITE; d++) {
		struct dir_result *r = &h->dir[d];
		r->present = 1;
		r->ios = 1000ull * rt;
		r->bytes = r->ios * 4096;
		r->runtime_ms = 1000ull * rt;
		r->iops = 1000;
		r->bw_bytes = 4096000;
		r->lat.present = r->clat.present = 1;
		r->lat.n = r->clat.n = r->ios;
		r->lat.min_ns = r->clat.min_ns = 1000;
		r->lat.max_ns = r->clat.max_ns = 1000;
		r->lat.mean_ns = r->clat.mean_ns = 1000;
	}
	host_result_total(h);
	run_result_aggregate(out);
	*status = RUN_DONE;
	return 0;
}

static void null_stop(struct engine_run *run)
{
	(void)run;
}

/* the hooks in the order a run calls them */
const struct engine_ops engine_null_ops = {
	.prepare = null_nothing,
	.start = null_nothing,
	.wait = null_wait,
	.collect = null_collect,
	.stop = null_stop,
	.name = "null",
	.version = ENGINE_OPS_VERSION,
};
