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
 * Hung hosts (docs/multihost.md "A hung host"): fio's client writes results only once every host is done, so
 * one host that never finishes would cost every host's results. Each host therefore has its own deadline
 * (FIO_CLIENT_HANG_MS after the run time and after the first host finished, a host being done when its IOPS
 * log reaches the client); a host past it is failed as hung and the client is made to finish with the others.
 * Before each run, job processes left on a local host's fio server by an earlier run whose connection is gone
 * (a fio 3.33 server then does not finish the next job) leave that host out and are stopped.
 *
 * Start offsets: fio 3.33's JSON has no per-job start time. Every job file asks fio for a latency log with
 * log_unix_epoch=1 and log_avg_msec=FIO_CLIENT_LOG_MS (with run->logs: log_avg_msec=1000 and IOPS, bandwidth
 * and histogram logs too, which are also stored as the host's samples, t_ms from the earliest host's start);
 * the servers send their logs to the client, which writes them as <name>_clat.<job>.log.<address> in the
 * run's directory. A window-averaged latency log gets its entries in the job's own IO path (stat.c
 * add_log_sample): the first one at the first IO that completes a window after the start of measurement (the
 * end of ramp_time, or the barrier when there is none: backend.c sets the log's epoch right after
 * exec_prerun), stamped with that IO's time. So (first entry time - window) is the host's measured start
 * (wall clock of that host) to within the time between two IOs. (The IOPS log used before gets its entries on
 * fio's helper thread's tick, up to a window later: 4 hosts that left the barrier together showed starts
 * 155 ms apart.) A host's offset is its start minus the earliest host's start, in ms (NAN when its log is
 * missing). Hosts' clocks must be in sync (NTP) for the figure to mean anything across machines; on one
 * machine (bench lab) they share the clock.
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
#include <limits.h>
#include <signal.h>
#include <sys/types.h>
#include <arpa/inet.h>

#include "core/aggregate.h"
#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/fio_hosts.h"
#include "engines/fio_jobfile.h"
#include "engines/fio_json.h"
#include "engines/fio_histlog.h"
#include "engines/fio_log.h"
#include "engines/fio_logname.h"

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
 * clock time, this far after the job files are written. What it covers (fio 3.33 server.c handle_connection):
 * a server's connection process reads fio's client's PROBE at once only when it is there at its first look;
 * else it sleeps 1 s first (fio's idle timer: nothing but the server itself wakes it). After answering it sleeps
 * 1 s again, and the job file and RUN command, sent meanwhile, wait for that: a host gets its job 1 s, or 2 s,
 * after fio's client connected. Then fio's client start-up, the server's fork, parse and layout: 200 ms, and
 * a share per host.
 */
#define FIO_CLIENT_SYNC_LEAD_MS(n) (2200 + 8 * (long long)(n))
/*
 * ... and learnt: when the latest host reached the barrier more than FIO_CLIENT_SYNC_LATE_MS late, the next
 * run of this process waits that much longer (plus 100 ms); after a run where no host was that late, the wait
 * shrinks by 100 ms (a host that waits at the barrier cannot say how early it was). Kept within
 * [0, FIO_CLIENT_SYNC_EXTRA_MAX_MS] on top of the lead above.
 */
#define FIO_CLIENT_SYNC_EXTRA_MAX_MS 30000
#define FIO_CLIENT_SYNC_LATE_MS 20
/*
 * One run changes the learnt wait by at most this much: a host that was late by more (a server stopped in the
 * middle of the run, a hung host) says nothing about the start spread and must not hold every later run.
 */
#define FIO_CLIENT_SYNC_LEARN_MAX_MS 2000
/*
 * The first run of a process starts with this much learnt already: its fio client starts cold, and on a busy
 * 2-core machine its 4 hosts reached a 2.2 s barrier 60-320 ms late; later runs shrink it by 100 ms each.
 */
#define FIO_CLIENT_SYNC_FIRST_EXTRA_MS 800
static long long sync_extra_ms = FIO_CLIENT_SYNC_FIRST_EXTRA_MS;
/*
 * A host's own deadline (docs/multihost.md "A hung host"): each host's job sends its logs to the client when
 * it ends, so a host is done when its log file is there. Once some host is done, a host that is not done
 * FIO_CLIENT_HANG_MS after both that moment and the end of the run time (barrier + ramp + runtime) made no
 * progress: it is failed as hung, its local job processes are stopped and the client is made to finish with
 * the others. FIO_CLIENT_QUIT_MS: how long the client then gets to finish before it is stopped (SIGTERM: fio
 * tells its servers to quit; SIGKILL after as long again).
 */
#define FIO_CLIENT_HANG_MS 10000

/*
 * FIO_CLIENT_HANG_MS, or for tests only the environment's BENCH_TEST_HANG_MS (100..600000 ms; anything else is
 * ignored): tests/integration/hosts_hung.sh would otherwise wait 10 s for each hang it provokes.
 */
static long long hang_ms(void)
{
	const char *v = getenv("BENCH_TEST_HANG_MS");
	long ms;

	if (v && parse_long(v, 100, 600000, &ms) == 0)
		return ms;
	return FIO_CLIENT_HANG_MS;
}
#define FIO_CLIENT_QUIT_MS 3000

struct client_host {
	const struct host *h;
	char *skipped;       /* why it was left out at prepare, or NULL */
	char *fio_version;   /* from the probe */
	char hostname[65];   /* the server's own host name, from the probe ("" if unknown) */
	char *jobfile;       /* path */
	char *jobtext;
	char *hung;          /* why it was failed as hung in the run, or NULL */
	int done;            /* its job's logs reached the client */
	int leftover;        /* skipped because earlier jobs still ran on its server */
};

#define CH(f) offsetof(struct client_host, f)
static const size_t client_host_strs[] = { CH(skipped), CH(fio_version), CH(jobfile), CH(jobtext), CH(hung) };
#undef CH

struct client_priv {
	struct client_host *hosts;
	size_t n;
	char *dir;           /* run->workdir/hosts */
	char *outpath, *errpath;
	const char *log_name; /* prefix of the fio logs the servers send back */
	unsigned log_ms;      /* their log_avg_msec */
	long long barrier_ms; /* the start barrier, epoch ms */
	long long end_ms;     /* barrier + ramp + runtime, epoch ms */
	long long first_done_ms; /* when a host was first seen done, epoch ms; 0: none yet */
	struct strbuf leftovers; /* what was found and done about earlier runs' jobs on the servers */
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
 * that reaches the barrier late, just starts at once (its offset shows it). It says how early it was
 * ("bench start barrier: reached 812 ms before"; negative: late) in JOB.prerun.txt in the server's working
 * directory (fio appends "> JOB.prerun.txt 2>&1" to the text). One sh command that always exits 0: the
 * arithmetic only runs on a time of digits (a date without %3N would end the shell with an error), and no ';'
 * (fio's job file parser takes it for the start of a comment).
 */
static char *barrier_cmd(long long epoch_ms)
{
	return xasprintf("sh -c 't=$(date +%%s%%3N) && [ \"$t\" -eq \"$t\" ] 2>/dev/null && d=$(( %lld - t )) && echo "
			 "\"bench start barrier: reached $d ms before\" && [ $d -gt 0 ] && sleep $(( d / 1000 )).$(( d %% 1000 "
			 "/ 100 ))$(( d / 10 %% 10 ))$(( d %% 10 )) || :'",
			 epoch_ms);
}

static long long epoch_ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A fio server on this machine (the loopback lab, or a host whose address is local) can be looked at through
 * /proc; a remote one cannot (fio's protocol does not list a server's jobs). Every process of a fio server
 * carries the daemon's argv: the daemon (its process group's leader), one connection process per client
 * (children of the daemon), a backend per run (child of its connection) and the jobs (children of the
 * backend, each in a session of its own). A backend whose connection is gone is re-parented away from the
 * server's processes: an orphan that nobody waits for.
 */
struct srv_proc {
	pid_t pid, ppid, pgid;
	unsigned long long start; /* clock ticks after boot (/proc/PID/stat field 22) */
};

/* Whether the NUL-separated argv (n bytes) holds fio's --server=[ip:]ADDR[,PORT] for addr:port. */
static int argv_serves(const char *cmd, size_t n, const char *addr, unsigned port)
{
	for (size_t off = 0; off < n; off += strlen(cmd + off) + 1) {
		const char *a = cmd + off, *comma;
		unsigned long p = 8765;

		if (strncmp(a, "--server=", 9))
			continue;
		a += 9;
		if (!strncmp(a, "ip:", 3) || !strncmp(a, "ip6:", 4))
			a = strchr(a, ':') + 1;
		comma = strchr(a, ',');
		if (comma) {
			char *end;
			errno = 0;
			p = strtoul(comma + 1, &end, 10);
			if (errno || *end)
				continue;
		}
		if (strlen(addr) == (size_t)(comma ? comma - a : (ptrdiff_t)strlen(a)) && !strncmp(a, addr, strlen(addr)) &&
		    p == port)
			return 1;
	}
	return 0;
}

/* Reads /proc/PID/WHAT into buf (NUL-terminated); bytes read, or -1. */
static ssize_t read_proc_file(const char *pid, const char *what, char *buf, size_t size)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/%s", pid, what);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* The live processes of the fio server for addr:port on this machine into *out; their count (0: none seen). */
static size_t local_server_procs(const char *addr, unsigned port, struct srv_proc **out)
{
	size_t n = 0, cap = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;

	*out = NULL;
	while (d && (de = readdir(d))) {
		char buf[4096], *rp;
		long pid, ppid, pgid;
		unsigned long long start;
		char state;
		ssize_t len;

		if (parse_long(de->d_name, 1, INT_MAX, &pid) < 0)
			continue;
		len = read_proc_file(de->d_name, "cmdline", buf, sizeof(buf));
		if (len <= 0 || !argv_serves(buf, (size_t)len, addr, port))
			continue;
		if (read_proc_file(de->d_name, "stat", buf, sizeof(buf)) <= 0 || !(rp = strrchr(buf, ')')) ||
		    sscanf(rp + 1, " %c %ld %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			   &state, &ppid, &pgid, &start) != 4 || state == 'Z' || state == 'X')
			continue;
		ARRAY_GROW(*out, cap, n + 1);
		(*out)[n++] = (struct srv_proc){ (pid_t)pid, (pid_t)ppid, (pid_t)pgid, start };
	}
	if (d)
		closedir(d);
	return n;
}

static int srv_has(const struct srv_proc *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return 1;
	return 0;
}

static int srv_has_child(const struct srv_proc *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].ppid == pid)
			return 1;
	return 0;
}

/*
 * The daemon: the earliest started group leader whose parent is not one of the server's processes (a job
 * whose backend is gone is such a leader too, started later); 0 when there is none.
 */
static pid_t srv_daemon(const struct srv_proc *v, size_t n)
{
	const struct srv_proc *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (v[i].pid == v[i].pgid && !srv_has(v, n, v[i].ppid) && (!best || v[i].start < best->start))
			best = &v[i];
	return best ? best->pid : 0;
}

/*
 * The job processes of the fio server of `h` on this machine. All (orphans_only 0): every process of it but
 * the daemon and its idle connection processes (a child of the daemon without children answers a probe or
 * waits for a job). Orphans only: the processes whose parent is not one of the server's (their connection is
 * gone: nobody collects them) and their children; a backend under a live connection belongs to a client that
 * is still there (or one that is just ending). Their pids into *out (malloc'd); their count, or -1 when no
 * such server runs here (a remote host: not seen).
 */
static int local_server_jobs(const struct host *h, int orphans_only, pid_t **out)
{
	struct srv_proc *v;
	size_t n = local_server_procs(h->addr, h->port, &v), k = 0;
	pid_t daemon = srv_daemon(v, n);
	const char *remote = getenv("BENCH_TEST_REMOTE"); /* tests only: this address's server counts as remote */

	*out = NULL;
	if (!daemon || (remote && !strcmp(remote, h->addr))) {
		free(v);
		return -1;
	}
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		int orphan = v[i].pid != daemon && !srv_has(v, n, v[i].ppid);
		for (size_t j = 0; orphans_only && !orphan && j < n; j++)
			orphan = v[j].pid == v[i].ppid && v[j].pid != daemon && !srv_has(v, n, v[j].ppid);
		if (v[i].pid == daemon || (v[i].ppid == daemon && !srv_has_child(v, n, v[i].pid)))
			continue;
		if (!orphans_only || orphan)
			(*out)[k++] = v[i].pid;
	}
	free(v);
	return (int)k;
}

/* "pid pid ..." of a list, for messages. */
static char *pid_list_text(const pid_t *pids, int n)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (int i = 0; i < n && i < 8; i++)
		strbuf_addf(&sb, "%s%d", i ? " " : "", (int)pids[i]);
	if (n > 8)
		strbuf_addf(&sb, " and %d more", n - 8);
	return strbuf_detach(&sb, NULL);
}

/*
 * Stops the job processes (all, or the orphans: local_server_jobs) of the local fio server of `h` (SIGKILL: a
 * stuck fio job process does not end on SIGTERM). Their pids as text (malloc'd), or NULL when there were none
 * or the server is not on this machine.
 */
static char *stop_local_jobs(const struct host *h, int orphans_only)
{
	pid_t *pids;
	int n = local_server_jobs(h, orphans_only, &pids);
	char *text = NULL;

	if (n > 0) {
		text = pid_list_text(pids, n);
		for (int i = n - 1; i >= 0; i--) /* children (jobs) come after their parents in /proc order */
			kill(pids[i], SIGKILL);
	}
	free(pids);
	return text;
}

/*
 * Before a run: job processes on a host's local fio server whose connection is gone are left from an earlier
 * run (its client killed, or it gave up on a stopped server). A fio 3.33 server whose earlier backend
 * was cut off from its connection does not finish the next job it is given (the backend waits forever to
 * send its logs, and the next one with it), so the host is left out of this run: the reason (malloc'd), or
 * NULL when the host is fine or cannot be seen (remote). The processes are stopped (SIGKILL) and said in
 * p->leftovers, so the server is clean for a later run.
 */
static char *leftover_jobs(struct client_priv *p, const struct host *h)
{
	char *stopped = stop_local_jobs(h, 1);
	char *why;

	if (!stopped)
		return NULL;
	why = xasprintf("host '%s' left out: its fio server still ran jobs of an earlier run (processes %s, now "
			"stopped)", h->name, stopped);
	strbuf_addf(&p->leftovers, "%s\n", why);
	free(stopped);
	return why;
}

/* leftover_jobs() of every initiator that passed the check: an array of hl->n reasons (NULL: fine). */
static char **leftover_jobs_all(struct client_priv *p, const struct host_list *hl, const struct fio_host_status *st)
{
	char **left = xcalloc(hl->n, sizeof(*left));

	for (size_t i = 0; i < hl->n; i++)
		if (hl->v[i].role == ROLE_INITIATOR && st[i].state == FIO_HOST_OK)
			left[i] = leftover_jobs(p, &hl->v[i]);
	return left;
}

int fio_client_prepare(struct engine_run *run, struct errbuf *err)
{
	const struct host_list *hl = run->hosts;
	struct client_priv *p;
	struct kvlist extra;
	char local[64];
	size_t usable = 0;
	struct fio_host_status *st = NULL;
	char **left = NULL; /* why each host is left out for leftover jobs, or NULL */
	int ret = -1;

	if (!hl || !hl->n)
		return err_set(err, ERR_INTERNAL, "fio_client_prepare called without hosts");
	if (fio_local_version(local, sizeof(local), err) < 0)
		return -1;
	p = xcalloc(1, sizeof(*p));
	run->priv = p;
	strbuf_init(&p->leftovers);
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
		/* the latency log gives the start (host_start_ms); the IOPS log when a job has no latency */
		kvlist_add(&extra, "write_lat_log", p->log_name);
		kvlist_add(&extra, "write_iops_log", p->log_name);
		kvlist_add(&extra, "log_avg_msec", FIO_CLIENT_LOG_MS_TEXT);
	}
	kvlist_add(&extra, "log_unix_epoch", "1");
	/* the run's engine options (--engine-opt, a configuration's fio =): the same list the local engine and
	 * the plan's fio check add (sim cannot run on hosts: runloop refuses it before this) */
	fio_jobfile_engine_extras(run->spec, NULL, &extra);
	/*
	 * The preflight again, per run and bounded per host (fio_hosts.h): probe and version; the 4 KiB target
	 * read only for hosts that did not pass it earlier in the suite (a server that answers probes but no
	 * jobs fails it). A host that fails is left out and the run
	 * is partial, instead of one silent server holding the whole fio client until the run's deadline.
	 */
	{
		struct fio_hosts_check_opts o = { 1, run->destructive, 1, PROBE_TIMEOUT_MS, p->dir, 0 };
		struct errbuf e;
		errbuf_init(&e);
		st = xcalloc(hl->n, sizeof(*st));
		(void)fio_hosts_check_again(hl, &o, st, &e);
	}
	left = leftover_jobs_all(p, hl, st); /* before the barrier is set: /proc takes time with many servers */
	{
		char *cmd;
		p->barrier_ms = epoch_ms_now() + FIO_CLIENT_SYNC_LEAD_MS(hl->n) + sync_extra_ms;
		p->end_ms = p->barrier_ms + ((long long)run->spec->wl.ramp_s + run->spec->wl.runtime_s) * 1000;
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
		if (left[i]) {
			ch->skipped = left[i];
			left[i] = NULL;
			ch->leftover = 1;
			continue;
		}
		ch->fio_version = xstrdup(info->fio_version);
		snprintf(ch->hostname, sizeof(ch->hostname), "%s", info->hostname);
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
	for (size_t i = 0; left && i < hl->n; i++)
		free(left[i]);
	free(left);
	kvlist_release(&extra);
	fio_host_status_release(st, st ? hl->n : 0);
	free(st);
	return ret;
}

/* Whether a file in the run directory is one of the logs fio wrote for the host at addr ("NAME_iops.1.log.ADDR"). */
static int is_host_log(const char *name, const char *prefix, const char *addr)
{
	size_t pl = strlen(prefix);
	const char *host;

	if (strncmp(name, prefix, pl) || name[pl] != '_')
		return 0;
	host = fio_log_client_host(name);
	return host && !strcmp(host, addr);
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

/*
 * Whether the host at addr is done: its IOPS log is in the run directory. A window-averaged IOPS log is sent
 * by the fio backend's helper thread as it exits, after every job of the host ended (helper_thread.c,
 * fio_writeout_logs); the latency logs are sent by each job's own process as the job ends (backend.c,
 * td_writeout_logs), which may run on while the server's other processes hang (a job process has a session
 * of its own): a latency log says nothing of the host's end.
 */
static int host_log_seen(const struct client_priv *p, const char *addr)
{
	DIR *d = opendir(p->dir);
	struct dirent *de;
	int seen = 0;

	while (d && !seen && (de = readdir(d)))
		seen = is_host_log(de->d_name, p->log_name, addr) && strstr(de->d_name, "_iops.");
	if (d)
		closedir(d);
	return seen;
}

/* The inodes of the sockets process pid holds ("socket:[N]" links in /proc/PID/fd), malloc'd; their count. */
static size_t socket_inodes(pid_t pid, unsigned long **out)
{
	char dir[64], link[64], path[PATH_MAX];
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	snprintf(dir, sizeof(dir), "/proc/%ld/fd", (long)pid);
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		ssize_t len;
		unsigned long ino;

		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path) ||
		    (len = readlink(path, link, sizeof(link) - 1)) <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "socket:[%lu]", &ino) != 1)
			continue;
		ARRAY_GROW(*out, cap, n + 1);
		(*out)[n++] = ino;
	}
	closedir(d);
	return n;
}

/*
 * The local port of the TCP connection that process pid holds to addr:port (IPv4, /proc/net/tcp: addresses
 * as the kernel's hex of the network-order word), or 0 when it holds none.
 */
static unsigned client_local_port(pid_t pid, const char *addr, unsigned port)
{
	struct in_addr want;
	unsigned long *inodes;
	size_t n;
	unsigned found = 0;
	char line[512];
	FILE *f;

	if (inet_pton(AF_INET, addr, &want) != 1 || !(n = socket_inodes(pid, &inodes)))
		return 0;
	f = fopen("/proc/net/tcp", "r");
	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned laddr, lport, raddr, rport, st;
		unsigned long ino;

		if (sscanf(line, " %*u: %8X:%4X %8X:%4X %2X %*X:%*X %*X:%*X %*X %*u %*u %lu", &laddr, &lport,
			   &raddr, &rport, &st, &ino) != 6 || raddr != (unsigned)want.s_addr || rport != port)
			continue;
		for (size_t i = 0; i < n && !found; i++)
			if (inodes[i] == ino)
				found = lport;
	}
	if (f)
		fclose(f);
	free(inodes);
	return found;
}

/*
 * Closes fio's client's connection to a hung server that is not on this machine (docs/multihost.md "A hung
 * host"): `ss -K` (SOCK_DESTROY, Linux's INET_DIAG_DESTROY) on exactly that connection (the client's local
 * port to ADDR:PORT). The socket is aborted; fio's client reads the error, says "client: host=ADDR
 * disconnected", drops the host and finishes with the others. 0 when ss closed it, -1 when there was no such
 * connection or ss could not (not root, a kernel without INET_DIAG_DESTROY, no ss).
 */
static int close_client_connection(const struct client_priv *p, const struct host *h)
{
	unsigned lport = client_local_port(p->proc.pid, h->addr, h->port);
	char *argv[] = { "ss", "-K", "-t", "dst", NULL, "dport", "=", NULL, "sport", "=", NULL, NULL };
	char dport[16], sport[16], *out = NULL;
	int code = -1;
	struct errbuf e;

	if (!lport)
		return -1;
	snprintf(dport, sizeof(dport), ":%u", h->port);
	snprintf(sport, sizeof(sport), ":%u", lport);
	argv[4] = (char *)h->addr;
	argv[7] = dport;
	argv[10] = sport;
	errbuf_init(&e);
	if (proc_run_capture(argv, 3000, &out, &code, &e) < 0)
		code = -1;
	free(out);
	return code == 0 && !client_local_port(p->proc.pid, h->addr, h->port) ? 0 : -1;
}

/*
 * The hosts' own deadline (FIO_CLIENT_HANG_MS): notes hosts that are done; once the bound has passed, fails
 * the others as hung, stops their local job processes (their connection with them: fio's client then sees the
 * host gone and finishes with the others) and returns 1; 0 while no host is hung.
 */
static int fail_hung_hosts(struct client_priv *p)
{
	long long now = epoch_ms_now(), limit;
	int hung = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct client_host *ch = &p->hosts[i];
		if (!ch->skipped && !ch->done && host_log_seen(p, ch->h->addr)) {
			ch->done = 1;
			if (!p->first_done_ms)
				p->first_done_ms = now;
		}
	}
	if (!p->first_done_ms)
		return 0;
	limit = (p->first_done_ms > p->end_ms ? p->first_done_ms : p->end_ms) + hang_ms();
	if (now < limit)
		return 0;
	for (size_t i = 0; i < p->n; i++) {
		struct client_host *ch = &p->hosts[i];
		const struct host *h = ch->h;
		char *stopped;

		if (ch->skipped || ch->done)
			continue;
		stopped = stop_local_jobs(h, 0);
		ch->hung = xasprintf("host '%s' (%s:%u) hung: its job had not ended %g s after the run time and %g s "
				     "after the first host's; %s%s%s", h->name, h->addr, h->port, hang_ms() / 1000.0,
				     hang_ms() / 1000.0,
				     stopped ? "its fio server's job processes were stopped (" :
				     close_client_connection(p, h) == 0 ? "the server is not on this machine: fio's "
				     "client's connection with it was closed (ss -K)" : "the server is not on this "
				     "machine: its jobs were told to quit (fio's QUIT)", stopped ? stopped : "", stopped ? ")" : "");
		free(stopped);
		hung++;
	}
	return hung > 0;
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
	if (!fail_hung_hosts(p))
		return 0;
	/* with the hung host's connection gone the client finishes with the others; else SIGTERM (QUIT), SIGKILL */
	if (proc_wait(&p->proc, FIO_CLIENT_QUIT_MS) != 1)
		proc_stop(&p->proc, FIO_CLIENT_QUIT_MS);
	p->ended = 1;
	return 1;
}

/* Earliest (first entry time - window) over this host's logs of one kind ("_clat."), in epoch ms; NAN if none. */
static double host_first_entry_ms(const struct client_priv *p, const char *addr, const char *kind)
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

		if (!is_host_log(de->d_name, p->log_name, addr) || !strstr(de->d_name, kind))
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

/*
 * The host's measured start, epoch ms (NAN: no log): from its completion latency logs (NAME_clat.N.log.ADDR, one
 * per job), whose entries are made in the IO path (see the top of this file); from its total latency logs when a
 * job has no completion latency (disable_clat); from its IOPS logs (fio's helper thread's tick: up to a window
 * late) when it has no latency at all (disable_lat, gtod_reduce).
 */
static double host_start_ms(const struct client_priv *p, const char *addr)
{
	static const char *const kinds[] = { "_clat.", "_lat.", "_iops." };
	double t = NAN;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && isnan(t); k++)
		t = host_first_entry_ms(p, addr, kinds[k]);
	return t;
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
		bare = xstrndup(de->d_name, (size_t)(fio_log_client_host(de->d_name) - de->d_name) - 1);
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
	{
		long long late = (long long)latest - ramp_ms - p->barrier_ms;
		long long step = late > FIO_CLIENT_SYNC_LATE_MS ? late + 100 : -100;
		if (step > FIO_CLIENT_SYNC_LEARN_MAX_MS)
			step = FIO_CLIENT_SYNC_LEARN_MAX_MS;
		sync_extra_ms += step;
	}
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
	if (p->leftovers.len)
		run_result_add_artifact(out, "leftover-jobs.txt", p->leftovers.buf, p->leftovers.len);
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
		snprintf(hr->hostname, sizeof(hr->hostname), "%s", ch->hostname);
		hr->start_offset_ms = isnan(starts[i]) ? NAN : starts[i] - first;
		if (ch->skipped) {
			hr->errmsg = xstrdup(ch->skipped);
			strbuf_addf(&failed, "%s%s (left out: %s)", failed.len ? ", " : "", h->name,
				    ch->leftover ? "earlier jobs still ran on its server" : "not reachable");
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
		if (ch->hung) {
			/* results it may have sent after fio's QUIT cover a cut-short run: not counted */
			hr->errmsg = xstrdup(ch->hung);
			hr->start_offset_ms = NAN;
			strbuf_addf(&failed, "%s%s (hung: no progress)", failed.len ? ", " : "", h->name);
		} else if (!nm) {
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
	strbuf_release(&p->leftovers);
	free(p);
	run->priv = NULL;
}
