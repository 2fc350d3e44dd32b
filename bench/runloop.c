/*
 * runloop: the suite run loop and its progress display (see runloop.h).
 */
#include "bench/runloop.h"
#include "bench/baseline_plan.h"
#include "bench/cli.h"
#include "bench/config_record.h"
#include "bench/runloop_method.h"
#include "bench/steps.h"
#include "collectors/session.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "engines/engine.h"
#include "engines/fio_hosts.h"
#include "engines/target.h"
#include "engines/target_remote.h"

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

/*
 * The labels a run is stored with: its own (the user's and its configuration's), those of its method and
 * configuration written from its typed fields where it has no such key (run_method_labels: curve_pct=,
 * sweep.KEY=, config=, phase=, ...), then the plan's (the profile's and --label's: options.c), which win.
 */
static void merge_labels(struct run_spec *s, const struct plan *plan)
{
	run_method_labels(s, &s->labels);
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
	fprintf(stderr, "\r\033[K[%zu/%zu] %.60s  %s/%s  suite ETA %s", idx, total, cli_safe(s->name), a, b, c);
	fflush(stderr);
}

static void summary_line(const struct run_spec *s, size_t idx, size_t total, enum run_status st,
			 const struct run_result *res, const char *error)
{
	const struct host_result *agg = NULL;

	for (size_t i = 0; res && i < res->nhosts; i++)
		if (!strcmp(res->hosts[i].host, HOST_AGGREGATE))
			agg = &res->hosts[i];
	fprintf(stderr, "[%zu/%zu] %s: %s", idx, total, cli_safe(s->name), run_status_name(st));
	if (agg && agg->dir[DDIR_TOTAL].present)
		fprintf(stderr, ", %.0f IOPS, %.1f MiB/s", agg->dir[DDIR_TOTAL].iops,
			agg->dir[DDIR_TOTAL].bw_bytes / 1048576.0);
	if (error && *error)
		fprintf(stderr, " (%s)", cli_safe(error));
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
		   size_t idx, size_t total, double remaining_after, const struct kvlist *extra_art,
		   enum run_status *status, int64_t *run_id_out, struct errbuf *err)
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
	if (run_id_out)
		*run_id_out = run_id;
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
	er.overwrite_files = o->overwrite_files;
	er.allow_partial = o->allow_partial;
	er.logs = o->logs;
	er.sim_so = o->sim_so;
	if (!o->quiet && !tty)
		fprintf(stderr, "[%zu/%zu] %s: running\n", idx, total, cli_safe(s->name));
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
			co.t0_ms = t0 + (long long)s->wl.ramp_s * 1000; /* the run's one clock: t = 0 at the end of ramp */
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
		/* a warning is said even when every figure is there (hosts that read one machine's /proc) */
		collect_session_finish(cs, ios, backing, &res, &warn);
		if (warn.msg[0])
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
	for (size_t i = 0; extra_art && i < extra_art->n; i++)
		run_result_add_artifact(&res, extra_art->v[i].key, extra_art->v[i].value, strlen(extra_art->v[i].value));
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

/* The members of configurations built on another host (host = NAME): probed there as local members are here. */
static int remote_members_check(const struct runloop_opts *o, int flags, struct errbuf *err)
{
	for (size_t i = 0; o->configs && i < o->configs->n; i++) {
		const struct suite_config *c = &o->configs->v[i];
		const struct host *h = NULL;

		if (!c->nmembers || !c->host || !strcmp(c->host, "local"))
			continue;
		for (size_t k = 0; o->hosts && k < o->hosts->n && !h; k++)
			if (!strcmp(o->hosts->v[k].name, c->host))
				h = &o->hosts->v[k];
		if (!h)
			continue; /* refused at plan time (options.c: a step host not in the hosts file) */
		if (target_remote_check(h, c->members, NULL, c->nmembers, flags, NULL, err) < 0)
			return err_prefix(err, "%s:%d: configuration '%s'", c->file, c->line, c->name);
	}
	return 0;
}

/* Whether a run's targets exist only once its configuration's setup has run (checked then: config_build). */
static int built_by_config(const struct plan *plan, const struct runloop_opts *o, size_t i)
{
	const struct plan_config *pc = o->configs ? plan_config_of(plan, i) : NULL;
	const struct suite_config *c = pc ? &o->configs->v[pc->config] : NULL;

	return c && (c->ntargets || c->nsteps[CONFIG_SETUP]);
}

int runloop_preflight(const struct plan *plan, const struct runloop_opts *o)
{
	int local = !o->hosts || !o->hosts->n;
	int flags = (o->destructive ? TARGET_DESTRUCTIVE : 0) | (o->overwrite_files ? TARGET_OVERWRITE_FILES : 0);
	const struct run_spec **specs = xcalloc(plan->n ? plan->n : 1, sizeof(*specs));
	size_t n = 0;
	struct errbuf err;
	int rc = 0;

	errbuf_init(&err);
	for (size_t i = 0; i < plan->n && !rc; i++) {
		const struct run_spec *s = &plan->runs[i];

		if (strcmp(s->engine ? s->engine : "fio", "fio") || built_by_config(plan, o, i))
			continue;
		if (!local)
			specs[n++] = s;
		else
			rc = target_check_spec(s, flags, &err);
	}
	/* on hosts: every path fio will open there, probed over ssh or under the no-ssh rule (docs/hosts.md) */
	if (!rc && !local && n)
		rc = fio_hosts_consent(o->hosts, specs, n, flags, NULL, &err);
	if (!rc && !local)
		rc = remote_members_check(o, flags & ~TARGET_OVERWRITE_FILES, &err);
	free(specs);
	return rc < 0 ? cli_fail(&err) : EXIT_OK;
}

/* Counters of one suite run and whether it must stop. */
struct loop_state {
	size_t done, failed, partial, skipped;
	size_t not_run;  /* sweep or curve points after a stop */
	double remaining;
	int code;     /* the exit code once stop is set */
	int stop;
	struct method_ctx mc; /* the measurement method's state (runloop_method.h) */
};

/* Whether run i of the plan is already 'done' (on --resume); -1 on a storage error (printed). */
static int already_done(struct store *st, int64_t suite_id, const struct run_spec *s, const struct runloop_opts *o,
			int64_t *run_id)
{
	struct errbuf err;
	enum run_status old_status = RUN_FAILED;
	int64_t old_id = 0;

	errbuf_init(&err);
	*run_id = 0;
	if (!o->resume)
		return 0;
	if (store_run_lookup(st, suite_id, s->seq, s->repetition, &old_id, &old_status, &err) < 0) {
		cli_fail(&err);
		return -1;
	}
	*run_id = old_id;
	return old_id && old_status == RUN_DONE;
}

/* Stores a run no engine ran (a configuration that failed, a purge, a curve point without its max run). */
static int store_no_engine(struct store *st, int64_t suite_id, const struct run_spec *s, enum run_status status,
			   const char *why, const struct kvlist *art, int64_t *run_id, struct errbuf *err)
{
	struct run_result res;
	int rc;

	run_result_init(&res);
	for (size_t k = 0; art && k < art->n; k++)
		run_result_add_artifact(&res, art->v[k].key, art->v[k].value, strlen(art->v[k].value));
	rc = store_run_begin(st, suite_id, s, run_id, err) < 0 ? -1 : store_run_finish(st, *run_id, status, why, &res, err);
	run_result_release(&res);
	return rc;
}

/* Counts a run's final status; sets ls->stop on an interruption or a partial run with --stop-on-host-failure. */
static void count_status(enum run_status status, const struct runloop_opts *o, size_t i, size_t n,
			 struct loop_state *ls)
{
	if (status == RUN_DONE)
		ls->done++;
	else if (status == RUN_PARTIAL)
		ls->partial++;
	else if (status == RUN_FAILED)
		ls->failed++;
	if (status == RUN_ABORTED || cli_interrupted) {
		fprintf(stderr, "bench: interrupted: run %zu of %zu aborted; 'bench run --resume' with the same "
				"arguments finishes the suite\n", i + 1, n);
		ls->code = EXIT_INTERRUPTED;
		ls->stop = 1;
	} else if (status == RUN_PARTIAL && o->stop_on_host_failure) {
		ls->code = cli_error(EXIT_HOST, "run %zu of %zu is partial: stopping the suite (--stop-on-host-failure)",
				     i + 1, n);
		ls->stop = 1;
	}
}

/*
 * The measurement method's entries no engine runs (runloop_method.h): a purge, a point that cannot run. Returns 0
 * and *status, or -1 on a storage error (err set).
 */
static int run_method(struct store *st, int64_t suite_id, const struct runloop_opts *o, size_t i, size_t n,
		      const struct kvlist *extra_art, struct run_spec *s, enum method_action act, const char *why,
		      struct loop_state *ls, enum run_status *status, int64_t *run_id, struct errbuf *err)
{
	struct kvlist art;
	struct errbuf perr;
	char *log = NULL;
	int rc;

	kvlist_init(&art);
	if (extra_art)
		kvlist_copy(&art, extra_art);
	errbuf_init(&perr);
	*status = RUN_FAILED;
	if (act == METHOD_PURGE && method_purge(&ls->mc, s, &log, &perr) == 0) {
		*status = RUN_DONE;
		kvlist_set(&art, "precondition.purge", log);
	}
	if (act == METHOD_FAIL)
		snprintf(perr.msg, sizeof(perr.msg), "%s", why);
	rc = store_no_engine(st, suite_id, s, *status, *status == RUN_DONE ? NULL : perr.msg, &art, run_id, err);
	if (rc == 0 && !o->quiet)
		fprintf(stderr, "[%zu/%zu] %s: %s%s%s%s\n", i + 1, n, cli_safe(s->name), run_status_name(*status),
			*status == RUN_DONE ? "" : " (", *status == RUN_DONE ? "" : cli_safe(perr.msg),
			*status == RUN_DONE ? "" : ")");
	free(log);
	kvlist_release(&art);
	return rc;
}

/*
 * Runs plan run i with `extra_labels` and `extra_art` (a configuration's record) unless it is done already.
 * Sets ls->stop (and ls->code) when the suite must stop.
 */
static void run_at(struct store *st, int64_t suite_id, const struct plan *plan, const struct runloop_opts *o,
		   size_t i, const struct kvlist *extra_labels, const struct kvlist *extra_art, int64_t *run_id,
		   struct loop_state *ls)
{
	struct errbuf err;
	struct run_spec s;
	enum run_status status = RUN_FAILED;
	enum method_action act;
	char *why = NULL;
	int d;

	errbuf_init(&err);
	ls->remaining -= spec_time_s(&plan->runs[i]);
	if ((d = already_done(st, suite_id, &plan->runs[i], o, run_id)) != 0) {
		if (d < 0) {
			ls->code = EXIT_STORE;
			ls->stop = 1;
			return;
		}
		ls->skipped++;
		ls->done++;
		return;
	}
	run_spec_copy(&s, &plan->runs[i]);
	merge_labels(&s, plan);
	for (size_t k = 0; extra_labels && k < extra_labels->n; k++)
		kvlist_set(&s.labels, extra_labels->v[k].key, extra_labels->v[k].value);
	if (method_before(&ls->mc, i, &s, &act, &why, &err) < 0)
		goto store_error;
	if (act == METHOD_SKIP) {
		if (!o->quiet)
			fprintf(stderr, "[%zu/%zu] %s: not run (%s)\n", i + 1, plan->n, cli_safe(s.name), cli_safe(why));
		ls->not_run++;
		goto out;
	}
	if (act == METHOD_RUN ? run_one(st, suite_id, &s, o, i + 1, plan->n, ls->remaining, extra_art, &status, run_id,
					&err) < 0 || method_after(&ls->mc, i, *run_id, &err) < 0
			      : run_method(st, suite_id, o, i, plan->n, extra_art, &s, act, why, ls, &status, run_id, &err) < 0)
		goto store_error;
	count_status(status, o, i, plan->n, ls);
	goto out;
store_error:
	ls->code = cli_fail(&err);
	ls->stop = 1;
out:
	free(why);
	run_spec_release(&s);
}

/* ---- configurations ---------------------------------------------------------------------------------
 * Each configuration: (on a fio engine) member checks, setup, check, the precondition hook, the record, its
 * workloads, then teardown, always. A state file in the work root says which configuration is built while it
 * is; a bench killed with -9 leaves it, and the next `bench run` of the same suite and database tears that
 * configuration down before anything else (never adopts it: a stack whose load was killed is in a state no
 * check can vouch for; building it again gives every configuration the same start).
 */

#define CONFIG_LEFTOVER_TRIES 5

static char *config_state_path(struct store *st, const struct plan *plan)
{
	char *root, *path;
	struct errbuf err;
	uint64_t h = 1469598103934665603ull; /* FNV-1a of the database path and suite name */
	char *abs = realpath(store_path(st), NULL);
	const char *parts[2] = { abs ? abs : store_path(st), plan->name ? plan->name : "" };

	errbuf_init(&err);
	for (int k = 0; k < 2; k++)
		for (const unsigned char *c = (const unsigned char *)parts[k]; *c; c++)
			h = (h ^ *c) * 1099511628211ull;
	free(abs);
	if (!(root = work_root(&err)))
		return NULL;
	path = xasprintf("%s/config-%016llx.state", root, (unsigned long long)h);
	free(root);
	return path;
}

static void config_state_write(const char *path, const char *name)
{
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f) {
		cli_warn("cannot write the configuration state file '%s': a kill -9 now would leave the stack unrecorded",
			 path ? path : "(none)");
		return;
	}
	fprintf(f, "pid=%ld\nconfig=%s\n", (long)getpid(), name);
	fflush(f);
	fsync(fileno(f));
	fclose(f);
}

/* Tears down a configuration a killed bench left (its state file), before anything else runs. */
static void config_leftover(const char *path, const struct runloop_opts *o, const char *workdir)
{
	struct strbuf sb, text;
	const struct suite_config *c;
	const struct step_record *failed;
	struct step_log log;
	char *name;
	long pid;

	strbuf_init(&sb);
	if (!path || strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return;
	}
	pid = strncmp(sb.buf, "pid=", 4) ? 0 : strtol(sb.buf + 4, NULL, 10);
	name = strstr(sb.buf, "config=") ? xstrdup(strstr(sb.buf, "config=") + 7) : xstrdup("");
	name[strcspn(name, "\n")] = '\0';
	strbuf_release(&sb);
	if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) == 0) {
		free(name);
		return; /* still running: the suite lock refuses this run anyway */
	}
	if (!(c = config_list_find(o->configs, name))) {
		cli_warn("configuration '%s' left by process %ld is not in this suite: not torn down (state file '%s')",
			 name, pid, path);
		free(name);
		return;
	}
	fprintf(stderr, "bench: configuration '%s' was left built by process %ld (killed?): tearing it down first\n",
		cli_safe(name), pid);
	step_log_init(&log);
	strbuf_init(&text);
	/* The killed bench's fio gets SIGTERM from the kernel (core/proc.c) but may still hold the stack busy for
	 * a moment: a teardown that fails is tried again, 2 s apart, up to CONFIG_LEFTOVER_TRIES times. */
	for (int attempt = 1; attempt <= CONFIG_LEFTOVER_TRIES; attempt++) {
		char *why;
		if (steps_run_phase(c, CONFIG_TEARDOWN, o->hosts, workdir, NULL, &log, &failed) == 0)
			break;
		why = step_failure_text(failed);
		cli_warn("configuration '%s': leftover teardown, attempt %d of %d: %s", name, attempt,
			 CONFIG_LEFTOVER_TRIES, why);
		free(why);
		if (attempt < CONFIG_LEFTOVER_TRIES)
			sleep(2);
	}
	step_log_text(&log, 0, &text);
	if (!o->quiet)
		fputs(text.buf ? text.buf : "", stderr);
	strbuf_release(&text);
	step_log_release(&log);
	unlink(path);
	free(name);
}

/*
 * The precondition hook of the measurement method (docs/method.md): called once a configuration is built,
 * checked and recorded, before its first workload, with the configuration's precondition.* settings
 * (c->precondition). Returns 0 to go on, or -1 with err set to fail the configuration (its teardown runs).
 * The preconditioning itself (purge, fill, rounds to steady state) is plan entries, placed before the
 * configuration's first workload on each target by method_expand (runloop_method.h) from the same settings, so
 * `bench plan` shows it and every phase is stored as a run; nothing is left to do here.
 */
static int config_precondition(const struct suite_config *c, const struct plan *plan, size_t first, size_t end,
			       const struct runloop_opts *o, struct step_log *log, struct errbuf *err)
{
	(void)c;
	(void)plan;
	(void)first;
	(void)end;
	(void)o;
	(void)log;
	(void)err;
	return 0;
}

/* Member devices must hold no data unless --destructive (libblkid, mounts, holders: engines/target.h). */
static int config_members_check(const struct suite_config *c, const struct runloop_opts *o, struct errbuf *err)
{
	for (size_t i = 0; i < c->nmembers && !o->destructive; i++) {
		struct errbuf e2;
		errbuf_init(&e2);
		if (target_check(c->members[i], 0, &e2) < 0)
			return err_set(err, ERR_INPUT, "configuration '%s': member %s: %s (--destructive builds on it "
				       "anyway)", c->name, c->members[i], e2.msg);
	}
	return 0;
}

/* Builds configuration c: members, setup, check, precondition, record. 0, or -1 with *why set (malloc'd). */
static int config_build(const struct suite_config *c, const struct plan *plan, size_t first, size_t end,
			const struct runloop_opts *o, const char *workdir, struct step_log *log, struct kvlist *labels,
			struct strbuf *record, char **why)
{
	const struct step_record *failed;
	struct errbuf err;

	errbuf_init(&err);
	if (config_members_check(c, o, &err) < 0) {
		*why = xstrdup(err.msg);
		return -1;
	}
	if (steps_run_phase(c, CONFIG_SETUP, o->hosts, workdir, &cli_interrupted, log, &failed) < 0 ||
	    steps_run_phase(c, CONFIG_CHECK, o->hosts, workdir, &cli_interrupted, log, &failed) < 0) {
		char *t = step_failure_text(failed);
		*why = xasprintf("configuration '%s': %s", c->name, t);
		free(t);
		return -1;
	}
	if (cli_interrupted) {
		*why = xasprintf("configuration '%s': interrupted during setup", c->name);
		return -1;
	}
	if (config_precondition(c, plan, first, end, o, log, &err) < 0) {
		*why = xasprintf("configuration '%s': precondition: %s", c->name, err.msg);
		return -1;
	}
	config_record_collect(c, o->hosts, workdir, labels, record, log);
	for (size_t i = first; i < end && !o->hosts; i++) {
		const char *engine = plan->runs[i].engine ? plan->runs[i].engine : "fio";
		if (strcmp(engine, "fio"))
			continue;
		if (target_check_spec(&plan->runs[i], (o->destructive ? TARGET_DESTRUCTIVE : 0) |
						      (o->overwrite_files ? TARGET_OVERWRITE_FILES : 0), &err) < 0) {
			*why = xasprintf("configuration '%s': %s", c->name, err.msg);
			return -1;
		}
	}
	return 0;
}

/* Marks the configuration's runs that are not done 'failed' with `why` and the step log. */
static void config_fail_runs(struct store *st, int64_t suite_id, const struct plan *plan, size_t first, size_t end,
			     const struct runloop_opts *o, const char *why, const struct kvlist *art,
			     struct loop_state *ls)
{
	for (size_t i = first; i < end && !ls->stop; i++) {
		struct errbuf err;
		struct run_spec s;
		int64_t run_id;
		int d = already_done(st, suite_id, &plan->runs[i], o, &run_id);

		ls->remaining -= spec_time_s(&plan->runs[i]);
		if (d < 0) {
			ls->code = EXIT_STORE;
			ls->stop = 1;
			break;
		}
		if (d) {
			ls->skipped++;
			ls->done++;
			continue;
		}
		errbuf_init(&err);
		run_spec_copy(&s, &plan->runs[i]);
		merge_labels(&s, plan);
		if (store_no_engine(st, suite_id, &s, RUN_FAILED, why, art, &run_id, &err) < 0) {
			ls->code = cli_fail(&err);
			ls->stop = 1;
		} else {
			ls->failed++;
			if (!o->quiet)
				fprintf(stderr, "[%zu/%zu] %s: failed (%s)\n", i + 1, plan->n, cli_safe(s.name), cli_safe(why));
		}
		run_spec_release(&s);
	}
}

/* Adds the teardown log as artifact config.teardown of run `run_id`. */
static void config_store_teardown(struct store *st, int64_t run_id, const char *text)
{
	struct run_result res;
	struct errbuf err;

	if (!run_id)
		return;
	errbuf_init(&err);
	run_result_init(&res);
	run_result_add_artifact(&res, "config.teardown", text, strlen(text));
	if (store_begin(st, &err) < 0 || store_run_write_result(st, run_id, &res, &err) < 0 ||
	    store_commit(st, &err) < 0)
		cli_warn("the teardown log was not stored: %s", err.msg);
	run_result_release(&res);
}

/* Whether every run of [first, end) is done already (a --resume skips the configuration without building it). */
static int config_all_done(struct store *st, int64_t suite_id, const struct plan *plan, size_t first, size_t end,
			   const struct runloop_opts *o)
{
	int64_t id;
	for (size_t i = first; i < end; i++)
		if (already_done(st, suite_id, &plan->runs[i], o, &id) != 1)
			return 0;
	return 1;
}

/* Whether a run needs the stack: engines other than fio (sim, null) model or skip the target. */
static int config_needs_steps(const struct plan *plan, size_t first, size_t end)
{
	for (size_t i = first; i < end; i++)
		if (!plan->runs[i].engine || !strcmp(plan->runs[i].engine, "fio"))
			return 1;
	return 0;
}

/*
 * A teardown step failed: the stack may still be built (mounted, assembled, exported), so the suite is not a
 * success (exit 4, unless it already ends with another code) and the error line names the step where it is
 * written, its argv and its exit code. The other teardown steps have run (steps_run_phase).
 */
static void config_teardown_failed(const struct suite_config *c, const struct step_record *failed,
				   struct loop_state *ls)
{
	char *t = step_failure_text(failed);

	cli_error(EXIT_HOST, "%s: configuration '%s': %s (the stack may be left built: check it before the next run)",
		  failed->origin ? failed->origin : c->file, cli_safe(c->name), cli_safe(t));
	free(t);
	if (ls->code == EXIT_OK)
		ls->code = EXIT_HOST;
}

/*
 * A configuration's baselines (`baseline = on`), before its setup (built = 0) and once built (1): baseline_plan.c
 * says which runs, each is run and stored like any other run, outside the plan's count. A baseline that fails is
 * said and the workloads still run.
 */
static void config_baselines(struct store *st, int64_t suite_id, const struct plan *plan,
			     const struct runloop_opts *o, const struct suite_config *c, size_t first, size_t end,
			     int built, const struct kvlist *labels, const char *record, const struct kvlist *art,
			     struct loop_state *ls)
{
	struct plan bl;
	struct errbuf err;

	plan_init(&bl);
	errbuf_init(&err);
	if (baseline_plan_config(st, plan, c, first, end, built, o->quiet, o->hosts, labels, record, &bl, &err) < 0)
		cli_warn("configuration '%s': no baseline: %s", cli_safe(c->name), err.msg);
	for (size_t k = 0; k < bl.n && !ls->stop; k++) {
		enum run_status status = RUN_FAILED;
		int64_t id = 0;

		if (run_one(st, suite_id, &bl.runs[k], o, k + 1, bl.n, ls->remaining, art, &status, &id, &err) < 0) {
			ls->code = cli_fail(&err);
			ls->stop = 1;
		} else if (status != RUN_DONE) {
			cli_warn("configuration '%s': baseline run '%s' did not finish: its figures are not evidence",
				 cli_safe(c->name), cli_safe(bl.runs[k].name));
		}
	}
	plan_release(&bl);
}

/* One configuration from build to teardown. */
static void run_config(struct store *st, int64_t suite_id, const struct plan *plan, const struct runloop_opts *o,
		       const struct suite_config *c, size_t first, size_t end, const char *state, const char *workdir,
		       struct loop_state *ls)
{
	struct step_log log;
	struct kvlist labels, art;
	struct strbuf record, text;
	const struct step_record *failed;
	char *why = NULL;
	int64_t last_id = 0;
	int steps = config_needs_steps(plan, first, end);
	size_t built;

	step_log_init(&log);
	kvlist_init(&labels);
	kvlist_init(&art);
	strbuf_init(&record);
	strbuf_init(&text);
	if (!o->quiet)
		fprintf(stderr, "configuration '%s': %s\n", cli_safe(c->name),
			steps ? "building" : "steps not run (the engine models the target)");
	if (steps)
		config_state_write(state, c->name);
	if (steps)
		config_baselines(st, suite_id, plan, o, c, first, end, 0, NULL, "", NULL, ls);
	if (steps && config_build(c, plan, first, end, o, workdir, &log, &labels, &record, &why) < 0) {
		step_log_text(&log, 0, &text);
		kvlist_set(&art, "config.steps", text.buf ? text.buf : "");
		if (!o->quiet)
			fputs(text.buf ? text.buf : "", stderr);
		config_fail_runs(st, suite_id, plan, first, end, o, why, &art, ls);
		ls->code = EXIT_HOST;
		if (o->stop_on_config_failure && !ls->stop) {
			cli_error(EXIT_HOST, "%s: stopping the suite (--stop-on-config-failure)", why);
			ls->stop = 1;
		}
	} else {
		if (steps) { /* a modelled target (sim, null) has no steps and no record */
			step_log_text(&log, 0, &text);
			kvlist_set(&art, "config.steps", text.buf ? text.buf : "");
			kvlist_set(&art, "config.record", record.buf ? record.buf : "");
		}
		config_baselines(st, suite_id, plan, o, c, first, end, 1, &labels, record.buf ? record.buf : "", &art, ls);
		for (size_t i = first; i < end && !ls->stop; i++)
			run_at(st, suite_id, plan, o, i, &labels, &art, &last_id, ls);
	}
	if (cli_interrupted && !ls->stop) {
		ls->code = EXIT_INTERRUPTED;
		ls->stop = 1;
	}
	if (steps && why && !log.n) {
		unlink(state); /* refused before its first step (members hold data): nothing to tear down */
	} else if (steps) {
		built = log.n;
		if (!o->quiet)
			fprintf(stderr, "configuration '%s': teardown\n", cli_safe(c->name));
		if (steps_run_phase(c, CONFIG_TEARDOWN, o->hosts, workdir, NULL, &log, &failed) < 0)
			config_teardown_failed(c, failed, ls);
		strbuf_reset(&text);
		step_log_text(&log, built, &text);
		config_store_teardown(st, last_id, text.buf ? text.buf : "");
		unlink(state);
	}
	free(why);
	strbuf_release(&record);
	strbuf_release(&text);
	kvlist_release(&labels);
	kvlist_release(&art);
	step_log_release(&log);
}

static void runloop_configs(struct store *st, int64_t suite_id, const struct plan *plan,
			    const struct runloop_opts *o, struct loop_state *ls)
{
	char *state = config_state_path(st, plan), *workdir = NULL;
	struct errbuf err;

	errbuf_init(&err);
	if (make_workdir(&workdir, &err) < 0) {
		ls->code = cli_fail(&err);
		ls->stop = 1;
		free(state);
		return;
	}
	config_leftover(state, o, workdir);
	for (size_t ci = 0; ci < plan->nconfigs && !ls->stop; ci++) {
		const struct suite_config *c = &o->configs->v[plan->configs[ci].config];
		size_t first = plan->configs[ci].first, end = plan->configs[ci].end;

		if (first == end)
			continue;
		if (config_all_done(st, suite_id, plan, first, end, o)) {
			for (size_t i = first; i < end; i++)
				ls->remaining -= spec_time_s(&plan->runs[i]);
			ls->done += end - first;
			ls->skipped += end - first;
			continue;
		}
		run_config(st, suite_id, plan, o, c, first, end, state, workdir, ls);
	}
	rm_tree(workdir);
	free(workdir);
	free(state);
}

int runloop_run(struct store *st, const struct plan *plan, const struct runloop_opts *o)
{
	struct errbuf err;
	int64_t suite_id = 0;
	struct loop_state ls;

	memset(&ls, 0, sizeof(ls));
	ls.code = EXIT_OK;
	ls.mc.st = st;
	ls.mc.plan = plan;
	ls.mc.hosts = o->hosts;
	ls.mc.destructive = o->destructive;
	ls.mc.overwrite_files = o->overwrite_files;
	errbuf_init(&err);
	if (o->resume && store_suite_find(st, plan->name, o->args, &suite_id, &err) < 0) {
		ls.code = cli_fail(&err);
		goto out;
	}
	if (o->resume && !suite_id)
		cli_warn("--resume: no earlier suite '%s' with the same arguments in '%s': starting a new one", plan->name,
			 store_path(st));
	if (!suite_id &&
	    store_suite_add(st, plan->name, "run", o->args, (unsigned)plan->n, &plan->labels, &suite_id, &err) < 0) {
		ls.code = cli_fail(&err);
		goto out;
	}
	ls.mc.suite_id = suite_id;
	if (store_suite_lock(st, suite_id, &err) < 0) { /* one bench run per suite at a time */
		suite_id = 0;
		ls.code = cli_fail(&err);
		goto out;
	}
	for (size_t i = 0; i < plan->n; i++)
		ls.remaining += spec_time_s(&plan->runs[i]);
	{
		char *root = work_root(&err);
		if (root)
			sweep_dead_workdirs(root);
		free(root);
		errbuf_init(&err);
	}
	cli_trap_signals();
	if (o->configs && o->configs->n) {
		runloop_configs(st, suite_id, plan, o, &ls);
	} else {
		for (size_t i = 0; i < plan->n && !ls.stop; i++) {
			int64_t run_id;
			run_at(st, suite_id, plan, o, i, NULL, NULL, &run_id, &ls);
		}
	}
	if (ls.stop)
		goto out;
	if (!o->quiet) {
		fprintf(stderr, "suite %lld '%s': %zu runs, %zu done", (long long)suite_id, cli_safe(plan->name), plan->n,
			ls.done);
		if (ls.skipped)
			fprintf(stderr, " (%zu already done before --resume)", ls.skipped);
		if (ls.not_run)
			fprintf(stderr, ", %zu not run (after their sweep, curve or steady-state rounds ended)", ls.not_run);
		if (ls.partial)
			fprintf(stderr, ", %zu partial", ls.partial);
		if (ls.failed)
			fprintf(stderr, ", %zu failed", ls.failed);
		fprintf(stderr, "; stored in %s\n", store_path(st));
	}
	if (ls.failed || ls.partial) {
		ls.code = EXIT_HOST;
		if (o->quiet) /* -q drops the per-run lines, never the failure */
			cli_error(EXIT_HOST, "suite %lld '%s': %zu of %zu runs failed, %zu partial; stored in %s",
				  (long long)suite_id, cli_safe(plan->name), ls.failed, plan->n, ls.partial,
				  store_path(st));
	}
out:
	if (suite_id)
		store_suite_unlock(st, suite_id);
	return ls.code;
}
