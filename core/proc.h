/*
 * proc: starting and stopping child processes safely (design.md "How one suite runs"). Programs are started
 * from an argv array (never through a shell), in their own process group, with stdout/stderr sent to files or
 * /dev/null; stopping sends SIGTERM to the group, then SIGKILL after a grace period; children are always reaped.
 */
#ifndef BENCH_CORE_PROC_H
#define BENCH_CORE_PROC_H

#include <sys/types.h>

#include "core/errbuf.h"

struct proc {
	pid_t pid;      /* 0 when not running */
	int status;     /* wait status once reaped */
	int reaped;
};

/*
 * Starts argv[0] (looked up in PATH) with stdout to `out_path` and stderr to `err_path` (NULL: /dev/null;
 * the same path for both: one file). `cwd` NULL keeps the current directory.
 */
int proc_start(struct proc *p, char *const argv[], const char *cwd, const char *out_path, const char *err_path,
	       struct errbuf *err);

/* Waits up to timeout_ms (-1: forever). Returns 1 when the process ended (p->status set), 0 on timeout. */
int proc_wait(struct proc *p, int timeout_ms);

/* Signals the process group: SIGTERM, then SIGKILL after grace_ms; reaps. Idempotent. */
void proc_stop(struct proc *p, int grace_ms);

/* Exit code of an ended process, 128+signal if it was killed. */
int proc_exit_code(const struct proc *p);

/* Runs argv to completion (with a timeout, -1 none), capturing stdout into *out (malloc'd, may be NULL). */
int proc_run_capture(char *const argv[], int timeout_ms, char **out, int *exit_code, struct errbuf *err);

/* Monotonic milliseconds. */
long long mono_ms(void);

#endif
