/*
 * cli: error printing, exit codes, signal trapping, shared option handling, and the preparation the command
 * table's flags ask for (the store) for every command.
 */
#include "bench/cli.h"
#include "report/text/escape.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
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
	/* One line: newlines inside a message (from foreign tools) become spaces; other control characters
	 * (ESC sequences in a label or a file name) never reach the terminal (report/text/escape.h esc_text). */
	struct strbuf sb;
	char *flat = xstrdup(msg);

	for (char *p = flat; *p; p++)
		if (*p == '\n')
			*p = ' ';
	strbuf_init(&sb);
	esc_text(&sb, flat);
	fprintf(stderr, "%s%s\n", prefix, sb.buf);
	strbuf_release(&sb);
	free(flat);
}

const char *cli_safe(const char *s)
{
	static struct strbuf ring[4];
	static int init, next;
	struct strbuf *sb;

	if (!init) {
		for (int i = 0; i < 4; i++)
			strbuf_init(&ring[i]);
		init = 1;
	}
	sb = &ring[next];
	next = (next + 1) % 4;
	strbuf_reset(sb);
	esc_text(sb, s ? s : "");
	return sb->buf;
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
	if (store_open(path ? path : CLI_DEFAULT_DB, flags, out, &err) < 0)
		return -cli_fail(&err);
	return 0;
}

/* What cli_prepare prepared for the command main is running. */
static struct {
	unsigned flags;
	const char *db;
	struct store *st;
	int failed; /* the exit code of a failed open, 0 when none failed */
} prepared;

static unsigned store_flags_of(unsigned cmd_flags)
{
	unsigned f = 0;

	if (cmd_flags & CMD_STORE_RO)
		f |= STORE_READONLY;
	if (cmd_flags & CMD_STORE_MUST_EXIST)
		f |= STORE_MUST_EXIST;
	return f;
}

void cli_set_db(const char *path)
{
	prepared.db = path;
}

int cli_prepare(const struct cmd *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	memset(&prepared, 0, sizeof(prepared));
	prepared.flags = c->flags;
	return EXIT_OK;
}

int cli_store_code(void)
{
	return prepared.failed ? prepared.failed : EXIT_STORE;
}

struct store *cli_store(void)
{
	int rc;

	if (!prepared.st && !prepared.failed && (prepared.flags & (CMD_STORE_RO | CMD_STORE_RW)) &&
	    (rc = cli_open_store(prepared.db, store_flags_of(prepared.flags), &prepared.st)) < 0)
		prepared.failed = -rc;
	return prepared.st;
}

int cli_finish(int rc)
{
	store_close(prepared.st);
	memset(&prepared, 0, sizeof(prepared));
	return rc;
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

int cli_write_file(const char *path, const struct strbuf *data)
{
	FILE *f = path ? fopen(path, "wb") : stdout;

	if (!f)
		return cli_error(EXIT_INPUT, "cannot write '%s': %s", path, strerror(errno));
	if (fwrite(data->buf, 1, data->len, f) != data->len || fflush(f) != 0) {
		int e = errno;
		if (path)
			fclose(f);
		return cli_error(path ? EXIT_INPUT : EXIT_STORE, "cannot write '%s': %s",
				 path ? path : "standard output", strerror(e));
	}
	if (path && fclose(f) != 0)
		return cli_error(EXIT_INPUT, "cannot write '%s': %s", path, strerror(errno));
	return EXIT_OK;
}

const char *cli_verb(const char *cmd, int argc, char *const *argv, const char *verbs)
{
	if (optind < argc)
		return argv[optind];
	cli_usage(cmd, "say what to do: %s", verbs);
	return NULL;
}

