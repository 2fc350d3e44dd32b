/*
 * cli: what every command of the driver shares: the command table and what its flags make main prepare
 * (the store, after git's RUN_SETUP), printing of errors with the exit codes of design.md, and options that
 * mean the same thing everywhere (--db, --label). Only bench/ prints and exits.
 */
#ifndef BENCH_BENCH_CLI_H
#define BENCH_BENCH_CLI_H

#include <stdio.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "core/strbuf.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_REGRESSION = 1,
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,
	EXIT_HOST = 4,
	EXIT_STORE = 5,
	EXIT_INCONCLUSIVE = 6, /* gate: no regression, but not enough evidence for a pass */
	EXIT_INTERNAL = 70,
};

/*
 * What a command needs, prepared by cli_prepare before the command runs (git's RUN_SETUP). Without a
 * CMD_STORE_* flag the command gets no store. With one, the database of --db (default bench.db) is opened
 * once, with one error path (exit 5), and the command takes it with cli_store(); main closes it.
 */
enum cmd_flags {
	CMD_HIDDEN = 1 << 0,           /* not listed by `bench help` */
	CMD_STORE_RO = 1 << 1,         /* the store, read-only (report, gate, export) */
	CMD_STORE_RW = 1 << 2,         /* the store, read-write, created when missing (run, import) */
	CMD_STORE_MUST_EXIST = 1 << 3, /* with RO/RW: a missing file is an error, never created */
	CMD_STORE_LATE = 1 << 4,       /* opened at the command's first cli_store() call, after it checked its
					  input: a bad profile creates no database (run) */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name; returns the exit code */
	const char *summary;
	unsigned flags;
};

/* The command table (commands.c). */
extern const struct cmd bench_commands[];
const struct cmd *cmd_find(const char *name);
/* Says that `name` is no command, with the closest command when it looks like a typo: EXIT_USAGE. */
int cmd_unknown(const char *name);

/* Prints "bench: error: <msg>" and returns the exit code for the error's kind. */
int cli_fail(const struct errbuf *err);
/* Prints "bench: error: <fmt>" and returns `code`. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "bench: warning: <fmt>". */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s as text safe for the terminal (control characters shown as '?'); valid until four more calls. */
const char *cli_safe(const char *s);

/*
 * Writes data to the file at path (created or truncated), or to standard output when path is NULL. Returns
 * EXIT_OK, or prints "cannot write 'PATH': reason" and returns EXIT_INPUT (the file) or EXIT_STORE
 * (standard output: exit 5, as every command's).
 */
int cli_write_file(const char *path, const struct strbuf *data);
/* Usage error for a command: message plus a hint to --help; returns EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The verb after the options (argv[optind]), or NULL after printing the usage error "say what to do: VERBS"
 * (the caller returns EXIT_USAGE). */
const char *cli_verb(const char *cmd, int argc, char *const *argv, const char *verbs);

/* Adds a --label k=v argument to a list; prints the error and returns -1 on a bad form. */
int cli_add_label(struct kvlist *labels, const char *cmd, const char *arg);

/* Opens the database at path (default "bench.db"); on failure prints the error and returns minus the exit
 * code (-EXIT_USAGE for an empty path or a directory, -EXIT_STORE otherwise). */
int cli_open_store(const char *path, unsigned flags, struct store **out);
/* The exit code of the failed open behind a NULL cli_store() (EXIT_USAGE for an empty path or a
 * directory, EXIT_STORE otherwise). */
int cli_store_code(void);

/*
 * Prepares what command `c`'s flags ask for, before main calls it with (argc, argv) (argv[0] the command).
 * The store is never opened here: the command parses its options first (bench/options.h, which hands --db to
 * cli_set_db), and the store of --db is opened at its first cli_store() call, so that --help, a bad option or
 * a bad value creates and touches no database. Returns EXIT_OK or the exit code.
 */
int cli_prepare(const struct cmd *c, int argc, char **argv);
/* The store prepared for the running command (opened now for CMD_STORE_LATE); NULL after printing the error
 * (exit EXIT_STORE), or when the command's flags ask for no store. */
struct store *cli_store(void);
/* The --db of the command line, from the option parser (bench/options.c); the string must outlive the command. */
void cli_set_db(const char *path);
/* Releases what cli_prepare prepared; returns rc. */
int cli_finish(int rc);

/* Whether stdout/stderr are terminals (progress lines only then). */
int cli_stderr_is_tty(void);

/* Set by SIGINT/SIGTERM handlers installed with cli_trap_signals(). */
extern volatile int cli_interrupted;
void cli_trap_signals(void);

/* The default database path. */
#define CLI_DEFAULT_DB "bench.db"

#endif
