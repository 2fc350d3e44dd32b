/*
 * strbuf: a growable, always NUL-terminated byte string (after git's strbuf).
 * Allocation failure aborts the process: bench cannot do anything useful out of memory.
 */
#ifndef BENCH_CORE_STRBUF_H
#define BENCH_CORE_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;    /* never NULL after strbuf_init: "" when empty */
	size_t len;   /* bytes used, excluding the NUL */
	size_t alloc; /* bytes allocated, 0 while buf points at the shared empty string */
};

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the buffer to the caller (free() it) and leaves sb empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

/* Appends s as one word for a POSIX shell: in single quotes, a quote in s as '\'' ("it's" -> 'it'\''s'). */
void strbuf_add_shell_word(struct strbuf *sb, const char *s);

/* Reads a whole file into sb. Returns 0, or -1 with errno set. */
int strbuf_read_file(struct strbuf *sb, const char *path);

/* Memory helpers that abort on failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);      /* NULL stays NULL */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows an array *p of *cap elements of size `size` to hold at least `need`. */
void array_grow(void **p, size_t *cap, size_t need, size_t size);
#define ARRAY_GROW(p, cap, need) array_grow((void **)&(p), &(cap), (need), sizeof(*(p)))

/* Appends a zeroed element to the array p of n elements (capacity cap) and returns it. */
void *array_push_zeroed(void **p, size_t *cap, size_t *n, size_t size);
#define ARRAY_PUSH_ZEROED(p, cap, n) array_push_zeroed((void **)&(p), &(cap), &(n), sizeof(*(p)))

/* Releases each of the n elements of the array v with release(&v[i]), last first, then frees v; v NULL, n 0. */
#define ARRAY_RELEASE(v, n, release)               \
	do {                                       \
		while ((n) > 0)                    \
			release(&(v)[--(n)]);      \
		free(v);                           \
		(v) = NULL;                        \
	} while (0)

/* Frees a NULL-terminated vector of malloc'd strings and the vector (NULL ok). */
void argv_free(char **argv);

/* free()s the char * (or other malloc'd pointer) members at byte offsets offs[0..noffs) of the struct at obj. */
void free_members(void *obj, const size_t *offs, size_t noffs);
/* The same for each of the n elements of `size` bytes of the array v, then frees v (NULL ok). */
void array_free_members(void *v, size_t n, size_t size, const size_t *offs, size_t noffs);

#endif
