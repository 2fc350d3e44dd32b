/*
 * fio_json_import: `bench import` of a fio JSON/JSON+ output file (see fio_json_import.h). Turns the output
 * engines/fio_json.c parsed (the parser the fio engine reads fio's live output with) into
 * runs: jobs[] gives one run per entry (one per job, or one per group with group_reporting) on host
 * "localhost"; client_stats[] gives one run per job name and group with one host result per fio server plus
 * bench's own aggregate (core/aggregate.h, never averaged percentiles). The workload of each run is read
 * from the job's options so imported runs match and compare like runs bench ran itself; fio's steady-state
 * result (ss=) becomes the run's fio.ss labels, as for runs bench ran itself.
 */
#include "import/fio_json_import.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/aggregate.h"
#include "core/fio_options.h"
#include "core/strbuf.h"
#include "core/units.h"

/*
 * fio's own rules (core/fio_options.c), read without FIO_OPT_STRICT: the options are what fio ran, so a value
 * fio misreads ("1.5k") is taken as fio took it. A value fio itself refused cannot be in its output; if one
 * is, the fields read before it are kept and the rest stay fio's defaults.
 */
void fio_options_to_workload(const struct kvlist *opts, struct workload *wl)
{
	struct errbuf e;

	free(wl->tool);
	wl->tool = xstrdup("fio");
	kvlist_copy(&wl->opts, opts);
	if (!opts->n)
		return; /* fio 2.1 printed no options: nothing is known */
	errbuf_init(&e);
	(void)fio_options_normalise(opts, NULL, "fio output", 0, 0, wl, &e);
}

static void set_status(struct imported_run *ir)
{
	size_t bad = 0, n = 0;
	int code = 0;

	for (size_t i = 0; i < ir->res.nhosts; i++) {
		if (!strcmp(ir->res.hosts[i].host, HOST_AGGREGATE))
			continue;
		n++;
		if (ir->res.hosts[i].error) {
			bad++;
			if (!code)
				code = ir->res.hosts[i].error;
		}
	}
	if (!bad)
		return;
	ir->status = bad == n ? RUN_FAILED : RUN_PARTIAL;
	free(ir->error);
	ir->error = xasprintf("fio reported error %d (%s)", code, strerror(code));
}

/*
 * The run's times from fio's own clock. fio stamps a local run's document ("timestamp_ms") when it prints the
 * results, at the end of the jobs; a client's document (client/server output) carries only "timestamp"
 * (seconds), stamped when the client starts (fio_json puts it into timestamp_ms when it reads "timestamp"). The measured time is the longest direction runtime of any host, so
 * started_at = end - runtime (local) or the stamp itself (client), finished_at = started_at + runtime. A
 * document without a timestamp (fio before 2.x's "timestamp") leaves both NULL: the store stamps the import.
 */
static void set_times(struct imported_run *ir, const struct fio_output *fo)
{
	uint64_t run_ms = 0;
	int64_t start_ms;
	char buf[40];

	if (fo->timestamp_ms <= 0)
		return;
	for (size_t i = 0; i < ir->res.nhosts; i++)
		for (int d = 0; d < DDIR_TOTAL; d++)
			if (ir->res.hosts[i].dir[d].runtime_ms > run_ms)
				run_ms = ir->res.hosts[i].dir[d].runtime_ms;
	start_ms = fo->client_server ? fo->timestamp_ms : fo->timestamp_ms - (int64_t)run_ms;
	if (start_ms < 0)
		start_ms = fo->timestamp_ms;
	ir->spec.started_at = xstrdup(format_utc_ms(start_ms, buf, sizeof(buf)));
	ir->spec.finished_at = xstrdup(format_utc_ms(start_ms + (int64_t)run_ms, buf, sizeof(buf)));
}

static struct imported_run *new_run(struct import_batch *out, const struct fio_job *job, const char *path,
				    const struct strbuf *text)
{
	struct imported_run *ir = import_batch_add(out);

	ir->spec.name = xstrdup(job->jobname);
	ir->spec.engine = xstrdup("import");
	ir->spec.seq = (unsigned)out->n;
	fio_options_to_workload(&job->options, &ir->spec.wl);
	ir->spec.wl.src_file = xstrdup(path);
	run_result_add_artifact(&ir->res, "fio-output.json", text->buf, text->len);
	return ir;
}

static void import_jobs(struct fio_output *fo, const char *path, const struct strbuf *text,
			struct import_batch *out)
{
	for (size_t i = 0; i < fo->njobs; i++) {
		struct imported_run *ir = new_run(out, &fo->jobs[i], path, text);
		fio_ss_labels(&fo->jobs[i].ss, &ir->spec.labels);
		fio_job_take_result(&fo->jobs[i], &ir->res, "localhost");
		run_result_aggregate(&ir->res);
		set_status(ir);
		set_times(ir, fo);
	}
}

/* Host name of a client entry: the server's name, with ":port" when one name has several ports. */
static char *client_host(const struct fio_output *fo, const struct fio_job *job)
{
	const char *name = job->hostname ? job->hostname : "unknown";

	for (size_t i = 0; i < fo->njobs; i++) {
		const struct fio_job *o = &fo->jobs[i];
		if (o->port != job->port && o->hostname && !strcmp(o->hostname, name))
			return xasprintf("%s:%u", name, job->port);
	}
	return xstrdup(name);
}

static void import_clients(struct fio_output *fo, const char *path, const struct strbuf *text,
			   struct import_batch *out)
{
	char *done = xcalloc(fo->njobs ? fo->njobs : 1, 1);
	struct fio_job **same = xcalloc(fo->njobs ? fo->njobs : 1, sizeof(*same));

	for (size_t i = 0; i < fo->njobs; i++) {
		struct imported_run *ir;
		const struct fio_job *g = &fo->jobs[i];
		struct fio_ss ss;

		if (done[i])
			continue;
		ir = new_run(out, g, path, text);
		memset(&ss, 0, sizeof(ss));
		/* every server of this group, in order of first appearance */
		for (size_t k = i; k < fo->njobs; k++) {
			char *host;
			size_t n = 0;

			if (done[k] || fo->jobs[k].groupid != g->groupid || strcmp(fo->jobs[k].jobname, g->jobname))
				continue;
			host = client_host(fo, &fo->jobs[k]);
			for (size_t m = k; m < fo->njobs; m++) {
				struct fio_job *x = &fo->jobs[m];
				char *xh;
				if (done[m] || x->groupid != g->groupid || strcmp(x->jobname, g->jobname))
					continue;
				xh = client_host(fo, x);
				if (!strcmp(xh, host)) {
					fio_ss_combine(&ss, &x->ss);
					same[n++] = x;
					done[m] = 1;
				}
				free(xh);
			}
			if (n == 1)
				fio_job_take_result(same[0], &ir->res, host);
			else
				fio_jobs_combine((const struct fio_job *const *)same, n, run_result_add_host(&ir->res, host));
			free(host);
		}
		fio_ss_labels(&ss, &ir->spec.labels);
		run_result_aggregate(&ir->res);
		set_status(ir);
		set_times(ir, fo);
	}
	free(done);
	free(same);
}

int fio_json_import(const char *path, struct import_batch *out, struct errbuf *err)
{
	struct strbuf text;
	struct fio_output fo;
	struct stat sb;
	int ret = -1;

	strbuf_init(&text);
	fio_output_init(&fo);
	if (stat(path, &sb) < 0)
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return err_set(err, ERR_INPUT, "%s: is a directory, not a fio JSON output file", path);
	if (strbuf_read_file(&text, path) < 0) {
		err_set(err, ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (!text.len) {
		err_set(err, ERR_INPUT, "%s: empty file, no fio JSON output in it", path);
		goto out;
	}
	if (fio_json_parse(text.buf, text.len, path, &fo, err) < 0)
		goto out;
	if (!fo.njobs) {
		err_set(err, ERR_INPUT, "%s: fio output without any job results", path);
		goto out;
	}
	free(out->suite_name);
	out->suite_name = xstrdup(path);
	if (fo.client_server)
		import_clients(&fo, path, &text, out);
	else
		import_jobs(&fo, path, &text, out);
	ret = 0;
out:
	fio_output_release(&fo);
	strbuf_release(&text);
	return ret;
}
