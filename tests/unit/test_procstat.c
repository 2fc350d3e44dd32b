/*
 * Unit tests of the procstat collector, the window arithmetic and the session on this machine: recorded
 * /proc/stat and /proc/diskstats sequences (tests/data/procstat/<case>/tN/proc/...) with hand-computed
 * utilisation and deltas, including 32- and 64-bit counter wraps, a counter going backwards, a CPU going
 * offline and coming back, and the kernel 2.6 formats; the session over swapped recorded files; the block
 * device behind a file receiving the IOs written to the file (acceptance 4 of issue 7).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/collector.h"
#include "collectors/procstat.h"
#include "collectors/session.h"
#include "collectors/window.h"
#include "core/strbuf.h"

static char *data_dir(const char *sub)
{
	const char *src = getenv("BENCH_SRC");

	if (src && *src)
		return xasprintf("%s/tests/data/procstat/%s", src, sub);
	/* __FILE__ is tests/unit/test_procstat.c under the source tree */
	return xasprintf("%.*s/../data/procstat/%s", (int)(strrchr(__FILE__, '/') - __FILE__), __FILE__, sub);
}

#define assert_close(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-9)

/* ---- counter arithmetic ---- */

static void test_counter_delta(void **state)
{
	static const struct {
		uint64_t prev, cur;
		enum counter_kind kind;
		uint64_t want;
		enum counter_event ev;
	} c[] = {
		{ 10, 25, COUNTER_KERNEL, 15, COUNTER_OK },
		{ 7, 7, COUNTER_KERNEL, 0, COUNTER_OK },
		{ 4294967295u, 4, COUNTER_KERNEL, 5, COUNTER_WRAP32 },
		{ 4294967000u, 200, COUNTER_KERNEL, 496, COUNTER_WRAP32 },
		{ UINT64_MAX - 15, 84, COUNTER_KERNEL, 100, COUNTER_WRAP64 },
		{ UINT64_MAX, 0, COUNTER_KERNEL, 1, COUNTER_WRAP64 },
		/* a 32-bit value far from the top that went down: not a plausible wrap */
		{ 1000, 10, COUNTER_KERNEL, 0, COUNTER_BACKWARDS },
		{ 5000000000u, 4999999990u, COUNTER_KERNEL, 0, COUNTER_BACKWARDS },
		{ 4294967295u, 4, COUNTER_RESETTABLE, 0, COUNTER_BACKWARDS },
		{ 3, 9, COUNTER_RESETTABLE, 6, COUNTER_OK },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		enum counter_event ev;
		uint64_t d = counter_delta(c[i].prev, c[i].cur, c[i].kind, &ev);
		if (d != c[i].want || ev != c[i].ev)
			fail_msg("case %zu: delta %llu event %d, want %llu event %d", i, (unsigned long long)d, ev,
				 (unsigned long long)c[i].want, c[i].ev);
	}
}

/* ---- recorded sequences ---- */

struct disk_want {
	const char *name;
	uint64_t reads, writes, read_sectors, write_sectors, io_ticks_ms;
};

struct seq_case {
	const char *dir;
	int nsnaps;
	double util_pct;               /* whole window */
	double interval_pct[2];        /* per interval */
	double user_pct, idle_pct;
	int cores;
	unsigned wraps, backwards, offline;
	struct disk_want disk[3];      /* devices expected among the window's disks */
	const char *absent_disk;       /* a device that must not appear with IO (NULL: none) */
};

static const struct seq_case cases[] = {
	/* recorded on the 2-core test machine with 4 MiB of O_DIRECT writes in between:
	   cpu0 +4 user +1 system +96 idle; cpu1 +1 user +3 system +99 idle +2 softirq -> 11 busy / 206 */
	{ "real", 2, 1100.0 / 206, { 1100.0 / 206 }, 500.0 / 206, 19500.0 / 206, 2, 0, 0, 0,
	  { { "vda", 9, 8, 440, 8192, 8 } }, "loop0" },
	/* cpu0 user 4294967000 -> 200 (+496) and idle 4294967200 -> 300 (+396) wrap at 32 bits;
	   cpu1 +100 user +60 system +300 idle +20 iowait +10 softirq: 716 busy / 1432 */
	{ "wrap32", 2, 50.0, { 50.0 }, 59600.0 / 1432, 69600.0 / 1432, 2, 4, 0, 0,
	  { { "sda", 5, 30, 40, 240, 16 } }, "sda1" },
	{ "wrap64", 2, 25.0, { 25.0 }, 25.0, 75.0, 1, 3, 0, 0, { { "nvme0n1", 0, 10, 0, 1080, 10 } }, NULL },
	/* cpu1 idle went down (5000000000 -> 4999999990: not a wrap): that interval's idle counts 0 */
	{ "backwards", 2, 400.0 / 6, { 400.0 / 6 }, 50.0, 200.0 / 6, 2, 0, 1, 0, { { .name = NULL } }, NULL },
	/* cpu2 offline at t1 and back at t2 with a lower idle counter: it counts in neither interval;
	   each interval: cpu0 100 busy / 200, cpu1 0 / 200, cpu3 100 / 200 */
	{ "offline", 3, 100.0 / 3, { 100.0 / 3, 100.0 / 3 }, 25.0, 200.0 / 3, 3, 0, 0, 2,
	  { { "vda", 20, 0, 160, 0, 2 } }, NULL },
	/* kernel 2.6: 7 CPU fields, 4-field partition lines */
	{ "oldformat", 2, 30.0, { 30.0 }, 20.0, 60.0, 1, 0, 0, 0,
	  { { "sda", 10, 10, 80, 80, 10 }, { "sda1", 10, 10, 80, 80, 0 } }, NULL },
};

static void run_case(const struct seq_case *c)
{
	struct collect_window w;
	struct errbuf err;
	struct cpu_result cpu;

	collect_window_init(&w);
	for (int t = 0; t < c->nsnaps; t++) {
		char name[32];
		char *root;
		struct collect_snapshot s;
		double iv;

		snprintf(name, sizeof(name), "%s/t%d", c->dir, t);
		root = data_dir(name);
		collect_snapshot_init(&s);
		errbuf_init(&err);
		if (procstat_read(root, &s, &err) < 0)
			fail_msg("%s: %s", name, err.msg);
		collect_window_add(&w, &s, &iv);
		if (t == 0)
			assert_true(isnan(iv));
		else if (fabs(iv - c->interval_pct[t - 1]) > 1e-9)
			fail_msg("%s: interval %d util %.12f, want %.12f", c->dir, t, iv, c->interval_pct[t - 1]);
		free(root);
	}
	memset(&cpu, 0, sizeof(cpu));
	collect_window_to_cpu(&w, &cpu);
	if (fabs(cpu.util_pct - c->util_pct) > 1e-9)
		fail_msg("%s: util %.12f, want %.12f", c->dir, cpu.util_pct, c->util_pct);
	if (fabs(cpu.user_pct - c->user_pct) > 1e-9 || fabs(cpu.idle_pct - c->idle_pct) > 1e-9)
		fail_msg("%s: user %.12f idle %.12f, want %.12f %.12f", c->dir, cpu.user_pct, cpu.idle_pct,
			 c->user_pct, c->idle_pct);
	assert_close(cpu.user_pct + cpu.nice_pct + cpu.system_pct + cpu.idle_pct + cpu.iowait_pct + cpu.irq_pct +
			     cpu.softirq_pct + cpu.steal_pct, 100.0);
	if (cpu.cores != c->cores || w.wraps != c->wraps || w.backwards != c->backwards || w.cpu_offline != c->offline)
		fail_msg("%s: cores %d wraps %u backwards %u offline %u, want %d %u %u %u", c->dir, cpu.cores, w.wraps,
			 w.backwards, w.cpu_offline, c->cores, c->wraps, c->backwards, c->offline);
	for (int k = 0; k < 3 && c->disk[k].name; k++) {
		const struct disk_want *want = &c->disk[k];
		const struct disk_delta *d = NULL;

		for (size_t i = 0; i < w.ndisks; i++)
			if (!strcmp(w.disks[i].name, want->name))
				d = &w.disks[i];
		if (!d)
			fail_msg("%s: no disk '%s'", c->dir, want->name);
		if (d->reads != want->reads || d->writes != want->writes || d->read_sectors != want->read_sectors ||
		    d->write_sectors != want->write_sectors || d->io_ticks_ms != want->io_ticks_ms)
			fail_msg("%s: %s r %llu w %llu rs %llu ws %llu ticks %llu", c->dir, want->name,
				 (unsigned long long)d->reads, (unsigned long long)d->writes,
				 (unsigned long long)d->read_sectors, (unsigned long long)d->write_sectors,
				 (unsigned long long)d->io_ticks_ms);
	}
	if (c->absent_disk)
		for (size_t i = 0; i < w.ndisks; i++)
			if (!strcmp(w.disks[i].name, c->absent_disk))
				assert_true(w.disks[i].reads + w.disks[i].writes == 0);
	collect_window_release(&w);
}

static void test_recorded_sequences(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

/* A pair compared directly, first to last, would see cpu2's idle go backwards; pairwise it never compares. */
static void test_offline_first_last_only(void **state)
{
	struct collect_window w;
	struct errbuf err;
	const char *steps[] = { "offline/t0", "offline/t1" };

	(void)state;
	collect_window_init(&w);
	for (int t = 0; t < 2; t++) {
		char *root = data_dir(steps[t]);
		struct collect_snapshot s;

		collect_snapshot_init(&s);
		assert_int_equal(procstat_read(root, &s, &err), 0);
		collect_window_add(&w, &s, NULL);
		free(root);
	}
	/* cpu2 went offline: the three CPUs online at both ends count, 200 busy of 600 */
	assert_close(collect_window_util_pct(&w), 100.0 / 3);
	assert_int_equal(w.cores, 3);
	assert_int_equal(w.cpu_offline, 1);
	collect_window_release(&w);
}

/* ---- parse errors ---- */

static void test_parse_errors(void **state)
{
	static const struct {
		int diskstats;
		const char *text;
		const char *msg;   /* part of the message */
	} c[] = {
		{ 0, "cpu  1 2 3 4\ncpu0 1 2 x 4\n", "x.stat:2: 'cpu0' counter 3 is not a number: 'x'" },
		{ 0, "cpu0 1 2 3\n", "x.stat:1: 'cpu0' has 3 counters, expected at least 4" },
		{ 0, "cpu0 1 2 3 4\ncpu0 1 2 3 4\n", "listed twice" },
		{ 0, "cpu 1 2 3 4\nintr 5\n", "no 'cpuN' lines" },
		{ 0, "cpu0 1 2 3 -4\n", "not a number: '-4'" },
		{ 0, "cpuX 1 2 3 4\ncpu0 1 2 3 4\n", NULL },   /* not a cpuN line: ignored */
		{ 0, "cpu0 1 2 3 99999999999999999999\n", "not a number" },
		{ 0, "cpu0 1 2 3 4\nbtime x\n", "x.stat:2: btime is not a number: 'x'" },
		{ 1, "8 0 sda 1 2 3 4 5\n", "x.stat:1: 8 fields, expected 7 or at least 14" },
		{ 1, "8 0 sda 1 2 3 4 5 6 7 8 9 10 z\n", "field 14 is not a number: 'z'" },
		{ 1, "8 0 sda 1 2 3 4\n8 0 sda 1 2 3 4\n", "device 'sda' listed twice" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct collect_snapshot s;
		struct errbuf err;
		int rc;

		collect_snapshot_init(&s);
		errbuf_init(&err);
		rc = c[i].diskstats ? procstat_parse_diskstats(c[i].text, strlen(c[i].text), "x.stat", &s, &err)
				    : procstat_parse_stat(c[i].text, strlen(c[i].text), "x.stat", &s, &err);
		if (c[i].msg && (rc != -1 || !strstr(err.msg, c[i].msg)))
			fail_msg("case %zu: rc %d message '%s', want '%s'", i, rc, err.msg, c[i].msg);
		if (!c[i].msg && rc != 0)
			fail_msg("case %zu: rc %d '%s'", i, rc, err.msg);
		collect_snapshot_release(&s);
	}
}

/* The machine's boot time (btime): hosts with the same one read one machine's /proc (collectors/session.c). */
static void test_btime(void **state)
{
	static const char text[] = "cpu  1 2 3 4\ncpu0 1 2 3 4\nintr 5\nbtime 1764950000\nprocesses 9\n";
	struct collect_snapshot s;
	struct errbuf err;

	(void)state;
	collect_snapshot_init(&s);
	errbuf_init(&err);
	assert_int_equal(procstat_parse_stat(text, strlen(text), "x.stat", &s, &err), 0);
	assert_true(s.boot_time_s == 1764950000.0);
	collect_snapshot_release(&s);
	assert_int_equal(procstat_parse_stat("cpu0 1 2 3 4\n", 13, "x.stat", &s, &err), 0);
	assert_true(s.boot_time_s == 0); /* unknown */
	collect_snapshot_release(&s);
}

static void test_missing_root(void **state)
{
	struct collect_snapshot s;
	struct errbuf err;

	(void)state;
	collect_snapshot_init(&s);
	errbuf_init(&err);
	assert_int_equal(procstat_read("/nonexistent-bench-root", &s, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read '/nonexistent-bench-root/proc/stat'"));
	collect_snapshot_release(&s);
}

static void test_ops_tables(void **state)
{
	struct errbuf err;
	static const struct collector_ops broken = { .name = "broken", .version = COLLECTOR_OPS_VERSION };

	(void)state;
	errbuf_init(&err);
	assert_int_equal(collector_check_all(&err), 0);
	assert_ptr_equal(collector_find("procstat"), &collector_procstat);
	assert_ptr_equal(collector_find("node_exporter"), &collector_node_exporter);
	assert_null(collector_find("nope"));
	assert_int_equal(collector_check_ops(&broken, &err), -1);
	assert_non_null(strstr(err.msg, "'broken' lacks a required hook"));
}

/* ---- the session over recorded files ---- */

static void copy_file(const char *from, const char *to)
{
	struct strbuf sb;
	char *tmp = xasprintf("%s.tmp", to);
	FILE *f;

	strbuf_init(&sb);
	assert_int_equal(strbuf_read_file(&sb, from), 0);
	f = fopen(tmp, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(sb.buf, 1, sb.len, f), sb.len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(tmp, to), 0);   /* atomic: the sampler sees the old or the new file */
	free(tmp);
	strbuf_release(&sb);
}

static void put_step(const char *root, const char *step)
{
	const char *files[] = { "stat", "diskstats" };

	for (int i = 0; i < 2; i++) {
		char *rel = xasprintf("%s/proc/%s", step, files[i]);
		char *from = data_dir(rel);
		char *to = xasprintf("%s/proc/%s", root, files[i]);
		copy_file(from, to);
		free(rel);
		free(from);
		free(to);
	}
}

static void test_session_recorded(void **state)
{
	char root[] = "/tmp/bench-procstat-XXXXXX";
	char *procdir;
	struct collect_session *s;
	struct collect_opts o = { 0 };
	struct run_result r;
	struct errbuf err, warn;
	int rc;

	(void)state;
	assert_non_null(mkdtemp(root));
	procdir = xasprintf("%s/proc", root);
	assert_int_equal(mkdir(procdir, 0755), 0);
	put_step(root, "wrap32/t0");

	o.proc_root = root;
	o.interval_ms = 3600 * 1000;   /* no sample in between: the window is start -> finish */
	o.local_name = "node1";
	errbuf_init(&err);
	s = collect_session_start_opts(&o, &err);
	assert_non_null(s);
	put_step(root, "wrap32/t1");
	run_result_init(&r);
	rc = collect_session_finish(s, 1000, "sda", &r, &warn);
	if (rc != 0)
		fail_msg("finish: %d %s", rc, warn.msg);

	assert_int_equal(r.ncpu, 2);
	assert_string_equal(r.cpu[0].host, "node1");
	assert_string_equal(r.cpu[0].source, "procstat");
	assert_int_equal(r.cpu[0].role, ROLE_INITIATOR);
	assert_close(r.cpu[0].util_pct, 50.0);
	assert_int_equal(r.cpu[0].cores, 2);
	/* 716 busy ticks of 10 ms = 7.16 CPU-seconds over 1000 IOs = 7160 us per IO */
	assert_true(fabs(r.cpu[0].cpu_us_per_io - 7160.0) < 1e-6);
	assert_string_equal(r.cpu[1].host, HOST_AGGREGATE);
	assert_close(r.cpu[1].util_pct, 50.0);
	assert_true(fabs(r.cpu[1].cpu_us_per_io - 7160.0) < 1e-6);

	/* sda did IO; sda1 did none and is not the backing device: only sda is recorded */
	assert_int_equal(r.ndisks, 1);
	assert_string_equal(r.disks[0].device, "sda");
	assert_int_equal(r.disks[0].reads, 5);
	assert_int_equal(r.disks[0].writes, 30);
	assert_int_equal(r.disks[0].io_ticks_ms, 16);
	{
		const char *members[] = { "sda" };
		assert_close(collect_io_amplification(&r, "node1", members, 1, 7), 5.0);
		assert_true(isnan(collect_io_amplification(&r, "node1", members, 1, 0)));
		assert_true(isnan(collect_io_amplification(&r, "other", members, 1, 7)));
	}
	/* one CPU sample and, when time passed between the two snapshots (not always: the recorded files are read
	 * within a millisecond on a fast machine), one disk-IOPS sample at the interval's end with its length */
	assert_true(r.nsamples == 1 || r.nsamples == 2);
	assert_string_equal(r.samples[0].metric, "cpu.util_pct");
	assert_string_equal(r.samples[0].host, "node1");
	assert_string_equal(r.samples[0].source, "procstat");
	assert_close(r.samples[0].value, 50.0);
	if (r.nsamples == 2) {
		assert_true(r.samples[0].window_ms > 0);
		assert_string_equal(r.samples[1].metric, "disk.iops");
		assert_int_equal(r.samples[1].t_ms, r.samples[0].t_ms);
		assert_close(r.samples[1].value * r.samples[1].window_ms / 1000.0, 35.0); /* sda: 5 reads + 30 writes */
	}
	run_result_release(&r);

	/* A backing device that is not in diskstats is a warning, and the run still gets its CPU. */
	put_step(root, "wrap32/t0");
	s = collect_session_start_opts(&o, &err);
	assert_non_null(s);
	put_step(root, "wrap32/t1");
	run_result_init(&r);
	assert_int_equal(collect_session_finish(s, 0, "sdz", &r, &warn), 1);
	assert_non_null(strstr(warn.msg, "host 'node1': device 'sdz' not found in diskstats"));
	assert_true(isnan(r.cpu[0].cpu_us_per_io));
	assert_close(r.cpu[0].util_pct, 50.0);
	run_result_release(&r);

	/* No time passed between the two samples: CPU missing with a warning. */
	s = collect_session_start_opts(&o, &err);
	assert_non_null(s);
	run_result_init(&r);
	assert_int_equal(collect_session_finish(s, 0, NULL, &r, &warn), 1);
	assert_non_null(strstr(warn.msg, "host 'node1': CPU not collected: no CPU time counted"));
	assert_true(isnan(r.cpu[0].util_pct));
	run_result_release(&r);

	/* A root without files: CPU missing, warning names the host, nothing crashes. */
	o.proc_root = "/nonexistent-bench-root";
	s = collect_session_start_opts(&o, &err);
	assert_non_null(s);
	run_result_init(&r);
	assert_int_equal(collect_session_finish(s, 10, NULL, &r, &warn), 1);
	assert_non_null(strstr(warn.msg, "host 'node1': CPU not collected: cannot read"));
	assert_int_equal(r.ncpu, 2);
	assert_true(isnan(r.cpu[0].util_pct));
	assert_true(isnan(r.cpu[1].util_pct));
	run_result_release(&r);

	for (int i = 0; i < 2; i++) {
		char *p = xasprintf("%s/proc/%s", root, i ? "stat" : "diskstats");
		unlink(p);
		free(p);
	}
	rmdir(procdir);
	rmdir(root);
	free(procdir);
}

/* ---- acceptance 4: the block device behind a file target records its IOs ---- */

static void test_backing_device_ios(void **state)
{
	const char *dir = getenv("BENCH_BUILD");
	char *path = xasprintf("%s/test_procstat.%ld.dat", dir && *dir ? dir : ".", (long)getpid());
	char dev[64], disk[64];
	struct errbuf err, warn;
	struct collect_session *s;
	struct run_result r;
	const size_t chunk = 1 << 20, nchunks = 8;
	void *buf = NULL;
	int fd, direct = 1;
	const struct disk_result *d = NULL;

	(void)state;
	errbuf_init(&err);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	if (collect_backing_device(path, dev, sizeof(dev), disk, sizeof(disk), &err) < 0) {
		unlink(path);
		free(path);
		skip();   /* the build directory is on tmpfs or overlay: no device to watch */
	}
	s = collect_session_start(NULL, "/", 200, &err);
	assert_non_null(s);
	fd = open(path, O_WRONLY | O_DIRECT);
	if (fd < 0) {
		direct = 0;
		fd = open(path, O_WRONLY);
	}
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign(&buf, 4096, chunk), 0);
	memset(buf, 0x5a, chunk);
	for (size_t i = 0; i < nchunks; i++)
		assert_int_equal(write(fd, buf, chunk), (ssize_t)chunk);
	assert_int_equal(fsync(fd), 0);
	close(fd);
	usleep(300 * 1000);
	run_result_init(&r);
	collect_session_finish(s, nchunks, dev, &r, &warn);
	for (size_t i = 0; i < r.ndisks; i++)
		if (!strcmp(r.disks[i].device, dev))
			d = &r.disks[i];
	if (!d)
		fail_msg("device '%s' (disk '%s') of '%s' not recorded: %s", dev, disk, path, warn.msg);
	print_message("file %s on %s (disk %s), %s: device wrote %llu IOs, %llu sectors; amplification %.2f\n",
		      path, dev, disk, direct ? "O_DIRECT" : "buffered+fsync", (unsigned long long)d->writes,
		      (unsigned long long)d->write_sectors,
		      collect_io_amplification(&r, COLLECT_LOCAL_HOST, (const char *const[]){ dev }, 1, nchunks));
	/* at least the 8 MiB written (others may write to the same device at the same time) */
	assert_true(d->write_sectors >= nchunks * chunk / 512);
	assert_true(d->writes >= 1);
	assert_true(collect_io_amplification(&r, COLLECT_LOCAL_HOST, (const char *const[]){ dev }, 1, nchunks) > 0);
	run_result_release(&r);
	free(buf);
	unlink(path);
	free(path);
}

static void test_backing_device_errors(void **state)
{
	char dev[64], disk[64];
	struct errbuf err;
	char **m;
	size_t n;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(collect_backing_device("/proc/self/stat", dev, sizeof(dev), disk, sizeof(disk), &err), -1);
	assert_non_null(strstr(err.msg, "'/proc/self/stat' is not on a block device"));
	assert_int_equal(collect_backing_device("/nonexistent/x", dev, sizeof(dev), disk, sizeof(disk), &err), -1);
	assert_non_null(strstr(err.msg, "'/nonexistent/x': No such file or directory"));
	assert_int_equal(collect_device_members("../etc", &m, &n, &err), -1);
	assert_int_equal(collect_device_members("no-such-device", &m, &n, &err), 0);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_delta),
		cmocka_unit_test(test_recorded_sequences),
		cmocka_unit_test(test_offline_first_last_only),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_btime),
		cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_ops_tables),
		cmocka_unit_test(test_session_recorded),
		cmocka_unit_test(test_backing_device_ios),
		cmocka_unit_test(test_backing_device_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
