/*
 * errbuf: the error-message buffer that library code fills instead of printing.
 *
 * Every function below bench/ that can fail takes a `struct errbuf *` and, on failure, writes one complete,
 * printable message into it and returns a negative value. Only bench/ prints the message and picks the exit code.
 * Messages start lower-case and carry their location first: "suite.fio:12: unknown option 'xfrsize'".
 */
#ifndef BENCH_CORE_ERRBUF_H
#define BENCH_CORE_ERRBUF_H

#include <stddef.h>

#define ERRBUF_SIZE 1024

/* What kind of failure: bench/ maps it to the exit code of design.md. */
enum err_kind {
	ERR_NONE = 0,
	ERR_USAGE = 2,    /* bad command line */
	ERR_INPUT = 3,    /* bad profile, import file, hosts file */
	ERR_HOST = 4,     /* a host, engine or collector failed */
	ERR_STORE = 5,    /* storage error */
	ERR_INTERNAL = 70 /* a bug */
};

struct errbuf {
	enum err_kind kind;
	char msg[ERRBUF_SIZE];
};

void errbuf_init(struct errbuf *e);

/* Sets the message (printf-style) and kind; always returns -1 so callers can `return err_set(...)`. */
int err_set(struct errbuf *e, enum err_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to an existing message (e.g. a file name); keeps the kind. Returns -1. */
int err_prefix(struct errbuf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The first checks of a plugin's ops table (an engine, a collector): a name, and the version the caller was
 * built for. a_kind names the plugin kind with its article ("an engine"), kind without ("engine").
 * Returns 0, or -1 with ERR_INTERNAL in e.
 */
int err_check_ops_head(struct errbuf *e, const char *a_kind, const char *kind, const char *name, unsigned version,
		       unsigned expected);

#endif
