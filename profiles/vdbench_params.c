/*
 * vdbench_params: vdbench parameter files (reference/vdbench.md) read with vdbench's lexical rules, expanded
 * into runs in vdbench's for-loop order, and each run translated to one fio workload (docs/profiles.md has the
 * mapping). What fio cannot do is refused (fsd/fwd file-system runs, replay) or warned about by name (curve
 * points, rhpct/whpct cache hits, several workloads at once, hosts); nothing is dropped silently.
 *
 * Reading: lines are trimmed; empty lines and lines starting with '*', '#' or '/' are comments; "eof" ends the
 * file; everything after the first unquoted blank is ignored; a line ending in ',' continues on the next;
 * `include=FILE` is read in place (no nesting); $name / !name come from NAME=value on the command line.
 * A line whose first word is not keyword=value is prose: vdbench stops there, bench warns and skips it.
 */
#include "profiles/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/fio_job.h"

enum vgroup { G_GENERAL, G_HD, G_SD, G_WD, G_RD, G_FSD, G_FWD, G_RG, G_NR };

static const char *const group_name[G_NR] = { "general", "hd", "sd", "wd", "rd", "fsd", "fwd", "rg" };

/* Keywords per group in the order abbreviations resolve (first prefix match wins). */
static const char *const kw_general[] = { "compratio", "data_errors", "dedupratio", "dedupunit", "dedupsets",
	"deduphotsets", "dedupflipflop", "debug", "validate", "journal", "messagescan", "report", "histogram",
	"formatsds", "formatxfersize", "loop", "create_anchors", "concatenatesds", "endcmd", "startcmd", "monitor",
	"port", "include", "showlba", "patterns", "pattern", "force_error_after", "fwd_thread_adjust", "timeout",
	"swat", "hd", "sd", "wd", "rd", "fsd", "fwd", "rg", NULL };
static const char *const kw_hd[] = { "hd", "system", "vdbench", "shell", "user", "jvms", "clients", "master",
	"mount", "sd", "wd", "rd", "fsd", "fwd", "rg", NULL };
static const char *const kw_sd[] = { "sd", "lun", "host", "threads", "hitarea", "range", "size", "offset", "align",
	"openflags", "count", "journal", "streams", "resetvalidate", "replay", "wd", "rd", "hd", "fsd", "fwd", "rg",
	NULL };
static const char *const kw_wd[] = { "wd", "sd", "xfersize", "rdpct", "wrpct", "seekpct", "rhpct", "whpct", "skew",
	"range", "hotband", "stride", "iorate", "priority", "host", "openflags", "streams", "threads", "rd", "hd",
	"fsd", "fwd", "rg", NULL };
static const char *const kw_rd[] = { "rd", "wd", "iorate", "elapsed", "interval", "warmup", "pause", "maxdata",
	"distribution", "curve", "openflags", "sd", "forxfersize", "forthreads", "forrdpct", "forrhpct", "forwhpct",
	"forseekpct", "forhitarea", "forcompratio", "fordepth", "forwidth", "forfiles", "forsizes", "fortotalsize",
	"forwss", "foroperations", "xfersize", "threads", "rdpct", "rhpct", "whpct", "seekpct", "hitarea",
	"compratio", "fwd", "fwdrate", "format", "operation", "replay", "hd", "fsd", "rg", NULL };
/* File-system and replay groups are refused, so their keywords need not be known. */

/* Must be written in full. */
static int full_only(const char *kw)
{
	static const char *const v[] = { "sd", "wd", "rd", "hd", "fsd", "fwd", "rg", "debug", "journal", "loop", NULL };
	for (int i = 0; v[i]; i++)
		if (!strcmp(v[i], kw))
			return 1;
	return !strncmp(kw, "dedup", 5);
}

static const char *const *group_keywords(enum vgroup g)
{
	switch (g) {
	case G_HD: return kw_hd;
	case G_SD: return kw_sd;
	case G_WD: return kw_wd;
	case G_RD: return kw_rd;
	default: return kw_general;
	}
}

static enum vgroup group_of(const char *kw)
{
	for (int g = G_HD; g < G_NR; g++)
		if (!strcmp(kw, group_name[g]))
			return (enum vgroup)g;
	return G_GENERAL;
}

/* Resolves a written keyword (lower-cased) against a group; NULL when unknown or ambiguous-too-short. */
static const char *resolve_kw(enum vgroup g, const char *w)
{
	const char *const *list = group_keywords(g);
	size_t l = strlen(w);

	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], w))
			return list[i];
	if (l < 2)
		return NULL;
	for (int i = 0; list[i]; i++)
		if (!strncmp(list[i], w, l) && !full_only(list[i]))
			return list[i];
	return NULL;
}

/* ---- parsed form ------------------------------------------------------------------------------------------ */

struct vparam {
	const char *key;   /* canonical keyword (static) */
	char **items;      /* tokens as written (a list's items) */
	size_t n;
	int is_list;
	char *file;
	int line;
};

struct vdef {
	enum vgroup g;
	char *name;
	struct vparam *p;
	size_t n, cap;
	char *file;
	int line;
};

struct vfile {
	struct vdef *d;
	size_t n, cap;
	struct vdef general;
	struct plan *plan;          /* for warnings */
	const struct kvlist *vars;
	int has_hosts;
};

static void vparam_release(struct vparam *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->items[i]);
	free(p->items);
	free(p->file);
}

static void vdef_release(struct vdef *d)
{
	for (size_t i = 0; i < d->n; i++)
		vparam_release(&d->p[i]);
	free(d->p);
	free(d->name);
	free(d->file);
	memset(d, 0, sizeof(*d));
}

static void vfile_release(struct vfile *f)
{
	for (size_t i = 0; i < f->n; i++)
		vdef_release(&f->d[i]);
	free(f->d);
	vdef_release(&f->general);
}

static void vparam_copy(struct vparam *dst, const struct vparam *src)
{
	dst->key = src->key;
	dst->n = src->n;
	dst->is_list = src->is_list;
	dst->items = xcalloc(src->n ? src->n : 1, sizeof(char *));
	for (size_t i = 0; i < src->n; i++)
		dst->items[i] = xstrdup(src->items[i]);
	dst->file = xstrdup(src->file);
	dst->line = src->line;
}

/* Adds or replaces (a later value of the same keyword wins, keeping the later position). */
static struct vparam *vdef_put(struct vdef *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++) {
		if (d->p[i].key == key) {
			vparam_release(&d->p[i]);
			memmove(&d->p[i], &d->p[i + 1], (d->n - i - 1) * sizeof(*d->p));
			d->n--;
			break;
		}
	}
	ARRAY_GROW(d->p, d->cap, d->n + 1);
	memset(&d->p[d->n], 0, sizeof(*d->p));
	d->p[d->n].key = key;
	return &d->p[d->n++];
}

static const struct vparam *vdef_get(const struct vdef *d, const char *key)
{
	for (size_t i = d ? d->n : 0; i-- > 0;)
		if (!strcmp(d->p[i].key, key))
			return &d->p[i];
	return NULL;
}

/* ---- reading lines --------------------------------------------------------------------------------------- */

static int is_comment(const char *s)
{
	return !*s || *s == '*' || *s == '#' || *s == '/';
}

/* The part of a trimmed line up to the first unquoted blank; quotes kept. */
static char *first_word(const char *s)
{
	const char *p = s;
	int q = 0;

	while (*p && (q || (*p != ' ' && *p != '\t'))) {
		if (*p == '"')
			q = !q;
		p++;
	}
	return xstrndup(s, (size_t)(p - s));
}

static int substitute_vars(const char *in, const struct kvlist *vars, const char *file, int line, char **out,
			   struct errbuf *err)
{
	struct strbuf sb;
	const char *p = in;

	strbuf_init(&sb);
	while (*p) {
		if ((*p == '$' || *p == '!') && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
			const char *s = p + 1;
			const struct kv *kv;
			char *name;
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			name = xstrndup(p + 1, (size_t)(s - p - 1));
			kv = vars ? kvlist_find(vars, name) : NULL;
			if (!kv && !strcmp(name, "host")) {
				/* $host / !host: the line is repeated once per hd= (expand_hosts) */
				strbuf_add(&sb, p, (size_t)(s - p));
				free(name);
				p = s;
				continue;
			}
			if (!kv) {
				if (*p == '!') { /* '!' also appears in values; only $ is an error when unknown */
					free(name);
					strbuf_addc(&sb, *p++);
					continue;
				}
				err_set(err, ERR_INPUT, "%s:%d: unknown variable '$%s' (give %s=value on the command line)",
					file, line, name, name);
				free(name);
				strbuf_release(&sb);
				return -1;
			}
			free(name);
			strbuf_adds(&sb, kv->value ? kv->value : "");
			p = s;
			continue;
		}
		strbuf_addc(&sb, *p++);
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

/* A value as written without its double quotes (they only protect blanks, ',', '=', '-'). */
static char *unquote(const char *s, size_t n)
{
	char *v = xmalloc(n + 1), *o = v;

	for (size_t i = 0; i < n; i++)
		if (s[i] != '"')
			*o++ = s[i];
	*o = '\0';
	return v;
}

/* Splits "k=v,k=(a,b),k="x y"" into parameters of definition d (first one may start the definition). */
static int parse_params(struct vfile *vf, struct vdef **cur, const char *text, const char *file, int line,
			struct errbuf *err)
{
	const char *p = text;
	int first = 1;

	while (*p) {
		const char *ks = p;
		char *word, *lw;
		const char *kw;
		struct vparam *vp;
		enum vgroup g;

		while (*p && *p != '=' && *p != ',')
			p++;
		if (*p != '=')
			return err_set(err, ERR_INPUT, "%s:%d: expecting 'keyword=value', got '%.*s'", file, line,
				       (int)(p - ks), ks);
		word = xstrndup(ks, (size_t)(p - ks));
		lw = word;
		for (char *c = lw; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		p++; /* '=' */
		g = group_of(lw);
		if (first && g != G_GENERAL) {
			struct vdef *d;
			if (g == G_FSD || g == G_FWD) {
				err_set(err, ERR_INPUT,
					"%s:%d: file-system workloads (%s=) cannot be translated to fio: bench runs raw "
					"sd/wd/rd parameter files only", file, line, lw);
				free(word);
				return -1;
			}
			if (g == G_RG) {
				err_set(err, ERR_INPUT, "%s:%d: replay groups (rg=) cannot be translated to fio: replaying "
					"a Swat trace is not supported", file, line);
				free(word);
				return -1;
			}
			if (vf->n && vf->d[vf->n - 1].g > g) {
				err_set(err, ERR_INPUT, "%s:%d: '%s=' after '%s=': vdbench wants general, hd, sd, wd, rd in "
					"this order", file, line, lw, group_name[vf->d[vf->n - 1].g]);
				free(word);
				return -1;
			}
			ARRAY_GROW(vf->d, vf->cap, vf->n + 1);
			d = &vf->d[vf->n++];
			memset(d, 0, sizeof(*d));
			d->g = g;
			d->file = xstrdup(file);
			d->line = line;
			*cur = d;
			kw = group_name[g];
			if (g == G_HD)
				vf->has_hosts = 1;
		} else {
			enum vgroup in = *cur ? (*cur)->g : G_GENERAL;
			kw = resolve_kw(in, lw);
			if (!kw) {
				err_set(err, ERR_INPUT, "%s:%d: unknown keyword '%s'%s%s", file, line, word,
					in == G_GENERAL ? "" : " in ", in == G_GENERAL ? "" : group_name[in]);
				if (in != G_GENERAL) {
					size_t l = strlen(err->msg);
					snprintf(err->msg + l, sizeof(err->msg) - l, "= definition");
				}
				free(word);
				return -1;
			}
		}
		free(word);
		if (!strcmp(kw, "replay"))
			return err_set(err, ERR_INPUT, "%s:%d: 'replay=' (Swat trace replay) cannot be translated to fio",
				       file, line);
		vp = vdef_put(*cur ? *cur : &vf->general, kw);
		vp->file = xstrdup(file);
		vp->line = line;
		if (*p == '(') {
			const char *ls = p, *s = ++p;
			int q = 0;
			vp->is_list = 1;
			for (;;) {
				if (!*p)
					return err_set(err, ERR_INPUT, "%s:%d: unterminated list '%s' for '%s' (no ')')", file,
						       line, ls, kw);
				if (*p == '"')
					q = !q;
				if (!q && (*p == ',' || *p == ')')) {
					char *item = unquote(s, (size_t)(p - s));
					if (!*item) {
						free(item);
						return err_set(err, ERR_INPUT, "%s:%d: empty item in the list of '%s'", file,
							       line, kw);
					}
					vp->items = xrealloc(vp->items, (vp->n + 1) * sizeof(char *));
					vp->items[vp->n++] = item;
					if (*p == ')') {
						p++;
						break;
					}
					s = p + 1;
				} else if (!q && *p == '(') {
					return err_set(err, ERR_INPUT, "%s:%d: nested '(' in the list of '%s'", file, line,
						       kw);
				}
				p++;
			}
		} else {
			const char *s = p;
			int q = 0;
			char *item;
			while (*p && (q || *p != ',')) {
				if (*p == '"')
					q = !q;
				p++;
			}
			if (q)
				return err_set(err, ERR_INPUT, "%s:%d: unterminated quote in the value of '%s'", file, line,
					       kw);
			item = unquote(s, (size_t)(p - s));
			if (!*item) {
				free(item);
				return err_set(err, ERR_INPUT, "%s:%d: '%s=' without a value", file, line, kw);
			}
			vp->items = xmalloc(sizeof(char *));
			vp->items[0] = item;
			vp->n = 1;
		}
		if (first && *cur && vp->key == group_name[(*cur)->g]) {
			if (vp->is_list)
				return err_set(err, ERR_INPUT, "%s:%d: a %s= name cannot be a list", file, line, kw);
			(*cur)->name = xstrdup(vp->items[0]);
		}
		first = 0;
		if (*p == ',')
			p++;
		else if (*p)
			return err_set(err, ERR_INPUT, "%s:%d: expected ',' after the value of '%s'", file, line, kw);
	}
	return 0;
}

static int read_vdb(struct vfile *vf, const char *text, size_t len, const char *file, int line0, const char *dir,
		    int nested, struct vdef **cur, struct errbuf *err);

/* Most hosts a $host line is repeated for. */
#define VDB_MAX_HOSTS 1024

/* Does the line use $host or !host (not $hosts)? */
static const char *host_ref(const char *s)
{
	for (const char *p = s; (p = strpbrk(p, "$!")); p++)
		if (!strncmp(p + 1, "host", 4) && !isalnum((unsigned char)p[5]) && p[5] != '_')
			return p;
	return NULL;
}

/*
 * Parses a complete line; a line using $host or !host is parsed once per hd= (default excluded), with the host's
 * name in place of the reference, as vdbench repeats it.
 */
static int expand_hosts(struct vfile *vf, struct vdef **cur, const char *line_text, const char *file, int line,
			struct errbuf *err)
{
	size_t nhosts = 0;
	char **hosts = NULL;
	int rc = 0;

	if (!host_ref(line_text))
		return parse_params(vf, cur, line_text, file, line, err);
	for (size_t i = 0; i < vf->n; i++)
		if (vf->d[i].g == G_HD && vf->d[i].name && strcmp(vf->d[i].name, "default")) {
			hosts = xrealloc(hosts, (nhosts + 1) * sizeof(*hosts));
			hosts[nhosts++] = xstrdup(vf->d[i].name);
		}
	if (!nhosts)
		return err_set(err, ERR_INPUT, "%s:%d: '$host' is used but no hd= host is defined before it", file, line);
	/* hd= lines using $host double the hosts each time: bound it (an error, not an out-of-memory) */
	if (nhosts > VDB_MAX_HOSTS)
		rc = err_set(err, ERR_INPUT, "%s:%d: '$host' would repeat this line for %zu hosts (hd=), more than %d",
			     file, line, nhosts, VDB_MAX_HOSTS);
	for (size_t h = 0; h < nhosts && rc == 0; h++) {
		struct strbuf sb;
		const char *p = line_text, *r;
		strbuf_init(&sb);
		while ((r = host_ref(p))) {
			strbuf_add(&sb, p, (size_t)(r - p));
			strbuf_adds(&sb, hosts[h]);
			p = r + 5;
		}
		strbuf_adds(&sb, p);
		rc = parse_params(vf, cur, sb.buf, file, line, err);
		strbuf_release(&sb);
	}
	for (size_t h = 0; h < nhosts; h++)
		free(hosts[h]);
	free(hosts);
	return rc;
}

static int is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int do_include(struct vfile *vf, const char *name, const char *file, int line, const char *dir,
		      struct vdef **cur, struct errbuf *err)
{
	struct strbuf sb;
	char *path = NULL;
	int rc;

	strbuf_init(&sb);
	if (name[0] != '/' && dir) {
		path = xasprintf("%s/%s", dir, name);
		if (!is_regular(path) || strbuf_read_file(&sb, path) < 0) {
			free(path);
			path = NULL;
		}
	}
	if (!path) {
		path = xstrdup(name);
		if (!is_regular(path)) {
			err_set(err, ERR_INPUT, "%s:%d: include file '%s' is not a regular file", file, line, name);
			free(path);
			strbuf_release(&sb);
			return -1;
		}
		if (strbuf_read_file(&sb, path) < 0) {
			err_set(err, ERR_INPUT, "%s:%d: cannot read include file '%s': %s", file, line, name,
				strerror(errno));
			free(path);
			strbuf_release(&sb);
			return -1;
		}
	}
	rc = read_vdb(vf, sb.buf, sb.len, path, 0, dir, 1, cur, err);
	free(path);
	strbuf_release(&sb);
	return rc;
}

static int read_vdb(struct vfile *vf, const char *text, size_t len, const char *file, int line0, const char *dir,
		    int nested, struct vdef **cur, struct errbuf *err)
{
	const char *p = text, *end = text + len;
	int line = line0, start_line = 0, any = 0;
	struct strbuf acc;
	int rc = -1;

	strbuf_init(&acc);
	if (memchr(text, '\0', len)) {
		err_set(err, ERR_INPUT, "%s:%d: binary data (NUL bytes), not a vdbench parameter file", file, line0 + 1);
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *raw = xstrndup(p, n), *s, *e, *w, *sub = NULL;

		line++;
		p = nl ? nl + 1 : end;
		s = raw;
		while (*s && isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (is_comment(s) && !acc.len) {
			free(raw);
			continue;
		}
		if (!strcasecmp(s, "eof") && !acc.len) {
			free(raw);
			break;
		}
		w = first_word(s);
		free(raw);
		if (substitute_vars(w, vf->vars, file, line, &sub, err) < 0) {
			free(w);
			goto out;
		}
		free(w);
		if (!acc.len)
			start_line = line;
		strbuf_adds(&acc, sub);
		free(sub);
		if (acc.len && acc.buf[acc.len - 1] == ',') {
			if (p >= end) {
				err_set(err, ERR_INPUT, "%s:%d: the last line ends with ',' (a continuation without a next "
					"line)", file, line);
				goto out;
			}
			continue;
		}
		/* a prose line: vdbench stops with "Expecting 'keyword='"; bench warns and skips it */
		if (!strchr(acc.buf, '=')) {
			plan_warn(vf->plan, "%s:%d: line is not 'keyword=value' and is ignored (vdbench would stop here): "
				  "'%.40s'", file, start_line, acc.buf);
			strbuf_reset(&acc);
			continue;
		}
		if (!strncasecmp(acc.buf, "include=", 8)) {
			if (nested) {
				err_set(err, ERR_INPUT, "%s:%d: include= inside an included file (vdbench does not nest "
					"includes)", file, start_line);
				goto out;
			}
			if (do_include(vf, acc.buf + 8, file, start_line, dir, cur, err) < 0)
				goto out;
			strbuf_reset(&acc);
			any = 1;
			continue;
		}
		/* a line starting with a group keyword opens a new definition, else it continues the current */
		if (expand_hosts(vf, cur, acc.buf, file, start_line, err) < 0)
			goto out;
		any = 1;
		strbuf_reset(&acc);
	}
	if (acc.len) {
		err_set(err, ERR_INPUT, "%s:%d: the file ends inside a continued line", file, start_line);
		goto out;
	}
	(void)any;
	rc = 0;
out:
	strbuf_release(&acc);
	return rc;
}

/* ---- values ----------------------------------------------------------------------------------------------- */

/* A vdbench number: double with k m g t (1024) and optional b; h = x3600; for times m = minutes. */
static int vnum(const char *s, int is_time, double *out)
{
	char *end;
	double v, mult = 1;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -1;
	if (*end) {
		char c = (char)tolower((unsigned char)*end);
		if (c == '%') {
			*out = -v;
			return end[1] ? -1 : 0;
		}
		if (is_time) {
			if (c == 's')
				mult = 1;
			else if (c == 'm')
				mult = 60;
			else if (c == 'h')
				mult = 3600;
			else
				return -1;
		} else {
			switch (c) {
			case 'k': mult = 1024.0; break;
			case 'm': mult = 1048576.0; break;
			case 'g': mult = 1073741824.0; break;
			case 't': mult = 1099511627776.0; break;
			case 'h': mult = 3600; break;
			default: return -1;
			}
		}
		end++;
		if (*end && !((*end == 'b' || *end == 'B') && !end[1]))
			return -1;
	}
	*out = v * mult;
	return 0;
}

/* Expands a numeric parameter: list, range (a-b,step), doubling (a-b,d). */
static int vnums(const struct vparam *vp, int is_time, double **out, size_t *n, struct errbuf *err)
{
	double *v = NULL;
	size_t cnt = 0;

	if (vp->n == 2 && strchr(vp->items[0] + 1, '-')) {
		const char *dash = strchr(vp->items[0] + 1, '-');
		char *a = xstrndup(vp->items[0], (size_t)(dash - vp->items[0]));
		double lo, hi, step = 0;
		int dbl = !strcasecmp(vp->items[1], "d");
		int ok = vnum(a, is_time, &lo) == 0 && vnum(dash + 1, is_time, &hi) == 0 &&
			 (dbl || (vnum(vp->items[1], is_time, &step) == 0 && step > 0));
		free(a);
		if (!ok || lo <= 0 || hi <= 0)
			return err_set(err, ERR_INPUT, "%s:%d: '%s=(%s,%s)' is not a range (from-to,step) or doubling "
				       "(from-to,d)", vp->file, vp->line, vp->key, vp->items[0], vp->items[1]);
		if (dbl) {
			if (lo <= hi)
				for (double x = lo; x <= hi * (1 + 1e-9) && cnt < 10000; x *= 2) {
					v = xrealloc(v, (cnt + 1) * sizeof(*v));
					v[cnt++] = x;
				}
			else
				for (double x = lo; x >= hi * (1 - 1e-9) && cnt < 10000; x /= 2) {
					v = xrealloc(v, (cnt + 1) * sizeof(*v));
					v[cnt++] = x;
				}
		} else {
			for (double x = lo; x <= hi * (1 + 1e-9) && cnt < 10000; x += step) {
				v = xrealloc(v, (cnt + 1) * sizeof(*v));
				v[cnt++] = x;
			}
		}
		if (cnt >= 10000) {
			free(v);
			return err_set(err, ERR_INPUT, "%s:%d: '%s' expands to too many values", vp->file, vp->line,
				       vp->key);
		}
	} else {
		v = xcalloc(vp->n ? vp->n : 1, sizeof(*v));
		for (size_t i = 0; i < vp->n; i++) {
			if (vnum(vp->items[i], is_time, &v[cnt]) < 0) {
				free(v);
				return err_set(err, ERR_INPUT, "%s:%d: '%s' is not a number for '%s'", vp->file, vp->line,
					       vp->items[i], vp->key);
			}
			cnt++;
		}
	}
	*out = v;
	*n = cnt;
	return 0;
}

static int vnum1(const struct vparam *vp, int is_time, double *out, struct errbuf *err)
{
	if (vp->n != 1 || vnum(vp->items[0], is_time, out) < 0)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' wants one number, got '%s%s'", vp->file, vp->line, vp->key,
			       vp->items[0], vp->n > 1 ? ",..." : "");
	return 0;
}

/* seekpct: seq/sequential 0, random 100, eof -1, or a number 0..100. */
static int seek_value(const char *s, const struct vparam *vp, double *out, struct errbuf *err)
{
	if (!strcasecmp(s, "seq") || !strcasecmp(s, "sequential"))
		*out = 0;
	else if (!strcasecmp(s, "random") || !strcasecmp(s, "rand"))
		*out = 100;
	else if (!strcasecmp(s, "eof"))
		*out = -1;
	else if (vnum(s, 0, out) < 0 || *out < -1 || *out > 100)
		return err_set(err, ERR_INPUT, "%s:%d: 'seekpct' must be 0..100, seq, random or eof, got '%s'",
			       vp->file, vp->line, s);
	return 0;
}

/* Does a (possibly wildcarded or ranged) name pattern select name? */
static int name_match(const char *pat, const char *name)
{
	const char *dash;
	size_t l = strlen(pat);

	if (!strcmp(pat, "*"))
		return 1;
	if (l && pat[l - 1] == '*')
		return !strncmp(pat, name, l - 1);
	if ((dash = strchr(pat, '-'))) {
		/* sd1-sd8: common prefix, numeric suffix range */
		char *a = xstrndup(pat, (size_t)(dash - pat));
		const char *b = dash + 1;
		size_t pa = strcspn(a, "0123456789"), pb = strcspn(b, "0123456789"), pn = strcspn(name, "0123456789");
		int ok = pa == pb && pa == pn && !strncmp(a, b, pa) && !strncmp(a, name, pa) && a[pa] && name[pn];
		if (ok) {
			long lo = strtol(a + pa, NULL, 10), hi = strtol(b + pb, NULL, 10), x;
			char *e;
			x = strtol(name + pn, &e, 10);
			ok = !*e && x >= lo && x <= hi;
		}
		free(a);
		if (ok)
			return 1;
	}
	return !strcmp(pat, name);
}

/* The definitions of group g selected by a name list (in definition order). */
static size_t select_defs(const struct vfile *vf, enum vgroup g, const struct vparam *names, const struct vdef **out,
			  size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < vf->n && n < max; i++) {
		const struct vdef *d = &vf->d[i];
		if (d->g != g || !d->name || !strcmp(d->name, "default"))
			continue;
		for (size_t k = 0; k < names->n; k++)
			if (name_match(names->items[k], d->name)) {
				out[n++] = d;
				break;
			}
	}
	return n;
}

/* ---- defaults ---------------------------------------------------------------------------------------------- */

/* Applies sd=default / wd=default / rd=default / hd=default to the definitions that follow them. */
static void apply_defaults(struct vfile *vf)
{
	struct vdef defs[G_NR];

	memset(defs, 0, sizeof(defs));
	for (size_t i = 0; i < vf->n; i++) {
		struct vdef *d = &vf->d[i];
		struct vdef *df = &defs[d->g];
		if (d->name && !strcmp(d->name, "default")) {
			for (size_t k = 0; k < d->n; k++) {
				if (d->p[k].key == group_name[d->g])
					continue;
				vparam_copy(vdef_put(df, d->p[k].key), &d->p[k]);
			}
			continue;
		}
		if (!df->n)
			continue;
		/* defaults first, then the definition's own parameters (own ones win) */
		{
			struct vdef merged;
			memset(&merged, 0, sizeof(merged));
			merged.g = d->g;
			for (size_t k = 0; k < d->n && k < 1; k++)
				vparam_copy(vdef_put(&merged, d->p[k].key), &d->p[k]);
			for (size_t k = 0; k < df->n; k++)
				vparam_copy(vdef_put(&merged, df->p[k].key), &df->p[k]);
			for (size_t k = 1; k < d->n; k++)
				vparam_copy(vdef_put(&merged, d->p[k].key), &d->p[k]);
			for (size_t k = 0; k < d->n; k++)
				vparam_release(&d->p[k]);
			free(d->p);
			d->p = merged.p;
			d->n = merged.n;
			d->cap = merged.cap;
		}
	}
	for (int g = 0; g < G_NR; g++)
		vdef_release(&defs[g]);
}

/* ---- for-loops and translation --------------------------------------------------------------------------- */

enum looptype { L_XFERSIZE, L_THREADS, L_RDPCT, L_RHPCT, L_WHPCT, L_SEEKPCT, L_HITAREA, L_COMPRATIO, L_NR };
static const char *const loop_name[L_NR] = { "xfersize", "threads", "rdpct", "rhpct", "whpct", "seekpct",
					     "hitarea", "compratio" };

struct loop {
	enum looptype t;
	double *v;
	size_t n;
};

static int loop_type(const char *key)
{
	const char *k = !strncmp(key, "for", 3) ? key + 3 : key;
	for (int t = 0; t < L_NR; t++)
		if (!strcmp(k, loop_name[t]))
			return t;
	return -1;
}

struct xlate {
	const struct vfile *vf;
	const struct vdef *rd;
	double val[L_NR];
	int have[L_NR];
	double iorate;          /* -1 max, -2 curve, else IO/s */
	double curve_pct;       /* 0: not a curve point */
	const char *base_file;
};

static void fmt_num(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
}

static void fmt_size(char *buf, size_t len, double bytes)
{
	format_size_short((uint64_t)llround(bytes), buf, len);
}

static void add_opt(struct kvlist *o, const char *k, const char *v)
{
	kvlist_del(o, k);
	kvlist_add(o, k, v);
}

static int translate(const struct xlate *x, const struct kvlist *base_opts, struct protos *out, struct errbuf *err)
{
	const struct vfile *vf = x->vf;
	const struct vdef *rd = x->rd;
	const struct vdef *wds[64], *sds[256];
	const struct vparam *vp, *wdsel;
	size_t nwd, nsd;
	struct run_spec *s;
	struct kvlist o;
	double xfer = 4096, rdpct = 100, seek = 100, threads = 8, rhpct = 0, whpct = 0, elapsed = 30, warmup = 0;
	double range_lo = 0, range_hi = 100, compratio = 1, dedupratio = 1;
	char buf[64], buf2[64];
	const char *bssplit = NULL;
	char *bssplit_own = NULL;
	int direct = 0, rc = -1;
	const char *syncmode = NULL;
	struct strbuf sb;

	strbuf_init(&sb);
	kvlist_init(&o);
	wdsel = vdef_get(rd, "wd");
	if (!wdsel) {
		err_set(err, ERR_INPUT, "%s:%d: rd=%s names no workload (wd=)", rd->file, rd->line, rd->name);
		goto out;
	}
	nwd = select_defs(vf, G_WD, wdsel, wds, 64);
	if (!nwd) {
		err_set(err, ERR_INPUT, "%s:%d: rd=%s: wd=%s matches no workload definition", rd->file, rd->line,
		       rd->name, wdsel->items[0]);
		goto out;
	}
	if (nwd > 1) {
		strbuf_reset(&sb);
		for (size_t i = 0; i < nwd; i++)
			strbuf_addf(&sb, "%s%s", i ? "," : "", wds[i]->name);
		plan_warn(vf->plan, "%s:%d: rd=%s runs %zu workloads at once (%s) with skew; one fio job cannot: the "
			  "translation uses wd=%s only", rd->file, rd->line, rd->name, nwd, sb.buf, wds[0]->name);
	}
	vp = vdef_get(wds[0], "sd");
	if (!vp) {
		err_set(err, ERR_INPUT, "%s:%d: wd=%s names no storage (sd=)", wds[0]->file, wds[0]->line,
		       wds[0]->name);
		goto out;
	}
	if ((wdsel = vdef_get(rd, "sd")))
		vp = wdsel; /* rd's sd= overrides */
	nsd = select_defs(vf, G_SD, vp, sds, 256);
	if (!nsd) {
		err_set(err, ERR_INPUT, "%s:%d: sd=%s matches no storage definition", vp->file, vp->line,
		       vp->items[0]);
		goto out;
	}

	/* storage: threads, range, openflags, size from the first sd (others must agree) */
	/* placeholders without lun= (sd=sd.... in an example) are left out, with a warning */
	{
		size_t k = 0;
		for (size_t i = 0; i < nsd; i++) {
			if (!vdef_get(sds[i], "lun")) {
				plan_warn(vf->plan, "%s:%d: sd=%s has no lun= and is left out", sds[i]->file,
					  sds[i]->line, sds[i]->name);
				continue;
			}
			sds[k++] = sds[i];
		}
		nsd = k;
		if (!nsd) {
			err_set(err, ERR_INPUT, "%s:%d: rd=%s: none of its storage definitions has a lun=", rd->file,
				rd->line, rd->name);
			goto out;
		}
	}
	if ((vp = vdef_get(sds[0], "threads")) && vnum1(vp, 0, &threads, err) < 0)
		goto out;
	for (size_t i = 1; i < nsd; i++) {
		const struct vparam *t = vdef_get(sds[i], "threads");
		double th = 8;
		if (t && vnum1(t, 0, &th, err) < 0)
			goto out;
		if (th != threads)
			plan_warn(vf->plan, "%s:%d: sd=%s has threads=%g but sd=%s has %g: fio's iodepth is one value, "
				  "%g is used", sds[i]->file, sds[i]->line, sds[i]->name, th, sds[0]->name, threads,
				  threads);
	}
	if ((vp = vdef_get(sds[0], "range"))) {
		if (vp->n != 2 || vnum(vp->items[0], 0, &range_lo) < 0 || vnum(vp->items[1], 0, &range_hi) < 0 ||
		    range_lo < 0 || range_hi > 100 || range_lo >= range_hi) {
			err_set(err, ERR_INPUT, "%s:%d: sd range= must be (low,high) in percent, 0 <= low < high <= 100",
				vp->file, vp->line);
			goto out;
		}
	}
	if ((vp = vdef_get(wds[0], "range"))) {
		double lo, hi;
		if (vp->n != 2 || vnum(vp->items[0], 0, &lo) < 0 || vnum(vp->items[1], 0, &hi) < 0 || lo < 0 ||
		    hi > 100 || lo >= hi) {
			err_set(err, ERR_INPUT, "%s:%d: wd range= must be (low,high) in percent, 0 <= low < high <= 100",
				vp->file, vp->line);
			goto out;
		}
		/* the wd range is taken within the sd range */
		{
			double span = range_hi - range_lo;
			range_hi = range_lo + span * hi / 100;
			range_lo = range_lo + span * lo / 100;
		}
	}
	for (int pass = 0; pass < 3; pass++) {
		const struct vdef *d = pass == 0 ? sds[0] : pass == 1 ? wds[0] : rd;
		if ((vp = vdef_get(d, "openflags"))) {
			for (size_t i = 0; i < vp->n; i++) {
				const char *f = vp->items[i];
				if (!strcasecmp(f, "o_direct") || !strcasecmp(f, "directio"))
					direct = 1;
				else if (!strcasecmp(f, "o_sync"))
					syncmode = "sync";
				else if (!strcasecmp(f, "o_dsync"))
					syncmode = "dsync";
				else
					plan_warn(vf->plan, "%s:%d: openflags=%s has no fio equivalent and is not translated",
						  vp->file, vp->line, f);
			}
		}
	}

	/* workload */
	if ((vp = vdef_get(wds[0], "xfersize"))) {
		if (vp->n == 1) {
			if (vnum1(vp, 0, &xfer, err) < 0)
				goto out;
		} else if (vp->n == 3) {
			double a, b, c;
			if (vnum(vp->items[0], 0, &a) < 0 || vnum(vp->items[1], 0, &b) < 0 || vnum(vp->items[2], 0, &c) < 0) {
				err_set(err, ERR_INPUT, "%s:%d: xfersize=(min,max,align) wants three sizes", vp->file,
					vp->line);
				goto out;
			}
			if (a <= 0 || b < a || c <= 0 || a != floor(a) || b != floor(b) || c != floor(c)) {
				err_set(err, ERR_INPUT, "%s:%d: xfersize=(min,max,align) wants whole sizes with min <= max, "
					"got (%s,%s,%s); a distribution is (size,pct) pairs", vp->file, vp->line,
					vp->items[0], vp->items[1], vp->items[2]);
				goto out;
			}
			fmt_size(buf, sizeof(buf), a);
			fmt_size(buf2, sizeof(buf2), b);
			bssplit_own = xasprintf("range:%s-%s", buf, buf2);
			xfer = 0;
			fmt_size(buf, sizeof(buf), c);
			kvlist_add(&o, "ba", buf);
		} else if (vp->n % 2 == 0) {
			double total = 0;
			strbuf_reset(&sb);
			for (size_t i = 0; i < vp->n; i += 2) {
				double sz, pct;
				if (vnum(vp->items[i], 0, &sz) < 0 || vnum(vp->items[i + 1], 0, &pct) < 0 || sz <= 0 ||
				    pct < 0) {
					err_set(err, ERR_INPUT, "%s:%d: xfersize=(size,pct,...) pairs are not sizes and "
						"percentages", vp->file, vp->line);
					goto out;
				}
				/* fio's bssplit takes whole sizes and whole percentages (0 means "share the rest") */
				if (sz != floor(sz) || pct != floor(pct)) {
					err_set(err, ERR_INPUT, "%s:%d: xfersize=(%s,%s) cannot be translated exactly: fio's "
						"bssplit wants whole bytes and whole percentages", vp->file, vp->line,
						vp->items[i], vp->items[i + 1]);
					goto out;
				}
				total += pct;
				if (pct == 0)
					continue; /* never used: left out */
				fmt_size(buf, sizeof(buf), sz);
				fmt_num(buf2, sizeof(buf2), pct);
				strbuf_addf(&sb, "%s%s/%s", sb.len ? ":" : "", buf, buf2);
			}
			if (fabs(total - 100) > 1e-6) {
				err_set(err, ERR_INPUT, "%s:%d: xfersize distribution percentages add up to %g, not 100",
					vp->file, vp->line, total);
				goto out;
			}
			bssplit_own = strbuf_detach(&sb, NULL);
			xfer = 0;
		} else {
			err_set(err, ERR_INPUT, "%s:%d: xfersize= wants one size, (size,pct,...) pairs or (min,max,align)",
				vp->file, vp->line);
			goto out;
		}
	}
	if ((vp = vdef_get(wds[0], "rdpct")) && vnum1(vp, 0, &rdpct, err) < 0)
		goto out;
	if (!vdef_get(wds[0], "rdpct") && (vp = vdef_get(wds[0], "wrpct"))) {
		double w;
		if (vnum1(vp, 0, &w, err) < 0)
			goto out;
		rdpct = 100 - w;
	}
	if ((vp = vdef_get(wds[0], "seekpct")) && seek_value(vp->items[0], vp, &seek, err) < 0)
		goto out;
	if ((vp = vdef_get(wds[0], "rhpct")) && vnum1(vp, 0, &rhpct, err) < 0)
		goto out;
	if ((vp = vdef_get(wds[0], "whpct")) && vnum1(vp, 0, &whpct, err) < 0)
		goto out;
	if ((vp = vdef_get(&vf->general, "compratio")) && vnum1(vp, 0, &compratio, err) < 0)
		goto out;
	if ((vp = vdef_get(&vf->general, "dedupratio")) && vnum1(vp, 0, &dedupratio, err) < 0)
		goto out;
	/* the for-loop values override every wd and sd */
	if (x->have[L_XFERSIZE]) {
		xfer = x->val[L_XFERSIZE];
		free(bssplit_own);
		bssplit_own = NULL;
	}
	if (x->have[L_THREADS])
		threads = x->val[L_THREADS];
	if (x->have[L_RDPCT])
		rdpct = x->val[L_RDPCT];
	if (x->have[L_SEEKPCT])
		seek = x->val[L_SEEKPCT];
	if (x->have[L_RHPCT])
		rhpct = x->val[L_RHPCT];
	if (x->have[L_WHPCT])
		whpct = x->val[L_WHPCT];
	if (x->have[L_COMPRATIO])
		compratio = x->val[L_COMPRATIO];
	bssplit = bssplit_own;

	if ((vp = vdef_get(rd, "elapsed")) && vnum1(vp, 1, &elapsed, err) < 0)
		goto out;
	if ((vp = vdef_get(rd, "warmup")) && vnum1(vp, 1, &warmup, err) < 0)
		goto out;

	/* checks */
	if (rdpct < 0 || rdpct > 100) {
		vp = vdef_get(wds[0], "rdpct");
		err_set(err, ERR_INPUT, "%s:%d: 'rdpct' must be 0..100, got '%g'", vp ? vp->file : rd->file,
			vp ? vp->line : rd->line, rdpct);
		goto out;
	}
	if (threads < 1 || threads != floor(threads) || threads > 100000) {
		err_set(err, ERR_INPUT, "%s:%d: 'threads' must be a whole number >= 1, got '%g'", sds[0]->file,
			sds[0]->line, threads);
		goto out;
	}
	if (!bssplit && (xfer < 512 || xfer != floor(xfer))) {
		err_set(err, ERR_INPUT, "%s:%d: 'xfersize' must be a whole number of bytes >= 512, got '%g'",
			wds[0]->file, wds[0]->line, xfer);
		goto out;
	}
	if (elapsed <= 0) {
		err_set(err, ERR_INPUT, "%s:%d: 'elapsed' must be > 0", rd->file, rd->line);
		goto out;
	}
	if (compratio < 1) {
		err_set(err, ERR_INPUT, "%s:%d: 'compratio' must be >= 1, got '%g'", rd->file, rd->line, compratio);
		goto out;
	}
	if (rhpct > 0 || whpct > 0)
		plan_warn(vf->plan, "%s:%d: rd=%s: rhpct=%g/whpct=%g (cache hit areas) have no fio equivalent: the "
			  "translation reads and writes the whole range", rd->file, rd->line, rd->name, rhpct, whpct);

	/* the fio options */
	s = protos_add(out);
	if (base_opts)
		kvlist_copy(&o, base_opts);
	add_opt(&o, "ioengine", kvlist_get(base_opts ? base_opts : &o, "ioengine", "libaio"));
	if (direct)
		add_opt(&o, "direct", "1");
	if (syncmode)
		add_opt(&o, "sync", syncmode);
	if (seek < 0) {
		add_opt(&o, "rw", rdpct >= 100 ? "read" : rdpct <= 0 ? "write" : "rw");
	} else if (seek == 0) {
		add_opt(&o, "rw", rdpct >= 100 ? "read" : rdpct <= 0 ? "write" : "rw");
	} else if (seek >= 100) {
		add_opt(&o, "rw", rdpct >= 100 ? "randread" : rdpct <= 0 ? "randwrite" : "randrw");
	} else {
		add_opt(&o, "rw", "randrw");
		fmt_num(buf, sizeof(buf), seek);
		add_opt(&o, "percentage_random", buf);
	}
	{
		const char *rw = kvlist_get(&o, "rw", "");
		if (!strcmp(rw, "randrw") || !strcmp(rw, "rw")) {
			fmt_num(buf, sizeof(buf), rdpct);
			add_opt(&o, "rwmixread", buf);
		}
	}
	if (bssplit && !strncmp(bssplit, "range:", 6)) {
		add_opt(&o, "bsrange", bssplit + 6);
	} else if (bssplit) {
		add_opt(&o, "bssplit", bssplit);
	} else {
		fmt_size(buf, sizeof(buf), xfer);
		add_opt(&o, "bs", buf);
	}
	fmt_num(buf, sizeof(buf), threads);
	add_opt(&o, "iodepth", buf);
	if (range_lo > 0) {
		fmt_num(buf, sizeof(buf), range_lo);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%%", buf);
		add_opt(&o, "offset", sb.buf);
	}
	if ((vp = vdef_get(sds[0], "size"))) {
		double sz;
		if (vnum1(vp, 0, &sz, err) < 0)
			goto out;
		fmt_size(buf, sizeof(buf), sz);
		add_opt(&o, "size", buf);
	} else if (range_lo > 0 || range_hi < 100 || vdef_get(sds[0], "range") || vdef_get(wds[0], "range")) {
		fmt_num(buf, sizeof(buf), range_hi - range_lo);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%%", buf);
		add_opt(&o, "size", sb.buf);
	}
	if ((vp = vdef_get(sds[0], "offset"))) {
		double off;
		if (vnum1(vp, 0, &off, err) < 0)
			goto out;
		fmt_size(buf, sizeof(buf), off);
		add_opt(&o, "offset", buf);
	}
	if (seek >= 0)
		add_opt(&o, "time_based", NULL);
	fmt_num(buf, sizeof(buf), ceil(elapsed));
	add_opt(&o, "runtime", buf);
	fmt_num(buf, sizeof(buf), ceil(warmup));
	add_opt(&o, "ramp_time", buf);
	if (x->iorate > 0) {
		/* vdbench's iorate is for the whole run; fio's rate_iops is per job: one job per target */
		fmt_num(buf, sizeof(buf), ceil(x->iorate / (double)nsd));
		add_opt(&o, "rate_iops", buf);
	}
	if (compratio > 1) {
		fmt_num(buf, sizeof(buf), round(100.0 * (1.0 - 1.0 / compratio)));
		add_opt(&o, "buffer_compress_percentage", buf);
	}
	if (dedupratio > 1) {
		fmt_num(buf, sizeof(buf), round(100.0 * (1.0 - 1.0 / dedupratio)));
		add_opt(&o, "dedupe_percentage", buf);
		plan_warn(vf->plan, "%s: dedupratio=%g is translated as fio dedupe_percentage=%s (approximate: vdbench "
			  "dedup units and sets are not modelled)", rd->file, dedupratio, buf);
	}
	for (size_t i = 0; i < nsd; i++) {
		const struct vparam *lun = vdef_get(sds[i], "lun");
		run_spec_add_target(s, lun->items[0]);
	}
	if (workload_from_fio(&s->wl, &o, rd->file, rd->line, err) < 0)
		goto out;
	free(s->wl.tool);
	s->wl.tool = xstrdup("vdbench");
	/* name: the rd's, with the for-loop values that tell expanded runs apart (vdbench's "For loops:") */
	strbuf_reset(&sb);
	if (x->curve_pct > 0)
		strbuf_addf(&sb, "%s_(%g%%)", rd->name, x->curve_pct);
	else
		strbuf_adds(&sb, rd->name);
	s->name = strbuf_detach(&sb, NULL);
	kvlist_set(&s->labels, "vdbench.rd", rd->name);
	kvlist_set(&s->labels, "vdbench.wd", wds[0]->name);
	strbuf_reset(&sb);
	for (int t = 0; t < L_NR; t++) {
		if (!x->have[t])
			continue;
		if (t == L_XFERSIZE)
			fmt_size(buf, sizeof(buf), x->val[t]);
		else
			fmt_num(buf, sizeof(buf), x->val[t]);
		strbuf_addf(&sb, "%s%s=%s", sb.len ? " " : "", loop_name[t], buf);
	}
	if (sb.len)
		kvlist_set(&s->labels, "vdbench.forloops", sb.buf);
	/* curve points keep vdbench's own name; the others get an HCIbench-style name where it fits */
	out->explicit_name[out->n - 1] = x->curve_pct > 0;
	if (x->curve_pct > 0) {
		fmt_num(buf, sizeof(buf), x->curve_pct);
		kvlist_set(&s->engine_opts, "vdbench.curve_pct", buf);
		kvlist_set(&s->labels, "vdbench.curve_pct", buf);
	}
	rc = 0;
out:
	free(bssplit_own);
	kvlist_release(&o);
	strbuf_release(&sb);
	return rc;
}

static int expand_rd(struct vfile *vf, const struct vdef *rd, const struct kvlist *base_opts, struct protos *out,
		     struct errbuf *err)
{
	struct loop loops[L_NR];
	size_t nloops = 0, total = 1;
	double *rates = NULL, curve[32];
	size_t nrates = 1, ncurve = 0;
	const struct vparam *vp;
	size_t *idx = NULL;
	int rc = -1, is_curve = 0;

	memset(loops, 0, sizeof(loops));
	/* loops in the order written; repeating a type replaces it and moves it to the end */
	for (size_t i = 0; i < rd->n; i++) {
		int t = loop_type(rd->p[i].key);
		struct loop l;
		if (t < 0)
			continue;
		memset(&l, 0, sizeof(l));
		l.t = (enum looptype)t;
		if (t == L_SEEKPCT) {
			l.v = xcalloc(rd->p[i].n, sizeof(double));
			for (size_t k = 0; k < rd->p[i].n; k++)
				if (seek_value(rd->p[i].items[k], &rd->p[i], &l.v[k], err) < 0) {
					free(l.v);
					goto out;
				}
			l.n = rd->p[i].n;
		} else if (vnums(&rd->p[i], 0, &l.v, &l.n, err) < 0) {
			goto out;
		}
		for (size_t k = 0; k < nloops; k++) {
			if (loops[k].t == l.t) {
				free(loops[k].v);
				memmove(&loops[k], &loops[k + 1], (nloops - k - 1) * sizeof(loops[0]));
				nloops--;
				break;
			}
		}
		if (t == L_RDPCT || t == L_RHPCT || t == L_WHPCT || t == L_SEEKPCT) {
			for (size_t k = 0; k < l.n; k++)
				if (l.v[k] < (t == L_SEEKPCT ? -1 : 0) || l.v[k] > 100) {
					err_set(err, ERR_INPUT, "%s:%d: '%s' must be 0..100, got '%g'", rd->p[i].file,
						rd->p[i].line, rd->p[i].key, l.v[k]);
					free(l.v);
					goto out;
				}
		}
		loops[nloops++] = l;
	}
	for (size_t k = 0; k < nloops; k++)
		total *= loops[k].n;
	/* iorate: max, curve, a number or a list: always the innermost loop */
	if ((vp = vdef_get(rd, "iorate"))) {
		rates = xcalloc(vp->n, sizeof(double));
		nrates = vp->n;
		for (size_t k = 0; k < vp->n; k++) {
			if (!strcasecmp(vp->items[k], "max"))
				rates[k] = -1;
			else if (!strcasecmp(vp->items[k], "curve")) {
				rates[k] = -2;
				is_curve = 1;
			} else if (vnum(vp->items[k], 0, &rates[k]) < 0 || rates[k] <= 0) {
				err_set(err, ERR_INPUT, "%s:%d: 'iorate' must be max, curve or a rate > 0, got '%s'",
					vp->file, vp->line, vp->items[k]);
				goto out;
			}
		}
	} else {
		/* vdbench has no default iorate for raw runs: it is required */
		err_set(err, ERR_INPUT, "%s:%d: rd=%s has no iorate= (max, curve or IO/s)", rd->file, rd->line,
			rd->name);
		goto out;
	}
	if (is_curve) {
		static const double def_curve[] = { 10, 50, 70, 80, 90, 100 };
		if ((vp = vdef_get(rd, "curve"))) {
			for (size_t k = 0; k < vp->n && k < 32; k++)
				if (vnum(vp->items[k], 0, &curve[ncurve++]) < 0 || curve[ncurve - 1] <= 0) {
					err_set(err, ERR_INPUT, "%s:%d: curve= wants percentages", vp->file, vp->line);
					goto out;
				}
		} else {
			for (size_t k = 0; k < 6; k++)
				curve[ncurve++] = def_curve[k];
		}
		plan_warn(vf->plan, "%s:%d: rd=%s uses iorate=curve: each curve point (%s_(NN%%)) needs rate_iops = NN%% "
			  "of the max run's IO/s, which fio cannot know in advance; they are planned with "
			  "engine option vdbench.curve_pct and run unthrottled unless the run loop sets the rate",
			  rd->file, rd->line, rd->name, rd->name);
	}
	if (total * nrates * (ncurve + 1) > PLAN_MAX_RUNS) {
		err_set(err, ERR_INPUT, "%s:%d: rd=%s expands to %zu runs (limit %d)", rd->file, rd->line, rd->name,
			total * nrates * (ncurve + 1), PLAN_MAX_RUNS);
		goto out;
	}
	idx = xcalloc(nloops + 1, sizeof(size_t));
	for (size_t r = 0; r < total; r++) {
		struct xlate x;
		size_t rem = r;
		memset(&x, 0, sizeof(x));
		x.vf = vf;
		x.rd = rd;
		/* first loop outermost: decompose r with the last loop varying fastest */
		for (size_t k = nloops; k-- > 0;) {
			idx[k] = rem % loops[k].n;
			rem /= loops[k].n;
		}
		for (size_t k = 0; k < nloops; k++) {
			x.val[loops[k].t] = loops[k].v[idx[k]];
			x.have[loops[k].t] = 1;
		}
		for (size_t q = 0; q < nrates; q++) {
			x.curve_pct = 0;
			x.iorate = rates[q] == -2 ? -1 : rates[q];
			if (translate(&x, base_opts, out, err) < 0)
				goto out;
			if (rates[q] == -2) {
				for (size_t c = 0; c < ncurve; c++) {
					x.curve_pct = curve[c];
					if (translate(&x, base_opts, out, err) < 0)
						goto out;
				}
			}
		}
	}
	rc = 0;
out:
	for (size_t k = 0; k < nloops; k++)
		free(loops[k].v);
	free(rates);
	free(idx);
	return rc;
}

static int expand(struct vfile *vf, const char *file, const struct kvlist *base_opts, struct protos *out,
		  struct errbuf *err)
{
	size_t nrd = 0, before = out->n;

	for (size_t i = 0; i < vf->n; i++) {
		const struct vdef *d = &vf->d[i];
		if (!d->name)
			return err_set(err, ERR_INPUT, "%s:%d: %s= without a name", d->file, d->line, group_name[d->g]);
		for (size_t j = 0; j < i; j++)
			if (vf->d[j].g == d->g && vf->d[j].name && !strcmp(vf->d[j].name, d->name) &&
			    strcmp(d->name, "default") && d->g != G_RD)
				return err_set(err, ERR_INPUT, "%s:%d: duplicate %s=%s (first at %s:%d)", d->file, d->line,
					       group_name[d->g], d->name, vf->d[j].file, vf->d[j].line);
	}
	if (vf->has_hosts) {
		for (size_t i = 0; i < vf->n; i++)
			if (vf->d[i].g == G_HD) {
				plan_warn(vf->plan, "%s:%d: hd= host definitions are not translated: the runs are planned "
					  "for the targets given to bench (--target, or `bench run --hosts`)",
					  vf->d[i].file, vf->d[i].line);
				break;
			}
	}
	apply_defaults(vf);
	for (size_t i = 0; i < vf->n; i++) {
		if (vf->d[i].g != G_RD || !strcmp(vf->d[i].name, "default"))
			continue;
		nrd++;
		if (expand_rd(vf, &vf->d[i], base_opts, out, err) < 0)
			return -1;
	}
	if (!nrd)
		return err_set(err, ERR_INPUT, "%s:1: no run definition (rd=) in the parameter file", file);
	(void)before;
	return 0;
}

int vdbench_expand_text(const char *text, size_t len, const char *file, int line0, const char *dir,
			const struct kvlist *vars, const struct kvlist *base_opts, struct plan *plan,
			struct protos *out, struct errbuf *err)
{
	struct vfile vf;
	struct vdef *cur = NULL;
	int rc = -1;

	memset(&vf, 0, sizeof(vf));
	vf.plan = plan;
	vf.vars = vars;
	vf.general.g = G_GENERAL;
	if (read_vdb(&vf, text, len, file, line0, dir, 0, &cur, err) < 0)
		goto out;
	if (!vf.n && !vf.general.n) {
		err_set(err, ERR_INPUT, "%s:%d: empty parameter file: no sd=, wd= or rd=", file, line0 + 1);
		goto out;
	}
	rc = expand(&vf, file, base_opts, out, err);
out:
	vfile_release(&vf);
	return rc;
}

int vdbench_expand_file(const char *path, const struct kvlist *vars, struct plan *plan, struct protos *out,
			struct errbuf *err)
{
	struct strbuf sb;
	char *dir;
	const char *slash = strrchr(path, '/');
	int rc;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) < 0) {
		err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	rc = vdbench_expand_text(sb.buf, sb.len, path, 0, dir, vars, NULL, plan, out, err);
	free(dir);
	strbuf_release(&sb);
	return rc;
}
