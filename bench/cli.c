/*
 * cli: error printing, exit codes, signal trapping and shared option handling for every command.
 */
#include "bench/cli.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"

volatile int cli_interrupted;

static int kind_to_exit(enum err_kind k)
{
	switch (k) {
	case ERR_USAGE: return EXIT_USAGE;
	case ERR_INPUT: return EXIT_INPUT;
	case ERR_HOST: return EXIT_HOST;
	case ERR_STORE: return EXIT_STORE;
	case ERR_NONE:
	case ERR_INTERNAL:
	default: return EXIT_INTERNAL;
	}
}

static void print_one_line(const char *prefix, const char *msg)
{
	/* One line: newlines inside a message (from foreign tools) become spaces. */
	fputs(prefix, stderr);
	for (const char *p = msg; *p; p++)
		fputc(*p == '\n' ? ' ' : *p, stderr);
	fputc('\n', stderr);
}

int cli_fail(const struct errbuf *err)
{
	print_one_line("bench: error: ", err->msg[0] ? err->msg : "unknown error");
	return kind_to_exit(err->kind);
}

int cli_error(int code, const char *fmt, ...)
{
	char buf[ERRBUF_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	print_one_line("bench: error: ", buf);
	return code;
}

void cli_warn(const char *fmt, ...)
{
	char buf[ERRBUF_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	print_one_line("bench: warning: ", buf);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	char buf[ERRBUF_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bench: error: %s: %s (see 'bench %s --help')\n", cmd, buf, cmd);
	return EXIT_USAGE;
}

int cli_add_label(struct kvlist *labels, const char *cmd, const char *arg)
{
	char *k, *v;

	if (kv_parse_label(arg, &k, &v) < 0) {
		cli_usage(cmd, "--label wants key=value with a key of letters, digits, '_', '-', '.', got '%s'", arg);
		return -1;
	}
	kvlist_set(labels, k, v);
	free(k);
	free(v);
	return 0;
}

int cli_open_store(const char *path, unsigned flags, struct store **out)
{
	struct errbuf err;

	errbuf_init(&err);
	if (store_open(path ? path : CLI_DEFAULT_DB, flags, out, &err) < 0) {
		cli_fail(&err);
		return -1;
	}
	return 0;
}

int cli_stderr_is_tty(void)
{
	return isatty(2);
}

static void on_signal(int sig)
{
	(void)sig;
	cli_interrupted = 1;
}

void cli_trap_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
