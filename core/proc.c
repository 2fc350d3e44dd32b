/*
 * proc: fork/exec with an argv array, process groups, deadlines and reaping (see proc.h).
 */
#include "core/proc.h"
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int open_out(const char *path)
{
	return open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int proc_start(struct proc *p, char *const argv[], const char *cwd, const char *out_path, const char *err_path,
	       struct errbuf *err)
{
	int pipefd[2], ofd, efd, e = 0;
	pid_t pid;
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
		setpgid(0, 0);
		/* A child must not outlive bench, even after kill -9 of bench. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
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
	kill(-p->pid, SIGKILL);
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
