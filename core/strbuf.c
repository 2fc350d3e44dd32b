/*
 * strbuf: growable strings and the allocation helpers every folder uses (see strbuf.h).
 */
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char strbuf_empty[1];

static void die_oom(void)
{
	static const char msg[] = "bench: fatal: out of memory\n";
	ssize_t r = write(2, msg, sizeof(msg) - 1);
	(void)r;
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom();
	return q;
}

char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;
	int n;

	strbuf_init(&sb);
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die_oom();
	strbuf_grow(&sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb.len = (size_t)n;
	return strbuf_detach(&sb, NULL);
}

void free_members(void *obj, const size_t *offs, size_t noffs)
{
	for (size_t i = 0; i < noffs; i++)
		free(*(void **)((char *)obj + offs[i]));
}

void array_free_members(void *v, size_t n, size_t size, const size_t *offs, size_t noffs)
{
	for (size_t i = 0; v && i < n; i++)
		free_members((char *)v + i * size, offs, noffs);
	free(v);
}

void array_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return;
	/* The first block holds 8 small elements, or as many large ones as fit in 512 bytes (at least one): a
	 * run's hosts (1 KiB each) start with one, so that 100,000 one-host runs of a CSV table do not hold
	 * 800 MiB of empty slots. Then the capacity doubles. */
	n = *cap ? *cap * 2 : (size <= 64 ? 8 : size < 512 ? 512 / size : 1);
	while (n < need)
		n *= 2;
	*p = xrealloc(*p, n * size);
	*cap = n;
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (!sb)
		return;
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t n;

	if (need <= sb->alloc)
		return;
	n = sb->alloc ? sb->alloc : 64;
	while (n < need)
		n *= 2;
	if (!sb->alloc) {
		sb->buf = xmalloc(n);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, n);
	}
	sb->alloc = n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	char tmp[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, tmp, sizeof(tmp));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		strbuf_add(sb, tmp, (size_t)n);
	}
	close(fd);
	return 0;
}

void strbuf_add_shell_word(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '\'');
}

void *array_push_zeroed(void **p, size_t *cap, size_t *n, size_t size)
{
	char *e;

	array_grow(p, cap, *n + 1, size);
	e = (char *)*p + *n * size;
	(*n)++;
	return memset(e, 0, size);
}

void argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
