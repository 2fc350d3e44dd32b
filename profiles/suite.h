/*
 * suite: bench's own suite file (suite.c; the format is in docs/suite-format.md) in its parsed form, read by
 * plan_build (build.c), and the list splitting the readers share.
 */
#ifndef BENCH_PROFILES_SUITE_H
#define BENCH_PROFILES_SUITE_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "profiles/config.h"

enum suite_item_kind { SUITE_WORKLOAD, SUITE_VDBENCH, SUITE_PROFILE };

struct suite_item {
	enum suite_item_kind kind;
	char *name;              /* explicit run name ([workload NAME]), or NULL: generated */
	struct kvlist opts;      /* SUITE_WORKLOAD: fio options in order */
	int *opt_line;           /* the line of each option */
	struct kvlist labels;    /* bench.label.K = V */
	unsigned disks;          /* bench.disks = N: targets the workload is written for (0: not said) */
	char *text;              /* SUITE_VDBENCH: the parameter lines; SUITE_PROFILE: the reference */
	char *file;
	int line;
	int text_line;           /* SUITE_VDBENCH: line of the first parameter line */
};

struct suite {
	char *file;
	char *name, *description;
	struct kvlist labels;
	char *engine;
	unsigned repeat;         /* 0: not set */
	char *ramp, *runtime;    /* fio time texts overriding every workload's, or NULL */
	char *quick_ramp, *quick_runtime, *quick_size;
	struct kvlist options;   /* [options]: fio options for every workload, before its own */
	int *options_lines;      /* the line of each */
	struct kvlist matrix;    /* [matrix] key -> "v1,v2" */
	char *targets;           /* `targets =`: blank-separated paths, "default", or NULL: not set */
	struct suite_item *items;
	size_t nitems, cap;
	int options_line, matrix_line;
	int engine_line;         /* where `engine =` is, 0: not set */
	struct config_list configs; /* [config NAME] sections in order (config.h), empty: none */
	struct kvlist method;    /* curve, sweep, until, precondition (docs/method.md): "method.KEY" -> value (until:
	                            ';'-separated), "method.KEY.at" -> "file:line"; put on every run as engine
	                            annotations (build.c) and read by bench/runloop_method.c */
	struct kvlist gate;      /* gate.metric, gate.threshold, gate.budget (docs/gate.md): "KEY" -> value,
	                            "KEY.at" -> "file:line"; read by `bench gate --run`, never put on runs */
};

void suite_init(struct suite *s);
void suite_release(struct suite *s);
int suite_parse_file(const char *path, struct suite *out, struct errbuf *err);
int suite_parse_text(const char *text, size_t len, const char *name, struct suite *out, struct errbuf *err);


#endif
