/*
 * text: what the readers of profiles/ (suites, recipes, vdbench parameter files) share about lines and files:
 * one trim, one "read the whole file or say why not", one split of a comma list.
 */
#ifndef BENCH_PROFILES_TEXT_H
#define BENCH_PROFILES_TEXT_H

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/strbuf.h"

/* Cuts the blanks (isspace) at both ends of p in place; returns the first non-blank character of p. */
char *profile_trim(char *p);

/* Reads the file at path into sb (initialised by the caller): 0, or -1 with err (ERR_INPUT, "PATH: reason")
 * and sb released. */
int profile_read_file(struct strbuf *sb, const char *path, struct errbuf *err);

/* The keys a suite's [suite] section and a recipe share: `name` and `description` (replacing *name and
 * *description) and `label = k=v` (into labels). 1: key was one of them, 0: it was not, -1 with err
 * ("FILE:LINE: label must be key=value, got 'VAL'"). */
int profile_common_key(const char *key, const char *val, char **name, char **description, struct kvlist *labels,
		       const char *file, int line, struct errbuf *err);

/* Splits "a,b,c" (no empty items, blanks around items cut) into a NULL-terminated array (*n: its items, n may
 * be NULL); NULL on an empty item. */
char **split_list(const char *s, char sep, size_t *n);

/* The names of the files NAME<suffix> in `dir` (".suite", ".recipe"), without the suffix, sorted; a
 * NULL-terminated array (empty when the directory cannot be read): free with free_list. */
char **profile_dir_names(const char *dir, const char *suffix);

/* Frees a NULL-terminated array of split_list (NULL: nothing). */
void free_list(char **v);

#endif
