/*
 * options: the one option table of every bench command (after curl's tool_getparam.c and git's parse-options).
 * Every option any command accepts is one row of that table: its long name, whether it takes a value, which
 * commands take it (a bitmask), how it is known to the command's parser and its help line. An option that
 * means one thing is one row (--db, --where, --format, --label, -o, --timeout, --quiet, --verbose, --dry-run),
 * with one unit everywhere; every command's option list in --help is generated from the table (opt_help), and an
 * unknown option or a value out of a fixed set gets "did you mean" from it.
 *
 * plan and run parse with run_args_parse, build and check their plan with run_args_plan, and print their option
 * help with run_args_help, so `bench plan` shows exactly what `bench run` stores. The other commands walk their
 * arguments with opt_getopt (the table's replacement for getopt_long) and switch on the row's key.
 *
 * Adding an option is one row in options.c: a flag or a text needs only a field of struct run_args (or of its
 * struct runloop_opts) and OPT_FLAG(field) / OPT_TEXT(field) in the row; anything else names a handler.
 */
#ifndef BENCH_BENCH_OPTIONS_H
#define BENCH_BENCH_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include <unistd.h> /* optarg, optind: opt_getopt sets them as getopt_long did */

#include "bench/runloop_method.h"
#include "bench/runloop.h"
#include "core/kv.h"
#include "core/model.h"
#include "profiles/profile.h"

/* Which commands take an option (struct bench_option.cmds). */
enum opt_cmd {
	OPT_PLAN = 1 << 0,
	OPT_RUN = 1 << 1,
	OPT_BOTH = OPT_PLAN | OPT_RUN,
	OPT_IMPORT = 1 << 2,
	OPT_REPORT = 1 << 3,
	OPT_GATE = 1 << 4,
	OPT_TREND = 1 << 5,
	OPT_HOSTS = 1 << 6,
	OPT_LAB = 1 << 7,
	OPT_EXPORT = 1 << 8,
	OPT_DB = 1 << 9,
	OPT_PROFILES = 1 << 10,
	OPT_RECIPES = 1 << 11,
	OPT_BASELINE = 1 << 12, /* bench baseline: run's rows but --resume (its errors say "baseline:") */
	OPT_RUN_BASELINE = OPT_RUN | OPT_BASELINE,
	OPT_ANYRUN = OPT_BOTH | OPT_BASELINE, /* a row of plan, run and baseline alike */
	OPT_STORED = OPT_RUN | OPT_BASELINE | OPT_IMPORT | OPT_REPORT | OPT_GATE | OPT_TREND | OPT_EXPORT | OPT_DB,
	OPT_ALL = (1 << 13) - 1,
};

/*
 * How the parsers of the commands other than plan and run know a row (struct bench_option.key): its short
 * letter ('h', 'o', 'q', 'v') or one of these. opt_getopt returns it.
 */
enum opt_key {
	OK_DB = 256, OK_WHERE, OK_FORMAT, OK_LABEL, OK_TIMEOUT, OK_DRY_RUN, OK_ALL, OK_SET, OK_UNSET, OK_RAW,
	OK_ARTIFACT, OK_HISTOGRAM, OK_DDIR, OK_BASELINE, OK_CANDIDATE, OK_THRESHOLD, OK_CONFIDENCE, OK_MIN_RUNS,
	OK_PAIRED, OK_MATCH, OK_MIN_RUNTIME, OK_STRICT, OK_ALLOW_INVALID, OK_ALLOW_UNSTEADY, OK_MARKDOWN, OK_JUNIT,
	OK_JSON, OK_CALIBRATE, OK_ON_INCONCLUSIVE, OK_ALLOW_DIFF, OK_METHOD, OK_PLAN, OK_HOSTS, OK_ALLOW_PARTIAL,
	OK_DESTRUCTIVE, OK_NO_TARGETS, OK_OVERWRITE_FILES, OK_TARGET, OK_DIR, OK_PORT, OK_SIZE, OK_BASE, OK_BY,
	OK_COMPARE, OK_COLOR, OK_CHARTS, OK_HTML, OK_SHOW, OK_ORDER, OK_ALIAS, OK_TITLE, OK_CAPTION, OK_LOG, OK_DPI,
	OK_NAMES, OK_P99_LIMIT, OK_JOBS, OK_METRIC, OK_SORT, OK_PVALUE, OK_MIN_SEGMENT, OK_CHART, OK_NO_SAMPLES,
	OK_SAMPLES, OK_PUSH, OK_INFLUX_DB, OK_JOB, OK_BATCH, OK_CONNECT_TIMEOUT, OK_RETRIES, OK_RUN, OK_CSV, OK_MAP,
	OK_APPEND, OK_AGAIN, OK_RENAMED, OK_EXPLAIN, OK_BUDGET, OK_NETNS, OK_LINK,
};

/* How an option behaves (struct bench_option.flags). */
enum opt_flags {
	OPT_VALUE = 1 << 0,     /* takes a value: --name VALUE or --name=VALUE */
	OPT_SUITE = 1 << 1,     /* part of the arguments that identify a suite for --resume */
	OPT_METHOD = 1 << 2,    /* the measurement method (docs/method.md): its own section of --help */
	OPT_HIDDEN = 1 << 3,    /* not in --help: an old name, refused with the new one (OK_RENAMED) */
};

/* What the options and arguments of plan and run fill. */
struct run_args {
	unsigned cmd;                  /* OPT_PLAN, OPT_RUN or OPT_BASELINE: the command being parsed */
	const char *cmd_name;          /* "plan", "run" or "baseline", for messages */
	struct plan_options plan;      /* --target --quick --matrix --repeat --engine --workdir NAME=value */
	struct kvlist labels;          /* --label: the suite's and every run's */
	struct kvlist engine_opts;     /* --engine-opt: added to every run */
	struct host_list hosts;        /* --hosts FILE (empty: this host) */
	const char *hosts_file;
	int interleave;
	int no_fio_check;              /* --no-fio-check: fio does not parse the job files first */
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
	int key;                       /* the short letter ('q': -q), else an enum opt_key, or 0 (plan/run only) */
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

/* Prints the options of `cmd` (OPT_PLAN, OPT_RUN or OPT_BASELINE), one per row of the table, as `--help` shows them. */
void run_args_help(FILE *f, unsigned cmd);

/*
 * The table's getopt_long for the other commands: `cmd` one enum opt_cmd bit, `name` the command for messages
 * ("db list"). Call with *i = 0 first (set by opt_getopt on its first call to 1); each call returns the next
 * option's key and sets optarg to its value (NULL for a flag), or -1 when all arguments are read: then argv is
 * reordered as getopt_long left it (options, then the arguments that are not options in their order, "--"
 * ends the options) and optind is the first of those. An unknown option (with "did you mean" from the rows
 * `cmd` takes), a missing value or a value given to a flag: the usage error is printed and '?' returned (the
 * caller returns EXIT_USAGE). --db's value is handed to the store main opens (cli_set_db).
 */
int opt_getopt(const char *name, unsigned cmd, int argc, char **argv, int *i);

/* The long name of the row with this key ("db" for OK_DB), or "?". */
const char *opt_name(int key);

/* Prints the option list of command `cmd` as --help shows it: every row it takes, in the table's order. */
void opt_help(FILE *f, unsigned cmd);

/*
 * A value of a fixed set: `choices` is "a|b|c". Returns the index of value in it, or -1 after printing the
 * usage error "--OPT wants a, b or c, got 'X' (did you mean 'b'?)" for command `name`.
 */
int opt_choice(const char *name, const char *opt, const char *choices, const char *value);

/*
 * --timeout and --connect-timeout, one unit everywhere: a duration of core/units (3s, 500ms, 2m; a bare number
 * is seconds) above 0 and at most max_s seconds, in milliseconds. Returns 0, or EXIT_USAGE after printing the
 * error (a bare number past max_s says that it is read as seconds now).
 */
int opt_duration_ms(const char *name, const char *opt, const char *value, double max_s, long *ms);

#endif
