/*
 * fio_engine: the "fio" and "sim" engines. On this host: write the job file, start fio (argv, own process
 * group) with json+ output to a file, wait with the run loop's deadline, parse fio's output exactly, hand back
 * per-host results, the aggregate and the raw artifacts. With hosts, the run goes to fio_client.c.
 * "sim" is the same engine with ioengine=external:<sim .so> and the model options added to the job.
 */
#include "engines/engine.h"
#include "engines/fio_client.h"
#include "engines/fio_json.h"
#include "core/fio_options.h"
#include "engines/fio_jobfile.h"
#include "engines/fio_log.h"
#include "engines/target.h"
#include "core/aggregate.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

struct fio_priv {
	char *jobfile, *outfile, *errfile, *logdir;
	struct strbuf jobtext;
	struct proc proc;
	int started;
};

static int multihost(const struct engine_run *run)
{
	return run->hosts && run->hosts->n > 0;
}

static void extra_options(const struct engine_run *run, struct kvlist *extra)
{
	const struct run_spec *s = run->spec;

	if (s->engine && !strcmp(s->engine, "sim")) {
		char *v = xasprintf("external:%s", run->sim_so ? run->sim_so : "");
		kvlist_add(extra, "ioengine", v);
		free(v);
	}
	/* Engine options are fio options (sim_* model options for sim); keys with a dot are bench's own
	 * annotations from the profiles (vdbench.curve_pct) and stay out of the job file. */
	for (size_t i = 0; i < s->engine_opts.n; i++)
		if (!strchr(s->engine_opts.v[i].key, '.'))
			kvlist_add(extra, s->engine_opts.v[i].key, s->engine_opts.v[i].value);
}

static int fio_prepare(struct engine_run *run, struct errbuf *err)
{
	const struct run_spec *s = run->spec;
	struct fio_priv *p;
	struct kvlist extra;
	uint64_t size = 0;
	int ret;

	if (s->engine && !strcmp(s->engine, "sim") && (!run->sim_so || !*run->sim_so))
		return err_set(err, ERR_HOST, "the sim engine was not built (see scripts/setup and docs/sim.md)");
	if (multihost(run))
		return fio_client_prepare(run, err);
	if (s->wl.size) { /* the working set is a fio option: fio's rules (kb_base) */
		int rc = fio_opt_size(s->wl.size, fio_opt_kb_base(&s->wl.opts), 0, &size);
		if (rc < 0)
			return err_set(err, ERR_INPUT, "run '%s': size '%s' is not a size", s->name, s->wl.size);
		if (rc == 1)
			size = 0; /* "N%": a share of the target */
	}
	if (!(s->engine && !strcmp(s->engine, "sim"))) {
		if (target_prepare_spec(s, size, run->destructive ? TARGET_DESTRUCTIVE : 0, err) < 0)
			return -1;
	}
	p = xcalloc(1, sizeof(*p));
	run->priv = p;
	strbuf_init(&p->jobtext);
	p->jobfile = xasprintf("%s/job.fio", run->workdir);
	p->outfile = xasprintf("%s/fio-output.json", run->workdir);
	p->errfile = xasprintf("%s/fio-stderr.txt", run->workdir);
	kvlist_init(&extra);
	extra_options(run, &extra);
	if (run->logs) {
		p->logdir = xasprintf("%s/logs", run->workdir);
		char *base = xasprintf("%s/bench", p->logdir);
		mkdir(p->logdir, 0755);
		kvlist_add(&extra, "write_lat_log", base);
		kvlist_add(&extra, "write_bw_log", base);
		kvlist_add(&extra, "write_iops_log", base);
		kvlist_add(&extra, "log_avg_msec", "1000");
		/* per-IO latency as fio-bucket histograms per second, not one line per IO (docs/timeseries.md) */
		kvlist_add(&extra, "write_hist_log", base);
		kvlist_add(&extra, "log_hist_msec", "1000");
		free(base);
	}
	ret = fio_jobfile_write(s, s->targets, s->ntargets, &extra, &p->jobtext, err);
	kvlist_release(&extra);
	if (ret < 0)
		return -1;
	{
		FILE *f = fopen(p->jobfile, "we");
		if (!f || fwrite(p->jobtext.buf, 1, p->jobtext.len, f) != p->jobtext.len || fclose(f) != 0)
			return err_set(err, ERR_HOST, "cannot write '%s': %s", p->jobfile, strerror(errno));
	}
	return 0;
}

static int fio_start(struct engine_run *run, struct errbuf *err)
{
	struct fio_priv *p = run->priv;
	char *out_arg;
	int ret;

	if (multihost(run))
		return fio_client_start(run, err);
	out_arg = xasprintf("--output=%s", p->outfile);
	char *argv[] = { "fio", "--output-format=json+", out_arg, p->jobfile, NULL };
	ret = proc_start(&p->proc, argv, NULL, NULL, p->errfile, err);
	free(out_arg);
	if (ret == 0)
		p->started = 1;
	return ret;
}

static int fio_wait(struct engine_run *run, int timeout_ms, struct errbuf *err)
{
	struct fio_priv *p = run->priv;

	if (multihost(run))
		return fio_client_wait(run, timeout_ms, err);
	return proc_wait(&p->proc, timeout_ms);
}

/* The last non-empty line of a text, for error messages. */
static char *last_line(const char *text)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	return xstrndup(start, (size_t)(end - start));
}

static int fio_collect(struct engine_run *run, struct run_result *out, enum run_status *status, struct errbuf *err)
{
	struct fio_priv *p = run->priv;
	struct strbuf outtext, errtext;
	struct fio_output fo;
	int code, ret = 0;

	if (multihost(run))
		return fio_client_collect(run, out, status, err);
	*status = RUN_FAILED;
	strbuf_init(&outtext);
	strbuf_init(&errtext);
	fio_output_init(&fo);
	strbuf_read_file(&outtext, p->outfile);
	strbuf_read_file(&errtext, p->errfile);
	run_result_add_artifact(out, "jobfile", p->jobtext.buf, p->jobtext.len);
	run_result_add_artifact(out, "fio-output.json", outtext.buf, outtext.len);
	if (errtext.len)
		run_result_add_artifact(out, "fio-stderr.txt", errtext.buf, errtext.len);
	code = proc_exit_code(&p->proc);
	if (fio_json_parse(outtext.buf, outtext.len, "fio output", &fo, err) < 0) {
		char *ll = last_line(errtext.buf);
		err_set(err, ERR_HOST, "fio exited with code %d and no results%s%s", code, *ll ? ": " : "", ll);
		free(ll);
		goto out;
	}
	for (size_t i = 0; i < fo.njobs; i++) {
		struct host_result *h = run_result_add_host(out, "localhost");
		host_result_release(h);
		*h = fo.jobs[i].res;
		memset(&fo.jobs[i].res, 0, sizeof(fo.jobs[i].res));
		free(h->host);
		h->host = xstrdup("localhost");
		if (!h->fio_version && fo.fio_version)
			h->fio_version = xstrdup(fo.fio_version);
		if (fo.njobs > 1)
			break; /* group_reporting gives one entry; keep the first if fio gave more */
	}
	if (!out->nhosts) {
		err_set(err, ERR_HOST, "fio output holds no job results");
		goto out;
	}
	run_result_aggregate(out);
	if (out->hosts[0].error) {
		err_set(err, ERR_HOST, "fio reported error %d (%s) for run '%s'", out->hosts[0].error,
			strerror(out->hosts[0].error), run->spec->name);
		goto out;
	}
	if (code != 0) {
		char *ll = last_line(errtext.buf);
		err_set(err, ERR_HOST, "fio exited with code %d%s%s", code, *ll ? ": " : "", ll);
		free(ll);
		goto out;
	}
	*status = RUN_DONE;
	if (p->logdir) {
		struct errbuf lerr;
		errbuf_init(&lerr);
		if (fio_log_collect_dir(p->logdir, "localhost", out, &lerr) < 0) {
			*status = RUN_FAILED;
			err_set(err, ERR_HOST, "fio logs: %s", lerr.msg);
		}
	}
out:
	fio_output_release(&fo);
	strbuf_release(&outtext);
	strbuf_release(&errtext);
	return ret;
}

static void fio_stop(struct engine_run *run)
{
	struct fio_priv *p = run->priv;

	if (multihost(run)) {
		fio_client_stop(run);
		return;
	}
	if (p && p->started)
		proc_stop(&p->proc, 5000);
}

static void fio_release(struct engine_run *run)
{
	struct fio_priv *p = run->priv;

	if (multihost(run)) {
		fio_client_release(run);
		return;
	}
	if (!p)
		return;
	if (p->started)
		proc_stop(&p->proc, 1000);
	free(p->jobfile);
	free(p->outfile);
	free(p->errfile);
	free(p->logdir);
	strbuf_release(&p->jobtext);
	free(p);
	run->priv = NULL;
}

/* "fio" and "sim" share every hook: sim only adds ioengine=external:<sim .so> (extra_options). */
#define FIO_ENGINE_HOOKS                                                                                    \
	.version = ENGINE_OPS_VERSION, .flags = ENGINE_MULTIHOST, .prepare = fio_prepare, .start = fio_start, \
	.wait = fio_wait, .collect = fio_collect, .stop = fio_stop, .release = fio_release

const struct engine_ops engine_fio_ops = { .name = "fio", FIO_ENGINE_HOOKS };
const struct engine_ops engine_sim_ops = { .name = "sim", FIO_ENGINE_HOOKS };
