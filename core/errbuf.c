/*
 * errbuf: formatting of error messages for the caller to print (see errbuf.h).
 */
#include "core/errbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void errbuf_init(struct errbuf *e)
{
	e->kind = ERR_NONE;
	e->msg[0] = '\0';
}

int err_set(struct errbuf *e, enum err_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->kind = kind;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int err_prefix(struct errbuf *e, const char *fmt, ...)
{
	char pre[ERRBUF_SIZE], old[ERRBUF_SIZE];
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof(old));
	old[sizeof(old) - 1] = '\0';
	{
		size_t n = strnlen(pre, sizeof(e->msg) - 3);
		memcpy(e->msg, pre, n);
		memcpy(e->msg + n, ": ", 2);
		n += 2;
		size_t rest = strnlen(old, sizeof(e->msg) - n - 1);
		memcpy(e->msg + n, old, rest);
		e->msg[n + rest] = '\0';
	}
	return -1;
}

int err_check_ops_head(struct errbuf *e, const char *a_kind, const char *kind, const char *name, unsigned version,
		       unsigned expected)
{
	if (!name || !*name)
		return err_set(e, ERR_INTERNAL, "%s has no name", a_kind);
	if (version != expected)
		return err_set(e, ERR_INTERNAL, "%s '%s' has ops version %u, expected %u", kind, name, version, expected);
	return 0;
}
