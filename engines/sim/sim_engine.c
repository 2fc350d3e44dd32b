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
 * Built against the fio source tree of exactly the installed fio (engines/sim/CMakeLists.txt): fio checks
 * only FIO_IOOPS_VERSION, and struct layouts change between releases without a bump.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "fio.h"
#include "optgroup.h"

#include "sim_model.h"

/* Options are kept as text and parsed by sim_model.c, so that "not given" differs from any value. */
struct sim_options {
	void *pad; /* fio writes a pointer here; an option at offset 0 would read as unset */
	char *preset, *transport_lat, *link_bw, *link_iops, *dist, *lat, *cv, *hist, *units, *iops, *bw, *raid,
		*members, *chunk, *seed, *spin, *stall;
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
	{ .name = NULL },
};

#define SPIN_AUTO_MAX_NS 150000.0
#define SPIN_AUTO_MIN_NS 2000.0

struct inflight {
	double done_ns;
	struct io_u *io_u;
};

struct sim_data {
	struct sim_model *model;
	struct inflight *heap; /* min-heap by done_ns */
	unsigned nheap, cap;
	struct io_u **events;  /* due IOs handed out by getevents, read by event() */
	double spin_max_ns;    /* cap of the busy-wait margin; < 0 adaptive */
	double margin_ns;      /* current busy-wait margin */
	double late_mean, late_dev; /* running estimates of how late sleeps wake up, ns */
	int stats;             /* BENCH_SIM_STATS set: print timing statistics at the end */
	uint64_t waits, sleeps, late_waits; /* waits; of them with a sleep; ending > 2 us after their target */
	double late_sum_ns, sleep_late_sum_ns;
	uint64_t handed, late_events;  /* IOs handed back; of them > 2 us after their modelled completion */
	double event_late_sum_ns;
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
	now = mono_ns();
	done = sim_model_submit(sd->model, now, op, io_u->offset, io_u->xfer_buflen);
	io_u->error = 0;
	io_u->resid = 0;
	heap_push(sd, done, io_u);
	return FIO_Q_QUEUED;
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

		while (n < max && sd->nheap && sd->heap[0].done_ns <= now) {
			if (now - sd->heap[0].done_ns > 2000) {
				sd->late_events++;
				sd->event_late_sum_ns += now - sd->heap[0].done_ns;
			}
			sd->events[n++] = heap_pop(sd);
			sd->handed++;
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

static void sim_cleanup(struct thread_data *td)
{
	struct sim_data *sd = td->io_ops_data;

	if (!sd)
		return;
	if (sd->stats)
		log_err("sim: %llu IOs, %llu handed back late (> 2 us after their modelled completion) by %.1f us on "
			"average; %llu waits, %llu with a sleep (woke %.1f us late on average), %llu ended late by "
			"%.1f us on average; busy-wait margin %.1f us\n", (unsigned long long)sd->handed,
			(unsigned long long)sd->late_events,
			sd->late_events ? sd->event_late_sum_ns / sd->late_events / 1e3 : 0.0,
			(unsigned long long)sd->waits, (unsigned long long)sd->sleeps,
			sd->sleeps ? sd->sleep_late_sum_ns / sd->sleeps / 1e3 : 0.0, (unsigned long long)sd->late_waits,
			sd->late_waits ? sd->late_sum_ns / sd->late_waits / 1e3 : 0.0, sd->margin_ns / 1e3);
	sim_model_free(sd->model);
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
	for (const struct fio_option *opt = options; opt->name; opt++) {
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
	sd->stats = getenv("BENCH_SIM_STATS") != NULL;
	sd->spin_max_ns = c.spin_ns;
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
