/*
 * fio_client: one run on many hosts through fio's client/server mode (reference/fio.md "Client/server
 * mode"; docs/multihost.md). prepare checks every initiator's fio server (engines/fio_hosts.h) and writes one
 * job file per host with that host's targets; start runs ONE fio client process for all hosts:
 *
 *     fio --client=A,8765 A.fio --client=B,8765 B.fio ... --output-format=json+ --output=fio-output.json
 *
 * (the output format after the client arguments, so server text does not end up inside the JSON); collect
 * parses client_stats[] and keeps one result per host plus bench's own aggregate (core/aggregate.h: fio 3.33's
 * "All clients" entry has no percentiles and is ignored).
 *
 * Failures: fio exits 0 when a server cannot be reached and just leaves its stats out, so a host is good only
 * when its own entry is in the output. A host without an entry, or with a fio error, gets errmsg set and the
 * run is RUN_PARTIAL (some hosts survived) or RUN_FAILED (none did); the message names the hosts. Refusing
 * to start a suite with an unreachable host is the preflight's job (fio_hosts_check(), before any load,
 * unless --allow-partial); a host whose server does not answer the probe at prepare (it was lost after the
 * suite started, or --allow-partial let the suite start without it) is left out of the run and reported the
 * same way, so the suite can go on with the other hosts.
 *
 * Start offsets: fio 3.33's JSON has no per-job start time. Every job file asks fio for an IOPS log with
 * log_unix_epoch=1 and log_avg_msec=FIO_CLIENT_LOG_MS; the servers send their logs to the client, which writes
 * them as <name>_iops.<job>.log.<address> in the run's directory (with run->logs: log_avg_msec=1000 and
 * latency and bandwidth logs too, which are also stored as the host's samples, t_ms from the earliest host's
 * start). The first entry of a window-averaged log is
 * written when the first window after the start of measurement (after ramp_time) closes, so
 * (first entry time - window) is the host's measured start (wall clock of that host). A host's offset is its
 * start minus the earliest host's start, in ms (NAN when its log is missing). Hosts' clocks must be in sync
 * (NTP) for the figure to mean anything across machines; on one machine (bench lab) they share the clock.
 */
#include "engines/fio_client.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "core/aggregate.h"
#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "engines/fio_hosts.h"
#include "engines/fio_jobfile.h"
#include "engines/fio_json.h"
#include "engines/fio_histlog.h"
#include "engines/fio_log.h"

#define FIO_CLIENT_LOG_MS 100
#define FIO_CLIENT_LOG_MS_TEXT "100"
#define FIO_CLIENT_LOG_NAME "bench-start"
/* with --logs: the run loop's sample interval, and IOPS, bandwidth and latency logs */
#define FIO_CLIENT_SAMPLE_MS 1000
#define FIO_CLIENT_SAMPLE_MS_TEXT "1000"
#define FIO_CLIENT_SAMPLE_NAME "bench"
#define PROBE_TIMEOUT_MS FIO_PROBE_TIMEOUT_MS
/*
 * The start barrier: every host's jobs wait (exec_prerun, after laying out their files) until the same wall
 * clock time, this far after the job files are written: the time fio's client needs to hand the job to
 * every server (a fio 3.33 server looks at an idle connection once a second) plus a share per host.
 */
#define FIO_CLIENT_SYNC_LEAD_MS(n) (1200 + 8 * (long long)(n))
/*
 * ... and learnt: when the latest host reached the barrier late in a run, the next run of this process waits
 * that much longer (plus 100 ms); when every host was early, the wait shrinks by the margin. Kept within
 * [0, FIO_CLIENT_SYNC_EXTRA_MAX_MS] on top of the lead above.
 */
#define FIO_CLIENT_SYNC_EXTRA_MAX_MS 30000
static long long sync_extra_ms;

struct client_host {
	const struct host *h;
	char *skipped;       /* why it was left out at prepare, or NULL */
	char *fio_version;   /* from the probe */
	char *jobfile;       /* path */
	char *jobtext;
};

#define CH(f) offsetof(struct client_host, f)
static const size_t client_host_strs[] = { CH(skipped), CH(fio_version), CH(jobfile), CH(jobtext) };
#undef CH

struct client_priv {
	struct client_host *hosts;
	size_t n;
	char *dir;           /* run->workdir/hosts */
	char *outpath, *errpath;
	const char *log_name; /* prefix of the fio logs the servers send back */
	unsigned log_ms;      /* their log_avg_msec */
	long long barrier_ms; /* the start barrier, epoch ms */
	struct proc proc;
	int started, ended;
};

static struct client_priv *priv_of(struct engine_run *run)
{
	return run->priv;
}

static int write_file(const char *path, const char *text, size_t len, struct errbuf *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return err_set(err, ERR_HOST, "cannot write '%s': %s", path, strerror(errno));
	if (fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		int e = errno;
		if (f)
			fclose(f);
		return err_set(err, ERR_HOST, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

/*
 * exec_prerun text that sleeps until epoch_ms on the host running the job (POSIX sh arithmetic and GNU
 * date's %3N; fio passes it to system()). Never fails the job: a host whose shell or date cannot do it, or
 * that reaches the barrier late, just starts at once (its offset shows it).
 */
static char *barrier_cmd(long long epoch_ms)
{
	return xasprintf("sh -c 'd=$(( %lld - $(date +%%s%%3N) )) && [ $d -gt 0 ] && sleep $(( d / 1000 )).$(( d %% 1000 "
			 "/ 100 ))$(( d / 10 %% 10 ))$(( d %% 10 )) || :' || :",
			 epoch_ms);
}

static long long epoch_ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int fio_client_prepare(struct engine_run *run, struct errbuf *err)
{
	const struct host_list *hl = run->hosts;
	struct client_priv *p;
	struct kvlist extra;
	char local[64];
	size_t usable = 0;
	struct fio_host_status *st = NULL;
	int ret = -1;

	if (!hl || !hl->n)
		return err_set(err, ERR_INTERNAL, "fio_client_prepare called without hosts");
	if (fio_local_version(local, sizeof(local), err) < 0)
		return -1;
	p = xcalloc(1, sizeof(*p));
	run->priv = p;
	p->dir = xasprintf("%s/hosts", run->workdir ? run->workdir : ".");
	if (mkdir(p->dir, 0755) < 0 && errno != EEXIST)
		return err_set(err, ERR_HOST, "cannot create '%s': %s", p->dir, strerror(errno));
	p->outpath = xasprintf("%s/fio-output.json", p->dir);
	p->errpath = xasprintf("%s/fio-stderr.txt", p->dir);
	p->hosts = xcalloc(hl->n, sizeof(*p->hosts));
	kvlist_init(&extra);
	if (run->logs) {
		p->log_name = FIO_CLIENT_SAMPLE_NAME;
		p->log_ms = FIO_CLIENT_SAMPLE_MS;
		kvlist_add(&extra, "write_lat_log", p->log_name);
		kvlist_add(&extra, "write_bw_log", p->log_name);
		kvlist_add(&extra, "write_iops_log", p->log_name);
		kvlist_add(&extra, "log_avg_msec", FIO_CLIENT_SAMPLE_MS_TEXT);
		kvlist_add(&extra, "write_hist_log", p->log_name);
		kvlist_add(&extra, "log_hist_msec", FIO_CLIENT_SAMPLE_MS_TEXT);
	} else {
		p->log_name = FIO_CLIENT_LOG_NAME;
		p->log_ms = FIO_CLIENT_LOG_MS;
		kvlist_add(&extra, "write_iops_log", p->log_name);
		kvlist_add(&extra, "log_avg_msec", FIO_CLIENT_LOG_MS_TEXT);
	}
	kvlist_add(&extra, "log_unix_epoch", "1");
	/*
	 * The preflight again, per run and bounded per host (fio_hosts.h): probe and version; the 4 KiB target
	 * read only for hosts that did not pass it earlier in the suite (a server that answers probes but no
	 * jobs fails it). A host that fails is left out and the run
	 * is partial, instead of one silent server holding the whole fio client until the run's deadline.
	 */
	{
		struct fio_hosts_check_opts o = { 1, run->destructive, 1, PROBE_TIMEOUT_MS, p->dir };
		struct errbuf e;
		errbuf_init(&e);
		st = xcalloc(hl->n, sizeof(*st));
		(void)fio_hosts_check_again(hl, &o, st, &e);
	}
	{
		char *cmd;
		p->barrier_ms = epoch_ms_now() + FIO_CLIENT_SYNC_LEAD_MS(hl->n) + sync_extra_ms;
		cmd = barrier_cmd(p->barrier_ms);
		kvlist_add(&extra, "exec_prerun", cmd);
		free(cmd);
	}
	for (size_t i = 0; i < hl->n; i++) {
		const struct host *h = &hl->v[i];
		struct client_host *ch;
		const struct fio_server_info *info = &st[i].info;
		struct strbuf jf;
		char *const *targets = h->targets;
		size_t ntargets = h->ntargets;

		if (h->role != ROLE_INITIATOR)
			continue;
		ch = &p->hosts[p->n++];
		ch->h = h;
		if (!ntargets) {
			targets = run->spec->targets;
			ntargets = run->spec->ntargets;
		}
		if (!ntargets) {
			err_set(err, ERR_INPUT, "%s:%d: host '%s' has no targets (add target=PATH to the hosts file)",
				h->src_file ? h->src_file : "hosts", h->src_line, h->name);
			goto fail;
		}
		/*
		 * The suite's preflight (fio_hosts_check) already refused unreachable hosts unless --allow-partial;
		 * a host that fails the probe here was lost after the suite started: it is left out and the run is
		 * partial (collect names it), so that the suite can go on with the others.
		 */
		if (st[i].state != FIO_HOST_OK) {
			ch->skipped = xasprintf("host '%s' left out: %s", h->name, st[i].problem ? st[i].problem : "no reply");
			continue;
		}
		ch->fio_version = xstrdup(info->fio_version);
		strbuf_init(&jf);
		if (fio_jobfile_write(run->spec, targets, ntargets, &extra, &jf, err) < 0) {
			strbuf_release(&jf);
			err_prefix(err, "host '%s'", h->name);
			goto fail;
		}
		ch->jobtext = strbuf_detach(&jf, NULL);
		ch->jobfile = xasprintf("%s/job-%s.fio", p->dir, h->name);
		if (write_file(ch->jobfile, ch->jobtext, strlen(ch->jobtext), err) < 0)
			goto fail;
		usable++;
	}
	ret = 0;
	if (!p->n)
		ret = err_set(err, ERR_INPUT, "the hosts file has no initiator hosts");
	else if (!usable)
		ret = err_set(err, ERR_HOST, "no host can run the load: %s", p->hosts[0].skipped);
fail:
	kvlist_release(&extra);
	fio_host_status_release(st, st ? hl->n : 0);
	free(st);
	return ret;
}

/* Whether a file in the run directory is one of the logs fio wrote for the host at addr ("NAME_iops.1.log.ADDR"). */
static int is_host_log(const char *name, const char *prefix, const char *addr)
{
	size_t nl = strlen(name), al = strlen(addr), pl = strlen(prefix);

	if (strncmp(name, prefix, pl) || name[pl] != '_' || nl <= al + 1)
		return 0;
	return name[nl - al - 1] == '.' && !strcmp(name + nl - al, addr) && strstr(name, ".log.") != NULL;
}

/* Logs of an earlier run in the same directory would give wrong start offsets. */
static void remove_old_logs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, FIO_CLIENT_LOG_NAME "_", sizeof(FIO_CLIENT_LOG_NAME)) ||
		    !strncmp(de->d_name, FIO_CLIENT_SAMPLE_NAME "_", sizeof(FIO_CLIENT_SAMPLE_NAME))) {
			char *path = xasprintf("%s/%s", dir, de->d_name);
			unlink(path);
			free(path);
		}
	}
	closedir(d);
}

int fio_client_start(struct engine_run *run, struct errbuf *err)
{
	struct client_priv *p = priv_of(run);
	char **argv;
	size_t argc = 0;
	int ret;

	if (!p)
		return err_set(err, ERR_INTERNAL, "fio_client_start before prepare");
	argv = xcalloc(2 * p->n + 4, sizeof(*argv));
	argv[argc++] = xstrdup("fio");
	for (size_t i = 0; i < p->n; i++) {
		char *ca;
		if (p->hosts[i].skipped)
			continue;
		ca = host_fio_client_arg(p->hosts[i].h);
		argv[argc++] = xasprintf("--client=%s", ca);
		free(ca);
		argv[argc++] = xstrdup(p->hosts[i].jobfile);
	}
	/* after the client arguments: server text would otherwise land inside the JSON */
	argv[argc++] = xstrdup("--output-format=json+");
	argv[argc++] = xasprintf("--output=%s", p->outpath);
	unlink(p->outpath);
	remove_old_logs(p->dir);
	ret = proc_start(&p->proc, argv, p->dir, p->errpath, p->errpath, err);
	for (size_t i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	if (ret < 0)
		return -1;
	p->started = 1;
	return 0;
}

int fio_client_wait(struct engine_run *run, int timeout_ms, struct errbuf *err)
{
	struct client_priv *p = priv_of(run);

	if (!p || !p->started)
		return err_set(err, ERR_INTERNAL, "fio_client_wait before start");
	if (p->ended)
		return 1;
	if (proc_wait(&p->proc, timeout_ms) == 1) {
		p->ended = 1;
		return 1;
	}
	return 0;
}

/* Earliest (first entry time - window) over this host's IOPS logs, in epoch ms; NAN when there is none. */
static double host_start_ms(const struct client_priv *p, const char *addr)
{
	double best = NAN;
	DIR *d = opendir(p->dir);
	struct dirent *de;

	if (!d)
		return NAN;
	while ((de = readdir(d))) {
		char line[256], *end, *path;
		FILE *f;
		double t;

		if (!is_host_log(de->d_name, p->log_name, addr) || !strstr(de->d_name, "_iops."))
			continue;
		path = xasprintf("%s/%s", p->dir, de->d_name);
		f = fopen(path, "r");
		free(path);
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f)) {
			errno = 0;
			t = strtod(line, &end);
			if (!errno && end != line && *end == ',' && t > 0) {
				t -= p->log_ms;
				if (isnan(best) || t < best)
					best = t;
			}
		}
		fclose(f);
	}
	closedir(d);
	return best;
}

/* With --logs: the host's logs as samples, t_ms from the start of the earliest host (epoch_ms0). */
static void host_samples(const struct client_priv *p, const struct host *h, double epoch_ms0, struct run_result *out)
{
	struct fio_log *logs = NULL;
	size_t n = 0, cap = 0, first = out->nsamples;
	DIR *d = opendir(p->dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path, *bare;
		int kind;
		struct errbuf e;

		if (!is_host_log(de->d_name, p->log_name, h->addr))
			continue;
		/* "bench_iops.1.log.ADDR" -> kind of "bench_iops.1.log" */
		bare = xstrndup(de->d_name, strlen(de->d_name) - strlen(h->addr) - 1);
		kind = fio_log_kind_from_name(bare);
		if (kind < 0 && fio_histlog_name(bare) && !isnan(epoch_ms0)) {
			/* histogram log: epoch stamps too, on the same clock as the others */
			errbuf_init(&e);
			path = xasprintf("%s/%s", p->dir, de->d_name);
			fio_histlog_read(path, h->name, (int64_t)epoch_ms0, p->log_ms, FIO_HISTLOG_CLIENT, out, &e);
			free(path);
		}
		free(bare);
		if (kind < 0)
			continue;
		ARRAY_GROW(logs, cap, n + 1);
		fio_log_init(&logs[n]);
		errbuf_init(&e);
		path = xasprintf("%s/%s", p->dir, de->d_name);
		if (fio_log_parse_file(path, (enum fio_log_kind)kind, p->log_ms, &logs[n], &e) == 0)
			n++;
		else
			fio_log_release(&logs[n]);
		free(path);
	}
	closedir(d);
	if (n)
		fio_logs_to_samples(logs, n, h->name, out);
	for (size_t i = first; !isnan(epoch_ms0) && i < out->nsamples; i++)
		if (strcmp(out->samples[i].source, "fio-histlog")) /* those came with t0 subtracted */
			out->samples[i].t_ms -= (int64_t)epoch_ms0;
	for (size_t i = 0; i < n; i++)
		fio_log_release(&logs[i]);
	free(logs);
}

/* The "client: host=X disconnected" (or similar) line fio printed about this address, or NULL. */
static char *fio_said(const char *text, const char *addr)
{
	char *key;
	const char *at;

	if (!text)
		return NULL;
	key = xasprintf("host=%s ", addr);
	at = strstr(text, key);
	if (!at) {
		free(key);
		key = xasprintf("<%s>", addr);
		at = strstr(text, key);
	}
	free(key);
	if (!at) {
		return NULL;
	}
	while (at > text && at[-1] != '\n')
		at--;
	return xstrndup(at, strcspn(at, "\r\n"));
}

/* How late the latest host reached the start barrier (its measured start - ramp), for the next run's lead. */
static void learn_barrier(const struct client_priv *p, const double *starts, long long ramp_ms)
{
	double latest = NAN;

	for (size_t i = 0; i < p->n; i++)
		if (!isnan(starts[i]) && (isnan(latest) || starts[i] > latest))
			latest = starts[i];
	if (isnan(latest) || !p->barrier_ms)
		return;
	sync_extra_ms += (long long)latest - ramp_ms - p->barrier_ms + 100;
	if (sync_extra_ms < 0)
		sync_extra_ms = 0;
	if (sync_extra_ms > FIO_CLIENT_SYNC_EXTRA_MAX_MS)
		sync_extra_ms = FIO_CLIENT_SYNC_EXTRA_MAX_MS;
}

int fio_client_collect(struct engine_run *run, struct run_result *out, enum run_status *status, struct errbuf *err)
{
	struct client_priv *p = priv_of(run);
	struct strbuf text, errtext, failed;
	struct fio_output fo;
	struct errbuf perr;
	int parsed = 0, code = -1, ret = -1;
	size_t good = 0;
	double first = NAN, *starts;

	*status = RUN_FAILED;
	if (!p || !p->started)
		return err_set(err, ERR_INTERNAL, "fio_client_collect before start");
	strbuf_init(&text);
	strbuf_init(&errtext);
	strbuf_init(&failed);
	fio_output_init(&fo);
	errbuf_init(&perr);
	if (p->ended)
		code = proc_exit_code(&p->proc);
	for (size_t i = 0; i < p->n; i++)
		if (p->hosts[i].jobtext) {
			char *name = xasprintf("jobfile.%s", p->hosts[i].h->name);
			run_result_add_artifact(out, name, p->hosts[i].jobtext, strlen(p->hosts[i].jobtext));
			free(name);
		}
	if (strbuf_read_file(&text, p->outpath) == 0) {
		run_result_add_artifact(out, "fio-output.json", text.buf, text.len);
		parsed = fio_json_parse(text.buf, text.len, "fio-output.json", &fo, &perr) == 0;
	} else {
		err_set(&perr, ERR_HOST, "fio wrote no output file");
	}
	if (strbuf_read_file(&errtext, p->errpath) == 0 && errtext.len)
		run_result_add_artifact(out, "fio-stderr.txt", errtext.buf, errtext.len);
	starts = xcalloc(p->n ? p->n : 1, sizeof(*starts));
	for (size_t i = 0; i < p->n; i++) {
		starts[i] = p->hosts[i].skipped ? NAN : host_start_ms(p, p->hosts[i].h->addr);
		if (!isnan(starts[i]) && (isnan(first) || starts[i] < first))
			first = starts[i];
	}
	learn_barrier(p, starts, (long long)run->spec->wl.ramp_s * 1000);
	for (size_t i = 0; i < p->n; i++) {
		struct client_host *ch = &p->hosts[i];
		const struct host *h = ch->h;
		const struct fio_job **mine = xcalloc(fo.njobs ? fo.njobs : 1, sizeof(*mine));
		size_t nm = 0;
		struct host_result *hr = run_result_add_host(out, h->name);

		hr->fio_version = xstrdup(ch->fio_version);
		hr->start_offset_ms = isnan(starts[i]) ? NAN : starts[i] - first;
		if (ch->skipped) {
			hr->errmsg = xstrdup(ch->skipped);
			strbuf_addf(&failed, "%s%s (left out: not reachable)", failed.len ? ", " : "", h->name);
			free(mine);
			continue;
		}
		for (size_t k = 0; parsed && k < fo.njobs; k++) {
			const struct fio_job *j = &fo.jobs[k];
			if (j->hostname && !strcmp(j->hostname, h->addr) && (!j->port || j->port == h->port))
				mine[nm++] = j;
		}
		if (nm)
			fio_jobs_combine(mine, nm, hr);
		free(mine);
		if (!nm) {
			char *said = fio_said(fo.text_before, h->addr);
			if (!said)
				said = fio_said(text.buf, h->addr);
			if (!said)
				said = fio_said(errtext.buf, h->addr);
			hr->errmsg = xasprintf("host '%s' (%s:%u) gave no results%s%s%s", h->name, h->addr, h->port,
					       said ? " (fio: " : "", said ? said : "", said ? ")" : "");
			hr->start_offset_ms = NAN;
			free(said);
			strbuf_addf(&failed, "%s%s (no results: lost during the run)", failed.len ? ", " : "", h->name);
		} else if (hr->error) {
			hr->errmsg = xasprintf("host '%s': fio error %d (%s)", h->name, hr->error, strerror(hr->error));
			strbuf_addf(&failed, "%s%s (fio error %d)", failed.len ? ", " : "", h->name, hr->error);
		} else {
			good++;
		}
		if (run->logs && nm)
			host_samples(p, h, first, out);
	}
	free(starts);
	if (good)
		run_result_aggregate(out);
	if (parsed)
		fio_output_ss_labels(&fo, &out->labels);
	if (!parsed) {
		err_set(err, ERR_HOST, "fio client (exit %d) gave no usable output: %s", code, perr.msg);
		*status = RUN_FAILED;
		ret = out->nhosts ? 0 : -1;
	} else if (good == p->n) {
		if (code != 0) {
			/* every host reported, yet fio failed: do not call it done */
			err_set(err, ERR_HOST, "fio client exited with %d although every host reported", code);
			*status = RUN_PARTIAL;
		} else {
			*status = RUN_DONE;
		}
		ret = 0;
	} else if (good) {
		err_set(err, ERR_HOST, "%zu of %zu hosts failed: %s", p->n - good, p->n, failed.buf);
		*status = RUN_PARTIAL;
		ret = 0;
	} else {
		err_set(err, ERR_HOST, "every host failed: %s", failed.buf);
		*status = RUN_FAILED;
		ret = 0;
	}
	fio_output_release(&fo);
	strbuf_release(&text);
	strbuf_release(&errtext);
	strbuf_release(&failed);
	return ret;
}

void fio_client_stop(struct engine_run *run)
{
	struct client_priv *p = priv_of(run);

	if (!p || !p->started || p->ended)
		return;
	/* SIGTERM makes the fio client tell every server to stop its jobs, then exit */
	proc_stop(&p->proc, 5000);
	p->ended = 1;
}

void fio_client_release(struct engine_run *run)
{
	struct client_priv *p = priv_of(run);

	if (!p)
		return;
	fio_client_stop(run);
	array_free_members(p->hosts, p->n, sizeof(*p->hosts), client_host_strs,
			   sizeof(client_host_strs) / sizeof(client_host_strs[0]));
	free(p->dir);
	free(p->outpath);
	free(p->errpath);
	free(p);
	run->priv = NULL;
}
