/*
 * fio_check: fio parses every distinct job file of a plan before anything runs or is stored (fio_check.h).
 * Steps: the job files as the engine writes them (deduplicated by their text past the leading comment that
 * numbers the run), written to a private temporary directory; `fio --parse-only` on batches of them, a few
 * fio calls at once; a failed batch narrowed down to its failing file; then the ioengines the files name
 * against the ones this fio has (`fio --enghelp`). fio's first complaint is turned into one message with the
 * profile line that holds the option.
 */
#include "engines/fio_check.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "engines/fio_jobfile.h"

/* One distinct job file. */
struct check_file {
	char *text;        /* as the engine writes it for run `run` */
	char *key;         /* what runs sharing the file share (text_key) */
	uint64_t hash;     /* of key */
	size_t run;        /* the first run (index into the plan) that writes it */
	char *path;        /* in the temporary directory */
};

struct check_set {
	struct check_file *v;
	size_t n, cap;
	size_t *slots;     /* open addressing over v by hash: index + 1, 0 empty */
	size_t nslots;
	char *dir;         /* the temporary directory, or NULL */
	const char *fio;
	struct fio_check_stats st;
};

/* What one fio call wrote and how it ended. */
struct fio_call {
	struct proc p;
	char *out, *err;   /* paths of its stdout and stderr */
	int started, code; /* code: exit code once ended */
};

/* ---- the job files ---------------------------------------------------------------------------------- */

static uint64_t text_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Longest section name that text_key folds: fio reads longer header lines in pieces. */
#define SECTION_NAME_FOLD 256

/*
 * What decides whether fio accepts a job file: the text without its comment lines (the run's number) and
 * with its section names folded to "[*]" (run names: a plan of 20000 sections that differ only in their
 * names is one file). Names fio treats apart stay as they are: "global..." and names too long to fold.
 */
static char *text_key(const char *t)
{
	struct strbuf sb;

	strbuf_init(&sb);
	while (*t) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) : strlen(t);

		if (*t == ';') {
			/* a comment: fio skips it */
		} else if (*t == '[' && len >= 2 && t[len - 1] == ']' && len - 2 < SECTION_NAME_FOLD &&
			   strncmp(t + 1, "global", 6)) {
			strbuf_adds(&sb, "[*]\n");
		} else {
			strbuf_add(&sb, t, len);
			strbuf_addc(&sb, '\n');
		}
		t += len + (nl ? 1 : 0);
	}
	return strbuf_detach(&sb, NULL);
}

static void set_grow_slots(struct check_set *s)
{
	free(s->slots);
	s->nslots = s->nslots ? s->nslots * 2 : 256;
	s->slots = xcalloc(s->nslots, sizeof(*s->slots));
	for (size_t i = 0; i < s->n; i++) {
		size_t k = s->v[i].hash & (s->nslots - 1);
		while (s->slots[k])
			k = (k + 1) & (s->nslots - 1);
		s->slots[k] = i + 1;
	}
}

/* Adds the text (taken) unless a file with the same key is there already. */
static void set_add(struct check_set *s, char *text, size_t run)
{
	char *key = text_key(text);
	uint64_t h = text_hash(key);
	struct check_file *f;
	size_t k;

	if ((s->n + 1) * 2 > s->nslots)
		set_grow_slots(s);
	for (k = h & (s->nslots - 1); s->slots[k]; k = (k + 1) & (s->nslots - 1)) {
		const struct check_file *o = &s->v[s->slots[k] - 1];
		if (o->hash == h && !strcmp(o->key, key)) {
			free(text);
			free(key);
			return;
		}
	}
	f = ARRAY_PUSH_ZEROED(s->v, s->cap, s->n);
	f->text = text;
	f->key = key;
	f->hash = h;
	f->run = run;
	s->slots[k] = s->n;
}

/* One job file of the check: written as the engine writes it, with `extra` from fio_jobfile_engine_extras (log
 * options are bench's own and left out). */
static int add_text(struct check_set *set, const struct run_spec *s, size_t run, char *const *targets,
		    size_t ntargets, const struct kvlist *extra, struct errbuf *err)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (fio_jobfile_write(s, targets, ntargets, extra, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	set_add(set, strbuf_detach(&sb, NULL), run);
	return 0;
}

/* Every job file of the plan once: per run, per initiator with --hosts (its targets, else the run's). */
static int collect_files(const struct run_spec *runs, size_t n, const struct fio_check_opts *o,
			 struct check_set *set, struct errbuf *err)
{
	const char *sim_so = o->sim_so ? o->sim_so : "";
	const struct host_list *hl = o->hosts && o->hosts->n ? o->hosts : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct run_spec *s = &runs[i];
		const char *engine = s->engine ? s->engine : "fio";
		struct kvlist extra;
		int rc = 0;

		if (strcmp(engine, "fio") && (strcmp(engine, "sim") || !*sim_so)) {
			set->st.runs_skipped++;
			continue;
		}
		set->st.runs_checked++;
		kvlist_init(&extra);
		fio_jobfile_engine_extras(s, sim_so, &extra);
		if (!hl)
			rc = add_text(set, s, i, s->targets, s->ntargets, &extra, err);
		for (size_t h = 0; hl && rc == 0 && h < hl->n; h++) {
			const struct host *ho = &hl->v[h];
			if (ho->role != ROLE_INITIATOR)
				continue;
			rc = add_text(set, s, i, ho->ntargets ? ho->targets : s->targets,
				      ho->ntargets ? ho->ntargets : s->ntargets, &extra, err);
		}
		kvlist_release(&extra);
		if (rc < 0)
			return err_prefix(err, "run %u '%s'", s->seq, s->name ? s->name : "");
	}
	return 0;
}

/* $TMPDIR, else /dev/shm (memory: a plan of 20000 distinct jobs costs half the CPU time it costs on a disk),
 * else /tmp. */
static const char *temp_root(void)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp && *tmp)
		return tmp;
	return access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
}

static int write_files(struct check_set *set, struct errbuf *err)
{
	char *dir = xasprintf("%s/bench-fio-check-XXXXXX", temp_root());

	if (!mkdtemp(dir)) {
		err_set(err, ERR_HOST, "cannot create a temporary directory '%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	set->dir = dir;
	for (size_t i = 0; i < set->n; i++) {
		struct check_file *f = &set->v[i];
		FILE *fp;
		size_t len = strlen(f->text);

		f->path = xasprintf("%s/%zu.fio", dir, i + 1);
		fp = fopen(f->path, "we");
		if (!fp || fwrite(f->text, 1, len, fp) != len || fclose(fp) != 0) {
			if (fp)
				fclose(fp);
			return err_set(err, ERR_HOST, "cannot write '%s': %s", f->path, strerror(errno));
		}
	}
	return 0;
}

static void set_release(struct check_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		if (set->v[i].path)
			unlink(set->v[i].path);
		free(set->v[i].path);
		free(set->v[i].text);
		free(set->v[i].key);
	}
	free(set->v);
	free(set->slots);
	if (set->dir)
		rmdir(set->dir);
	free(set->dir);
	memset(set, 0, sizeof(*set));
}

/* ---- fio calls -------------------------------------------------------------------------------------- */

static void call_release(struct fio_call *c)
{
	if (c->started)
		proc_stop(&c->p, 1000);
	if (c->out)
		unlink(c->out);
	if (c->err)
		unlink(c->err);
	free(c->out);
	free(c->err);
	memset(c, 0, sizeof(*c));
}

/* Runs calls[0..n) (argvs[i], outputs named after `tag` and i), FIO_CHECK_PARALLEL at once, to their end. */
static int run_calls(struct check_set *set, char ***argvs, struct fio_call *calls, size_t n, const char *tag,
		     struct errbuf *err)
{
	long long deadline = mono_ms() + FIO_CHECK_TIMEOUT_MS;

	for (size_t first = 0; first < n; first += FIO_CHECK_PARALLEL) {
		size_t end = first + FIO_CHECK_PARALLEL < n ? first + FIO_CHECK_PARALLEL : n;

		for (size_t i = first; i < end; i++) {
			calls[i].out = xasprintf("%s/%s%zu.out", set->dir, tag, i);
			calls[i].err = xasprintf("%s/%s%zu.err", set->dir, tag, i);
			if (proc_start(&calls[i].p, argvs[i], NULL, calls[i].out, calls[i].err, err) < 0)
				return -1;
			calls[i].started = 1;
			set->st.fio_calls++;
		}
		for (size_t i = first; i < end; i++) {
			long long left = deadline - mono_ms();
			if (left < 0 || proc_wait(&calls[i].p, (int)left) != 1)
				return err_set(err, ERR_HOST, "fio --parse-only did not finish within %d s",
					       FIO_CHECK_TIMEOUT_MS / 1000);
			calls[i].started = 0;
			calls[i].code = proc_exit_code(&calls[i].p);
			if (calls[i].code == 127)
				return err_set(err, ERR_HOST, "cannot run '%s'", argvs[i][0]);
		}
	}
	return 0;
}

/* argv of `fio --parse-only` on files[first..end) (paths borrowed). */
static char **parse_argv(const struct check_set *set, size_t first, size_t end)
{
	char **argv = xcalloc(end - first + 3, sizeof(*argv));
	size_t k = 0;

	argv[k++] = (char *)set->fio;
	argv[k++] = "--parse-only";
	for (size_t i = first; i < end; i++)
		argv[k++] = set->v[i].path;
	return argv;
}

/* One fio call on files[first..end): its exit code and, when it failed, its outputs into *e / *o. */
static int parse_range(struct check_set *set, size_t first, size_t end, int *code, struct strbuf *e,
		       struct strbuf *o, struct errbuf *err)
{
	char **argv = parse_argv(set, first, end);
	struct fio_call c;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = run_calls(set, &argv, &c, 1, "one", err);
	if (rc == 0) {
		*code = c.code;
		strbuf_reset(e);
		strbuf_reset(o);
		strbuf_read_file(e, c.err);
		strbuf_read_file(o, c.out);
	}
	call_release(&c);
	free(argv);
	return rc;
}

/*
 * The failing file of a failed batch files[first..end) (fio stops at the first file it refuses): the first
 * file holding what fio complained of (`subject`, may be NULL) when fio refuses it alone, else bisected, one
 * fio call a step. *bad gets its index, e / o fio's outputs for it alone.
 */
static int narrow_down(struct check_set *set, size_t first, size_t end, const char *subject, size_t *bad,
		       struct strbuf *e, struct strbuf *o, struct errbuf *err)
{
	int code = 1;

	for (size_t i = first; subject && end - first > 1 && i < end; i++)
		if (strstr(set->v[i].text, subject)) {
			if (parse_range(set, i, i + 1, &code, e, o, err) < 0)
				return -1;
			if (code != 0) {
				*bad = i;
				return 0;
			}
			break;
		}
	while (end - first > 1) {
		size_t mid = first + (end - first) / 2;
		if (parse_range(set, first, mid, &code, e, o, err) < 0)
			return -1;
		if (code == 0)
			first = mid;
		else
			end = mid;
	}
	if (parse_range(set, first, end, &code, e, o, err) < 0)
		return -1;
	*bad = first;
	return code ? 0 : err_set(err, ERR_HOST, "fio refused a batch of job files but none of them alone");
}

/* ---- fio's complaint ---------------------------------------------------------------------------------- */

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

/* "valid values: read  Sequential read\n  : write ..." -> the first word of each entry, ", "-separated. */
static void valid_values(const char *out_text, struct fio_complaint *c)
{
	const char *p = strstr(out_text, "valid values:");
	struct strbuf sb;

	if (!p)
		return;
	strbuf_init(&sb);
	p += strlen("valid values");
	while (p && *p == ':') {
		const char *w = p + 1, *we;
		while (*w == ' ' || *w == '\t')
			w++;
		for (we = w; *we && !isspace((unsigned char)*we); we++)
			;
		if (we > w)
			strbuf_addf(&sb, "%s%.*s", sb.len ? ", " : "", (int)(we - w), w);
		p = strchr(we, '\n');
		if (p) {
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
		}
	}
	c->valid = sb.len ? strbuf_detach(&sb, NULL) : NULL;
	strbuf_release(&sb);
}

/* The closest of c->valid to the value of c->subject (after '='), as a suggestion. */
static void suggest_value(struct fio_complaint *c)
{
	const char *eq = c->subject ? strchr(c->subject, '=') : NULL;
	char *list, *save = NULL;
	const char *names[64], *near;
	size_t n = 0;

	if (!eq || !c->valid || c->suggestion)
		return;
	list = xstrdup(c->valid);
	for (char *t = strtok_r(list, ", ", &save); t && n < 64; t = strtok_r(NULL, ", ", &save))
		names[n++] = t;
	near = suggest_closest(eq + 1, names, n);
	if (near)
		c->suggestion = xstrdup(near);
	free(list);
}

/* The line `line` (len bytes) of fio's stderr into c: "Bad option <X>", "Did you mean Y?", "fio: failed parsing
 * X", or a reason before those. Returns 1 when the complaint is complete. */
static int complaint_line(const char *line, size_t len, struct fio_complaint *c)
{
	char *l = trimmed(line, len);
	size_t ll = strlen(l);
	int done = 0;

	if (!c->subject && !strncmp(l, "Bad option <", 12) && ll > 12 && l[ll - 1] == '>') {
		c->bad_option = 1;
		c->subject = xstrndup(l + 12, ll - 13);
	} else if (c->bad_option && !strncmp(l, "Did you mean ", 13) && ll > 14 && l[ll - 1] == '?') {
		c->suggestion = xstrndup(l + 13, ll - 14);
	} else if (!c->subject && !strncmp(l, "fio: failed parsing ", 20)) {
		c->subject = xstrdup(l + 20);
		done = 1;
	} else if (c->subject) {
		done = 1;
	} else if (*l && !c->detail && strncmp(l, "fio: job ", 9)) {
		const char *d = !strncmp(l, "fio: ", 5) ? l + 5 : l;
		const char *colon = strstr(d, ": ");
		if (colon && !memchr(d, ' ', (size_t)(colon - d)))
			d = colon + 2; /* "iodepth: min value out of range" */
		c->detail = xstrdup(d);
	}
	free(l);
	return done;
}

void fio_complaint_parse(const char *err_text, const char *out_text, struct fio_complaint *c)
{
	const char *p = err_text ? err_text : "";

	memset(c, 0, sizeof(*c));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (complaint_line(p, len, c))
			break;
		p += len + (nl ? 1 : 0);
	}
	if (!c->bad_option) {
		valid_values(out_text ? out_text : "", c);
		suggest_value(c);
	}
}

void fio_complaint_release(struct fio_complaint *c)
{
	if (!c)
		return;
	free(c->subject);
	free(c->detail);
	free(c->suggestion);
	free(c->valid);
	memset(c, 0, sizeof(*c));
}

char *fio_complaint_message(const struct fio_complaint *c)
{
	struct strbuf sb;
	size_t len = c->subject ? strlen(c->subject) : 0;

	strbuf_init(&sb);
	strbuf_adds(&sb, c->bad_option ? "fio: bad option" : c->subject ? "fio: failed parsing" : "fio: refused the job");
	if (len > 64)
		strbuf_addf(&sb, " '%.48s...' (%zu characters)", c->subject, len);
	else if (c->subject)
		strbuf_addf(&sb, " '%s'", c->subject);
	if (len >= FIO_LINE_MAX - 2)
		strbuf_addf(&sb, ": a piece of a line longer than fio reads (%d characters)", FIO_LINE_MAX - 1);
	if (c->detail)
		strbuf_addf(&sb, ": %s", c->detail);
	if (c->suggestion)
		strbuf_addf(&sb, " (did you mean '%s'?)", c->suggestion);
	else if (c->valid)
		strbuf_addf(&sb, " (valid values: %s)", c->valid);
	return strbuf_detach(&sb, NULL);
}

/* ---- where the option came from ------------------------------------------------------------------------ */

/* Whether the profile line `line` holds `subject` ("key=value" or "key"), spaces around '=' and after the
 * value ignored, a trailing ';'/'#' comment too. */
static int line_holds(const char *line, const char *subject)
{
	const char *eq = strchr(subject, '='), *le;
	size_t klen = eq ? (size_t)(eq - subject) : strlen(subject);
	size_t vlen;

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, subject, klen))
		return 0;
	line += klen;
	while (*line == ' ' || *line == '\t')
		line++;
	if (!eq)
		return !*line || *line == ';' || *line == '#';
	if (*line++ != '=')
		return 0;
	while (*line == ' ' || *line == '\t')
		line++;
	vlen = strlen(eq + 1);
	if (strncmp(line, eq + 1, vlen))
		return 0;
	for (le = line + vlen; *le == ' ' || *le == '\t'; le++)
		;
	return !*le || *le == ';' || *le == '#';
}

int fio_check_find_line(const char *path, int section_line, const char *subject)
{
	struct strbuf sb;
	int in_section = 0, anywhere = 0, ended = 0, lineno = 0;

	strbuf_init(&sb);
	if (!path || !subject || !*subject || strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return section_line;
	}
	for (char *p = sb.buf, *nl; p && *p && !in_section; p = nl ? nl + 1 : NULL) {
		const char *t = p;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (nl && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		lineno++;
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '[' && lineno > section_line)
			ended = 1;
		if (!line_holds(p, subject))
			continue;
		if (!anywhere)
			anywhere = lineno;
		if (lineno > section_line && !ended)
			in_section = lineno;
	}
	strbuf_release(&sb);
	return in_section ? in_section : anywhere ? anywhere : section_line;
}

/* Whether options `l` hold `subject` ("key=value", or "key" for a flag). */
static int opts_hold(const struct kvlist *l, const char *subject)
{
	const char *eq = strchr(subject, '=');
	size_t klen = eq ? (size_t)(eq - subject) : strlen(subject);

	for (size_t i = 0; i < l->n; i++) {
		const struct kv *kv = &l->v[i];
		if (strlen(kv->key) != klen || strncmp(kv->key, subject, klen))
			continue;
		if (eq ? kv->value && !strcmp(kv->value, eq + 1) : !kv->value || !*kv->value)
			return 1;
	}
	return 0;
}

/* Where `subject` (may be NULL) of run s came from: "FILE:LINE", "run N 'NAME': engine option" or "run N". */
static char *place_of(const struct run_spec *s, const char *subject)
{
	const struct workload *w = &s->wl;

	for (size_t j = 0; subject && j < s->njobs; j++)
		if (opts_hold(&s->jobs[j].wl.opts, subject)) {
			w = &s->jobs[j].wl;
			break;
		}
	if (subject && !opts_hold(&w->opts, subject) && opts_hold(&s->engine_opts, subject))
		return xasprintf("run %u '%s': engine option", s->seq, s->name ? s->name : "");
	if (!w->src_file)
		return xasprintf("run %u '%s'", s->seq, s->name ? s->name : "");
	return xasprintf("%s:%d", w->src_file, fio_check_find_line(w->src_file, w->src_line, subject));
}

static int refusal(const struct run_spec *s, const struct fio_complaint *c, struct errbuf *err)
{
	char *place = place_of(s, c->subject), *msg = fio_complaint_message(c);

	err_set(err, ERR_INPUT, "%s: %s", place, msg);
	free(place);
	free(msg);
	return -1;
}

/* ---- the ioengines ------------------------------------------------------------------------------------ */

/* The value of the first "ioengine=" line of `text` at or after `from` (malloc'd), *next past it; NULL. */
static char *next_ioengine(const char *text, const char **next)
{
	const char *p = text;

	while ((p = strstr(p, "ioengine=")) && p != text && p[-1] != '\n')
		p += 9;
	if (!p)
		return NULL;
	p += 9;
	*next = p + strcspn(p, "\n");
	return xstrndup(p, (size_t)(*next - p));
}

/* Whether `name` is in fio's list of engines ("Available IO engines:\n\tNAME\n..."). */
static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if (p > list && p[-1] == '\t' && (p[len] == '\n' || p[len] == '\0'))
			return 1;
	return 0;
}

/* An engine that is not one of fio's built-in ones: can fio load it (`fio --enghelp=NAME`)? */
static int engine_loads(struct check_set *set, const char *name, int *loads, struct errbuf *err)
{
	char *arg = xasprintf("--enghelp=%s", name);
	char *argv[] = { (char *)set->fio, arg, NULL }, **pv = argv;
	struct fio_call c;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = run_calls(set, &pv, &c, 1, "eng", err);
	*loads = c.code == 0;
	call_release(&c);
	free(arg);
	return rc;
}

/* fio's engines as a NULL-terminated list for suggestions (names point into `list`, which is modified). */
static size_t engine_names(char *list, const char **names, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(list, "\n\t", &save); t && n + 1 < max; t = strtok_r(NULL, "\n\t", &save))
		if (!strchr(t, ' ') && !strchr(t, ':'))
			names[n++] = t;
	names[n] = NULL;
	return n;
}

static int unknown_engine(const struct run_spec *s, const char *name, const char *list, struct errbuf *err)
{
	char *copy = xstrdup(list), *subject = xasprintf("ioengine=%s", name), *place;
	const char *names[256], *near;
	size_t n = engine_names(copy, names, 256);

	near = suggest_closest(name, names, n);
	place = place_of(s, subject);
	if (near)
		err_set(err, ERR_INPUT, "%s: fio: unknown ioengine '%s' (did you mean '%s'?)", place, name, near);
	else
		err_set(err, ERR_INPUT, "%s: fio: unknown ioengine '%s' (this fio has: see 'fio --enghelp')", place, name);
	free(place);
	free(subject);
	free(copy);
	return -1;
}

/* Every ioengine the files name is one this fio has built in or can load; `list` is `fio --enghelp`. */
static int check_engines(struct check_set *set, const struct run_spec *runs, const char *list,
			 struct errbuf *err)
{
	struct kvlist seen;
	int rc = 0;

	kvlist_init(&seen);
	for (size_t i = 0; i < set->n && rc == 0; i++) {
		const char *p = set->v[i].text, *next;
		char *name;

		while (rc == 0 && (name = next_ioengine(p, &next))) {
			int loads = 1;
			p = next;
			if (strncmp(name, "external:", 9) && !in_list(list, name) && !kvlist_find(&seen, name)) {
				kvlist_add(&seen, name, NULL);
				rc = engine_loads(set, name, &loads, err);
				if (rc == 0 && !loads)
					rc = unknown_engine(&runs[set->v[i].run], name, list, err);
			}
			free(name);
		}
	}
	kvlist_release(&seen);
	return rc;
}

/* ---- the check ---------------------------------------------------------------------------------------- */

/* The first failing batch's failing file, narrowed down, as a refusal; `call` is the batch's fio call. */
static int batch_refused(struct check_set *set, const struct run_spec *runs, size_t first, size_t end,
			 const struct fio_call *call, struct errbuf *err)
{
	struct strbuf e, o;
	struct fio_complaint c;
	size_t bad = first;
	int rc;

	strbuf_init(&e);
	strbuf_init(&o);
	strbuf_read_file(&e, call->err);
	fio_complaint_parse(e.buf, "", &c);
	rc = narrow_down(set, first, end, c.subject, &bad, &e, &o, err);
	fio_complaint_release(&c);
	if (rc == 0) {
		fio_complaint_parse(e.buf, o.buf, &c);
		rc = refusal(&runs[set->v[bad].run], &c, err);
		fio_complaint_release(&c);
	}
	strbuf_release(&e);
	strbuf_release(&o);
	return rc;
}

/* All batches and `fio --enghelp` at once; the first refused batch in plan order, then the engines. */
static int parse_all(struct check_set *set, const struct run_spec *runs, struct errbuf *err)
{
	size_t nb = (set->n + FIO_CHECK_BATCH - 1) / FIO_CHECK_BATCH, b;
	char ***argvs = xcalloc(nb + 1, sizeof(*argvs));
	struct fio_call *calls = xcalloc(nb + 1, sizeof(*calls));
	char *enghelp[] = { (char *)set->fio, "--enghelp", NULL };
	struct strbuf list;
	int rc;

	strbuf_init(&list);
	argvs[0] = enghelp;
	for (b = 0; b < nb; b++)
		argvs[b + 1] = parse_argv(set, b * FIO_CHECK_BATCH,
					  (b + 1) * FIO_CHECK_BATCH < set->n ? (b + 1) * FIO_CHECK_BATCH : set->n);
	rc = run_calls(set, argvs, calls, nb + 1, "call", err);
	for (b = 0; rc == 0 && b < nb; b++)
		if (calls[b + 1].code != 0) {
			size_t end = (b + 1) * FIO_CHECK_BATCH < set->n ? (b + 1) * FIO_CHECK_BATCH : set->n;
			rc = batch_refused(set, runs, b * FIO_CHECK_BATCH, end, &calls[b + 1], err);
		}
	if (rc == 0) {
		strbuf_read_file(&list, calls[0].out);
		rc = check_engines(set, runs, list.buf ? list.buf : "", err);
	}
	for (b = 0; b <= nb; b++) {
		call_release(&calls[b]);
		if (b)
			free(argvs[b]);
	}
	free(calls);
	free(argvs);
	strbuf_release(&list);
	return rc;
}

int fio_check_plan(const struct run_spec *runs, size_t n, const struct fio_check_opts *o,
		   struct fio_check_stats *stats, struct errbuf *err)
{
	struct check_set set;
	int rc;

	memset(&set, 0, sizeof(set));
	set.fio = o->fio ? o->fio : "fio";
	rc = collect_files(runs, n, o, &set, err);
	set.st.files = set.n;
	if (rc == 0 && set.n)
		rc = write_files(&set, err);
	if (rc == 0 && set.n)
		rc = parse_all(&set, runs, err);
	if (stats)
		*stats = set.st;
	set_release(&set);
	return rc;
}
