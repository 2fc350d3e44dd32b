/*
 * internal: what the files of profiles/ share with each other and nobody else: workload normalisation from
 * fio options, the readers of each profile format, and the expansion steps of plan_build.
 */
#ifndef BENCH_PROFILES_INTERNAL_H
#define BENCH_PROFILES_INTERNAL_H

#include "core/errbuf.h"
#include "core/model.h"
#include "profiles/profile.h"

/* Fills the normalised fields of w from fio options (copied into w->opts unless they are w->opts). */
int workload_from_fio(struct workload *w, const struct kvlist *opts, const char *file, int line, struct errbuf *err);
/* Where each option of a list was written (parallel to the list), for file:line in messages. */
struct opt_locs {
	const char **file;
	const int *line;
	size_t n;
};
/* Same, naming the line of the offending option where `locs` knows it. */
int workload_from_fio_at(struct workload *w, const struct kvlist *opts, const struct opt_locs *locs,
			 const char *file, int line, struct errbuf *err);
/* Sets a fio option (replacing earlier ones) and renormalises. */
int workload_set_fio_opt(struct workload *w, const char *key, const char *value, struct errbuf *err);

/* Workloads of one profile before repetition (build.c), with what the later steps need to know. */
struct protos {
	struct run_spec *v;
	int *explicit_name;      /* the name was given by the profile: not regenerated */
	unsigned *disks;         /* targets the workload was written for, 0 = not said */
	size_t n, cap, flags_cap;
};

void protos_init(struct protos *p);
void protos_release(struct protos *p);
struct run_spec *protos_add(struct protos *p);

/* ---- vdbench parameter files (vdbench_params.c) ---- */

/* Reads a parameter file, expands its for-loops and appends one fio-translated workload per run. */
int vdbench_expand_file(const char *path, const struct kvlist *vars, struct plan *plan, struct protos *out,
			struct errbuf *err);
/* Same on text embedded in another file (a suite's [vdbench] section) starting after line `line0` of `file`;
 * `base_opts` are fio options put before the translated ones. */
int vdbench_expand_text(const char *text, size_t len, const char *file, int line0, const char *dir,
			const struct kvlist *vars, const struct kvlist *base_opts, struct plan *plan,
			struct protos *out, struct errbuf *err);

/* ---- suite files (suite.c; the format is in docs/suite-format.md) ---- */

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
	struct kvlist targets;   /* "" -> default local targets; group name -> its targets (blank separated) */
	struct suite_item *items;
	size_t nitems, cap;
	int options_line, matrix_line;
};

void suite_init(struct suite *s);
void suite_release(struct suite *s);
int suite_parse_file(const char *path, struct suite *out, struct errbuf *err);
int suite_parse_text(const char *text, size_t len, const char *name, struct suite *out, struct errbuf *err);

/* Splits "a,b,c" (no empty items) into a NULL-terminated array; -1 on an empty item. */
char **split_list(const char *s, char sep, size_t *n);
void free_list(char **v);

#endif
