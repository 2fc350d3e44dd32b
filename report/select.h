/*
 * select: the one selection language of report/ (design.md "One selector"): `key=value` conditions over a
 * run's labels and workload parameters, used by `report --where`, `--compare` and `--by` (through
 * rep_run_value), the gate's baseline and candidate selections, and export.
 *
 * The label rule: a run's labels are its own plus its suite's for keys it lacks, so a run's label overrides
 * its suite's (merged once, by core/store_read.h). A key that is a label of the run is always the label;
 * otherwise it names a workload parameter: name (alias workload), tool, rw, bs (a size: 4k matches 4096),
 * read_pct (aliases rdpct, read, rwmixread), random_pct (randpct, random), iodepth, numjobs, engine, suite
 * (the suite's name), suite_id, status. A run matches when every condition matches; a run that has neither
 * the label nor the parameter does not match.
 *
 * The module knows runs only as a `struct select_subject` (what a selection may look at), so that it
 * depends on nothing else in report/.
 */
#ifndef BENCH_REPORT_SELECT_H
#define BENCH_REPORT_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"

/* What a selection looks at in a run (pointers borrowed). Unknown: NULL, 0 (bs, iodepth, numjobs), -1 (pcts). */
struct select_subject {
	const struct kvlist *labels; /* merged (run over suite) */
	const char *name, *tool, *rw, *engine, *suite, *status;
	int64_t suite_id;
	uint64_t bs_bytes;
	int read_pct, random_pct;
	int iodepth, numjobs;
};

/* Parses one condition "key=value" (a --where argument) and appends it; ERR_USAGE when malformed. */
int select_add(struct kvlist *where, const char *arg, struct errbuf *err);

/* The value of a label or workload parameter as text (into buf when formatted); NULL when the run has none. */
const char *select_value(const struct select_subject *s, const char *key, char *buf, size_t len);

/* Whether the run matches every condition of `where` (NULL or empty: every run). */
int select_matches(const struct select_subject *s, const struct kvlist *where);

/*
 * Whether a run's labels alone already rule it out of `where` (1): a condition a label answers with another
 * value, or on a key that only a label could answer and the run lacks. 0: select_matches decides. Lets a
 * reader skip the rest of a run that cannot match.
 */
int select_labels_exclude(const struct kvlist *labels, const struct kvlist *where);

/* Whether `key` names a workload parameter or run field above (not a label): name, bs, rdpct, suite_id, ... */
int select_key_is_field(const char *key);

/* Adds to the set `keys` (values unused) every key of `labels` it lacks: the label keys of a database. */
void select_note_keys(struct kvlist *keys, const struct kvlist *labels);

/*
 * Whether every condition of `where` names a field or a label key in `keys` (the keys of the runs looked at):
 * 0, or -1 with ERR_INPUT "OPTION KEY=...: no run has a label 'KEY' and it is no workload field (did you
 * mean 'X'?)", the closest of the label keys and fields. `option` names the option in the message; an item
 * without value (a --by key) is named without "=".
 */
int select_check_keys(const struct kvlist *where, const struct kvlist *keys, const char *option, struct errbuf *err);

#endif
