/*
 * collector: the ops table every sampler implements (design.md "The ops tables"). The run loop opens the
 * collectors of a run at the end of ramp, samples them at an interval and closes them at the end of the run;
 * each turns what it saw into model structs (CPU per host, disk IOs, samples). Collectors never touch SQLite
 * and never print.
 */
#ifndef BENCH_COLLECTORS_COLLECTOR_H
#define BENCH_COLLECTORS_COLLECTOR_H

#include "core/errbuf.h"
#include "core/model.h"

#define COLLECTOR_OPS_VERSION 1

struct collector;

struct collector_ops {
	const char *name;
	unsigned int version;   /* COLLECTOR_OPS_VERSION */
	int (*open)(struct collector *c, struct errbuf *err);
	int (*sample)(struct collector *c, struct errbuf *err);
	/* Turns the samples taken since open into results in `out`. */
	int (*finish)(struct collector *c, struct run_result *out, struct errbuf *err);
	void (*close)(struct collector *c);
};

struct collector {
	const struct collector_ops *ops;
	const struct host *host;   /* NULL: this machine */
	void *priv;
};

const struct collector_ops *const *collector_list(void);
const struct collector_ops *collector_find(const char *name);
int collector_check_ops(const struct collector_ops *ops, struct errbuf *err);

#endif
