/*
 * kv: an ordered list of key=value pairs. Used for labels (stack=mdadm-raid5), fio options kept verbatim
 * (value NULL for an option without value, e.g. group_reporting) and engine options.
 */
#ifndef BENCH_CORE_KV_H
#define BENCH_CORE_KV_H

#include <stddef.h>

struct kv {
	char *key;
	char *value; /* NULL: a flag without value */
};

struct kvlist {
	struct kv *v;
	size_t n, cap;
};

void kvlist_init(struct kvlist *l);
void kvlist_release(struct kvlist *l);
void kvlist_copy(struct kvlist *dst, const struct kvlist *src); /* dst must be initialised; appends */
/* Appends a pair (copies both strings). */
void kvlist_add(struct kvlist *l, const char *key, const char *value);
/* Replaces the value of the first pair with this key, or appends. */
void kvlist_set(struct kvlist *l, const char *key, const char *value);
/* Removes every pair with this key; returns how many. */
size_t kvlist_del(struct kvlist *l, const char *key);
/* The pair with this key (last one wins, as in fio), or NULL. */
const struct kv *kvlist_find(const struct kvlist *l, const char *key);
/* The value, or `def` when absent or a flag. */
const char *kvlist_get(const struct kvlist *l, const char *key, const char *def);

/* Parses "key=value" (as given to --label). Key: [A-Za-z0-9_.-]+. Returns 0 or -1 (bad form). */
int kv_parse_label(const char *arg, char **key, char **value);

#endif
