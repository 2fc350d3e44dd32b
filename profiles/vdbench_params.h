/*
 * vdbench_params: the parsed form of a vdbench parameter file and its reader (vdbench_params.c), used by
 * the translation into runs (vdbench_translate.c). Reading: lines are trimmed; empty lines and lines
 * starting with '*', '#' or '/' are comments; "eof" ends the file; everything after the first unquoted
 * blank is ignored; a line ending in ',' continues on the next; `include=FILE` is read in place (no nesting);
 * $name / !name come from NAME=value on the command line. Keywords are resolved to their canonical names
 * (abbreviations as vdbench allows them). Errors carry file:line; warnings go to the plan.
 */
#ifndef BENCH_PROFILES_VDBENCH_PARAMS_H
#define BENCH_PROFILES_VDBENCH_PARAMS_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "profiles/profile.h"

/* Parameter groups, in the order vdbench wants them. */
enum vgroup { G_GENERAL, G_HD, G_SD, G_WD, G_RD, G_FSD, G_FWD, G_RG, G_NR };

/* One keyword=value of a definition. */
struct vparam {
	const char *key;   /* canonical keyword (static) */
	char **items;      /* tokens as written (a list's items) */
	size_t n;
	int is_list;
	char *file;
	int line;
};

/* One definition: sd=NAME,..., wd=..., rd=...; or the general parameters. */
struct vdef {
	enum vgroup g;
	char *name;
	struct vparam *p;
	size_t n, cap;
	char *file;
	int line;
};

struct vfile {
	struct vdef *d;             /* in the order written */
	size_t n, cap;
	struct vdef general;
	struct plan *plan;          /* for warnings */
	const struct kvlist *vars;
	int has_hosts;
};

/* "general" "hd" "sd" "wd" "rd" "fsd" "fwd" "rg". */
const char *vgroup_name(enum vgroup g);

void vfile_init(struct vfile *vf, struct plan *plan, const struct kvlist *vars);
void vfile_release(struct vfile *vf);
/* Reads parameter text (a file's, or a suite's [vdbench] section after line `line0` of `file`); includes are
 * relative to `dir`. */
int vfile_read(struct vfile *vf, const char *text, size_t len, const char *file, int line0, const char *dir,
	       struct errbuf *err);
/* Copies each sd/wd/rd=default's parameters into the definitions that follow it (vdbench's rule). */
void vfile_apply_defaults(struct vfile *vf);
/* The definitions of group g named by `names` (wildcards as vdbench matches them), at most max. */
size_t vfile_select(const struct vfile *vf, enum vgroup g, const struct vparam *names, const struct vdef **out,
		    size_t max);

/* The last value of keyword `key` in d (NULL d or absent: NULL). */
const struct vparam *vdef_get(const struct vdef *d, const char *key);

/* A vdbench number: a double with k m g t (1024) and optional b; h = x3600; for times (is_time) m = minutes. */
int vdb_num(const char *s, int is_time, double *out);
/* Every item of vp as a number (malloc'd array); -1 with file:line. */
int vdb_nums(const struct vparam *vp, int is_time, double **out, size_t *n, struct errbuf *err);
/* The one value of vp as a number; -1 with file:line. */
int vdb_num1(const struct vparam *vp, int is_time, double *out, struct errbuf *err);
/* A seekpct value: a percentage, or seq/sequential (0), random (100), eof (-1). */
int vdb_seek_value(const char *s, const struct vparam *vp, double *out, struct errbuf *err);

#endif
