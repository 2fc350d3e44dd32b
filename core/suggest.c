/*
 * suggest: the closest known name to a typed one (see suggest.h). Optimal string alignment distance with two
 * rows of the dynamic programme plus the one before them (for swaps), on the stack for names up to 63 bytes.
 */
#include "core/suggest.h"

#include <ctype.h>
#include <string.h>

#define SUGGEST_MAX 64 /* longer words and names are never suggested */

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

size_t suggest_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][SUGGEST_MAX + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return limit + 1;
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t best = cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
			if (cur[j] < best)
				best = cur[j];
		}
		if (best > limit)
			return limit + 1;
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

static size_t allowed(size_t len)
{
	size_t d = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	return d < len ? d : (len ? len - 1 : 0);
}

const char *suggest_closest(const char *word, const char *const *names, size_t n)
{
	size_t wl = strlen(word), limit = allowed(wl), best_d = limit + 1;
	const char *best = NULL;

	if (!wl)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d;
		if (!names[i])
			continue;
		if (!strcmp(word, names[i]))
			return NULL;
		d = suggest_distance(word, names[i], limit);
		if (d > 1 && wl >= 3 && !strncmp(names[i], word, wl))
			d = 1;
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}
