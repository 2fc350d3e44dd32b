/*
 * proc: fork/exec with an argv array, process groups, deadlines and reaping (see proc.h).
 */
#include "core/proc.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The lifeline: a pipe whose write end only this process holds (close-on-exec, so no program it starts keeps
 * it). Its read end reaches EOF when this process is gone, however it went (kill -9 included).
 */
static pthread_mutex_t lifeline_lock = PTHREAD_MUTEX_INITIALIZER;
static int lifeline[2] = { -1, -1 };
static pid_t lifeline_owner;

/* The lifeline's read end, -1 when no pipe could be made (the child then has PR_SET_PDEATHSIG alone). */
static int lifeline_read_end(void)
{
	int fd;

	pthread_mutex_lock(&lifeline_lock);
	if (lifeline_owner != getpid()) {
		/* first use, or a forked copy of the process that made it: a lifeline of our own (the copy of the
		 * maker's write end would keep the maker's guards from seeing it go) */
		if (lifeline_owner) {
			close(lifeline[0]);
			close(lifeline[1]);
		}
		if (pipe2(lifeline, O_CLOEXEC) == 0)
			lifeline_owner = getpid();
		else
			lifeline[0] = lifeline[1] = -1;
	}
	fd = lifeline[0];
	pthread_mutex_unlock(&lifeline_lock);
	return fd;
}

/*
 * The children of PARENT (their parent process id, from /proc/PID/stat) into OUT, up to MAX; their count.
 * SELF is left out. No allocation and no locks: the guard calls it.
 */
static int children_of(pid_t parent, pid_t self, pid_t *out, int max)
{
	_Alignas(struct dirent64) char buf[4096];
	char path[64], st[512];
	int dfd, fd, n = 0;
	ssize_t got, len;

	dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	while (n < max && (got = getdents64(dfd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < got && n < max;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			const char *rp = NULL;
			long pid = 0, ppid = 0;
			size_t k, nl = strlen(d->d_name);

			off += d->d_reclen;
			if (nl == 0 || nl > 20 || d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			for (k = 0; k < nl && d->d_name[k] >= '0' && d->d_name[k] <= '9'; k++)
				pid = pid * 10 + (d->d_name[k] - '0');
			if (k < nl || pid == self)
				continue;
			memcpy(path, "/proc/", 6);
			memcpy(path + 6, d->d_name, nl);
			memcpy(path + 6 + nl, "/stat", 6);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue; /* ended meanwhile */
			len = read(fd, st, sizeof(st) - 1);
			close(fd);
			if (len <= 0)
				continue;
			st[len] = 0;
			/* "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so after the last ')' */
			for (k = 0; k < (size_t)len; k++)
				if (st[k] == ')')
					rp = st + k;
			if (!rp || rp[1] != ' ' || !rp[2] || rp[3] != ' ')
				continue;
			for (rp += 4; *rp >= '0' && *rp <= '9'; rp++)
				ppid = ppid * 10 + (*rp - '0');
			if (ppid == parent)
				out[n++] = (pid_t)pid;
		}
	}
	close(dfd);
	return n;
}

/* SIGKILL to LEADER's children (while it lives, their ids stay theirs), then to its process group. */
static void kill_group_and_children(pid_t leader)
{
	pid_t kids[256];
	int i, n = children_of(leader, 0, kids, 256);

	for (i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	kill(-leader, SIGKILL);
}

#define GUARD_MAX_KIDS 1000

/*
 * Pidfds of GROUP's children not yet in KIDS/KFD (N of them) are added; the new count. A pidfd signals the
 * process it was opened for, even after its parent has ended and its id has gone to another process.
 */
static int guard_note_children(pid_t group, pid_t *kids, int *kfd, int n)
{
	pid_t now[GUARD_MAX_KIDS];
	int i, j, m = children_of(group, getpid(), now, GUARD_MAX_KIDS);

	for (i = 0; i < m && n < GUARD_MAX_KIDS; i++) {
		for (j = 0; j < n && kids[j] != now[i]; j++)
			;
		if (j < n)
			continue;
		kfd[n] = (int)syscall(SYS_pidfd_open, now[i], 0);
		if (kfd[n] >= 0)
			kids[n++] = now[i];
	}
	return n;
}

/*
 * The guard of a child (forked by the child before its exec, so the child's own child, in its process group).
 * PR_SET_PDEATHSIG alone does not stop every program: after kill -9 of bench, fio 3.33 was seen stuck for good
 * in its own SIGTERM handler (SIGTERM blocked, waiting on a futex), and so was its job process, which fio puts
 * in a session of its own (out of reach of a signal to the group). The guard waits for either end: the
 * program's (a pidfd), then it just exits; or bench's (the lifeline's EOF). Then it notes the program's
 * children, sends SIGTERM to the group (fio's clean stop, which also tells fio servers to stop their jobs), and
 * SIGKILL to the children and to the group, itself included, as soon as the program has ended or 2 s later.
 * It touches the group only when bench is gone: a daemon the program forks may still be in the group when the
 * program exits (fio --daemonize). No allocation and no locks: bench may have other threads when it forks.
 */
static _Noreturn void guard_main(int life_rd, pid_t group)
{
	static pid_t kids[GUARD_MAX_KIDS];
	static int kfd[GUARD_MAX_KIDS];
	struct pollfd pfd[2];
	int pidfd, n, i, nk;

	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN); /* the group becomes orphaned when bench goes: a stopped member brings SIGHUP */
	pidfd = (int)syscall(SYS_pidfd_open, group, 0);
	if (pidfd < 0)
		_exit(0); /* a kernel before 5.3, or the program has already ended: PR_SET_PDEATHSIG alone */
	if (getppid() != group)
		_exit(0); /* the program has already ended */
	prctl(PR_SET_NAME, "bench-guard");
	/* nothing of bench's but the lifeline: no copy of a socket, database or pipe stays open here */
	if (dup2(life_rd, 0) < 0 || dup2(pidfd, 1) < 0)
		_exit(0);
	close_range(2, ~0U, 0);
	pfd[0].fd = 0;
	pfd[1].fd = 1;
	pfd[0].events = pfd[1].events = POLLIN;
	do {
		n = poll(pfd, 2, -1);
	} while (n < 0 && errno == EINTR);
	if (n < 0 || !pfd[0].revents)
		_exit(0); /* the program ended, bench is still there */
	nk = guard_note_children(group, kids, kfd, 0);
	kill(-group, SIGTERM);
	do {
		n = poll(&pfd[1], 1, 2000);
	} while (n < 0 && errno == EINTR);
	if (n == 0) /* still running: it may have started more */
		nk = guard_note_children(group, kids, kfd, nk);
	for (i = 0; i < nk; i++)
		syscall(SYS_pidfd_send_signal, kfd[i], SIGKILL, NULL, 0);
	kill(-group, SIGKILL);
	_exit(0);
}

/* Forks the guard of program `group` when this kernel has pidfds (Linux 5.3): 1, else 0 (no guard). */
static int guard_start(int life_rd, pid_t group)
{
	int t = (int)syscall(SYS_pidfd_open, group, 0);
	pid_t g;

	if (t < 0)
		return 0;
	close(t);
	g = fork();
	if (g == 0)
		guard_main(life_rd, group);
	return g > 0;
}

static int open_out(const char *path)
{
	return open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int proc_start(struct proc *p, char *const argv[], const char *cwd, const char *out_path, const char *err_path,
	       struct errbuf *err)
{
	int pipefd[2], life, ofd, efd, e = 0;
	pid_t pid, parent = getpid();
	ssize_t n;

	memset(p, 0, sizeof(*p));
	ofd = open_out(out_path);
	if (ofd < 0)
		return err_set(err, ERR_HOST, "cannot create '%s': %s", out_path, strerror(errno));
	if (err_path && out_path && !strcmp(err_path, out_path))
		efd = dup(ofd);
	else
		efd = open_out(err_path);
	if (efd < 0) {
		close(ofd);
		return err_set(err, ERR_HOST, "cannot create '%s': %s", err_path, strerror(errno));
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		close(ofd);
		close(efd);
		return err_set(err, ERR_HOST, "pipe: %s", strerror(errno));
	}
	life = lifeline_read_end();
	pid = fork();
	if (pid < 0) {
		close(ofd);
		close(efd);
		close(pipefd[0]);
		close(pipefd[1]);
		return err_set(err, ERR_HOST, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		pid_t pid_of_child = getpid();

		setpgid(0, 0);
		/*
		 * A child must not outlive bench, even after kill -9 of bench: a guard, or the signal when there is
		 * none. With a guard the program gets no signal of its own when bench dies: the guard notes the
		 * program's children first and then sends SIGTERM, so that a job the program started is noted before
		 * the program can end and leave it to init (the signal would race the guard, and lose 1 time in 9).
		 */
		if (!(life >= 0 && guard_start(life, pid_of_child)))
			prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127); /* bench is already gone */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(ofd, 1);
		dup2(efd, 2);
		if (cwd && chdir(cwd) < 0)
			e = errno;
		else {
			execvp(argv[0], argv);
			e = errno;
		}
		n = write(pipefd[1], &e, sizeof(e));
		(void)n;
		_exit(127);
	}
	setpgid(pid, pid);
	close(ofd);
	close(efd);
	close(pipefd[1]);
	do {
		n = read(pipefd[0], &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	p->pid = pid;
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, &p->status, 0);
		p->reaped = 1;
		return err_set(err, ERR_HOST, "cannot run '%s': %s", argv[0], strerror(e));
	}
	return 0;
}

int proc_wait(struct proc *p, int timeout_ms)
{
	long long deadline = timeout_ms < 0 ? 0 : mono_ms() + timeout_ms;

	if (p->reaped || !p->pid)
		return 1;
	for (;;) {
		pid_t r = waitpid(p->pid, &p->status, timeout_ms < 0 ? 0 : WNOHANG);
		if (r == p->pid) {
			p->reaped = 1;
			return 1;
		}
		if (r < 0 && errno != EINTR) {
			p->reaped = 1;
			p->status = 0;
			return 1;
		}
		if (timeout_ms >= 0 && mono_ms() >= deadline)
			return 0;
		if (r == 0) {
			struct timespec ts = { 0, 20 * 1000000 };
			nanosleep(&ts, NULL);
		}
	}
}

void proc_stop(struct proc *p, int grace_ms)
{
	if (!p->pid || p->reaped)
		return;
	kill(-p->pid, SIGTERM);
	kill(p->pid, SIGTERM);
	if (proc_wait(p, grace_ms))
		goto group;
	kill_group_and_children(p->pid); /* fio's job processes are in sessions of their own */
	kill(p->pid, SIGKILL);
	proc_wait(p, -1);
group:
	/* Whatever the child left in its group goes too. */
	kill(-p->pid, SIGKILL);
}

int proc_exit_code(const struct proc *p)
{
	if (WIFEXITED(p->status))
		return WEXITSTATUS(p->status);
	if (WIFSIGNALED(p->status))
		return 128 + WTERMSIG(p->status);
	return -1;
}

int proc_run_capture(char *const argv[], int timeout_ms, char **out, int *exit_code, struct errbuf *err)
{
	char tmpl[] = "/tmp/bench-capture-XXXXXX";
	struct strbuf sb;
	struct proc p;
	int fd = mkstemp(tmpl);

	if (out)
		*out = NULL;
	if (fd < 0)
		return err_set(err, ERR_HOST, "cannot create a temporary file: %s", strerror(errno));
	close(fd);
	if (proc_start(&p, argv, NULL, tmpl, NULL, err) < 0) {
		unlink(tmpl);
		return -1;
	}
	if (!proc_wait(&p, timeout_ms)) {
		proc_stop(&p, 1000);
		unlink(tmpl);
		return err_set(err, ERR_HOST, "'%s' did not finish within %d ms", argv[0], timeout_ms);
	}
	*exit_code = proc_exit_code(&p);
	strbuf_init(&sb);
	strbuf_read_file(&sb, tmpl);
	unlink(tmpl);
	if (out)
		*out = strbuf_detach(&sb, NULL);
	else
		strbuf_release(&sb);
	return 0;
}
