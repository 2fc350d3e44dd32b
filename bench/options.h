/*
 * options: the one option table of `bench plan` and `bench run` (after curl's tool_getparam.c). Every option
 * either command accepts is one row of that table: its long name, whether it takes a value, which commands
 * take it, what it sets and its help line. Both commands parse with run_args_parse, build and check their plan
 * with run_args_plan, and print their option help with run_args_help, so an option that changes what runs has
 * one syntax and one check everywhere, and `bench plan` shows exactly what `bench run` stores.
 *
 * Adding an option is one row in options.c: a flag or a text needs only a field of struct run_args (or of its
 * struct runloop_opts) and OPT_FLAG(field) / OPT_TEXT(field) in the row; anything else names a handler.
 */
#ifndef BENCH_BENCH_OPTIONS_H
#define BENCH_BENCH_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "bench/method_run.h"
#include "bench/runloop.h"
#include "core/kv.h"
#include "core/model.h"
#include "profiles/profile.h"

/* Which commands take an option (struct bench_option.cmds). */
enum opt_cmd {
	OPT_PLAN = 1 << 0,
	OPT_RUN = 1 << 1,
	OPT_BOTH = OPT_PLAN | OPT_RUN,
};

/* How an option behaves (struct bench_option.flags). */
enum opt_flags {
	OPT_VALUE = 1 << 0,     /* takes a value: --name VALUE or --name=VALUE */
	OPT_SUITE = 1 << 1,     /* part of the arguments that identify a suite for --resume */
	OPT_METHOD = 1 << 2,    /* the measurement method (docs/method.md): its own section of --help */
};

/* What the options and arguments of plan and run fill. */
struct run_args {
	unsigned cmd;                  /* OPT_PLAN or OPT_RUN: the command being parsed */
	const char *cmd_name;          /* "plan" or "run", for messages */
	struct plan_options plan;      /* --target --quick --matrix --repeat --engine --workdir NAME=value */
	struct kvlist labels;          /* --label: the suite's and every run's */
	struct kvlist engine_opts;     /* --engine-opt: added to every run */
	struct host_list hosts;        /* --hosts FILE (empty: this host) */
	const char *hosts_file;
	int interleave;
	const char **profiles;         /* the positional arguments that are not variables, in order */
	size_t nprofiles;
	struct runloop_opts run;       /* run-only settings */
	struct method_settings method; /* --curve --sweep --until --precondition --max-rounds --round-time */
	const char *format;            /* --format text|json (plan) */
	int verbose;                   /* -v (plan) */
	int help;                      /* --help was given: print the help and exit 0 */
	const char **engine_names;     /* the registered engines' names, for plan.engines */
	void *suite_args;              /* cJSON array: the arguments that define the suite (OPT_SUITE), then profiles */
};

struct bench_option;
/* Takes the option's value (NULL when it takes none); returns 0, or the exit code after printing the error. */
typedef int (*opt_handler)(struct run_args *a, const struct bench_option *o, const char *value);

struct bench_option {
	const char *name;              /* long name without "--" */
	char short_name;               /* -q, or 0 */
	unsigned cmds;                 /* enum opt_cmd */
	unsigned flags;                /* enum opt_flags */
	opt_handler handle;
	size_t field;                  /* offsetof(struct run_args, ...) for the generic handlers */
	const char *metavar;           /* "PATH" in the help, or NULL */
	const char *help;              /* one line; '\n' continues it on the next, indented */
};

/* The table, terminated by a row with a NULL name. */
extern const struct bench_option bench_options[];

void run_args_init(struct run_args *a, unsigned cmd);
void run_args_release(struct run_args *a);

/*
 * Parses argv[1..argc-1] for command a->cmd. Returns EXIT_OK (a->help set when --help was given) or the exit
 * code after printing the error: an option of the other command only, an unknown option, a bad value.
 */
int run_args_parse(struct run_args *a, int argc, char **argv);

/*
 * Builds the plan the arguments describe and applies to it what the command line adds (--engine-opt into
 * every run, --label into the suite's and every run's labels), then validates what `bench run` validates
 * before opening the database: at least one profile and one run, every engine registered and able to run on
 * --hosts. Prints the warnings and errors; returns EXIT_OK or the exit code.
 */
int run_args_plan(struct run_args *a, struct plan *out);

/*
 * What plan and run do first, in one place: run_args_init and plan_init (both to be released by the caller
 * whatever this returns), run_args_parse, then run_args_plan into *plan. With --help: usage() printed,
 * a->help set, EXIT_OK and nothing planned. Returns EXIT_OK or the exit code.
 */
int run_args_start(struct run_args *a, unsigned cmd, int argc, char **argv, void (*usage)(void), struct plan *plan);

/* The arguments that identify the suite (JSON text, malloc'd): what `--resume` matches. */
char *run_args_suite_text(const struct run_args *a);

/* Prints the options of `cmd` (OPT_PLAN or OPT_RUN), one per row of the table, as `--help` shows them. */
void run_args_help(FILE *f, unsigned cmd);

#endif
