/*
 * Unit tests of core/proc.c around the end of the process that started a program: a program must not outlive
 * bench after kill -9 of bench, even when it ignores SIGTERM, and neither must its children in sessions of
 * their own, which is how fio 3.33 was once left: its main process stuck in its own SIGTERM handler, its job
 * process (in a session of its own, as fio runs every job) waiting for it. proc_stop ends such a pair too. The
 * guard that makes sure of it holds none of bench's files and ends with the program. The "bench" here is a
 * forked copy of this test that is killed with SIGKILL; the "job process" is a `setsid` child of `sh`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"
#include "testutil.h"

/* A job process: in a session of its own, it writes its pid to $1 (the ready file), then sleeps. */
#define JOB "(exec setsid sh -c 'echo $$ > \"$1.tmp\"; mv \"$1.tmp\" \"$1\"; exec sleep 60' sh \"$1\")"
/* fio's stuck pair: the main process ignores SIGTERM, and so does its job process */
static const char stuck_pair[] = "trap '' TERM; " JOB " & exec sleep 60";
/* a main process that ends on SIGTERM, and a job process that ignores it */
static const char stuck_job[] = "(trap '' TERM; " JOB ") & wait";
/* one process that ends on SIGTERM; it writes its own pid */
static const char plain[] = "echo $$ > \"$1.tmp\"; mv \"$1.tmp\" \"$1\"; exec sleep 60";

/* The state and process group of process PID (decimal) from /proc/PID/stat; 0, or -1 when it is gone. */
static int proc_state(const char *pid, char *state, long *pgrp)
{
	char path[300], buf[1024];
	const char *rp;
	long ppid;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	rp = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	return rp && sscanf(rp + 1, " %c %ld %ld", state, &ppid, pgrp) == 3 ? 0 : -1;
}

/* Processes of process group PGID that are not zombies. */
static int live_in_group(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char state;
		long pgrp;

		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && proc_state(de->d_name, &state, &pgrp) == 0 &&
		    pgrp == pgid && state != 'Z')
			n++;
	}
	closedir(d);
	return n;
}

/* Whether PID is a live process (not gone, not a zombie). */
static int alive(pid_t pid)
{
	char id[24], state;
	long pgrp;

	snprintf(id, sizeof(id), "%ld", (long)pid);
	return pid > 0 && proc_state(id, &state, &pgrp) == 0 && state != 'Z';
}

/* Milliseconds until group PGID and process JOB are gone, or -1 if one is still there after LIMIT_MS. */
static long long ms_until_gone(pid_t pgid, pid_t job, int limit_ms)
{
	long long t0 = mono_ms();

	while (live_in_group(pgid) > 0 || alive(job)) {
		if (mono_ms() - t0 > limit_ms)
			return -1;
		usleep(20 * 1000);
	}
	return mono_ms() - t0;
}

/* The pid the script wrote to READY (waits up to 5 s for it). */
static pid_t job_pid(const char *ready)
{
	long pid = 0;
	FILE *f = NULL;
	int i;

	for (i = 0; i < 500 && !(f = fopen(ready, "r")); i++)
		usleep(10 * 1000);
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	assert_true(pid > 0);
	usleep(100 * 1000); /* the exec of sleep after the file */
	return (pid_t)pid;
}

/* The stand-in, program and job of the running test, killed by its teardown if a failed assertion left them. */
static pid_t standin, program, job;

static int kill_leftovers(void **state)
{
	(void)state;
	if (standin > 0) {
		kill(standin, SIGKILL);
		waitpid(standin, NULL, 0);
	}
	if (program > 0)
		kill(-program, SIGKILL);
	if (job > 0)
		kill(job, SIGKILL);
	standin = program = job = 0;
	return 0;
}

/*
 * Forks a stand-in for bench that starts ARGV with proc_start and then waits for its end; *child gets the
 * program's pid (its process group). Returns the stand-in's pid.
 */
static pid_t start_in_standin(char *const argv[], pid_t *child)
{
	int fds[2];
	pid_t h;
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	h = fork();
	assert_true(h >= 0);
	if (h == 0) {
		struct errbuf err = { 0 };
		struct proc p;
		pid_t pid = -1;

		close(fds[0]);
		if (proc_start(&p, argv, NULL, NULL, NULL, &err) == 0)
			pid = p.pid;
		n = write(fds[1], &pid, sizeof(pid));
		(void)n;
		close(fds[1]);
		pause();
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], child, sizeof(*child));
	close(fds[0]);
	standin = h;
	assert_int_equal(n, sizeof(*child));
	assert_true(*child > 0);
	program = *child;
	return h;
}

static void kill9_and_reap(pid_t h)
{
	int st;

	assert_int_equal(kill(h, SIGKILL), 0);
	assert_int_equal(waitpid(h, &st, 0), h);
	standin = 0;
	assert_true(WIFSIGNALED(st));
}

/*
 * Runs SCRIPT (sh -c, with the ready file as $1) in a stand-in, checks that the program's group then has two
 * live processes (the program and its guard: the job is in a session of its own), kills the stand-in with -9
 * and returns the milliseconds until the group and the job are gone (-1: still there after 8 s).
 */
static long long gone_after_kill9(const char *script, const char *what)
{
	char *ready = xasprintf("%s/ready", tu_dir);
	char *argv[] = { "sh", "-c", (char *)script, "sh", ready, NULL };
	long long gone;
	pid_t child, h;

	unlink(ready);
	h = start_in_standin(argv, &child);
	job = job_pid(ready);
	assert_int_equal(live_in_group(child), 2);
	assert_true(alive(job));
	kill9_and_reap(h);
	gone = ms_until_gone(child, job, 8000);
	print_message("%s: gone %lld ms after kill -9 of its bench\n", what, gone);
	unlink(ready);
	free(ready);
	return gone;
}

/* fio's stuck pair: both killed 2 s after their bench is killed with -9 (before: they ran on). */
static void sigterm_ignored_is_killed(void **state)
{
	long long gone = gone_after_kill9(stuck_pair, "a program and its job process, both ignoring SIGTERM");

	(void)state;
	/* SIGTERM first (ignored), SIGKILL after the 2 s grace */
	assert_true(gone >= 1500);
}

/* A program that honours SIGTERM ends at once when its bench is killed with -9. */
static void sigterm_honoured_ends_at_once(void **state)
{
	long long gone = gone_after_kill9(plain, "sleep");

	(void)state;
	assert_true(gone >= 0 && gone < 1500);
}

/* A program that ends on SIGTERM, leaving its job process that ignores it: that one is killed at once. */
static void straggler_is_killed_when_the_program_ends(void **state)
{
	long long gone = gone_after_kill9(stuck_job, "a program whose job process ignores SIGTERM");

	(void)state;
	assert_true(gone >= 0 && gone < 1500);
}

/* proc_stop (bench still there) ends fio's stuck pair: SIGTERM, then SIGKILL to the group and the job. */
static void stop_ends_a_stuck_pair(void **state)
{
	char *ready = xasprintf("%s/ready", tu_dir);
	char *argv[] = { "sh", "-c", (char *)stuck_pair, "sh", ready, NULL };
	struct errbuf err = { 0 };
	struct proc p;

	(void)state;
	unlink(ready);
	assert_int_equal(proc_start(&p, argv, NULL, NULL, NULL, &err), 0);
	program = p.pid;
	job = job_pid(ready);
	proc_stop(&p, 300);
	assert_true(ms_until_gone(p.pid, job, 1000) >= 0);
	unlink(ready);
	free(ready);
}

/* The guard ends with the program, whether it ended by itself or was stopped. */
static void guard_ends_with_the_program(void **state)
{
	char *short_argv[] = { "sleep", "0.2", NULL };
	char *long_argv[] = { "sleep", "60", NULL };
	struct errbuf err = { 0 };
	struct proc p;

	(void)state;
	assert_int_equal(proc_start(&p, short_argv, NULL, NULL, NULL, &err), 0);
	program = p.pid;
	usleep(100 * 1000);
	assert_int_equal(live_in_group(p.pid), 2);
	assert_int_equal(proc_wait(&p, 5000), 1);
	assert_int_equal(proc_exit_code(&p), 0);
	assert_true(ms_until_gone(p.pid, 0, 2000) >= 0);

	assert_int_equal(proc_start(&p, long_argv, NULL, NULL, NULL, &err), 0);
	program = p.pid;
	usleep(100 * 1000);
	proc_stop(&p, 1000);
	assert_true(ms_until_gone(p.pid, 0, 2000) >= 0);
}

/*
 * The guard holds none of bench's files: a pipe bench has open when it starts a program reaches EOF as soon
 * as bench closes its write end (a socket would close likewise), while the program still runs.
 */
static void guard_holds_no_file_of_bench(void **state)
{
	char *argv[] = { "sleep", "60", NULL };
	struct errbuf err = { 0 };
	struct pollfd pfd;
	struct proc p;
	int fds[2];
	char c;

	(void)state;
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	assert_int_equal(proc_start(&p, argv, NULL, NULL, NULL, &err), 0);
	program = p.pid;
	usleep(100 * 1000);
	assert_int_equal(live_in_group(p.pid), 2);
	close(fds[1]);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	assert_int_equal(poll(&pfd, 1, 2000), 1);
	assert_int_equal(read(fds[0], &c, 1), 0);
	close(fds[0]);
	proc_stop(&p, 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(sigterm_ignored_is_killed, kill_leftovers),
		cmocka_unit_test_teardown(sigterm_honoured_ends_at_once, kill_leftovers),
		cmocka_unit_test_teardown(straggler_is_killed_when_the_program_ends, kill_leftovers),
		cmocka_unit_test_teardown(stop_ends_a_stuck_pair, kill_leftovers),
		cmocka_unit_test_teardown(guard_ends_with_the_program, kill_leftovers),
		cmocka_unit_test_teardown(guard_holds_no_file_of_bench, kill_leftovers),
	};

	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
