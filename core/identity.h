/*
 * identity: the workload identity, one canonical text of everything that changes the load a workload puts on
 * a target (design.md "One selector, one identity"). Two runs are the same workload exactly when their
 * identities are equal: report --by, --compare and the gate pair and group runs by it, and never fold runs of
 * different identities into one figure.
 */
#ifndef BENCH_CORE_IDENTITY_H
#define BENCH_CORE_IDENTITY_H

#include "core/kv.h"
#include "core/model.h"

/*
 * The identity of w as key=value items (appended to out, sorted by key, values normalised: "bs" -> "4096",
 * "rate_iops" -> "15000"), so that callers can name what differs between two workloads.
 */
void workload_identity_kv(const struct workload *w, struct kvlist *out);

/* The identity of w as one text (malloc'd, never NULL): the items of workload_identity_kv joined. Equal
 * workloads give byte-equal texts. */
char *workload_identity(const struct workload *w);

#endif
