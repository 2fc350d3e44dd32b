/*
 * config: the configurations of a suite ([config NAME] sections, docs/suite-format.md) in their parsed form,
 * and the crossing of a plan with them (configurations outermost, every workload on every configuration).
 * A configuration is what a study compares: a stack built by setup steps (or recipes, recipe.h), checked by
 * check steps, described by record steps, measured by the suite's workloads and removed by teardown steps.
 * The steps are argv lists (never a shell line), each with a host (NULL: this host) and a timeout. Never
 * prints; errors carry file:line.
 */
#ifndef BENCH_PROFILES_CONFIG_H
#define BENCH_PROFILES_CONFIG_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"

struct plan;

/* The phases of a configuration, in the order the run loop runs them (teardown last, always). */
enum config_phase { CONFIG_SETUP, CONFIG_CHECK, CONFIG_RECORD, CONFIG_TEARDOWN, CONFIG_NPHASES };

#define CONFIG_STEP_TIMEOUT_S 300u /* a step's timeout when neither the step nor the configuration gives one */

struct config_step {
	char **argv;             /* NULL-terminated; argv[0] looked up in PATH (on the host) */
	size_t argc;
	char *host;              /* a host of the hosts file, or NULL: this host */
	unsigned timeout_s;      /* 0: the configuration's timeout, else CONFIG_STEP_TIMEOUT_S */
	char *origin;            /* "file:line" or "recipe NAME" */
};

struct suite_config {
	char *name;
	char *file;
	int line;
	struct kvlist labels;                  /* label = k=v (each run's config=NAME is its typed
	                                          method.config_name, written as a label when stored) */
	struct config_step *steps[CONFIG_NPHASES];
	size_t nsteps[CONFIG_NPHASES];
	char **targets;                        /* targets = PATH...: what the configuration provides, or NULL */
	size_t ntargets;
	char **members;                        /* block devices the recipes build on: probed before setup */
	size_t nmembers;
	char **recipes;                        /* "NAME key=value..." as written, in order */
	size_t nrecipes;
	struct kvlist sim_opts;                /* sim = k=v...: engine options when the run's engine is sim */
	struct kvlist fio_opts;                /* fio = k=v...: fio options of the runs when their engine is fio */
	struct kvlist baseline_fio;            /* baseline.fio = k=v...: over fio_opts, the transport baseline's
	                                          (a null export on the same transport; docs/explain.md) */
	struct kvlist precondition;            /* precondition.KEY = VALUE: for the measurement method */
	char *host;                            /* host = NAME: default host of the steps, or NULL */
	unsigned timeout_s;                    /* timeout = DUR: default step timeout, 0: not set */
};

struct config_list {
	struct suite_config *v;
	size_t n, cap;
};

void config_list_init(struct config_list *l);
void config_list_release(struct config_list *l);
void config_list_copy(struct config_list *dst, const struct config_list *src); /* dst initialised; appends */
/* Appends copies of src's configurations to dst, refusing a name dst already has (ERR_INPUT, both places). */
int config_list_merge(struct config_list *dst, const struct config_list *src, struct errbuf *err);
struct suite_config *config_list_add(struct config_list *l, const char *name, const char *file, int line);
const struct suite_config *config_list_find(const struct config_list *l, const char *name);

/* One `key = value` line of a [config] section (config_keys.c; recipes are expanded there: recipe.h). */
int config_key(struct suite_config *c, const char *key, const char *val, const char *file, int line,
	       struct errbuf *err);

/*
 * Splits a step line into argv: words separated by blanks, '...' and "..." quote (no escapes inside '',
 * backslash escapes inside ""), leading `@HOST` and `timeout=DUR` words are the step's own settings. Returns
 * 0, or -1 (ERR_INPUT, "file:line: ...") on an unterminated quote or an empty command.
 */
int config_step_parse(const char *text, struct config_step *out, const char *origin, struct errbuf *err);
void config_step_release(struct config_step *s);
/* Splits `text` into words with '' and "" quoting (as config_step_parse): a malloc'd, NULL-terminated array of
 * *n words (NULL when there are none; free with config_words_free); -1 on an unterminated quote. */
int config_split_words(const char *text, char ***out, size_t *n);
void config_words_free(char **v, size_t n);
/* A step or configuration timeout (fio time units, seconds by default) into seconds: -1 unless 1s..24h. */
int config_timeout_parse(const char *text, unsigned *out_s);
void config_step_copy(struct config_step *dst, const struct config_step *src);
/* Appends a copy of `s` to phase `ph` of `c`. */
void config_add_step(struct suite_config *c, enum config_phase ph, const struct config_step *s);
/* The timeout that applies to `s` in `c`, seconds. */
unsigned config_step_timeout_s(const struct suite_config *c, const struct config_step *s);
/* The argv as one line, each word shell-quoted where needed (for plans, reports, records): malloc'd. */
char *config_argv_text(char *const *argv);
const char *config_phase_name(enum config_phase ph);

/*
 * Crosses `plan` with `configs` (configurations outermost): every run once per configuration, with its typed
 * configuration (run_method.config_index and config_name: the label config=NAME at store time) and the
 * configuration's labels; a run whose engine is fio gets the configuration's
 * targets (unless `keep_targets`: --target was given) and its fio options (engine options: written into every
 * job after the workload's own, so `fio = ioengine=nbd uri=...` wins), a run whose engine is sim gets its sim
 * options. Runs are
 * renumbered (seq) in the new order. Nothing happens when `configs` is empty.
 */
int config_plan_cross(struct plan *plan, const struct config_list *configs, int keep_targets, struct errbuf *err);


#endif
