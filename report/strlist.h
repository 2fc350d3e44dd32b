/*
 * strlist: a growing list of strings that owns its copies. A leaf of report/: it uses nothing of report/.
 */
#ifndef BENCH_REPORT_STRLIST_H
#define BENCH_REPORT_STRLIST_H

#include <stddef.h>

/* Zero-initialise ({ 0 }); v[0..n) are malloc'd copies. */
struct strlist {
	char **v;
	size_t n, cap;
};

/* Appends a copy of s. */
void strlist_add(struct strlist *l, const char *s);
/* Appends a copy of s unless s is NULL or already in the list. */
void strlist_add_distinct(struct strlist *l, const char *s);
/* free(*s): the release function of ARRAY_RELEASE (core/strbuf.h) for an array of malloc'd strings. */
void strlist_free_str(char **s);
/* Frees the strings and the array; the list is empty again. */
void strlist_release(struct strlist *l);

#endif
