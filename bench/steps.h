/*
 * steps: the one runner of configuration steps (profiles/config.h): an argv list run on this host, or on a
 * host of the hosts file over ssh (BatchMode, the host's ssh user), through core/proc (own process group,
 * SIGTERM then SIGKILL at its timeout), with stdout and stderr captured together. Every step run leaves a
 * record (phase, host, argv, exit code, start, duration, output) in a step log, which the run loop stores as
 * an artifact of the configuration's runs and prints on failure.
 */
#ifndef BENCH_BENCH_STEPS_H
#define BENCH_BENCH_STEPS_H

#include <stddef.h>

#include "core/model.h"
#include "core/strbuf.h"
#include "profiles/config.h"

#define STEP_OUTPUT_MAX_BYTES (64u * 1024u) /* output kept per step; the rest is cut with a note */

struct step_record {
	enum config_phase phase;
	char *host;              /* NULL: this host */
	char *argv_text;         /* the argv as a shell-quoted line (config_argv_text) */
	char *origin;            /* where the step is written: "file:line" or "recipe NAME" (config_step.origin) */
	int exit_code;           /* 0 ok; 128+N killed by signal N; -1 could not start */
	int timed_out;
	char *started_at;        /* UTC, ISO 8601 */
	long long duration_ms;
	char *output;            /* stdout and stderr, at most STEP_OUTPUT_MAX_BYTES */
};

struct step_log {
	struct step_record *v;
	size_t n, cap;
};

void step_log_init(struct step_log *l);
void step_log_release(struct step_log *l);

/* The argv that runs `s` (over ssh when s->host, or the configuration's host, names a host): malloc'd, or NULL
 * with err set when the host is not in `hosts`. */
char **steps_argv(const struct suite_config *c, const struct config_step *s, const struct host_list *hosts,
		  struct errbuf *err);
void steps_argv_free(char **argv);

/*
 * Runs one step of configuration `c` (`workdir` holds the capture file) and appends its record to `log`.
 * Returns its exit code (0 ok, -1 not started).
 */
int steps_run_one(const struct suite_config *c, enum config_phase ph, const struct config_step *s,
		  const struct host_list *hosts, const char *workdir, struct step_log *log);

/*
 * Runs the steps of phase `ph` in order. Setup and check stop at the first failure (and before the next step
 * once `stop_flag` is set: Ctrl-C); record and teardown run every step whatever happens. Returns 0 when every
 * step exited 0, else -1 and *failed points at the first failed record in `log`.
 */
int steps_run_phase(const struct suite_config *c, enum config_phase ph, const struct host_list *hosts,
		    const char *workdir, const volatile int *stop_flag, struct step_log *log,
		    const struct step_record **failed);

/* The log as text, one block per step: "[phase] host$ argv\n  exit N after T s\n  | output...". */
void step_log_text(const struct step_log *l, size_t from, struct strbuf *out);

/* One line saying what failed: "setup step 'mkfs.btrfs ...' exited 1: first line of output". */
char *step_failure_text(const struct step_record *r);

#endif
