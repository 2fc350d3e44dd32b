/*
 * vdbench_params: the reader of vdbench parameter files (reference/vdbench.md) with vdbench's lexical rules,
 * into the parsed form of vdbench_params.h; the translation into runs is vdbench_translate.c.
 * lines are trimmed; empty lines and lines starting with '*', '#' or '/' are comments; "eof" ends the
 * file; everything after the first unquoted blank is ignored; a line ending in ',' continues on the next;
 * `include=FILE` is read in place (no nesting); $name / !name come from NAME=value on the command line.
 * A line whose first word is not keyword=value is prose: vdbench stops there, bench warns and skips it.
 */
#include "profiles/vdbench_params.h"

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
#include "profiles/text.h"


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
	"distribution", "curve", "stopcurve", "openflags", "sd", "forxfersize", "forthreads", "forrdpct", "forrhpct", "forwhpct",
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

static void vparam_release(struct vparam *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->items[i]);
	free(p->items);
	free(p->file);
}

static void vdef_release(struct vdef *d)
{
	ARRAY_RELEASE(d->p, d->n, vparam_release);
	free(d->name);
	free(d->file);
	memset(d, 0, sizeof(*d));
}

void vfile_release(struct vfile *f)
{
	ARRAY_RELEASE(f->d, f->n, vdef_release);
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

const struct vparam *vdef_get(const struct vdef *d, const char *key)
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
		char *raw = xstrndup(p, n), *s, *w, *sub = NULL;

		line++;
		p = nl ? nl + 1 : end;
		s = profile_trim(raw);
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
int vdb_num(const char *s, int is_time, double *out)
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
int vdb_nums(const struct vparam *vp, int is_time, double **out, size_t *n, struct errbuf *err)
{
	double *v = NULL;
	size_t cnt = 0;

	if (vp->n == 2 && strchr(vp->items[0] + 1, '-')) {
		const char *dash = strchr(vp->items[0] + 1, '-');
		char *a = xstrndup(vp->items[0], (size_t)(dash - vp->items[0]));
		double lo, hi, step = 0;
		int dbl = !strcasecmp(vp->items[1], "d");
		int ok = vdb_num(a, is_time, &lo) == 0 && vdb_num(dash + 1, is_time, &hi) == 0 &&
			 (dbl || (vdb_num(vp->items[1], is_time, &step) == 0 && step > 0));
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
			if (vdb_num(vp->items[i], is_time, &v[cnt]) < 0) {
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

int vdb_num1(const struct vparam *vp, int is_time, double *out, struct errbuf *err)
{
	if (vp->n != 1 || vdb_num(vp->items[0], is_time, out) < 0)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' wants one number, got '%s%s'", vp->file, vp->line, vp->key,
			       vp->items[0], vp->n > 1 ? ",..." : "");
	return 0;
}

/* seekpct: seq/sequential 0, random 100, eof -1, or a number 0..100. */
int vdb_seek_value(const char *s, const struct vparam *vp, double *out, struct errbuf *err)
{
	if (!strcasecmp(s, "seq") || !strcasecmp(s, "sequential"))
		*out = 0;
	else if (!strcasecmp(s, "random") || !strcasecmp(s, "rand"))
		*out = 100;
	else if (!strcasecmp(s, "eof"))
		*out = -1;
	else if (vdb_num(s, 0, out) < 0 || *out < -1 || *out > 100)
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
size_t vfile_select(const struct vfile *vf, enum vgroup g, const struct vparam *names, const struct vdef **out,
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
void vfile_apply_defaults(struct vfile *vf)
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

const char *vgroup_name(enum vgroup g)
{
	return (unsigned)g < G_NR ? group_name[g] : "?";
}

void vfile_init(struct vfile *vf, struct plan *plan, const struct kvlist *vars)
{
	memset(vf, 0, sizeof(*vf));
	vf->plan = plan;
	vf->vars = vars;
	vf->general.g = G_GENERAL;
}

int vfile_read(struct vfile *vf, const char *text, size_t len, const char *file, int line0, const char *dir,
	       struct errbuf *err)
{
	struct vdef *cur = NULL;

	return read_vdb(vf, text, len, file, line0, dir, 0, &cur, err);
}
