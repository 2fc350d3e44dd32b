/*
 * config_diff: what differs between two configurations of a study (`bench db diff-config A B`): the labels of
 * the newest run of each (the configuration record's cfg.* facts: kernel, fio, CPU, memory, devices, and the
 * configuration's own labels) side by side, then a line diff of their stored records (artifact
 * config.record: /sys facts and the output of the record steps such as `btrfs filesystem show`,
 * `mdadm --detail`, `zpool status`). Reads through the store reader; never prints.
 */
#ifndef BENCH_REPORT_CONFIG_DIFF_H
#define BENCH_REPORT_CONFIG_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "core/strbuf.h"

struct config_view {
	char *name;              /* the configuration (label config=NAME) */
	int64_t run_id;          /* its newest run that holds a record, or its newest run */
	struct kvlist labels;    /* that run's labels (the suite's included), sorted by key */
	char *record;            /* artifact config.record, or NULL when none was stored */
};

void config_view_init(struct config_view *v);
void config_view_release(struct config_view *v);

/* Loads configuration `name` among the runs `where` selects (report/select.h). -1 (ERR_INPUT) when no run
 * carries config=NAME. */
int config_view_load(struct store *st, const char *name, const struct kvlist *where, struct config_view *out,
		     struct errbuf *err);

/* Writes the differences of `a` and `b` to `out` as text; returns how many lines differ (0: the same). */
size_t config_diff_text(const struct config_view *a, const struct config_view *b, struct strbuf *out);

#endif
