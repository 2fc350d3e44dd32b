/*
 * session: runs the collectors of one run in background threads (one per host, so a slow exporter delays
 * nobody else) and turns their windows into CPU rows, cluster figures, disk deltas and time series. The
 * threads share only the stop and cancel flags (under the session mutex); each owns its source until joined.
 */
#include "collectors/session.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "collectors/collector.h"
#include "collectors/node_exporter.h"
#include "collectors/window.h"
#include "core/proc.h"
#include "core/strbuf.h"

struct point {
	int64_t t_ms;       /* end of the interval, ms since the session's t0 */
	double value;
	uint32_t window_ms; /* the interval's length */
};

struct source {
	struct collect_session *s;
	struct collector c;
	const char *name;              /* host name in results */
	enum host_role role;
	int local;                     /* this machine (procstat) */
	int open_failed;
	pthread_t thread;
	int thread_started;
	struct collect_window win;
	unsigned nok, nfail;
	char last_err[ERRBUF_SIZE];
	struct point *series;          /* CPU utilisation per interval */
	size_t nseries, series_cap;
	struct point *dseries;         /* disk IOPS (all devices) per interval */
	size_t ndseries, dseries_cap;
};

struct collect_session {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	atomic_int cancel;
	unsigned interval_ms;
	long long t0_ms;
	char *local_name;
	struct source *src;
	size_t nsrc;
};

/* Completed IOs of every device counted in the window so far. */
static uint64_t window_ios(const struct collect_window *w)
{
	uint64_t n = 0;

	for (size_t i = 0; i < w->ndisks; i++)
		n += w->disks[i].reads + w->disks[i].writes;
	return n;
}

static void source_sample(struct source *src)
{
	struct collect_snapshot snap;
	struct errbuf e;
	double util;
	long long t, prev_ms;
	uint64_t ios0;

	collect_snapshot_init(&snap);
	errbuf_init(&e);
	if (src->c.ops->sample(&src->c, &snap, &e) < 0) {
		src->nfail++;
		snprintf(src->last_err, sizeof(src->last_err), "%s", e.msg);
		collect_snapshot_release(&snap);
		return;
	}
	t = snap.t_ms;
	prev_ms = src->win.nsnaps ? src->win.last_ms : t;
	ios0 = window_ios(&src->win);
	collect_window_add(&src->win, &snap, &util);
	src->nok++;
	if (!isnan(util)) {
		ARRAY_GROW(src->series, src->series_cap, src->nseries + 1);
		src->series[src->nseries].t_ms = t - src->s->t0_ms;
		src->series[src->nseries].value = util;
		src->series[src->nseries].window_ms = t > prev_ms ? (uint32_t)(t - prev_ms) : 0;
		src->nseries++;
	}
	if (src->win.ndisks && t > prev_ms) { /* a rate needs time to pass */
		ARRAY_GROW(src->dseries, src->dseries_cap, src->ndseries + 1);
		src->dseries[src->ndseries].t_ms = t - src->s->t0_ms;
		src->dseries[src->ndseries].value = (double)(window_ios(&src->win) - ios0) * 1000.0 / (double)(t - prev_ms);
		src->dseries[src->ndseries].window_ms = (uint32_t)(t - prev_ms);
		src->ndseries++;
	}
}

/* A host's series as samples (t_ms = the interval's end, window_ms its length, source = the collector). */
static void add_series(struct run_result *out, const char *host, const char *metric, const char *source,
		       const struct point *p, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct sample *x;
		run_result_add_sample(out, host, metric, p[k].t_ms, p[k].value);
		x = &out->samples[out->nsamples - 1];
		x->window_ms = p[k].window_ms;
		snprintf(x->source, sizeof(x->source), "%s", source);
	}
}

static void deadline_ts(long long when_ms, struct timespec *ts)
{
	ts->tv_sec = when_ms / 1000;
	ts->tv_nsec = (when_ms % 1000) * 1000000;
}

static void *source_thread(void *arg)
{
	struct source *src = arg;
	struct collect_session *s = src->s;
	long long next = mono_ms() + (src->nok + src->nfail ? s->interval_ms : 0);

	for (;;) {
		int stop;
		long long now;

		pthread_mutex_lock(&s->mu);
		while (!s->stop && mono_ms() < next) {
			struct timespec ts;
			deadline_ts(next, &ts);
			pthread_cond_timedwait(&s->cv, &s->mu, &ts);
		}
		stop = s->stop;
		pthread_mutex_unlock(&s->mu);
		if (atomic_load(&s->cancel))
			break;
		source_sample(src);   /* when stopping: the last sample of the window */
		if (stop)
			break;
		next += s->interval_ms;
		now = mono_ms();
		if (next <= now)      /* a slow scrape: skip the ticks it missed */
			next = now + s->interval_ms;
	}
	return NULL;
}

static void source_release(struct source *src)
{
	if (src->c.ops)
		src->c.ops->close(&src->c);
	collect_window_release(&src->win);
	free(src->series);
	free(src->dseries);
}

static void session_free(struct collect_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nsrc; i++)
		source_release(&s->src[i]);
	free(s->src);
	free(s->local_name);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

static void session_stop(struct collect_session *s, int cancel)
{
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	if (cancel)
		atomic_store(&s->cancel, 1);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	for (size_t i = 0; i < s->nsrc; i++) {
		if (s->src[i].thread_started)
			pthread_join(s->src[i].thread, NULL);
		s->src[i].thread_started = 0;
	}
}

struct collect_session *collect_session_start_opts(const struct collect_opts *o, struct errbuf *err)
{
	struct collect_session *s = xcalloc(1, sizeof(*s));
	pthread_condattr_t ca;
	unsigned timeout = o->timeout_ms ? o->timeout_ms : COLLECT_DEFAULT_TIMEOUT_MS;
	unsigned conn = o->connect_timeout_ms ? o->connect_timeout_ms : COLLECT_DEFAULT_CONNECT_TIMEOUT_MS;
	size_t nhosts = o->hosts ? o->hosts->n : 0;
	struct errbuf e;

	if (conn > timeout)
		conn = timeout;
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	s->interval_ms = o->interval_ms ? o->interval_ms : COLLECT_DEFAULT_INTERVAL_MS;
	s->t0_ms = o->t0_ms ? o->t0_ms : mono_ms();
	s->local_name = xstrdup(o->local_name ? o->local_name : COLLECT_LOCAL_HOST);
	s->src = xcalloc(nhosts ? nhosts : 1, sizeof(*s->src));

	if (nhosts && node_exporter_global_init(err) < 0)
		goto fail;
	if (!nhosts) {
		struct source *src = &s->src[s->nsrc++];
		src->name = s->local_name;
		src->role = ROLE_INITIATOR;
		src->local = 1;
		src->c.ops = &collector_procstat;
	}
	for (size_t i = 0; i < nhosts; i++) {
		const struct host *h = &o->hosts->v[i];
		struct source *src;

		if (!h->exporter_url || !*h->exporter_url)
			continue;
		src = &s->src[s->nsrc++];
		src->name = h->name;
		src->role = h->role;
		src->c.ops = &collector_node_exporter;
		src->c.host = h;
	}
	for (size_t i = 0; i < s->nsrc; i++) {
		struct source *src = &s->src[i];

		src->s = s;
		collect_window_init(&src->win);
		src->c.proc_root = o->proc_root ? o->proc_root : "/";
		src->c.timeout_ms = timeout;
		src->c.connect_timeout_ms = conn;
		src->c.cancel = &s->cancel;
		errbuf_init(&e);
		if (src->c.ops->open(&src->c, &e) < 0) {
			src->open_failed = 1;
			src->nfail++;
			snprintf(src->last_err, sizeof(src->last_err), "%s", e.msg);
			continue;
		}
		if (src->local)
			source_sample(src);   /* the window starts now, not when the thread first runs */
	}
	for (size_t i = 0; i < s->nsrc; i++) {
		struct source *src = &s->src[i];
		int rc;

		if (src->open_failed)
			continue;
		rc = pthread_create(&src->thread, NULL, source_thread, src);
		if (rc) {
			err_set(err, ERR_INTERNAL, "cannot start a collector thread: %s", strerror(rc));
			goto fail;
		}
		src->thread_started = 1;
	}
	return s;
fail:
	session_stop(s, 1);
	session_free(s);
	return NULL;
}

struct collect_session *collect_session_start(const struct host_list *hosts, const char *proc_root,
					      unsigned interval_ms, struct errbuf *err)
{
	struct collect_opts o = { .hosts = hosts, .proc_root = proc_root, .interval_ms = interval_ms };

	return collect_session_start_opts(&o, err);
}

void collect_session_cancel(struct collect_session *s)
{
	if (!s)
		return;
	session_stop(s, 1);
	session_free(s);
}

static void warn_add(struct errbuf *warn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn_add(struct errbuf *warn, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (!warn)
		return;
	len = warn->kind == ERR_NONE ? 0 : strlen(warn->msg);
	if (len && len + 2 < sizeof(warn->msg)) {
		memcpy(warn->msg + len, "; ", 3);
		len += 2;
	}
	if (len + 1 < sizeof(warn->msg)) {
		va_start(ap, fmt);
		vsnprintf(warn->msg + len, sizeof(warn->msg) - len, fmt, ap);
		va_end(ap);
	}
	warn->kind = ERR_HOST;
}

static void add_disk(struct run_result *out, const char *host, const struct disk_delta *d)
{
	struct disk_result *x;

	ARRAY_GROW(out->disks, out->disks_cap, out->ndisks + 1);
	x = &out->disks[out->ndisks++];
	memset(x, 0, sizeof(*x));
	x->host = xstrdup(host);
	x->device = xstrdup(d->name);
	x->reads = d->reads;
	x->writes = d->writes;
	x->read_sectors = d->read_sectors;
	x->write_sectors = d->write_sectors;
	x->io_ticks_ms = d->io_ticks_ms;
}

static int source_has_cpu(const struct source *src)
{
	return src->win.nsnaps >= 2 && collect_window_total_s(&src->win) > 0;
}

/* Whether two hosts read one machine's /proc (same boot time and CPU count: network namespaces of one machine). */
static int same_machine(const struct source *a, const struct source *b)
{
	return source_has_cpu(a) && source_has_cpu(b) && a->win.prev.boot_time_s > 0 &&
	       a->win.prev.boot_time_s == b->win.prev.boot_time_s && a->win.cores == b->win.cores;
}

/*
 * Per host: the index of an earlier host of the same role on the same machine (its CPU is shown once, under
 * that host), or -1. Each group is said in the run's label cpu.same_machine.ROLE ("lab1,lab2,lab3") and in
 * *warn, and a target on an initiator's machine in cpu.same_machine ("target=lab1").
 */
/* Says one group of same-machine hosts of a role (first j, the others after it with first[i] == j). */
static void say_group(const struct collect_session *s, const long *first, size_t j, struct run_result *out,
		      struct errbuf *warn)
{
	struct strbuf all;
	char key[64];

	strbuf_init(&all);
	strbuf_adds(&all, s->src[j].name);
	for (size_t i = j + 1; i < s->nsrc; i++)
		if (first[i] == (long)j)
			strbuf_addf(&all, ",%s", s->src[i].name);
	if (strchr(all.buf, ',')) {
		snprintf(key, sizeof(key), "cpu.same_machine.%s", host_role_name(s->src[j].role));
		kvlist_set(&out->labels, key, all.buf);
		warn_add(warn, "hosts %s (role %s) read the same machine's /proc (same boot time, %d CPUs): their CPU "
			 "is shown once, as '%s'", all.buf, host_role_name(s->src[j].role), s->src[j].win.cores,
			 s->src[j].name);
	}
	strbuf_release(&all);
}

/*
 * Per host: the index of an earlier host of the same role on the same machine (its CPU is shown once, under
 * that host), or -1. Each group is said in the run's label cpu.same_machine.ROLE ("lab1,lab2,lab3") and in
 * *warn, and a target on an initiator's machine in cpu.same_machine ("target=lab1").
 */
static long *machine_groups(const struct collect_session *s, struct run_result *out, struct errbuf *warn)
{
	long *first = xcalloc(s->nsrc ? s->nsrc : 1, sizeof(*first));

	for (size_t i = 0; i < s->nsrc; i++) {
		first[i] = -1;
		for (size_t j = 0; j < i && first[i] < 0; j++)
			if (first[j] < 0 && s->src[j].role == s->src[i].role && same_machine(&s->src[i], &s->src[j]))
				first[i] = (long)j;
	}
	for (size_t j = 0; j < s->nsrc; j++)
		if (first[j] < 0)
			say_group(s, first, j, out, warn);
	for (size_t i = 0; i < s->nsrc; i++)
		for (size_t j = 0; s->src[i].role == ROLE_TARGET && first[i] < 0 && j < s->nsrc; j++)
			if (s->src[j].role == ROLE_INITIATOR && first[j] < 0 && same_machine(&s->src[i], &s->src[j]) &&
			    !kvlist_find(&out->labels, "cpu.same_machine")) {
				char *v = xasprintf("%s=%s", s->src[i].name, s->src[j].name);
				kvlist_set(&out->labels, "cpu.same_machine", v);
				warn_add(warn, "target host '%s' reads the same machine's /proc as initiator '%s': its CPU "
					 "is that machine's, initiators' load included", s->src[i].name, s->src[j].name);
				free(v);
			}
	return first;
}

int collect_session_finish(struct collect_session *s, uint64_t front_end_ios, const char *backing_device,
			   struct run_result *out, struct errbuf *warn)
{
	int missing = 0;
	long *first;

	if (warn)
		errbuf_init(warn);
	if (!s)
		return 0;
	session_stop(s, 0);
	first = machine_groups(s, out, warn);

	for (size_t i = 0; i < s->nsrc; i++) {
		struct source *src = &s->src[i];
		struct cpu_result *c;
		int found_backing = 0;

		if (first[i] >= 0)
			continue; /* that machine's CPU and disks are the first host's of its group */
		c = run_result_add_cpu(out, src->name, src->role, src->c.ops->name);
		if (!source_has_cpu(src)) {
			missing = 1;
			warn_add(warn, "host '%s': CPU not collected: %s", src->name,
				 src->nfail ? src->last_err
				 : src->win.nsnaps < 2 ? "fewer than two samples in the window"
							 : "no CPU time counted between the samples");
			continue;
		}
		collect_window_to_cpu(&src->win, c);
		c->cpu_us_per_io = front_end_ios ? collect_window_busy_s(&src->win) * 1e6 / (double)front_end_ios : NAN;
		if (src->nfail) {
			missing = 1;
			warn_add(warn, "host '%s': %u of %u CPU samples failed (last: %s)", src->name, src->nfail,
				 src->nfail + src->nok, src->last_err);
		}
		add_series(out, src->name, "cpu.util_pct", src->c.ops->name, src->series, src->nseries);
		add_series(out, src->name, "disk.iops", src->c.ops->name, src->dseries, src->ndseries);
		for (size_t k = 0; k < src->win.ndisks; k++) {
			const struct disk_delta *d = &src->win.disks[k];
			int backing = src->local && backing_device && !strcmp(d->name, backing_device);

			found_backing |= backing;
			if (backing || d->reads || d->writes || d->read_sectors || d->write_sectors || d->io_ticks_ms)
				add_disk(out, src->name, d);
		}
		if (src->local && backing_device && !found_backing) {
			missing = 1;
			warn_add(warn, "host '%s': device '%s' not found in diskstats", src->name, backing_device);
		}
	}

	/* Cluster figures: all cores of all hosts of a role, each core weighted by the time it was measured. */
	for (int role = ROLE_INITIATOR; role <= ROLE_TARGET; role++) {
		double cpu_s[CPU_MODE_NR] = { 0 };
		const char *source = NULL;
		int nhosts = 0, cores = 0;
		struct cpu_result *c;
		double total;

		for (size_t i = 0; i < s->nsrc; i++) {
			struct source *src = &s->src[i];

			if ((int)src->role != role)
				continue;
			if (!source) {
				source = src->c.ops->name;
			} else if (strcmp(source, src->c.ops->name)) {
				source = "mixed";
			}
			nhosts++;
			if (!source_has_cpu(src) || first[i] >= 0) /* one machine counts once */
				continue;
			for (int m = 0; m < CPU_MODE_NR; m++)
				cpu_s[m] += src->win.cpu_s[m];
			cores += src->win.cores;
		}
		if (!nhosts)
			continue;
		c = run_result_add_cpu(out, HOST_AGGREGATE, (enum host_role)role, source);
		total = cpu_total_of(cpu_s);
		if (total <= 0)
			continue;
		c->cores = cores;
		c->user_pct = 100.0 * cpu_s[CPU_USER] / total;
		c->nice_pct = 100.0 * cpu_s[CPU_NICE] / total;
		c->system_pct = 100.0 * cpu_s[CPU_SYSTEM] / total;
		c->idle_pct = 100.0 * cpu_s[CPU_IDLE] / total;
		c->iowait_pct = 100.0 * cpu_s[CPU_IOWAIT] / total;
		c->irq_pct = 100.0 * cpu_s[CPU_IRQ] / total;
		c->softirq_pct = 100.0 * cpu_s[CPU_SOFTIRQ] / total;
		c->steal_pct = 100.0 * cpu_s[CPU_STEAL] / total;
		c->util_pct = 100.0 * cpu_busy_of(cpu_s) / total;
		c->cpu_us_per_io = front_end_ios ? cpu_busy_of(cpu_s) * 1e6 / (double)front_end_ios : NAN;
	}
	free(first);
	session_free(s);
	return missing;
}

/* ---- block devices ---- */

int collect_backing_device(const char *path, char *dev, size_t dev_len, char *disk, size_t disk_len,
			   struct errbuf *err)
{
	struct stat st;
	unsigned maj, min;
	char link[64], *real = NULL, *base, *part = NULL;
	int rc = -1;

	if (stat(path, &st) < 0)
		return err_set(err, ERR_INPUT, "'%s': %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		maj = major(st.st_rdev);
		min = minor(st.st_rdev);
	} else {
		maj = major(st.st_dev);
		min = minor(st.st_dev);
	}
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	real = realpath(link, NULL);
	if (!real || maj == 0) {
		err_set(err, ERR_INPUT, "'%s' is not on a block device (device %u:%u: tmpfs, overlay or network "
			"filesystem?)", path, maj, min);
		goto out;
	}
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if ((size_t)snprintf(dev, dev_len, "%s", base) >= dev_len) {
		err_set(err, ERR_INTERNAL, "device name '%s' too long", base);
		goto out;
	}
	part = xasprintf("%s/partition", real);
	if (access(part, F_OK) == 0) {
		char *slash = strrchr(real, '/');
		*slash = '\0';
		base = strrchr(real, '/');
		base = base ? base + 1 : real;
	}
	if ((size_t)snprintf(disk, disk_len, "%s", base) >= disk_len) {
		err_set(err, ERR_INTERNAL, "device name '%s' too long", base);
		goto out;
	}
	rc = 0;
out:
	free(part);
	free(real);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int collect_device_members(const char *name, char ***members, size_t *n, struct errbuf *err)
{
	char *path;
	DIR *d;
	struct dirent *e;
	size_t cap = 0;

	*members = NULL;
	*n = 0;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return err_set(err, ERR_INPUT, "bad device name '%s'", name);
	path = xasprintf("/sys/block/%s/slaves", name);
	d = opendir(path);
	if (!d) {
		int e2 = errno;
		free(path);
		if (e2 == ENOENT)
			return 0;
		return err_set(err, ERR_HOST, "cannot list members of '%s': %s", name, strerror(e2));
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		ARRAY_GROW(*members, cap, *n + 1);
		(*members)[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	free(path);
	if (*n)
		qsort(*members, *n, sizeof(**members), cmp_str);
	return 0;
}

double collect_io_amplification(const struct run_result *r, const char *host, const char *const *devices,
				size_t ndevices, uint64_t front_end_ios)
{
	uint64_t ios = 0;
	int found = 0;

	if (!front_end_ios)
		return NAN;
	for (size_t i = 0; i < r->ndisks; i++) {
		const struct disk_result *d = &r->disks[i];

		if (strcmp(d->host, host))
			continue;
		for (size_t k = 0; k < ndevices; k++) {
			if (!strcmp(d->device, devices[k])) {
				ios += d->reads + d->writes;
				found = 1;
				break;
			}
		}
	}
	return found ? (double)ios / (double)front_end_ios : NAN;
}
