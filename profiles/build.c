/*
 * build: plan_build(), the expansion of what the user names into the ordered list of run specs.
 *
 * Each argument is one of: a built-in suite name (profiles/library/NAME.suite), a suite file, a fio job file,
 * a vdbench parameter file, or an HCIbench-style name. Each becomes a list of workloads (profile_workloads.h), then, per
 * argument and in this order: the suite's durations, the matrix (suite's keys, then --matrix keys; first key
 * outermost), targets (--target, else the profile's, else default files in the work directory), names
 * (explicit, else HCIbench style where it fits, computed before --quick so quick runs keep their names), the
 * --quick shrink, and the engine. Finally the whole list is repeated --repeat times (repetition outermost).
 * A fio job file's jobs between two stonewalls are one run of several jobs (run_spec.jobs), as fio runs them,
 * unless --each-job asks for one run per section (docs/profiles.md "A job file runs as fio runs it").
 */
#include "profiles/profile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/paths.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "core/units.h"
#include "profiles/fio_job.h"
#include "profiles/fio_values.h"
#include "profiles/fio_workload.h"
#include "profiles/profile_workloads.h"
#include "profiles/suite.h"
#include "profiles/text.h"
#include "profiles/vdbench_translate.h"

#define DEFAULT_TARGET "bench-target.dat"
#define DEFAULT_QUICK_RAMP "2"
#define DEFAULT_QUICK_RUNTIME "10"
#define DEFAULT_QUICK_SIZE "256m"
#define MAX_SUITE_DEPTH 8

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int has_suffix(const char *s, const char *sfx)
{
	size_t a = strlen(s), b = strlen(sfx);
	return a >= b && !strcasecmp(s + a - b, sfx);
}

/* The workloads a step changes: a run's own, or each of its jobs' (the summary is rebuilt after). */
static size_t nworkloads(const struct run_spec *s)
{
	return s->njobs ? s->njobs : 1;
}

static struct workload *workload_at(struct run_spec *s, size_t k)
{
	return s->njobs ? &s->jobs[k].wl : &s->wl;
}

/* ---- fio job files ------------------------------------------------------------------------------------ */

/* filename=a:b:c with "\:" for a literal colon. */
static void add_filenames(struct run_spec *s, const char *v)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (const char *p = v;; p++) {
		if (*p == '\\' && p[1] == ':') {
			strbuf_addc(&sb, ':');
			p++;
			continue;
		}
		if (*p == ':' || !*p) {
			if (sb.len)
				run_spec_add_target(s, sb.buf);
			strbuf_reset(&sb);
			if (!*p)
				break;
			continue;
		}
		strbuf_addc(&sb, *p);
	}
	strbuf_release(&sb);
}

static int same_but_filename(const struct kvlist *a, const struct kvlist *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->n && !strcmp(a->v[i].key, "filename"))
			i++;
		while (j < b->n && !strcmp(b->v[j].key, "filename"))
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (strcmp(a->v[i].key, b->v[j].key))
			return 0;
		if (!a->v[i].value != !b->v[j].value)
			return 0;
		if (a->v[i].value && strcmp(a->v[i].value, b->v[j].value))
			return 0;
		i++;
		j++;
	}
}

/* The name of a run of several jobs: the jobs' names joined with '+', or "first+N-more" when that is long. */
static char *jobs_run_name(const struct run_spec *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t j = 0; j < s->njobs; j++)
		strbuf_addf(&sb, "%s%s", j ? "+" : "", s->jobs[j].name);
	if (sb.len > 60) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s+%zu-more", s->jobs[0].name, s->njobs - 1);
	}
	return strbuf_detach(&sb, NULL);
}

/* The job names of one run, for a uniqueness check that costs the same for the 10th and the 100,000th job: an
 * open-addressing hash set of borrowed strings (the jobs' own names), at most half full. */
struct name_set {
	const char **slot;
	size_t mask;
};

static void name_set_init(struct name_set *ns, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n + 2)
		cap *= 2;
	ns->slot = xcalloc(cap, sizeof(*ns->slot));
	ns->mask = cap - 1;
}

static void name_set_release(struct name_set *ns)
{
	free(ns->slot);
}

/* Whether `name` is in the set; if not, *free_slot is where it goes (valid until the next insertion). */
static int name_set_has(const struct name_set *ns, const char *name, size_t *free_slot)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	size_t i;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 1099511628211ull;
	for (i = (size_t)h & ns->mask; ns->slot[i]; i = (i + 1) & ns->mask)
		if (!strcmp(ns->slot[i], name))
			return 1;
	*free_slot = i;
	return 0;
}

/* Adds job number `pos` (1-based) of the run to `s`, named after its section, or, when a job before it has that
 * name (results are stored per job name), "NAME.POS", then "NAME.POS.2", ... until the name is new. */
static struct job_spec *add_unique_job(struct run_spec *s, struct name_set *ns, const char *name, size_t pos)
{
	char *cand = xstrdup(name);
	struct job_spec *j;
	size_t slot = 0;

	for (size_t k = 1; name_set_has(ns, cand, &slot); k++) {
		free(cand);
		cand = k == 1 ? xasprintf("%s.%zu", name, pos) : xasprintf("%s.%zu.%zu", name, pos, k);
	}
	j = run_spec_add_job(s, cand);
	free(cand);
	ns->slot[slot] = j->name; /* the job's own copy: it lives as long as the run */
	return j;
}

/*
 * Jobs fio runs together become one run: out->v[first..n) are the job file's jobs in order (one per section,
 * or per run of sections that differ only by filename), stonewall[k] says job k waits for those before it.
 * Each stretch between stonewalls of two or more jobs is replaced by one run with those jobs.
 */
static void fold_together(struct profile_workloads *out, size_t first, const int *stonewall)
{
	struct profile_workloads folded;
	size_t k = first;

	workloads_init(&folded);
	while (k < out->n) {
		size_t end = k + 1;
		struct run_spec *s;

		while (end < out->n && !stonewall[end - first])
			end++;
		s = workloads_add(&folded);
		if (end - k == 1) {
			run_spec_copy(s, &out->v[k]);
		} else {
			struct name_set names;

			name_set_init(&names, end - k);
			for (size_t u = k; u < end; u++) {
				struct job_spec *j = add_unique_job(s, &names, out->v[u].name, u - k + 1);

				workload_release(&j->wl);
				workload_copy(&j->wl, &out->v[u].wl);
				for (size_t t = 0; t < out->v[u].ntargets; t++)
					job_spec_add_target(j, out->v[u].targets[t]);
			}
			name_set_release(&names);
			run_spec_summarise(s);
			s->name = jobs_run_name(s);
		}
		folded.explicit_name[folded.n - 1] = out->explicit_name[k];
		folded.disks[folded.n - 1] = end - k == 1 ? out->disks[k] : 0;
		k = end;
	}
	while (out->n > first)
		run_spec_release(&out->v[--out->n]);
	workloads_move(out, &folded);
	workloads_release(&folded);
}

/*
 * fio 3.33 holds the jobs of one invocation in shared-memory segments of 8, at most 511 of them (init.c
 * add_thread_segment: "maximum number of jobs reached"), each numjobs clone a job: the jobs bench runs together
 * (out->v[first..n) between stonewalls, as fold_together groups them) must fit, checked before they are folded.
 */
#define FIO_MAX_JOBS_TOGETHER 4088

static int check_together(const struct profile_workloads *out, size_t first, const int *stonewall, const char *path,
			  struct errbuf *err)
{
	size_t start = first;
	uint64_t n = 0;

	for (size_t k = first; k < out->n; k++) {
		if (k > first && stonewall[k - first]) {
			start = k;
			n = 0;
		}
		n += out->v[k].wl.numjobs ? out->v[k].wl.numjobs : 1;
		if (n > FIO_MAX_JOBS_TOGETHER)
			return err_set(err, ERR_INPUT, "%s:%d: more than %d jobs (numjobs counted) run together from "
				       "line %d on: fio runs at most %d in one go (add stonewall between groups)",
				       out->v[k].wl.src_file ? out->v[k].wl.src_file : path, out->v[k].wl.src_line,
				       FIO_MAX_JOBS_TOGETHER, out->v[start].wl.src_line, FIO_MAX_JOBS_TOGETHER);
	}
	return 0;
}

static int expand_fio(const char *path, const struct plan_options *opt, const struct kvlist *extra_opts,
		      struct profile_workloads *out, struct errbuf *err)
{
	struct fio_jobfile jf;
	struct kvlist prev;
	int rc = -1, have_prev = 0;
	size_t first = out->n;
	int *stonewall = NULL;

	fio_jobfile_init(&jf);
	kvlist_init(&prev);
	if (fio_jobfile_parse(path, &opt->vars, &jf, err) < 0)
		goto out;
	stonewall = xcalloc(jf.n + 1, sizeof(*stonewall));
	for (size_t i = 0; i < jf.n; i++) {
		struct fio_section *sec = &jf.v[i];
		struct kvlist res;
		struct run_spec *s;
		const struct kv *fn;

		if (sec->is_global)
			continue;
		kvlist_init(&res);
		if (extra_opts)
			kvlist_copy(&res, extra_opts);
		fio_jobfile_resolve(&jf, i, &res);
		/* Jobs that differ only by filename (one job per disk) are one run over those targets. */
		/* (not when the jobs run one after the other: stonewall/new_group, also from a [global]) */
		if (have_prev && same_but_filename(&prev, &res) && !kvlist_find(&res, "stonewall") &&
		    !kvlist_find(&res, "new_group") && kvlist_find(&res, "filename")) {
			s = &out->v[out->n - 1];
			add_filenames(s, kvlist_get(&res, "filename", ""));
			kvlist_release(&res);
			continue;
		}
		s = workloads_add(out);
		s->name = xstrdup(sec->name);
		/* fio: stonewall waits for the jobs above; new_group only starts a new reporting group */
		stonewall[out->n - 1 - first] = kvlist_find(&res, "stonewall") != NULL;
		if ((fn = kvlist_find(&res, "filename")) && fn->value) {
			add_filenames(s, fn->value);
		} else if (!kvlist_find(&res, "filename_format") && (fn = kvlist_find(&res, "directory")) && fn->value &&
			   *fn->value) {
			/* files in a directory: one file of bench's there (a job that names its files by
			 * filename_format= keeps them: fio_files_plan computes them as fio does) */
			char *dir = xstrndup(fn->value, strcspn(fn->value, ":"));
			char *t = xasprintf("%s/%s", dir, DEFAULT_TARGET);
			run_spec_add_target(s, t);
			free(t);
			free(dir);
		}
		kvlist_release(&prev);
		kvlist_init(&prev);
		kvlist_copy(&prev, &res);
		have_prev = 1;
		kvlist_del(&res, "filename");
		{
			/* where each resolved option was written: the globals above, then the job's own */
			struct opt_locs locs;
			const char **lf = xcalloc(res.n + 1, sizeof(*lf));
			int *ll = xcalloc(res.n + 1, sizeof(*ll));
			size_t k = 0;
			int bad;
			for (size_t g = 0; g <= sec->nglobals_above; g++) {
				const struct fio_section *gs = &jf.v[fio_jobfile_source(&jf, i, g)];
				for (size_t o = 0; o < gs->opts.n; o++) {
					if (!strcmp(gs->opts.v[o].key, "filename"))
						continue;
					if (k < res.n) {
						lf[k] = gs->opt_file[o];
						ll[k] = gs->opt_line[o];
					}
					k++;
				}
			}
			locs.file = lf;
			locs.line = ll;
			locs.n = k == res.n ? res.n : 0; /* only when the lists line up */
			bad = workload_from_fio_at(&s->wl, &res, &locs, sec->file, sec->line, err) < 0 ||
			      fio_values_check(&res, locs.n ? lf : NULL, ll, sec->file, sec->line, err) < 0;
			free(lf);
			free(ll);
			if (bad) {
				kvlist_release(&res);
				goto out;
			}
		}
		kvlist_release(&res);
	}
	if (!opt->each_job) {
		if (check_together(out, first, stonewall, path, err) < 0)
			goto out;
		fold_together(out, first, stonewall);
	}
	rc = 0;
out:
	free(stonewall);
	kvlist_release(&prev);
	fio_jobfile_release(&jf);
	return rc;
}

/* ---- HCIbench names ----------------------------------------------------------------------------------- */

static int load_library_suite(const char *name, struct suite *s, struct errbuf *err);

static int expand_name(const char *arg, const struct profile_name *n, struct profile_workloads *out, struct errbuf *err)
{
	struct suite lib;
	struct run_spec *s;
	char buf[64];
	int rc = -1;

	/* HCIbench's options and durations are those of the easy-run suite. */
	suite_init(&lib);
	if (load_library_suite("hcibench-easyrun", &lib, err) < 0)
		goto out;
	s = workloads_add(out);
	out->disks[out->n - 1] = n->disks;
	kvlist_copy(&s->wl.opts, &lib.options);
	if (lib.ramp)
		kvlist_set(&s->wl.opts, "ramp_time", lib.ramp);
	if (lib.runtime)
		kvlist_set(&s->wl.opts, "runtime", lib.runtime);
	kvlist_set(&s->wl.opts, "rw", "randrw");
	snprintf(buf, sizeof(buf), "%u", n->read_pct);
	kvlist_set(&s->wl.opts, "rwmixread", buf);
	snprintf(buf, sizeof(buf), "%u", n->random_pct);
	kvlist_set(&s->wl.opts, "percentage_random", buf);
	kvlist_set(&s->wl.opts, "bs", format_size_short(n->bs_bytes, buf, sizeof(buf)));
	snprintf(buf, sizeof(buf), "%u", n->threads);
	kvlist_set(&s->wl.opts, "iodepth", buf);
	snprintf(buf, sizeof(buf), "%u%%", n->ws_pct);
	kvlist_set(&s->wl.opts, "size", buf);
	if (n->compress_pct || n->dedupe_pct) {
		snprintf(buf, sizeof(buf), "%u", n->compress_pct);
		kvlist_set(&s->wl.opts, "buffer_compress_percentage", buf);
		snprintf(buf, sizeof(buf), "%u", n->dedupe_pct);
		kvlist_set(&s->wl.opts, "dedupe_percentage", buf);
	}
	if (workload_from_fio(&s->wl, &s->wl.opts, arg, 0, err) < 0)
		goto out;
	if (n->vdbench) {
		free(s->wl.tool);
		s->wl.tool = xstrdup("vdbench");
	}
	s->name = xstrdup(arg);
	rc = 0;
out:
	suite_release(&lib);
	return rc;
}

/* ---- suites ----------------------------------------------------------------------------------------- */

/* The suites being expanded, innermost first (include loops), and where the current reference was written. */
struct chain {
	const char *real;          /* realpath of a suite file */
	const struct chain *up;
	const char *from_file;     /* the suite line that referred to the next one */
	int from_line;
};

/* An argument that names nothing: the closest built-in suite when it looks like a typo of one. */
static void not_found(const char *arg, struct errbuf *err)
{
	char **suites = profile_dir_names(profile_library_dir(), ".suite");
	size_t n = 0;
	const char *near;

	while (suites[n])
		n++;
	near = strchr(arg, '/') ? NULL : suggest_closest(arg, (const char *const *)suites, n);
	if (near)
		err_set(err, ERR_INPUT, "'%s' is not a file or a built-in suite: did you mean '%s'? (see 'bench profiles "
			"list')", arg, near);
	else
		err_set(err, ERR_INPUT,
			"'%s' is not a file, a built-in suite (see 'bench profiles list') or an HCIbench-style name "
			"(fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads)", arg);
	free_list(suites);
}

static int expand_arg(const char *arg, const char *rel_dir, const struct plan_options *opt, struct plan *plan,
		      struct profile_workloads *out, const struct chain *up, const char *from_file, int from_line,
		      struct config_list *configs, struct errbuf *err);

static int load_library_suite(const char *name, struct suite *s, struct errbuf *err)
{
	char *path = xasprintf("%s/%s.suite", profile_library_dir(), name);
	int rc;

	if (!is_file(path)) {
		err_set(err, ERR_INPUT, "no built-in suite '%s' in %s", name, profile_library_dir());
		free(path);
		return -1;
	}
	rc = suite_parse_file(path, s, err);
	free(path);
	return rc;
}

static int apply_suite(struct profile_workloads *ps, const struct suite *su, const struct plan_options *opt,
		       struct errbuf *err);
static int apply_final(struct plan *plan, struct profile_workloads *ps, const struct suite *su,
		       const struct plan_options *opt, struct errbuf *err);

static int expand_suite(const struct suite *su, const struct plan_options *opt, struct plan *plan,
			struct profile_workloads *out, const struct chain *self, struct errbuf *err)
{
	struct profile_workloads mine;
	char *dir = path_dir(su->file);
	int rc = -1;

	workloads_init(&mine);
	if (su->repeat > plan->repeat)
		plan->repeat = su->repeat;
	for (size_t i = 0; i < su->labels.n; i++)
		kvlist_set(&plan->labels, su->labels.v[i].key, su->labels.v[i].value);
	for (size_t i = 0; i < su->nitems; i++) {
		const struct suite_item *it = &su->items[i];
		size_t first = mine.n;

		switch (it->kind) {
		case SUITE_WORKLOAD: {
			struct run_spec *s = workloads_add(&mine);
			struct kvlist o;
			const struct kv *fn = NULL;
			struct opt_locs locs;
			const char **lf = xcalloc(su->options.n + it->opts.n + 1, sizeof(*lf));
			int *ll = xcalloc(su->options.n + it->opts.n + 1, sizeof(*ll));
			kvlist_init(&o);
			/* the suite's options, then the workload's own, each with its line; filename= becomes targets */
			for (size_t k = 0; k < su->options.n + it->opts.n; k++) {
				const struct kv *kv = k < su->options.n ? &su->options.v[k] : &it->opts.v[k - su->options.n];
				if (!strcmp(kv->key, "filename")) {
					fn = kv; /* the last one counts, as in fio */
					continue;
				}
				lf[o.n] = su->file;
				ll[o.n] = k < su->options.n ? su->options_lines[k] : it->opt_line[k - su->options.n];
				kvlist_add(&o, kv->key, kv->value);
			}
			if (fn && fn->value)
				add_filenames(s, fn->value);
			locs.file = lf;
			locs.line = ll;
			locs.n = o.n;
			s->name = xstrdup(it->name ? it->name : "workload");
			mine.explicit_name[mine.n - 1] = it->name != NULL;
			mine.disks[mine.n - 1] = it->disks;
			rc = workload_from_fio_at(&s->wl, &o, &locs, it->file, it->line, err);
			if (rc == 0)
				rc = fio_values_check(&o, lf, ll, it->file, it->line, err);
			free(lf);
			free(ll);
			kvlist_release(&o);
			if (rc < 0)
				goto out;
			break;
		}
		case SUITE_VDBENCH:
			if (vdbench_expand_text(it->text, strlen(it->text), it->file, it->text_line - 1, dir,
						&opt->vars, &su->options, plan, &mine, err) < 0)
				goto out;
			for (size_t k = first; k < mine.n; k++) {
				if (it->name) {
					free(mine.v[k].name);
					mine.v[k].name = mine.n - first == 1 ? xstrdup(it->name) :
						xasprintf("%s-%zu", it->name, k - first + 1);
					mine.explicit_name[k] = 1;
				}
			}
			break;
		case SUITE_PROFILE:
			if (expand_arg(it->text, dir, opt, plan, &mine, self, it->file, it->line, NULL, err) < 0)
				goto out;
			break;
		}
		for (size_t k = first; k < mine.n; k++)
			kvlist_copy(&mine.v[k].labels, &it->labels);
	}
	/* the method keys (curve, sweep, until, precondition) of this suite, unless a referenced suite set its own */
	for (size_t k = 0; k < mine.n; k++)
		for (size_t m = 0; m < su->method.n; m++)
			if (!strcmp(su->method.v[m].key, "method.baseline")) /* a typed field, not an annotation */
				mine.v[k].method.baseline = !strcmp(su->method.v[m].value, "on");
			else if (!kvlist_find(&mine.v[k].engine_opts, su->method.v[m].key))
				kvlist_set(&mine.v[k].engine_opts, su->method.v[m].key, su->method.v[m].value);
	rc = -1; /* a SUITE_WORKLOAD item left rc at 0 */
	if (apply_suite(&mine, su, opt, err) < 0)
		goto out;
	if (!self->up && apply_final(plan, &mine, su, opt, err) < 0)
		goto out;
	rc = 0;
	workloads_move(out, &mine);
out:
	workloads_release(&mine);
	free(dir);
	return rc;
}

/* ---- what is it? ------------------------------------------------------------------------------------------ */

enum fmt { FMT_FIO, FMT_VDBENCH, FMT_SUITE };

static enum fmt sniff(const char *path)
{
	struct strbuf sb;
	enum fmt f = FMT_VDBENCH;
	const char *p;

	if (has_suffix(path, ".suite"))
		return FMT_SUITE;
	if (has_suffix(path, ".fio") || has_suffix(path, ".job") || has_suffix(path, ".ini"))
		return FMT_FIO;
	if (has_suffix(path, ".vdb") || has_suffix(path, ".vdbench") || has_suffix(path, ".parm"))
		return FMT_VDBENCH;
	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return FMT_FIO;
	}
	/* The first line that is not blank or a comment decides: "[suite]" a suite, "[...]" fio, else vdbench. */
	p = sb.buf;
	f = FMT_FIO;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *q = p;
		while (q < p + n && isspace((unsigned char)*q))
			q++;
		if (q < p + n && *q != ';' && *q != '#' && *q != '*' && *q != '/') {
			if (!strncmp(q, "[suite]", 7))
				f = FMT_SUITE;
			else if (*q == '[')
				f = FMT_FIO;
			else if (!strncmp(q, "include", 7) && (q[7] == ' ' || q[7] == '\t'))
				f = FMT_FIO;
			else
				f = FMT_VDBENCH;
			break;
		}
		if (!e)
			break;
		p = e + 1;
	}
	strbuf_release(&sb);
	return f;
}

/* Parses and expands one suite file, refusing a suite that is already being expanded. */
static int expand_suite_file(const char *path, const char *plan_name, const struct plan_options *opt,
			     struct plan *plan, struct profile_workloads *out, const struct chain *up, const char *from_file,
			     int from_line, struct config_list *configs, struct errbuf *err)
{
	struct suite su;
	struct chain self;
	char *real = realpath(path, NULL);
	int rc = -1, depth = 0;

	suite_init(&su);
	for (const struct chain *c = up; c; c = c->up, depth++) {
		if (real && c->real && !strcmp(c->real, real)) {
			err_set(err, ERR_INPUT, "%s:%d: suite loop: '%s' is already being expanded", from_file, from_line,
				path);
			goto out;
		}
	}
	if (depth >= MAX_SUITE_DEPTH) {
		err_set(err, ERR_INPUT, "%s:%d: suites nested deeper than %d levels", from_file, from_line,
			MAX_SUITE_DEPTH);
		goto out;
	}
	if (suite_parse_file(path, &su, err) < 0)
		goto out;
	if (!plan->name)
		plan->name = xstrdup(plan_name ? plan_name : su.name ? su.name : base_name(path));
	self.real = real;
	self.up = up;
	self.from_file = from_file;
	self.from_line = from_line;
	rc = expand_suite(&su, opt, plan, out, &self, err);
	if (rc == 0 && configs && config_list_merge(configs, &su.configs, err) < 0)
		rc = -1;
out:
	suite_release(&su);
	free(real);
	return rc;
}

static int expand_arg(const char *arg, const char *rel_dir, const struct plan_options *opt, struct plan *plan,
		      struct profile_workloads *out, const struct chain *up, const char *from_file, int from_line,
		      struct config_list *configs, struct errbuf *err)
{
	struct profile_workloads mine;
	struct profile_name pn;
	char *path = NULL, *lib = NULL;
	int rc = -1;

	workloads_init(&mine);
	if (!*arg) {
		if (from_file)
			err_set(err, ERR_INPUT, "%s:%d: an empty profile name", from_file, from_line);
		else
			err_set(err, ERR_INPUT, "an empty profile name");
		goto out;
	}
	if (rel_dir && arg[0] != '/')
		path = xasprintf("%s/%s", rel_dir, arg);
	else
		path = xstrdup(arg);
	if (!strchr(arg, '/'))
		lib = xasprintf("%s/%s.suite", profile_library_dir(), arg);

	if (is_file(path)) {
		switch (sniff(path)) {
		case FMT_SUITE:
			if (expand_suite_file(path, NULL, opt, plan, &mine, up, from_file, from_line, configs, err) < 0)
				goto out;
			break;
		case FMT_FIO:
			if (expand_fio(path, opt, NULL, &mine, err) < 0)
				goto out;
			/* A user's job file keeps its job names: two jobs never share a name in the store. */
			for (size_t k = 0; k < mine.n; k++)
				mine.explicit_name[k] = 1;
			if (!up && apply_final(plan, &mine, NULL, opt, err) < 0)
				goto out;
			break;
		case FMT_VDBENCH:
			if (vdbench_expand_file(path, &opt->vars, plan, &mine, err) < 0)
				goto out;
			if (!up && apply_final(plan, &mine, NULL, opt, err) < 0)
				goto out;
			break;
		}
		if (!plan->name)
			plan->name = xstrdup(base_name(path));
	} else if (lib && is_file(lib)) {
		if (expand_suite_file(lib, arg, opt, plan, &mine, up, from_file, from_line, configs, err) < 0)
			goto out;
	} else if (profile_name_parse(arg, &pn) == 0) {
		if (expand_name(arg, &pn, &mine, err) < 0)
			goto out;
		mine.explicit_name[0] = 0;
		if (!up && apply_final(plan, &mine, NULL, opt, err) < 0)
			goto out;
		if (!plan->name)
			plan->name = xstrdup(arg);
	} else {
		struct stat st;
		if (stat(path, &st) == 0)
			err_set(err, ERR_INPUT, "%s: not a regular file", path);
		else
			not_found(arg, err);
		if (from_file)
			err_prefix(err, "%s:%d", from_file, from_line);
		goto out;
	}
	workloads_move(out, &mine);
	rc = 0;
out:
	workloads_release(&mine);
	free(path);
	free(lib);
	return rc;
}

/* ---- the per-profile steps: durations, matrix, targets, names, quick -------------------------------------- */

/* Sets a matrix key on a workload the way the key means it. */
static int matrix_set(struct workload *w, const char *key, const char *val, struct errbuf *err)
{
	char buf[32];

	if (!strcmp(key, "rdpct") || !strcmp(key, "randpct") || !strcmp(key, "rwmixread") ||
	    !strcmp(key, "percentage_random")) {
		int is_rd = !strcmp(key, "rdpct") || !strcmp(key, "rwmixread");
		long v;
		if (parse_long(val, -1000000, 1000000, &v) < 0 || v < 0 || v > 100)
			return err_set(err, ERR_INPUT, "--matrix: '%s' must be 0..100, got '%s'", key, val);
		/* HCIbench's form: randrw with rwmixread and percentage_random expresses every mix */
		snprintf(buf, sizeof(buf), "%d", w->read_pct < 0 ? 100 : w->read_pct);
		if (workload_set_fio_opt(w, "rwmixread", is_rd ? val : buf, err) < 0)
			return -1;
		snprintf(buf, sizeof(buf), "%d", w->random_pct < 0 ? 100 : w->random_pct);
		if (workload_set_fio_opt(w, "percentage_random", is_rd ? buf : val, err) < 0)
			return -1;
		return workload_set_fio_opt(w, "rw", "randrw", err);
	}
	if (!strcmp(key, "threads"))
		key = "iodepth";
	key = fio_option_canonical(key);
	if (fio_value_check(key, val, "--matrix", err) < 0)
		return -1;
	return workload_set_fio_opt(w, key, val, err);
}

/*
 * An error about a value the command line gave (OPTION VALUE): said as "OPTION VALUE: what is wrong", without the
 * "FILE:LINE: " or "FILE: " places the workload's readers put before it (the value was not written there).
 */
static void blame_option(struct errbuf *err, const char *option, const char *value)
{
	const char *m = err->msg, *c;
	struct errbuf e;

	/* a place is a word without blanks that looks like a path or file:line, before ": " */
	while ((c = strstr(m, ": ")) && c > m && !memchr(m, ' ', (size_t)(c - m)) && memchr(m, '\'', 1) == NULL &&
	       (memchr(m, '/', (size_t)(c - m)) || memchr(m, '.', (size_t)(c - m)) || memchr(m, ':', (size_t)(c - m))))
		m = c + 2;
	errbuf_init(&e);
	err_set(&e, err->kind, "%s %s: %s", option, value, m);
	*err = e;
}

/* Crosses every workload with each key's values; `cmdline`: the values came from --matrix (errors name it). */
static int cross_matrix(struct profile_workloads *ps, const struct kvlist *matrix, int cmdline, struct errbuf *err)
{
	for (size_t k = 0; k < matrix->n; k++) {
		struct profile_workloads next;
		char **vals;
		size_t nv;
		const char *key = matrix->v[k].key;

		vals = matrix->v[k].value ? split_list(matrix->v[k].value, ',', &nv) : NULL;
		if (!vals)
			return err_set(err, ERR_INPUT, "--matrix %s: give values as %s=v1,v2,... without empty items",
				       key, key);
		if (nv && ps->n > PLAN_MAX_RUNS / nv) {
			err_set(err, ERR_INPUT, "--matrix %s: %zu workloads x %zu values is more than %d runs", key, ps->n,
				nv, PLAN_MAX_RUNS);
			free_list(vals);
			return -1;
		}
		workloads_init(&next);
		/* earlier keys outer: for each existing proto (in order), each value of this key */
		for (size_t i = 0; i < ps->n; i++) {
			for (size_t j = 0; j < nv; j++) {
				struct run_spec *s = workloads_add(&next);
				run_spec_copy(s, &ps->v[i]);
				next.explicit_name[next.n - 1] = ps->explicit_name[i];
				next.disks[next.n - 1] = ps->disks[i];
				for (size_t w = 0; w < nworkloads(s); w++) {
					if (matrix_set(workload_at(s, w), key, vals[j], err) < 0) {
						char *kv = xasprintf("%s=%s", key, vals[j]);
						if (cmdline)
							blame_option(err, "--matrix", kv);
						else if (!s->wl.src_file ||
							 strncmp(err->msg, s->wl.src_file, strlen(s->wl.src_file)))
							err_prefix(err, "%s [matrix] %s", s->wl.src_file ? s->wl.src_file : "suite", kv);
						free(kv);
						free_list(vals);
						workloads_release(&next);
						return -1;
					}
				}
				run_spec_summarise(s);
				if (ps->explicit_name[i]) {
					char *n = xasprintf("%s-%s%s", s->name, key, vals[j]);
					free(s->name);
					s->name = n;
				}
			}
		}
		free_list(vals);
		workloads_release(ps);
		*ps = next;
	}
	return 0;
}

static void clear_targets(struct run_spec *s)
{
	config_words_free(s->targets, s->ntargets);
	s->targets = NULL;
	s->ntargets = 0;
}

static void default_targets(struct run_spec *s, unsigned disks, const struct plan_options *opt)
{
	const char *wd = opt->workdir && *opt->workdir ? opt->workdir : ".";

	if (disks > 1) {
		for (unsigned i = 1; i <= disks; i++) {
			char *t = xasprintf("%s/bench-target-%u.dat", wd, i);
			run_spec_add_target(s, t);
			free(t);
		}
	} else {
		char *t = xasprintf("%s/%s", wd, DEFAULT_TARGET);
		run_spec_add_target(s, t);
		free(t);
	}
}

/*
 * Targets, first that applies: --target; the suite's `targets =` (a list, or "default": bench's default files,
 * as many as the workload was written for); the workload's own (fio filename=, vdbench lun=); default files.
 */
static void set_targets(struct run_spec *s, unsigned disks, const struct suite *su, const struct plan_options *opt)
{
	const char *st = su ? su->targets : NULL;

	if (opt->ntargets) {
		clear_targets(s);
		for (size_t i = 0; i < opt->ntargets; i++)
			run_spec_add_target(s, opt->targets[i]);
		return;
	}
	if (st && !strcmp(st, "default")) {
		unsigned n = disks > s->ntargets ? disks : (unsigned)s->ntargets;
		clear_targets(s);
		default_targets(s, n, opt);
		return;
	}
	if (st) {
		char **v = split_list(st, ' ', NULL);
		clear_targets(s);
		for (char **p = v; p && *p; p++)
			if (**p)
				run_spec_add_target(s, *p);
		free_list(v);
		if (s->ntargets)
			return;
	}
	if (s->ntargets)
		return;
	/* a job that names its files by filename_format= is run as fio runs it: its own files (under its
	 * directory=), never bench's default target put there instead (engines/fio_jobfile.c fio_files_plan) */
	if (!opt->ntargets && kvlist_find(&s->wl.opts, "filename_format"))
		return;
	default_targets(s, disks, opt);
}

/* The targets of each job of a run of several jobs, by set_targets's rules; the run's are their union. */
static void set_job_targets(struct run_spec *s, const struct suite *su, const struct plan_options *opt)
{
	for (size_t j = 0; j < s->njobs; j++) {
		struct job_spec *job = &s->jobs[j];
		struct run_spec one;

		if (!job->ntargets && !opt->ntargets && kvlist_find(&job->wl.opts, "filename_format"))
			continue; /* its own files, as in set_targets */
		run_spec_init(&one);
		one.targets = job->targets;
		one.ntargets = job->ntargets;
		set_targets(&one, 0, su, opt);
		job->targets = one.targets;
		job->ntargets = one.ntargets;
		one.targets = NULL;
		one.ntargets = 0;
		run_spec_release(&one);
	}
	run_spec_summarise(s);
}

static int quick_shrink(struct workload *w, const struct suite *su, struct errbuf *err)
{
	const char *ramp = su && su->quick_ramp ? su->quick_ramp : DEFAULT_QUICK_RAMP;
	const char *runtime = su && su->quick_runtime ? su->quick_runtime : DEFAULT_QUICK_RUNTIME;
	const char *qsize = su && su->quick_size ? su->quick_size : DEFAULT_QUICK_SIZE;
	uint64_t q = 0, cur;

	if (workload_set_fio_opt(w, "ramp_time", ramp, err) < 0 || workload_set_fio_opt(w, "runtime", runtime, err) < 0)
		return -1;
	if (!kvlist_find(&w->opts, "time_based") && workload_set_fio_opt(w, "time_based", NULL, err) < 0)
		return -1;
	fio_parse_size(qsize, &q);
	if (!w->size || profile_ws_pct(w->size) >= 0 || fio_parse_size(w->size, &cur) < 0 || cur > q)
		return workload_set_fio_opt(w, "size", qsize, err);
	return 0;
}

/* The command line's --runtime/--ramp/--size/--iodepth/--numjobs over one workload; errors name the option. */
static int apply_overrides(struct workload *w, const struct plan_options *opt, struct errbuf *err)
{
	const struct {
		const char *option, *key, *value;
	} o[] = {
		{ "--runtime", "runtime", opt->runtime }, { "--ramp", "ramp_time", opt->ramp },
		{ "--size", "size", opt->size },          { "--iodepth", "iodepth", opt->iodepth },
		{ "--numjobs", "numjobs", opt->numjobs },
	};

	for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++) {
		if (!o[i].value)
			continue;
		if (workload_set_fio_opt(w, o[i].key, o[i].value, err) < 0) {
			blame_option(err, o[i].option, o[i].value);
			return -1;
		}
		if (!strcmp(o[i].key, "runtime") && !kvlist_find(&w->opts, "time_based") &&
		    workload_set_fio_opt(w, "time_based", NULL, err) < 0)
			return -1;
	}
	return 0;
}

/* A suite's own settings for its items (also when it is referred to by another suite): durations, [matrix]. */
static int apply_suite(struct profile_workloads *ps, const struct suite *su, const struct plan_options *opt,
		       struct errbuf *err)
{
	struct kvlist m;
	int rc;

	for (size_t i = 0; i < ps->n; i++) {
		for (size_t k = 0; k < nworkloads(&ps->v[i]); k++) {
			struct workload *w = workload_at(&ps->v[i], k);
			if (su->ramp && workload_set_fio_opt(w, "ramp_time", su->ramp, err) < 0)
				return -1;
			if (su->runtime && workload_set_fio_opt(w, "runtime", su->runtime, err) < 0)
				return -1;
		}
		run_spec_summarise(&ps->v[i]);
	}
	/* a --matrix key replaces the suite's values for that key */
	kvlist_init(&m);
	for (size_t i = 0; i < su->matrix.n; i++)
		if (!kvlist_find(&opt->matrix, su->matrix.v[i].key))
			kvlist_add(&m, su->matrix.v[i].key, su->matrix.v[i].value);
	rc = cross_matrix(ps, &m, 0, err);
	kvlist_release(&m);
	return rc;
}

/* A suite's `engine =` is one the caller registered (bench/options.c passes the engines' names). */
static int check_engine(const struct suite *su, const struct plan_options *opt, struct errbuf *err)
{
	struct strbuf names;

	if (!opt->engines)
		return 0;
	for (const char *const *e = opt->engines; *e; e++)
		if (!strcmp(*e, su->engine))
			return 0;
	strbuf_init(&names);
	for (const char *const *e = opt->engines; *e; e++)
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", *e);
	err_set(err, ERR_INPUT, "%s:%d: unknown engine '%s' (engines: %s)", su->file, su->engine_line, su->engine,
		names.buf);
	strbuf_release(&names);
	return -1;
}

/*
 * What the command line and the top-level profile (`su`, NULL for a job file, parameter file or name) decide,
 * once per argument: --matrix, targets, names (before --quick), --quick, the engine.
 */
static int apply_final(struct plan *plan, struct profile_workloads *ps, const struct suite *su,
		       const struct plan_options *opt, struct errbuf *err)
{
	if (cross_matrix(ps, &opt->matrix, 1, err) < 0)
		return -1;
	for (size_t i = 0; i < ps->n; i++) {
		struct run_spec *s = &ps->v[i];
		if (s->njobs) {
			set_job_targets(s, su, opt);
		} else {
			set_targets(s, ps->disks[i], su, opt);
			if (opt->ntargets && ps->disks[i] > opt->ntargets) /* never collapse without a word */
				plan_warn(plan, "run '%s': %u disks in its workload (HCIbench %uvmdk), %zu --target: it runs "
					  "one job per target given, %zu in all; name %u targets for HCIbench's %u jobs",
					  s->name ? s->name : "?", ps->disks[i], ps->disks[i], opt->ntargets,
					  opt->ntargets, ps->disks[i], ps->disks[i]);
		}
		if (!ps->explicit_name[i]) {
			char *n = profile_run_name(s);
			free(s->name);
			s->name = n;
		}
		for (size_t k = 0; opt->quick && k < nworkloads(s); k++)
			if (quick_shrink(workload_at(s, k), su, err) < 0)
				return -1;
		for (size_t k = 0; k < nworkloads(s); k++)
			if (apply_overrides(workload_at(s, k), opt, err) < 0)
				return -1;
		run_spec_summarise(s);

		if (!opt->engine && su && su->engine && check_engine(su, opt, err) < 0)
			return -1;
		free(s->engine);
		s->engine = xstrdup(opt->engine ? opt->engine : su && su->engine ? su->engine : "fio");
	}
	return 0;
}

int plan_build(const char *const *args, size_t nargs, const struct plan_options *opt, struct plan *out,
	       struct errbuf *err)
{
	return plan_build_configs(args, nargs, opt, out, NULL, err);
}

int plan_build_configs(const char *const *args, size_t nargs, const struct plan_options *opt, struct plan *out,
		       struct config_list *configs, struct errbuf *err)
{
	struct profile_workloads all;
	unsigned reps;
	int rc = -1;

	workloads_init(&all);
	if (!nargs) {
		err_set(err, ERR_USAGE, "name a suite, a fio job file, a vdbench parameter file or an HCIbench name");
		goto out;
	}
	for (size_t i = 0; i < nargs; i++)
		if (expand_arg(args[i], NULL, opt, out, &all, NULL, NULL, 0, configs, err) < 0)
			goto out;
	if (nargs > 1) {
		free(out->name);
		out->name = xstrdup("mixed");
	}
	/* A suite's own repetitions count unless --repeat is given. */
	reps = opt->repeat ? opt->repeat : out->repeat ? out->repeat : 1;
	out->repeat = reps;
	if (all.n > PLAN_MAX_RUNS / reps) {
		err_set(err, ERR_INPUT, "%s: %zu workloads x %u repetitions is more than %d runs", out->name ? out->name : args[0],
			all.n, reps, PLAN_MAX_RUNS);
		goto out;
	}
	for (unsigned r = 1; r <= reps; r++) {
		for (size_t i = 0; i < all.n; i++) {
			struct run_spec *s = plan_add_copy(out, &all.v[i]);
			s->repetition = r;
		}
	}
	rc = 0;
out:
	workloads_release(&all);
	return rc;
}

/*
 * --interleave: one plan per profile, merged repetition by repetition in alternating blocks (A B, B A, ...),
 * each run labelled profile=<argument>, so that slow drift of the machine hits both sides alike.
 */
int plan_build_interleaved(const char *const *profiles, size_t n, const struct plan_options *opt, struct plan *out,
			   struct config_list *configs, struct errbuf *err)
{
	struct plan *parts = xcalloc(n, sizeof(*parts));
	unsigned reps = 1;
	size_t total = 0;
	int ret = -1;

	for (size_t i = 0; i < n; i++) {
		plan_init(&parts[i]);
		if (plan_build_configs(&profiles[i], 1, opt, &parts[i], configs, err) < 0)
			goto out;
		total += parts[i].n;
		if (total > PLAN_MAX_RUNS) {
			err_set(err, ERR_INPUT, "%s: the interleaved profiles are more than %d runs", profiles[i],
				PLAN_MAX_RUNS);
			goto out;
		}
		for (size_t k = 0; k < parts[i].n; k++)
			if (parts[i].runs[k].repetition > reps)
				reps = parts[i].runs[k].repetition;
	}
	out->name = xstrdup("interleaved");
	for (unsigned r = 1; r <= reps; r++) {
		for (size_t j = 0; j < n; j++) {
			size_t i = (r % 2) ? j : n - 1 - j;
			for (size_t k = 0; k < parts[i].n; k++) {
				const struct run_spec *src = &parts[i].runs[k];
				struct run_spec *s;

				if (src->repetition != r)
					continue;
				s = plan_add_copy(out, src);
				for (size_t l = 0; l < parts[i].labels.n; l++)
					kvlist_set(&s->labels, parts[i].labels.v[l].key, parts[i].labels.v[l].value);
				kvlist_set(&s->labels, "profile", profiles[i]);
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < parts[i].nwarnings; w++)
			plan_warn(out, "%s", parts[i].warnings[w]);
	ret = 0;
out:
	ARRAY_RELEASE(parts, n, plan_release);
	return ret;
}
