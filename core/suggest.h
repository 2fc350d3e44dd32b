/*
 * suggest: "did you mean" for every name a user types (commands, options, suites, recipes, label keys, hosts):
 * the closest of a list of known names by edit distance (insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count 1, letters compared without case), when it is close enough to be a typo.
 */
#ifndef BENCH_CORE_SUGGEST_H
#define BENCH_CORE_SUGGEST_H

#include <stddef.h>

/* The distance between a and b as above (optimal string alignment); stops counting past `limit` + 1. */
size_t suggest_distance(const char *a, const char *b, size_t limit);

/*
 * The one of names[0..n) closest to `word` when that is a likely typo: distance at most 1 for words of up to 4
 * characters, 2 up to 8, else 3, and less than the word's length; a name that starts with the word (a prefix of
 * 3 characters or more) counts as distance 1. Ties go to the first name. NULL: nothing is close, or the word
 * is in the list already.
 */
const char *suggest_closest(const char *word, const char *const *names, size_t n);

#endif
