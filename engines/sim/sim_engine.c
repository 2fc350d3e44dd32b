/*
 * sim_engine: the fio glue of the sim ioengine (load it with ioengine=external:/abs/path/bench_sim.so).
 *
 * Each fio job gets its own modelled target (sim_model.c). queue() asks the model when the IO completes and
 * returns FIO_Q_QUEUED; getevents() waits until the earliest modelled completion (a min-heap of in-flight IOs
 * ordered by completion time) and hands back every IO that is due. Waiting is precise: timer slack is set to
 * 1 ns, the job sleeps with clock_nanosleep(TIMER_ABSTIME) until shortly before the completion and busy-waits
 * the rest; the busy-wait margin adapts to how late this machine's sleeps wake up (sim_spin caps it).
 * No data is read or written: the engine is FIO_DISKLESSIO | FIO_FAKEIO, so fio neither creates nor opens the
 * file (give filename= any name and size=).
 *
 * Wear (the write cliff and the drift, docs/sim.md "Wear"): bytes written to each member since the last purge
 * are counted in a small state file shared by every job and every run on the same target (mmap'd, atomic
 * counters); the model's wear hook multiplies the device time of each write by the cliff factor once the
 * member's count has passed sim_cliff, and by 1 + sim_drift % per GiB counted. The state file is the job's
 * filename (it must be absent, empty or a sim wear file; so recreating the target file purges it) or
 * sim_wear_state=PATH; sim_purge=1 zeroes it when the job starts.
 *
 * Built against the fio source tree of exactly the installed fio (engines/sim/CMakeLists.txt): fio checks
 * only FIO_IOOPS_VERSION, and struct layouts change between releases without a bump.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fio.h"
#include "optgroup.h"

#include "sim_model.h"

/* Options are kept as text and parsed by sim_model.c, so that "not given" differs from any value. */
struct sim_options {
	void *pad; /* fio writes a pointer here; an option at offset 0 would read as unset */
	char *preset, *transport_lat, *link_bw, *link_iops, *dist, *lat, *cv, *hist, *units, *iops, *bw, *raid,
		*members, *chunk, *seed, *spin, *stall, *cpu;
	char *cliff, *cliff_factor, *drift, *wear_state, *purge; /* wear: handled here, not by sim_model.c */
};

#define SIM_OPT(optname, field, text)                                                                      \
	{                                                                                                  \
		.name = "sim_" optname, .lname = "sim " optname, .type = FIO_OPT_STR_STORE,                \
		.off1 = offsetof(struct sim_options, field), .help = text, .category = FIO_OPT_C_ENGINE,   \
		.group = FIO_OPT_G_INVALID,                                                                \
	}

/* sim_preset first: it sets the model's values, the options after it override them (applied in this order). */
static struct fio_option options[] = {
	SIM_OPT("preset", preset, "Illustrative target model: local, nvmeof-rdma, iser, iscsi-tcp (other sim_ "
		"options override it)"),
	SIM_OPT("transport_lat", transport_lat, "Transport overhead added to every IO (e.g. 10us; bare number = "
		"microseconds; default 0)"),
	SIM_OPT("link_bw", link_bw, "Link bandwidth cap in bytes/s shared by the job's IOs (1e9 = 1 GB/s; k/m/g "
		"= powers of 1024; default none)"),
	SIM_OPT("link_iops", link_iops, "Link IOPS cap (default none)"),
	SIM_OPT("dist", dist, "Device time distribution: fixed, lognormal (sim_lat mean, sim_cv), empirical "
		"(sim_hist file); default fixed"),
	SIM_OPT("lat", lat, "Device time per operation: the fixed value or the lognormal mean (default 100us)"),
	SIM_OPT("cv", cv, "Coefficient of variation of the lognormal device time (default 0.3)"),
	SIM_OPT("hist", hist, "Empirical latency histogram file from 'bench export --histogram' (sets "
		"sim_dist=empirical)"),
	SIM_OPT("units", units, "Parallel units per device (operations served at once; default 1)"),
	SIM_OPT("iops", iops, "IOPS cap of each device (default none)"),
	SIM_OPT("bw", bw, "Bandwidth cap of each device in bytes/s (1e9 = 1 GB/s; k/m/g = powers of 1024; "
		"default none)"),
	SIM_OPT("raid", raid, "Layout over sim_members devices: none, raid0, raid1, raid5, raid6, raid10 "
		"(default none)"),
	SIM_OPT("members", members, "Number of devices under the RAID layout (default 1)"),
	SIM_OPT("chunk", chunk, "RAID chunk (stripe unit) size (default 512k)"),
	SIM_OPT("seed", seed, "Random seed of the device time draws (default 1; each job adds its number)"),
	SIM_OPT("spin", spin, "Longest busy-wait before a completion (auto = adaptive, up to 150us; 0 = sleep "
		"only, less precise)"),
	SIM_OPT("stall", stall, "Inject a stall: START:LEN[:FACTOR][@WHERE], device time x FACTOR (20) from START "
		"after the first IO for LEN, only where the working directory contains WHERE"),
	SIM_OPT("cpu", cpu, "Initiator CPU per IO: the job's thread burns this much CPU time when it submits an "
		"IO (e.g. 500us; default 0), so the initiator's CPU becomes the limit"),
	/* from here on the wear options (SIM_FIRST_WEAR_OPTION), handled in this file, not by sim_config_set() */
	SIM_OPT("cliff", cliff, "Write cliff: bytes written to a member since the last purge after which its "
		"write device time is multiplied by sim_cliff_factor (SIZE, or Nx = N times the member's share of "
		"size=; default none)"),
	SIM_OPT("cliff_factor", cliff_factor, "Factor of the write device time past the cliff (default 3)"),
	SIM_OPT("drift", drift, "Slow drift: the write device time grows by this % per GiB written to the member "
		"since the last purge (default 0)"),
	SIM_OPT("wear_state", wear_state, "File that counts bytes written per member since the last purge "
		"(default: the job's filename, which must be absent, empty or a sim wear file)"),
	SIM_OPT("purge", purge, "1: zero the wear state when the job starts (a purge; default 0)"),
	{ .name = NULL },
};

/* Options of this file: not passed to sim_config_set(). */
#define SIM_FIRST_WEAR_OPTION "sim_cliff"

#define WEAR_MAGIC "bench-sim-wear-1"

/* The wear state file: a header and one byte counter per member (written since the last purge). */
struct wear_file {
	char magic[16];
	uint64_t members;
	uint64_t written_bytes[];
};

struct sim_wear {
	double cliff_bytes;    /* 0 = no cliff */
	double cliff_factor;
	double drift_pct_gib;  /* % of device time per GiB written */
	struct wear_file *map; /* shared mapping of the state file */
	size_t map_len;
};

#define SPIN_AUTO_MAX_NS 150000.0
#define SPIN_AUTO_MIN_NS 2000.0

struct inflight {
	double done_ns;
	struct io_u *io_u;
};

#define SIM_LATE_BUCKETS 16

struct sim_data {
	struct sim_model *model;
	struct inflight *heap; /* min-heap by done_ns */
	unsigned nheap, cap;
	struct io_u **events;  /* due IOs handed out by getevents, read by event() */
	double spin_max_ns;    /* cap of the busy-wait margin; < 0 adaptive */
	double cpu_ns;         /* sim_cpu: thread CPU time burnt per submitted IO, ns */
	double margin_ns;      /* current busy-wait margin */
	double late_mean, late_dev; /* running estimates of how late sleeps wake up, ns */
	int stats;             /* BENCH_SIM_STATS set: print timing statistics at the end */
	uint64_t waits, sleeps, late_waits; /* waits; of them with a sleep; ending > 2 us after their target */
	double late_sum_ns, sleep_late_sum_ns;
	uint64_t handed, late_events;  /* IOs handed back; of them > 2 us after their modelled completion */
	double event_late_sum_ns;
	/* The machine's share of a run (BENCH_SIM_STATS): the union of the intervals in which at least one IO
	 * was due and not handed back (ns), over the span from the first submission to the last hand-back. */
	double overdue_ns, overdue_until_ns, first_ns, last_ns;
	/* The part of it in which the modelled device had nothing left to do: every IO in flight was due and none
	 * handed back (ns). A workload that keeps its queue full loses this much device time to the machine. */
	double starved_ns, starved_until_ns, latest_done_ns;
	uint64_t late_log2[SIM_LATE_BUCKETS]; /* IOs late by [2^(k+1), 2^(k+2)) us; the last bucket open-ended */
	struct sim_wear wear;
};

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Sleeps until shortly before target, then busy-waits to it. */
static void wait_until(struct sim_data *sd, double target)
{
	double now = mono_ns();

	if (target - now > sd->margin_ns) {
		double wake = target - sd->margin_ns, late;
		struct timespec ts;

		ts.tv_sec = (time_t)(wake / 1e9);
		ts.tv_nsec = (long)(wake - (double)ts.tv_sec * 1e9);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = mono_ns();
		late = now - wake;
		sd->sleeps++;
		sd->sleep_late_sum_ns += late;
		if (sd->spin_max_ns != 0) {
			double dev = late > sd->late_mean ? late - sd->late_mean : sd->late_mean - late;
			double cap = sd->spin_max_ns < 0 ? SPIN_AUTO_MAX_NS : sd->spin_max_ns;

			sd->late_mean += (late - sd->late_mean) / 16.0;
			sd->late_dev += (dev - sd->late_dev) / 16.0;
			sd->margin_ns = sd->late_mean + 4.0 * sd->late_dev + 1000.0;
			if (sd->margin_ns < SPIN_AUTO_MIN_NS)
				sd->margin_ns = SPIN_AUTO_MIN_NS;
			if (sd->margin_ns > cap)
				sd->margin_ns = cap;
		}
	}
	while (now < target) {
		cpu_relax();
		now = mono_ns();
	}
	sd->waits++;
	if (now - target > 2000) {
		sd->late_waits++;
		sd->late_sum_ns += now - target;
	}
}

static void heap_push(struct sim_data *sd, double done, struct io_u *io_u)
{
	unsigned i = sd->nheap++;

	while (i > 0) {
		unsigned parent = (i - 1) / 2;

		if (sd->heap[parent].done_ns <= done)
			break;
		sd->heap[i] = sd->heap[parent];
		i = parent;
	}
	sd->heap[i].done_ns = done;
	sd->heap[i].io_u = io_u;
}

static struct io_u *heap_pop(struct sim_data *sd)
{
	struct io_u *top = sd->heap[0].io_u;
	struct inflight last = sd->heap[--sd->nheap];
	unsigned i = 0, n = sd->nheap;

	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;
		double mv = last.done_ns;

		if (l < n && sd->heap[l].done_ns < mv) {
			m = l;
			mv = sd->heap[l].done_ns;
		}
		if (r < n && sd->heap[r].done_ns < mv)
			m = r;
		if (m == i)
			break;
		sd->heap[i] = sd->heap[m];
		i = m;
	}
	if (n)
		sd->heap[i] = last;
	return top;
}

/* The wear hook (sim_model_set_wear): counts a write's bytes and returns its device-time factor. */
static double wear_hook(void *ctx, unsigned member, int write, double bytes)
{
	struct sim_wear *w = ctx;
	double before, factor = 1.0;

	if (!write)
		return 1.0;
	before = (double)__atomic_fetch_add(&w->map->written_bytes[member], (uint64_t)bytes, __ATOMIC_RELAXED);
	if (w->cliff_bytes > 0 && before >= w->cliff_bytes)
		factor = w->cliff_factor;
	return factor * (1.0 + w->drift_pct_gib / 100.0 * before / 1073741824.0);
}

/* Bytes of the target's size= that one member holds under the layout (its capacity). */
static double member_share(const struct sim_config *c, double size)
{
	switch (c->raid) {
	case SIM_RAID0: return size / c->members;
	case SIM_RAID10: return size * 2.0 / c->members;
	case SIM_RAID5: return size / (c->members - 1);
	case SIM_RAID6: return size / (c->members - 2);
	case SIM_RAID1:
	case SIM_RAID_NONE:
	default: return size;
	}
}

static int wear_parse(struct sim_wear *w, const struct sim_options *o, const struct sim_config *c, double size,
		      char *err, size_t errlen)
{
	char *end;

	w->cliff_factor = 3.0;
	if (o->cliff) {
		size_t n = strlen(o->cliff);

		if (n > 1 && (o->cliff[n - 1] == 'x' || o->cliff[n - 1] == 'X')) {
			double times = strtod(o->cliff, &end);

			if (end != o->cliff + n - 1 || !(times > 0) || !(size > 0)) {
				snprintf(err, errlen, "sim_cliff=%s: Nx needs N > 0 and a size= for the job", o->cliff);
				return -1;
			}
			w->cliff_bytes = times * member_share(c, size);
		} else if (sim_parse_bytes(o->cliff, &w->cliff_bytes) < 0 || !(w->cliff_bytes > 0)) {
			snprintf(err, errlen, "sim_cliff must be a size (e.g. 128g) or Nx, got '%s'", o->cliff);
			return -1;
		}
	}
	if (o->cliff_factor) {
		w->cliff_factor = strtod(o->cliff_factor, &end);
		if (*end || end == o->cliff_factor || !(w->cliff_factor > 0)) {
			snprintf(err, errlen, "sim_cliff_factor must be a number > 0, got '%s'", o->cliff_factor);
			return -1;
		}
	}
	if (o->drift) {
		w->drift_pct_gib = strtod(o->drift, &end);
		if (*end || end == o->drift || !(w->drift_pct_gib >= 0)) {
			snprintf(err, errlen, "sim_drift must be a percentage per GiB >= 0, got '%s'", o->drift);
			return -1;
		}
	}
	if (o->purge && strcmp(o->purge, "0") && strcmp(o->purge, "1")) {
		snprintf(err, errlen, "sim_purge must be 0 or 1, got '%s'", o->purge);
		return -1;
	}
	return 0;
}

/* The state file's path: sim_wear_state, else the job's first filename (in directory= when relative). */
static int wear_path(struct thread_data *td, const struct sim_options *o, char *path, size_t len, char *err,
		     size_t errlen)
{
	const char *name = o->wear_state ? o->wear_state : td->o.filename;
	size_t n;
	int w;

	if (!name || !*name) {
		snprintf(err, errlen, "sim_cliff/sim_drift need a filename= or sim_wear_state= for the wear state");
		return -1;
	}
	n = o->wear_state ? strlen(name) : strcspn(name, ":");
	if (!o->wear_state && name[0] != '/' && td->o.directory && *td->o.directory)
		w = snprintf(path, len, "%s/%.*s", td->o.directory, (int)n, name);
	else
		w = snprintf(path, len, "%.*s", (int)n, name);
	if (w < 0 || (size_t)w >= len) {
		snprintf(err, errlen, "wear state path too long");
		return -1;
	}
	return 0;
}

/* Opens (creating or purging) and maps the state file; the file lock makes concurrent jobs agree. */
static int wear_open(struct sim_wear *w, const char *path, unsigned members, int purge, char *err, size_t errlen)
{
	size_t len = sizeof(struct wear_file) + members * sizeof(uint64_t);
	struct stat st;
	int fd, ret = -1;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open the wear state '%.300s': %s", path, strerror(errno));
		return -1;
	}
	if (lockf(fd, F_LOCK, 0) < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot lock the wear state '%.300s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "the wear state '%.300s' is not a regular file (give sim_wear_state=)", path);
		goto out;
	}
	if (st.st_size != 0) {
		struct wear_file head;

		if ((size_t)st.st_size != len || pread(fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
		    memcmp(head.magic, WEAR_MAGIC, sizeof(head.magic)) || head.members != members) {
			snprintf(err, errlen, "'%.300s' is not a wear state file of %u members (remove it, or give "
				 "sim_wear_state=)", path, members);
			goto out;
		}
	}
	if (st.st_size == 0 && ftruncate(fd, (off_t)len) < 0) {
		snprintf(err, errlen, "cannot size the wear state '%.300s': %s", path, strerror(errno));
		goto out;
	}
	w->map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (w->map == MAP_FAILED) {
		w->map = NULL;
		snprintf(err, errlen, "cannot map the wear state '%.300s': %s", path, strerror(errno));
		goto out;
	}
	w->map_len = len;
	if (st.st_size == 0 || purge) { /* through the mapping: never truncate a file other jobs have mapped */
		memset(w->map, 0, len);
		memcpy(w->map->magic, WEAR_MAGIC, sizeof(w->map->magic));
		w->map->members = members;
	}
	ret = 0;
out:
	lockf(fd, F_ULOCK, 0);
	close(fd);
	return ret;
}

static void wear_release(struct sim_wear *w)
{
	if (w->map)
		munmap(w->map, w->map_len);
	w->map = NULL;
}

/* Sets up the write cliff and drift when asked for; 0 or -1 with a message. */
static int wear_setup(struct thread_data *td, struct sim_wear *w, const struct sim_config *c, char *err,
		      size_t errlen)
{
	const struct sim_options *o = td->eo;
	char path[4096];

	if (wear_parse(w, o, c, (double)td->o.size, err, errlen) < 0)
		return -1;
	if (w->cliff_bytes <= 0 && w->drift_pct_gib <= 0)
		return 0;
	if (wear_path(td, o, path, sizeof(path), err, errlen) < 0)
		return -1;
	return wear_open(w, path, c->members, o->purge && !strcmp(o->purge, "1"), err, errlen);
}

/* Called before IOs are submitted or handed back at now: when IOs are in flight and all of them were due by
 * now, the device has had nothing to do since the last of them completed; that interval joins starved_ns. */
/* sim_cpu: burns ns of this thread's CPU time (CPU time, not wall time: a thread that loses the CPU to
 * others burns as much, so the cost per IO is what the model says whatever the machine's load). */
static void burn_cpu(double ns)
{
	struct timespec ts;
	double start, now;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	start = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		now = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
	} while (now - start < ns);
}

static void note_starved(struct sim_data *sd, double now)
{
	double from = sd->latest_done_ns > sd->starved_until_ns ? sd->latest_done_ns : sd->starved_until_ns;

	if (!sd->nheap || sd->latest_done_ns > now)
		return;
	if (now > from)
		sd->starved_ns += now - from;
	sd->starved_until_ns = now;
}

static enum fio_q_status sim_queue(struct thread_data *td, struct io_u *io_u)
{
	struct sim_data *sd = td->io_ops_data;
	enum sim_op op;
	double now, done;

	fio_ro_check(td, io_u);
	if (sd->nheap == sd->cap)
		return FIO_Q_BUSY;
	switch (io_u->ddir) {
	case DDIR_READ: op = SIM_READ; break;
	case DDIR_WRITE: op = SIM_WRITE; break;
	case DDIR_TRIM: op = SIM_TRIM; break;
	default: op = SIM_SYNC; break;
	}
	if (sd->cpu_ns > 0)
		burn_cpu(sd->cpu_ns);
	now = mono_ns();
	if (sd->first_ns == 0)
		sd->first_ns = now;
	note_starved(sd, now);
	done = sim_model_submit(sd->model, now, op, io_u->offset, io_u->xfer_buflen);
	if (done > sd->latest_done_ns)
		sd->latest_done_ns = done;
	io_u->error = 0;
	io_u->resid = 0;
	heap_push(sd, done, io_u);
	return FIO_Q_QUEUED;
}

/* An IO due at done_ns handed back at now, more than 2 us late: counted, put in its lateness bucket, and its
 * interval added to the union of overdue time (IOs come off the heap in order of done_ns). */
static void note_late(struct sim_data *sd, double done_ns, double now)
{
	double late_us = (now - done_ns) / 1e3, from = done_ns > sd->overdue_until_ns ? done_ns : sd->overdue_until_ns;
	unsigned k = 0;

	sd->late_events++;
	sd->event_late_sum_ns += now - done_ns;
	while (k + 1 < SIM_LATE_BUCKETS && late_us >= (double)(4u << k))
		k++;
	sd->late_log2[k]++;
	if (now > from)
		sd->overdue_ns += now - from;
	if (now > sd->overdue_until_ns)
		sd->overdue_until_ns = now;
}

static int sim_getevents(struct thread_data *td, unsigned int min, unsigned int max, const struct timespec *t)
{
	struct sim_data *sd = td->io_ops_data;
	double deadline = -1;
	unsigned n = 0;

	if (t)
		deadline = mono_ns() + (double)t->tv_sec * 1e9 + (double)t->tv_nsec;
	for (;;) {
		double now = mono_ns(), next;

		note_starved(sd, now);
		while (n < max && sd->nheap && sd->heap[0].done_ns <= now) {
			if (now - sd->heap[0].done_ns > 2000)
				note_late(sd, sd->heap[0].done_ns, now);
			sd->events[n++] = heap_pop(sd);
			sd->handed++;
			sd->last_ns = now;
		}
		if (n >= min || !sd->nheap || n >= max)
			return (int)n;
		next = sd->heap[0].done_ns;
		if (deadline >= 0) {
			if (now >= deadline)
				return (int)n;
			if (next > deadline)
				next = deadline;
		}
		wait_until(sd, next);
	}
}

static struct io_u *sim_event(struct thread_data *td, int event)
{
	struct sim_data *sd = td->io_ops_data;

	return sd->events[event];
}

/* BENCH_SIM_STATS=1: one line for people on fio's stderr. BENCH_SIM_STATS=/ABSOLUTE/PATH: besides, one line of
 * key=value fields appended to that file per job, for tests that tell a disturbed run from a wrong model
 * (tests/lib/sim_noise.py reads it): late_us=N:M... counts M IOs late by [N, 2N) us. */
static void stats_print(struct thread_data *td, const struct sim_data *sd)
{
	const char *path = getenv("BENCH_SIM_STATS");
	FILE *f;

	log_err("sim: %llu IOs, %llu handed back late (> 2 us after their modelled completion) by %.1f us on "
		"average; %llu waits, %llu with a sleep (woke %.1f us late on average), %llu ended late by "
		"%.1f us on average; busy-wait margin %.1f us; overdue %.1f ms (starved %.1f ms) of %.1f ms\n",
		(unsigned long long)sd->handed, (unsigned long long)sd->late_events,
		sd->late_events ? sd->event_late_sum_ns / sd->late_events / 1e3 : 0.0, (unsigned long long)sd->waits,
		(unsigned long long)sd->sleeps, sd->sleeps ? sd->sleep_late_sum_ns / sd->sleeps / 1e3 : 0.0,
		(unsigned long long)sd->late_waits, sd->late_waits ? sd->late_sum_ns / sd->late_waits / 1e3 : 0.0,
		sd->margin_ns / 1e3, sd->overdue_ns / 1e6, sd->starved_ns / 1e6, (sd->last_ns - sd->first_ns) / 1e6);
	if (!path || path[0] != '/' || !(f = fopen(path, "a")))
		return;
	fprintf(f, "sim-stats job=%s ios=%llu late=%llu late_sum_ns=%.0f overdue_ns=%.0f starved_ns=%.0f span_ns=%.0f "
		"late_us=", td->o.name ? td->o.name : "?", (unsigned long long)sd->handed,
		(unsigned long long)sd->late_events, sd->event_late_sum_ns, sd->overdue_ns, sd->starved_ns,
		sd->last_ns > sd->first_ns ? sd->last_ns - sd->first_ns : 0.0);
	for (unsigned k = 0; k < SIM_LATE_BUCKETS; k++)
		fprintf(f, "%s%u:%llu", k ? "," : "", 2u << k, (unsigned long long)sd->late_log2[k]);
	fputc('\n', f);
	fclose(f);
}

static void sim_cleanup(struct thread_data *td)
{
	struct sim_data *sd = td->io_ops_data;

	if (!sd)
		return;
	if (sd->stats)
		stats_print(td, sd);
	sim_model_free(sd->model);
	wear_release(&sd->wear);
	free(sd->heap);
	free(sd->events);
	free(sd);
	td->io_ops_data = NULL;
}

static int sim_init(struct thread_data *td)
{
	struct sim_options *o = td->eo;
	struct sim_config c;
	struct sim_data *sd;
	char err[512];

	sim_config_defaults(&c);
	/* The model's options; the wear options after them are this file's (wear_setup). */
	for (const struct fio_option *opt = options; opt->name && strcmp(opt->name, SIM_FIRST_WEAR_OPTION);
	     opt++) {
		const char *value = *(char **)((char *)o + opt->off1);

		if (value && sim_config_set(&c, opt->name + 4, value, err, sizeof(err)) < 0) {
			log_err("fio: sim: %s\n", err);
			return 1;
		}
	}
	sd = calloc(1, sizeof(*sd));
	if (!sd)
		return 1;
	td->io_ops_data = sd;
	sd->cap = td->o.iodepth ? td->o.iodepth : 1;
	sd->heap = calloc(sd->cap, sizeof(*sd->heap));
	sd->events = calloc(sd->cap, sizeof(*sd->events));
	if (!sd->heap || !sd->events) {
		sim_cleanup(td);
		return 1;
	}
	sd->model = sim_model_new(&c, td->thread_number, err, sizeof(err));
	if (!sd->model) {
		log_err("fio: sim: %s\n", err);
		sim_cleanup(td);
		return 1;
	}
	if (wear_setup(td, &sd->wear, &c, err, sizeof(err)) < 0) {
		log_err("fio: sim: %s\n", err);
		sim_cleanup(td);
		return 1;
	}
	if (sd->wear.map)
		sim_model_set_wear(sd->model, wear_hook, &sd->wear);
	sd->stats = getenv("BENCH_SIM_STATS") != NULL;
	sd->spin_max_ns = c.spin_ns;
	sd->cpu_ns = c.cpu_ns;
	sd->margin_ns = c.spin_ns < 0 ? 20000.0 : c.spin_ns;
	/* Precise sleeps: the default 50 us timer slack alone would cost half of a 100 us service time. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	return 0;
}

static int sim_open_file(struct thread_data *td, struct fio_file *f)
{
	(void)td;
	(void)f;
	return 0;
}

static int sim_close_file(struct thread_data *td, struct fio_file *f)
{
	(void)td;
	(void)f;
	return 0;
}

/* fio looks this symbol up by name after dlopen(). */
struct ioengine_ops ioengine = {
	.name = "sim",
	.version = FIO_IOOPS_VERSION,
	.flags = FIO_DISKLESSIO | FIO_FAKEIO,
	.init = sim_init,
	.queue = sim_queue,
	.getevents = sim_getevents,
	.event = sim_event,
	.cleanup = sim_cleanup,
	.open_file = sim_open_file,
	.close_file = sim_close_file,
	.options = options,
	.option_struct_size = sizeof(struct sim_options),
};
