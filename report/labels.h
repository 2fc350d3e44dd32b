/*
 * labels: how label values are shown (labels.c): aliases and the order of groups.
 */
#ifndef BENCH_REPORT_LABELS_H
#define BENCH_REPORT_LABELS_H

#include "core/errbuf.h"
#include "core/kv.h"
#include "report/load.h"

struct rep_table; /* report/table.h */
struct cmp_table; /* report/table.h */

/*
 * Presentation of label values (--alias key=value:Alias, or a suite label "alias.KEY" = "value:Alias,..."):
 * rep_alias_add parses one --alias; rep_alias_from_runs adds the suite-label aliases of `set` that the list
 * lacks (a --alias given wins); rep_alias_get gives the alias of key=value, or `value` itself.
 * Labels whose key starts with "alias." are presentation, never a group key.
 */
int rep_alias_add(struct kvlist *aliases, const char *arg, struct errbuf *err);
void rep_alias_from_runs(struct kvlist *aliases, const struct rep_set *set);
const char *rep_alias_get(const struct kvlist *aliases, const char *key, const char *value);

/*
 * Order of groups as given (--order key=v1,v2,...): groups whose `key` value is listed come first in that
 * order, the rest keep their order after them. Applies to a raw table and a comparison alike.
 */
int rep_order_add(struct kvlist *order, const char *arg, struct errbuf *err);
void rep_table_order(struct rep_table *t, const struct kvlist *order);
void cmp_order(struct cmp_table *t, const struct kvlist *order);

#endif
