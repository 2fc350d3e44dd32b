/*
 * strlist: a growing list of owned strings (strlist.h).
 */
#include "report/strlist.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

void strlist_add(struct strlist *l, const char *s)
{
	ARRAY_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = xstrdup(s);
}

void strlist_add_distinct(struct strlist *l, const char *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	strlist_add(l, s);
}

void strlist_free_str(char **s)
{
	free(*s);
}

void strlist_release(struct strlist *l)
{
	ARRAY_RELEASE(l->v, l->n, strlist_free_str);
	l->cap = 0;
}
