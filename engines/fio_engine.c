/*
 * fio_engine: the "fio" and "sim" engines. On this host: write the job file, start fio (argv, own process
 * group) with json+ output to a file, wait with the run loop's deadline, parse fio's output exactly, hand back
 * per-host results, the aggregate and the raw artifacts. With hosts, the run goes to fio_client.c.
 * "sim" is the same engine with ioengine=external:<sim .so> and the model options added to the job.
 * A run of several jobs (run_spec.jobs) gives one fio group per job: per-job results (host_result.job) with
 * each job's start time from its own epoch-stamped IOPS log, then the aggregates over jobs.
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

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

struct fio_priv {
	char *jobfile, *outfile, *errfile, *logdir;
	char *joblogdir;       /* a run of several jobs: where each job's start-time log goes, or NULL */
	struct strbuf jobtext;
	struct proc proc;
	int started;
};

#define P(f) offsetof(struct fio_priv, f)
static const size_t fio_priv_strs[] = { P(jobfile), P(outfile), P(errfile), P(logdir), P(joblogdir) };
#undef P

static int multihost(const struct engine_run *run)
{
	return run->hosts && run->hosts->n > 0;
}

static void extra_options(const struct engine_run *run, struct kvlist *extra)
{
	fio_jobfile_engine_extras(run->spec, run->sim_so, extra);
}

/* Checks and prepares the targets of a run of one job (target.c) for its working set. */
static int prepare_targets(const struct run_spec *s, int flags, struct errbuf *err)
{
	uint64_t size = 0;

	if (s->wl.size) { /* the working set is a fio option: fio's rules (kb_base) */
		int rc = fio_opt_size(s->wl.size, fio_opt_kb_base(&s->wl.opts), 0, &size);
		if (rc < 0)
			return err_set(err, ERR_INPUT, "run '%s': size '%s' is not a size", s->name, s->wl.size);
		if (rc == 1)
			size = 0; /* "N%": a share of the target */
	}
	return target_prepare_spec(s, size, flags, err);
}

/* Every job of a run of several jobs as a run of its own (its options, its targets). */
static int prepare_job_targets(const struct run_spec *s, int flags, struct errbuf *err)
{
	for (size_t j = 0; j < s->njobs; j++) {
		struct run_spec one;
		int rc;

		run_spec_job(s, j, &one);
		rc = prepare_targets(&one, flags, err);
		run_spec_release(&one);
		if (rc < 0) {
			err_prefix(err, "run '%s', job '%s'", s->name, s->jobs[j].name);
			return -1;
		}
	}
	return 0;
}

static int fio_prepare(struct engine_run *run, struct errbuf *err)
{
	const struct run_spec *s = run->spec;
	struct fio_priv *p;
	struct kvlist extra;
	char *job_log = NULL;
	int ret;

	if (s->engine && !strcmp(s->engine, "sim") && (!run->sim_so || !*run->sim_so))
		return err_set(err, ERR_HOST, "the sim engine was not built (see scripts/setup and docs/sim.md)");
	if (multihost(run) && s->njobs)
		return err_set(err, ERR_INPUT,
			       "run '%s': its %zu jobs run together, and runs on hosts have one job for now "
			       "(plan the job file with --each-job: one run per job)", s->name, s->njobs);
	if (multihost(run))
		return fio_client_prepare(run, err);
	if (!(s->engine && !strcmp(s->engine, "sim"))) {
		int flags = (run->destructive ? TARGET_DESTRUCTIVE : 0) |
			    (run->overwrite_files ? TARGET_OVERWRITE_FILES : 0);

		if ((s->njobs ? prepare_job_targets(s, flags, err) : prepare_targets(s, flags, err)) < 0)
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
	if (s->njobs && !run->logs) {
		/* each job's own IOPS log with epoch times says when its measured time began (fio 3.33's JSON
		 * does not); with --logs the jobs' logs are the run's samples and start times stay unknown */
		p->joblogdir = xasprintf("%s/jobstart", run->workdir);
		mkdir(p->joblogdir, 0755);
		job_log = xasprintf("%s/job", p->joblogdir);
	}
	if (s->njobs)
		ret = fio_jobfile_write_jobs(s, &extra, job_log, &p->jobtext, err);
	else
		ret = fio_jobfile_write(s, s->targets, s->ntargets, &extra, &p->jobtext, err);
	free(job_log);
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

/*
 * When job `idx` (1-based) of a run of several jobs began its measured time, ms since the epoch: the earliest
 * first entry of its IOPS logs (one per clone and target: job<idx>_iops.<n>.log) less one log interval (fio
 * writes an entry at the end of each interval). NAN when there is no such log.
 */
static double job_log_start_ms(const char *dir, size_t idx)
{
	char prefix[48];
	double best = NAN;
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;

	if (!d)
		return NAN;
	snprintf(prefix, sizeof(prefix), "job%zu_iops.", idx);
	while ((de = readdir(d))) {
		char *path, line[128];
		FILE *f;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		f = fopen(path, "re");
		free(path);
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f)) {
			char *end;
			double t = strtod(line, &end);
			if (end != line && *end == ',' && t > 0 && (isnan(best) || t < best))
				best = t;
		}
		fclose(f);
	}
	closedir(d);
	return isnan(best) ? NAN : best - FIO_JOB_LOG_MSEC;
}

/* fio's groups of a run of several jobs, one per job in order (fio_jobfile_write_jobs), as per-job entries. */
static int take_jobs(const struct engine_run *run, struct fio_output *fo, struct run_result *out,
		     struct errbuf *err)
{
	const struct run_spec *s = run->spec;
	const struct fio_priv *p = run->priv;

	if (fo->njobs != s->njobs)
		return err_set(err, ERR_HOST, "fio reported %zu job groups for the %zu jobs of run '%s'", fo->njobs,
			       s->njobs, s->name);
	for (size_t i = 0; i < fo->njobs; i++) {
		struct host_result *h = fio_job_take_result(&fo->jobs[i], out, "localhost");

		free(h->job);
		h->job = xstrdup(s->jobs[i].name);
		if (isnan(h->job_start_ms))
			h->job_start_ms = job_log_start_ms(p->joblogdir, i + 1);
		if (!h->fio_version && fo->fio_version)
			h->fio_version = xstrdup(fo->fio_version);
	}
	return 0;
}

/* The first host entry with fio's error code, or NULL. */
static const struct host_result *first_error(const struct run_result *r)
{
	for (size_t i = 0; i < r->nhosts; i++)
		if (r->hosts[i].error && strcmp(r->hosts[i].host, HOST_AGGREGATE))
			return &r->hosts[i];
	return NULL;
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
	if (run->spec->njobs && take_jobs(run, &fo, out, err) < 0)
		goto out;
	for (size_t i = 0; !run->spec->njobs && i < fo.njobs; i++) {
		struct host_result *h = fio_job_take_result(&fo.jobs[i], out, "localhost");

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
	fio_output_ss_labels(&fo, &out->labels);
	if (first_error(out)) {
		const struct host_result *e = first_error(out);
		err_set(err, ERR_HOST, "fio reported error %d (%s) for run '%s'%s%s", e->error, strerror(e->error),
			run->spec->name, e->job ? ", job " : "", e->job ? e->job : "");
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
	free_members(p, fio_priv_strs, sizeof(fio_priv_strs) / sizeof(fio_priv_strs[0]));
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
