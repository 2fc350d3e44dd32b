/*
 * runloop: the suite run loop and its progress display (see runloop.h).
 */
#include "bench/runloop.h"
#include "bench/cli.h"
#include "collectors/session.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "engines/engine.h"
#include "engines/target.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_INTERRUPTED 130

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void fmt_dur(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

static double spec_time_s(const struct run_spec *s)
{
	return s->wl.ramp_s + s->wl.runtime_s + 2;
}

/* The run's labels: its own, then the plan's (the profile's and --label's: options.c), later wins. */
static void merge_labels(struct run_spec *s, const struct plan *plan)
{
	for (size_t i = 0; i < plan->labels.n; i++)
		kvlist_set(&s->labels, plan->labels.v[i].key, plan->labels.v[i].value);
}

static void progress(const struct run_spec *s, size_t idx, size_t total, double elapsed, double remaining_after)
{
	char a[32], b[32], c[32];
	double run_total = spec_time_s(s);
	double left = run_total - elapsed;

	if (left < 0)
		left = 0;
	fmt_dur(elapsed, a, sizeof(a));
	fmt_dur(run_total, b, sizeof(b));
	fmt_dur(left + remaining_after, c, sizeof(c));
	fprintf(stderr, "\r\033[K[%zu/%zu] %.60s  %s/%s  suite ETA %s", idx, total, s->name, a, b, c);
	fflush(stderr);
}

static void summary_line(const struct run_spec *s, size_t idx, size_t total, enum run_status st,
			 const struct run_result *res, const char *error)
{
	const struct host_result *agg = NULL;

	for (size_t i = 0; res && i < res->nhosts; i++)
		if (!strcmp(res->hosts[i].host, HOST_AGGREGATE))
			agg = &res->hosts[i];
	fprintf(stderr, "[%zu/%zu] %s: %s", idx, total, s->name, run_status_name(st));
	if (agg && agg->dir[DDIR_TOTAL].present)
		fprintf(stderr, ", %.0f IOPS, %.1f MiB/s", agg->dir[DDIR_TOTAL].iops,
			agg->dir[DDIR_TOTAL].bw_bytes / 1048576.0);
	if (error && *error)
		fprintf(stderr, " (%s)", error);
	fputc('\n', stderr);
}

/*
 * Work directories live under one folder bench owns, $TMPDIR/bench-<uid> (mode 0700), as run-<pid>-XXXXXX:
 * a run killed with SIGKILL cannot remove its own, so every later run removes those whose process is gone.
 */
static char *work_root(struct errbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	char *root = xasprintf("%s/bench-%lu", tmp && *tmp ? tmp : "/tmp", (unsigned long)getuid());
	struct stat st;

	if (mkdir(root, 0700) < 0 && errno != EEXIST) {
		err_set(err, ERR_HOST, "cannot create the work folder '%s': %s", root, strerror(errno));
		goto fail;
	}
	if (lstat(root, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
		err_set(err, ERR_HOST, "work folder '%s' is not a directory of this user: remove it or set TMPDIR", root);
		goto fail;
	}
	return root;
fail:
	free(root);
	return NULL;
}

/* Removes run-<pid>-* folders of processes that no longer exist (a run killed with -9). */
static void sweep_dead_workdirs(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "run-", 4))
			continue;
		errno = 0;
		pid = strtol(de->d_name + 4, &end, 10);
		if (errno || end == de->d_name + 4 || *end != '-' || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			char *dir = xasprintf("%s/%s", root, de->d_name);
			rm_tree(dir);
			free(dir);
		}
	}
	closedir(d);
}

static int make_workdir(char **out, struct errbuf *err)
{
	char *root = work_root(err), *dir;

	if (!root)
		return -1;
	dir = xasprintf("%s/run-%ld-XXXXXX", root, (long)getpid());
	if (!mkdtemp(dir)) {
		err_set(err, ERR_HOST, "cannot create a work directory in '%s': %s", root, strerror(errno));
		free(dir);
		free(root);
		return -1;
	}
	free(root);
	*out = dir;
	return 0;
}

/* Runs one spec to its end. Returns 0, or -1 on a storage error (err set). *status gets the final status. */
static int run_one(struct store *st, int64_t suite_id, const struct run_spec *s, const struct runloop_opts *o,
		   size_t idx, size_t total, double remaining_after, enum run_status *status, struct errbuf *err)
{
	const struct engine_ops *ops = engine_find(s->engine ? s->engine : "fio");
	struct engine_run er;
	struct run_result res;
	struct errbuf eerr;
	int64_t run_id;
	char *workdir = NULL, *error = NULL;
	long long t0, deadline_ms, last_progress = 0, collect_at;
	struct collect_session *cs = NULL;
	int tty = cli_stderr_is_tty() && !o->quiet, rc;

	errbuf_init(&eerr);
	run_result_init(&res);
	*status = RUN_FAILED;
	if (store_run_begin(st, suite_id, s, &run_id, err) < 0)
		return -1;
	if (!ops) {
		error = xasprintf("unknown engine '%s'", s->engine);
		goto finish;
	}
	if (make_workdir(&workdir, &eerr) < 0) {
		error = xstrdup(eerr.msg);
		goto finish;
	}
	memset(&er, 0, sizeof(er));
	er.spec = s;
	er.hosts = o->hosts;
	er.workdir = workdir;
	er.grace_s = o->grace_s;
	er.destructive = o->destructive;
	er.allow_partial = o->allow_partial;
	er.logs = o->logs;
	er.sim_so = o->sim_so;
	if (!o->quiet && !tty)
		fprintf(stderr, "[%zu/%zu] %s: running\n", idx, total, s->name);
	if (ops->prepare(&er, &eerr) < 0 || ops->start(&er, &eerr) < 0) {
		error = xstrdup(eerr.msg);
		goto stop;
	}
	t0 = mono_ms();
	deadline_ms = t0 + (long long)engine_deadline_s(&er) * 1000;
	/* CPU and disks are sampled over the measured part only: from the end of ramp to the end of the run. */
	collect_at = o->no_collectors ? -1 : t0 + (long long)s->wl.ramp_s * 1000;
	for (;;) {
		rc = ops->wait(&er, 200, &eerr);
		if (rc != 0)
			break;
		if (collect_at >= 0 && mono_ms() >= collect_at) {
			struct collect_opts co;
			struct errbuf cerr;

			memset(&co, 0, sizeof(co));
			errbuf_init(&cerr);
			co.hosts = o->hosts;
			co.proc_root = "/";
			co.t0_ms = t0;
			co.interval_ms = o->collect_interval_ms;
			cs = collect_session_start_opts(&co, &cerr);
			if (!cs)
				cli_warn("run '%s': CPU collection not started: %s", s->name, cerr.msg);
			collect_at = -1;
		}
		if (cli_interrupted) {
			*status = RUN_ABORTED;
			error = xstrdup("interrupted by a signal");
			goto stop;
		}
		if (mono_ms() > deadline_ms) {
			error = xasprintf("the engine did not finish within its deadline of %u s (ramp + runtime + grace)",
					  engine_deadline_s(&er));
			goto stop;
		}
		if (tty && mono_ms() - last_progress >= 500) {
			last_progress = mono_ms();
			progress(s, idx, total, (double)(last_progress - t0) / 1000.0, remaining_after);
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	if (cli_interrupted) {
		*status = RUN_ABORTED;
		error = xstrdup("interrupted by a signal");
		goto stop;
	}
	if (rc < 0) {
		error = xstrdup(eerr.msg);
		goto stop;
	}
	errbuf_init(&eerr);
	if (ops->collect(&er, &res, status, &eerr) < 0 || *status != RUN_DONE)
		error = xstrdup(eerr.msg[0] ? eerr.msg : "the engine gave no results");
	if (cs) {
		const struct host_result *agg = run_result_find_host(&res, HOST_AGGREGATE);
		uint64_t ios = agg ? agg->dir[DDIR_TOTAL].ios : 0;
		char dev[128], disk[128], *backing = NULL;
		struct errbuf warn;

		errbuf_init(&warn);
		if ((!o->hosts || !o->hosts->n) && s->ntargets &&
		    collect_backing_device(s->targets[0], dev, sizeof(dev), disk, sizeof(disk), &warn) == 0)
			backing = dev;
		errbuf_init(&warn);
		if (collect_session_finish(cs, ios, backing, &res, &warn) != 0 && warn.msg[0])
			cli_warn("run '%s': %s", s->name, warn.msg);
		cs = NULL;
	}
stop:
	collect_session_cancel(cs);
	cs = NULL;
	if (ops) {
		ops->stop(&er);
		if (ops->release)
			ops->release(&er);
	}
finish:
	if (tty)
		fputs("\r\033[K", stderr);
	if (*status == RUN_RUNNING)
		*status = RUN_FAILED;
	rc = store_run_finish(st, run_id, *status, error, &res, err);
	/* "done" only once it is stored: a failed commit leaves the run 'running' and ends the suite (exit 5) */
	if (!o->quiet && rc == 0)
		summary_line(s, idx, total, *status, &res, error);
	if (workdir) {
		rm_tree(workdir);
		free(workdir);
	}
	free(error);
	run_result_release(&res);
	return rc;
}

int runloop_preflight(const struct plan *plan, const struct runloop_opts *o)
{
	int local = !o->hosts || !o->hosts->n;
	struct errbuf err;

	errbuf_init(&err);
	for (size_t i = 0; i < plan->n; i++) {
		const struct run_spec *s = &plan->runs[i];
		const char *engine = s->engine ? s->engine : "fio";

		if (!local || strcmp(engine, "fio"))
			continue;
		if (target_check_spec(s, (o->destructive ? TARGET_DESTRUCTIVE : 0) |
					 (o->overwrite_files ? TARGET_OVERWRITE_FILES : 0), &err) < 0)
			return cli_fail(&err);
	}
	return EXIT_OK;
}

int runloop_run(struct store *st, const struct plan *plan, const struct runloop_opts *o)
{
	struct errbuf err;
	int64_t suite_id = 0;
	size_t done = 0, failed = 0, partial = 0, skipped = 0;
	double remaining = 0;
	int code = EXIT_OK;

	errbuf_init(&err);
	if (o->resume && store_suite_find(st, plan->name, o->args, &suite_id, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (o->resume && !suite_id)
		cli_warn("--resume: no earlier suite '%s' with the same arguments in '%s': starting a new one", plan->name,
			 store_path(st));
	if (!suite_id &&
	    store_suite_add(st, plan->name, "run", o->args, (unsigned)plan->n, &plan->labels, &suite_id, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	if (store_suite_lock(st, suite_id, &err) < 0) { /* one bench run per suite at a time */
		suite_id = 0;
		code = cli_fail(&err);
		goto out;
	}
	for (size_t i = 0; i < plan->n; i++)
		remaining += spec_time_s(&plan->runs[i]);
	{
		char *root = work_root(&err);
		if (root)
			sweep_dead_workdirs(root);
		free(root);
		errbuf_init(&err);
	}
	cli_trap_signals();
	for (size_t i = 0; i < plan->n; i++) {
		struct run_spec s;
		enum run_status status;
		int64_t old_id = 0;
		enum run_status old_status = RUN_FAILED;

		remaining -= spec_time_s(&plan->runs[i]);
		if (o->resume && store_run_lookup(st, suite_id, plan->runs[i].seq, plan->runs[i].repetition, &old_id,
						  &old_status, &err) < 0) {
			code = cli_fail(&err);
			goto out;
		}
		if (old_id && old_status == RUN_DONE) {
			skipped++;
			done++;
			continue;
		}
		run_spec_copy(&s, &plan->runs[i]);
		merge_labels(&s, plan);
		if (run_one(st, suite_id, &s, o, i + 1, plan->n, remaining, &status, &err) < 0) {
			run_spec_release(&s);
			code = cli_fail(&err);
			goto out;
		}
		run_spec_release(&s);
		if (status == RUN_DONE)
			done++;
		else if (status == RUN_PARTIAL)
			partial++;
		else if (status == RUN_FAILED)
			failed++;
		if (status == RUN_ABORTED || cli_interrupted) {
			fprintf(stderr, "bench: interrupted: run %zu of %zu aborted; 'bench run --resume' with the same "
					"arguments finishes the suite\n", i + 1, plan->n);
			code = EXIT_INTERRUPTED;
			goto out;
		}
		if (status == RUN_PARTIAL && o->stop_on_host_failure) {
			code = cli_error(EXIT_HOST, "run %zu of %zu is partial: stopping the suite (--stop-on-host-failure)",
					 i + 1, plan->n);
			goto out;
		}
	}
	if (!o->quiet) {
		fprintf(stderr, "suite %lld '%s': %zu runs, %zu done", (long long)suite_id, plan->name, plan->n, done);
		if (skipped)
			fprintf(stderr, " (%zu already done before --resume)", skipped);
		if (partial)
			fprintf(stderr, ", %zu partial", partial);
		if (failed)
			fprintf(stderr, ", %zu failed", failed);
		fprintf(stderr, "; stored in %s\n", store_path(st));
	}
	if (failed || partial)
		code = EXIT_HOST;
out:
	if (suite_id)
		store_suite_unlock(st, suite_id);
	return code;
}
