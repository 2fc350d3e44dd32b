/*
 * fio_job: the fio job file reader (see fio_job.h). It follows fio 3.33's own reading rules so that what bench
 * runs is what fio would run from the same file, and it checks what fio leaves to chance (include loops, unset
 * variables, binary files) with a file:line message.
 */
#include "profiles/fio_job.h"

#include "core/paths.h"
#include "core/fio_options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strbuf.h"

#define FIO_INCLUDE_MAX_DEPTH 16

/* fio 3.33's option aliases (fio --cmdhelp), folded to the name fio prints with --showcmd and in JSON. */

const char *fio_option_canonical(const char *name)
{
	return fio_opt_canonical_name(name);
}

void fio_jobfile_init(struct fio_jobfile *f)
{
	memset(f, 0, sizeof(*f));
}

static void section_release(struct fio_section *s)
{
	for (size_t i = 0; i < s->opts.n; i++)
		free(s->opt_file[i]);
	free(s->opt_file);
	free(s->opt_line);
	kvlist_release(&s->opts);
	free(s->name);
	free(s->file);
}

void fio_jobfile_release(struct fio_jobfile *f)
{
	if (f) {
		ARRAY_RELEASE(f->v, f->n, section_release);
		free(f->globals);
		fio_jobfile_init(f);
	}
}

size_t fio_jobfile_source(const struct fio_jobfile *f, size_t idx, size_t k)
{
	return k < f->v[idx].nglobals_above ? f->globals[k] : idx;
}

void fio_jobfile_resolve(const struct fio_jobfile *f, size_t idx, struct kvlist *out)
{
	if (idx >= f->n)
		return;
	for (size_t k = 0; k <= f->v[idx].nglobals_above; k++)
		kvlist_copy(out, &f->v[fio_jobfile_source(f, idx, k)].opts);
}

/* ---- numbers as fio reads them ---------------------------------------------------------------------- */

int fio_parse_size(const char *s, uint64_t *out)
{
	return fio_opt_size(s, 1024, FIO_OPT_STRICT, out) == 0 ? 0 : -1;
}

int fio_parse_time_us(const char *s, uint64_t unit_us, uint64_t *out)
{
	return fio_opt_time_us(s, unit_us, FIO_OPT_STRICT, out);
}

/* Recursive-descent evaluation of + - * / ( ) over long long; bc with scale=0 truncates division. */
struct arith {
	const char *p;
	int bad;
};

static void arith_ws(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t')
		a->p++;
}

static long long arith_chain(struct arith *a, int depth, int level);

static long long arith_atom(struct arith *a, int depth)
{
	long long v = 0;

	arith_ws(a);
	if (depth > 64) {
		a->bad = 1;
		return 0;
	}
	if (*a->p == '(') {
		a->p++;
		v = arith_chain(a, depth + 1, 1);
		arith_ws(a);
		if (*a->p != ')')
			a->bad = 1;
		else
			a->p++;
		return v;
	}
	if (*a->p == '-') {
		a->p++;
		return -arith_atom(a, depth + 1);
	}
	if (!isdigit((unsigned char)*a->p)) {
		a->bad = 1;
		return 0;
	}
	while (isdigit((unsigned char)*a->p)) {
		if (v > (LLONG_MAX - 9) / 10) {
			a->bad = 1;
			return 0;
		}
		v = v * 10 + (*a->p++ - '0');
	}
	return v;
}

/* v op r into *out; -1 on overflow or a division by zero. */
static int arith_apply(char op, long long v, long long r, long long *out)
{
	switch (op) {
	case '+': return __builtin_add_overflow(v, r, out) ? -1 : 0;
	case '-': return __builtin_sub_overflow(v, r, out) ? -1 : 0;
	case '*': return __builtin_mul_overflow(v, r, out) ? -1 : 0;
	default:
		if (r == 0 || (v == LLONG_MIN && r == -1))
			return -1;
		*out = v / r;
		return 0;
	}
}

/* Operands joined by the operators of one precedence level, left to right: level 1 is + - over level-0
 * chains, level 0 is * / over atoms. The first error marks the expression bad. */
static long long arith_chain(struct arith *a, int depth, int level)
{
	static const char *const ops[2] = { "*/", "+-" };
	long long v = level ? arith_chain(a, depth, 0) : arith_atom(a, depth);

	for (;;) {
		char op;
		long long r;

		arith_ws(a);
		op = *a->p;
		if (!op || !strchr(ops[level], op))
			return v;
		a->p++;
		r = level ? arith_chain(a, depth, 0) : arith_atom(a, depth);
		if (arith_apply(op, v, r, &v) < 0) {
			a->bad = 1;
			return 0;
		}
	}
}

int fio_eval_arith(const char *s, long long *out)
{
	struct arith a = { s, 0 };
	long long v = arith_chain(&a, 0, 1);

	arith_ws(&a);
	if (a.bad || *a.p)
		return -1;
	*out = v;
	return 0;
}

/* ---- reading ------------------------------------------------------------------------------------------ */

struct reader {
	struct fio_jobfile *out;
	const struct kvlist *vars;
	char *stack[FIO_INCLUDE_MAX_DEPTH + 1]; /* real paths of the files being read, for loop detection */
	int depth;
	size_t cur_idx;                         /* the section options go to */
	int have_cur;
};

static char *strip(char *p)
{
	char *e;

	while (*p && (isspace((unsigned char)*p) || iscntrl((unsigned char)*p)))
		p++;
	/* fio's strip_blank_end: cut at the first ';' or '#', then trailing blanks. */
	e = strpbrk(p, ";#");
	if (e)
		*e = '\0';
	e = p + strlen(p);
	while (e > p && (isspace((unsigned char)e[-1]) || iscntrl((unsigned char)e[-1])))
		*--e = '\0';
	return p;
}

static long sys_value(const char *kw)
{
	if (!strcmp(kw, "$pagesize"))
		return sysconf(_SC_PAGESIZE);
	if (!strcmp(kw, "$ncpus"))
		return sysconf(_SC_NPROCESSORS_ONLN);
	/* $mb_memory */
	return (long)((unsigned long long)sysconf(_SC_PHYS_PAGES) * (unsigned long long)sysconf(_SC_PAGESIZE) /
		      (1024ULL * 1024));
}

/* ${VAR}, then fio's keywords and their arithmetic. Returns a malloc'd string or NULL with err set. */
static char *substitute(const char *in, const struct kvlist *vars, const char *file, int line, struct errbuf *err)
{
	static const char *const keywords[] = { "$pagesize", "$mb_memory", "$ncpus" };
	struct strbuf sb;
	const char *p = in;
	int docalc = 0;

	strbuf_init(&sb);
	while (*p) {
		if (p[0] == '$' && p[1] == '{') {
			const char *close = strchr(p + 2, '}');
			const char *val = NULL;
			char *name;

			if (!close || close == p + 2) {
				strbuf_release(&sb);
				err_set(err, ERR_INPUT, "%s:%d: unterminated or empty '${' in '%s'", file, line, in);
				return NULL;
			}
			name = xstrndup(p + 2, (size_t)(close - p - 2));
			if (vars) {
				const struct kv *kv = kvlist_find(vars, name);
				if (kv)
					val = kv->value ? kv->value : "";
			}
			if (!val)
				val = getenv(name);
			if (!val) {
				err_set(err, ERR_INPUT,
					"%s:%d: variable '${%s}' is not set (give %s=value on the command line or in the environment)",
					file, line, name, name);
				free(name);
				strbuf_release(&sb);
				return NULL;
			}
			free(name);
			strbuf_adds(&sb, val);
			p = close + 1;
			continue;
		}
		strbuf_addc(&sb, *p++);
	}
	for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++) {
		char *hit;
		while ((hit = strstr(sb.buf, keywords[k]))) {
			struct strbuf nb;
			strbuf_init(&nb);
			strbuf_add(&nb, sb.buf, (size_t)(hit - sb.buf));
			strbuf_addf(&nb, "%ld", sys_value(keywords[k]));
			strbuf_adds(&nb, hit + strlen(keywords[k]));
			strbuf_release(&sb);
			sb = nb;
			docalc = 1;
		}
	}
	if (docalc && strpbrk(sb.buf, "+-*/") && !strchr(sb.buf, '\'')) {
		char *eq = strchr(sb.buf, '=');
		long long v;
		if (eq) {
			if (fio_eval_arith(eq + 1, &v) < 0) {
				err_set(err, ERR_INPUT, "%s:%d: cannot evaluate the arithmetic in '%s'", file, line, in);
				strbuf_release(&sb);
				return NULL;
			}
			eq[1] = '\0';
			sb.len = strlen(sb.buf);
			strbuf_addf(&sb, "%lld", v);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static int add_option(struct reader *r, char *text, const char *file, int line, struct errbuf *err)
{
	struct fio_section *s = &r->out->v[r->cur_idx];
	char *sub, *eq, *key, *val = NULL;
	int rc = -1;

	sub = substitute(text, r->vars, file, line, err);
	if (!sub)
		return -1;
	eq = strchr(sub, '=');
	if (eq) {
		*eq = '\0';
		val = strip(eq + 1);
	}
	key = strip(sub);
	if (!*key) {
		err_set(err, ERR_INPUT, "%s:%d: option without a name: '%s'", file, line, text);
		goto out;
	}
	for (const char *c = key; *c; c++) {
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.') {
			err_set(err, ERR_INPUT, "%s:%d: '%s' is not a fio option name", file, line, key);
			goto out;
		}
	}
	kvlist_add(&s->opts, fio_option_canonical(key), val);
	s->opt_file = xrealloc(s->opt_file, s->opts.n * sizeof(*s->opt_file));
	s->opt_line = xrealloc(s->opt_line, s->opts.n * sizeof(*s->opt_line));
	s->opt_file[s->opts.n - 1] = xstrdup(file);
	s->opt_line[s->opts.n - 1] = line;
	rc = 0;
out:
	free(sub);
	return rc;
}

static int read_text(struct reader *r, const char *text, size_t len, const char *name, const char *dir,
		     int nested, struct errbuf *err);

static int read_file(struct reader *r, const char *path, const char *from_file, int from_line, struct errbuf *err)
{
	struct strbuf sb;
	char *real = NULL, *dir = NULL;
	int rc = -1;

	strbuf_init(&sb);
	if (r->depth >= FIO_INCLUDE_MAX_DEPTH) {
		err_set(err, ERR_INPUT, "%s:%d: includes nested deeper than %d", from_file, from_line,
			FIO_INCLUDE_MAX_DEPTH);
		goto out;
	}
	real = realpath(path, NULL);
	if (real) {
		struct stat st;
		if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
			if (from_file)
				err_set(err, ERR_INPUT, "%s:%d: included '%s' is not a regular file", from_file, from_line,
					path);
			else
				err_set(err, ERR_INPUT, "%s: not a regular file", path);
			goto out;
		}
	}
	if (!real || strbuf_read_file(&sb, path) < 0) {
		if (from_file)
			err_set(err, ERR_INPUT, "%s:%d: cannot read included file '%s': %s", from_file, from_line, path,
				strerror(errno));
		else
			err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
		goto out;
	}
	for (int i = 0; i < r->depth; i++) {
		if (!strcmp(r->stack[i], real)) {
			err_set(err, ERR_INPUT, "%s:%d: include loop: '%s' includes itself", from_file, from_line, path);
			goto out;
		}
	}
	r->stack[r->depth++] = real;
	dir = path_dir(path);
	rc = read_text(r, sb.buf, sb.len, path, dir, from_file != NULL, err);
	r->depth--;
out:
	free(real);
	free(dir);
	strbuf_release(&sb);
	return rc;
}

/* Appends section `sname` (taken) at file:line; a [global] joins the list the jobs below it resolve from. */
static void add_section(struct fio_jobfile *f, char *sname, const char *file, int line)
{
	struct fio_section *sec;

	ARRAY_GROW(f->v, f->cap, f->n + 1);
	sec = &f->v[f->n];
	memset(sec, 0, sizeof(*sec));
	kvlist_init(&sec->opts);
	sec->name = sname;
	sec->is_global = !strncmp(sname, "global", 6);
	sec->file = xstrdup(file);
	sec->line = line;
	sec->nglobals_above = f->nglobals;
	if (sec->is_global) {
		ARRAY_GROW(f->globals, f->globals_cap, f->nglobals + 1);
		f->globals[f->nglobals++] = f->n;
	}
	f->n++;
}

static int read_text(struct reader *r, const char *text, size_t len, const char *name, const char *dir,
		     int nested, struct errbuf *err)
{
	const char *p = text, *end = text + len;
	int line = 0;

	if (memchr(text, '\0', len))
		return err_set(err, ERR_INPUT, "%s:1: binary data (NUL bytes), not a fio job file", name);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *raw = xstrndup(p, n), *s;
		int rc = 0;

		line++;
		p = nl ? nl + 1 : end;
		s = strip(raw);
		if (!*s) {
			free(raw);
			continue;
		}
		if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t' || !s[7])) {
			char *fn = s + 7, *path;
			while (*fn == ' ' || *fn == '\t')
				fn++;
			if (!*fn) {
				free(raw);
				return err_set(err, ERR_INPUT, "%s:%d: 'include' without a file name", name, line);
			}
			if (fn[0] == '/' || !dir)
				path = xstrdup(fn);
			else
				path = xasprintf("%s/%s", dir, fn);
			rc = read_file(r, path, name, line, err);
			free(path);
		} else if (*s == '[') {
			size_t sl = strlen(s);
			if (nested) {
				rc = err_set(err, ERR_INPUT, "%s:%d: no new sections in included files (fio's rule)", name,
					     line);
			} else if (sl < 3 || s[sl - 1] != ']') {
				rc = err_set(err, ERR_INPUT, "%s:%d: section header '%s' is not of the form [name]", name,
					     line, s);
			} else if (r->out->n >= FIO_JOBFILE_MAX_SECTIONS) {
				rc = err_set(err, ERR_INPUT, "%s:%d: more than %d sections in one job file (bench's limit)",
					     name, line, FIO_JOBFILE_MAX_SECTIONS);
			} else {
				add_section(r->out, xstrndup(s + 1, sl - 2), name, line);
				r->cur_idx = r->out->n - 1;
				r->have_cur = 1;
			}
		} else if (!r->have_cur) {
			rc = err_set(err, ERR_INPUT, "%s:%d: option '%s' outside of a [section]", name, line, s);
		} else {
			rc = add_option(r, s, name, line, err);
		}
		free(raw);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int finish(struct fio_jobfile *out, const char *name, struct errbuf *err)
{
	for (size_t i = 0; i < out->n; i++)
		if (!out->v[i].is_global)
			return 0;
	return err_set(err, ERR_INPUT, "%s:1: no job sections (a fio job file needs at least one [job])", name);
}

int fio_jobfile_parse(const char *path, const struct kvlist *vars, struct fio_jobfile *out, struct errbuf *err)
{
	struct reader r;

	memset(&r, 0, sizeof(r));
	r.out = out;
	r.vars = vars;
	if (read_file(&r, path, NULL, 0, err) < 0)
		return -1;
	return finish(out, path, err);
}

int fio_jobfile_parse_text(const char *text, size_t len, const char *name, const char *dir, const struct kvlist *vars,
			   struct fio_jobfile *out, struct errbuf *err)
{
	struct reader r;

	memset(&r, 0, sizeof(r));
	r.out = out;
	r.vars = vars;
	/* the in-memory text has no real path: loop detection starts at its includes */
	if (read_text(&r, text, len, name, dir ? dir : ".", 0, err) < 0)
		return -1;
	return finish(out, name, err);
}
