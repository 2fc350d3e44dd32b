/*
 * model: constructors, destructors and names for the shared structs (see model.h).
 */
#include "core/model.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static const char *const status_names[] = { "running", "done", "failed", "partial", "aborted" };
static const char *const ddir_names[] = { "read", "write", "trim", "total" };

const char *run_status_name(enum run_status s)
{
	return (unsigned)s < 5 ? status_names[s] : "?";
}

int run_status_parse(const char *s, enum run_status *out)
{
	for (unsigned i = 0; i < 5; i++) {
		if (!strcmp(s, status_names[i])) {
			*out = (enum run_status)i;
			return 0;
		}
	}
	return -1;
}

const char *ddir_name(enum ddir d)
{
	return (unsigned)d < DDIR_NR ? ddir_names[d] : "?";
}

int ddir_parse(const char *s, enum ddir *out)
{
	for (unsigned i = 0; i < DDIR_NR; i++) {
		if (!strcmp(s, ddir_names[i])) {
			*out = (enum ddir)i;
			return 0;
		}
	}
	return -1;
}

const char *host_role_name(enum host_role r)
{
	return r == ROLE_TARGET ? "target" : "initiator";
}

/* ---- owned strings, by offset: one list per struct, for release and copy --------------------------- */

#define O(T, f) offsetof(struct T, f)
static const size_t workload_strs[] = { O(workload, tool), O(workload, rw), O(workload, bssplit), O(workload, size),
					O(workload, src_file) };
static const size_t run_spec_strs[] = { O(run_spec, name), O(run_spec, engine), O(run_spec, started_at),
					O(run_spec, finished_at) };
static const size_t host_strs[] = { O(host, name), O(host, addr), O(host, exporter_url), O(host, ssh_user),
				    O(host, src_file) };
static const size_t host_result_strs[] = { O(host_result, host), O(host_result, fio_version), O(host_result, errmsg),
					   O(host_result, job) };
#undef O
#define NOFFS(a) (sizeof(a) / sizeof(a[0]))

static void strs_dup(void *dst, const void *src, const size_t *offs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*(char **)((char *)dst + offs[i]) = xstrdup(*(char *const *)((const char *)src + offs[i]));
}

/* Frees a vector of n strings. */
static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- workloads and run specs -------------------------------------------------------------------- */

void workload_init(struct workload *w)
{
	memset(w, 0, sizeof(*w));
	w->read_pct = -1;
	w->random_pct = -1;
	kvlist_init(&w->opts);
}

void workload_release(struct workload *w)
{
	if (!w)
		return;
	free_members(w, workload_strs, NOFFS(workload_strs));
	kvlist_release(&w->opts);
	workload_init(w);
}

void workload_copy(struct workload *dst, const struct workload *src)
{
	*dst = *src;
	strs_dup(dst, src, workload_strs, NOFFS(workload_strs));
	kvlist_init(&dst->opts);
	kvlist_copy(&dst->opts, &src->opts);
}

void run_spec_init(struct run_spec *s)
{
	memset(s, 0, sizeof(*s));
	kvlist_init(&s->engine_opts);
	kvlist_init(&s->labels);
	workload_init(&s->wl);
	run_method_init(&s->method);
	s->repetition = 1;
}

void run_spec_release(struct run_spec *s)
{
	if (!s)
		return;
	free_members(s, run_spec_strs, NOFFS(run_spec_strs));
	kvlist_release(&s->engine_opts);
	kvlist_release(&s->labels);
	workload_release(&s->wl);
	strv_free(s->targets, s->ntargets);
	for (size_t j = 0; j < s->njobs; j++) {
		free(s->jobs[j].name);
		workload_release(&s->jobs[j].wl);
		strv_free(s->jobs[j].targets, s->jobs[j].ntargets);
	}
	free(s->jobs);
	run_method_release(&s->method);
	run_spec_init(s);
}

/* dst (uninitialised) = src's numbers, engine, labels and method with `name`, workload `wl` and those targets. */
static void copy_run_as(struct run_spec *dst, const struct run_spec *src, const char *name,
			const struct workload *wl, char *const *targets, size_t ntargets)
{
	run_spec_init(dst);
	dst->name = xstrdup(name);
	dst->seq = src->seq;
	dst->repetition = src->repetition;
	dst->engine = xstrdup(src->engine);
	kvlist_copy(&dst->engine_opts, &src->engine_opts);
	kvlist_copy(&dst->labels, &src->labels);
	run_method_copy(&dst->method, &src->method);
	workload_release(&dst->wl);
	workload_copy(&dst->wl, wl);
	for (size_t i = 0; i < ntargets; i++)
		run_spec_add_target(dst, targets[i]);
}

void run_spec_copy(struct run_spec *dst, const struct run_spec *src)
{
	copy_run_as(dst, src, src->name, &src->wl, src->targets, src->ntargets);
	dst->started_at = xstrdup(src->started_at);
	dst->finished_at = xstrdup(src->finished_at);
	for (size_t j = 0; j < src->njobs; j++) {
		struct job_spec *job = run_spec_add_job(dst, src->jobs[j].name);
		workload_release(&job->wl);
		workload_copy(&job->wl, &src->jobs[j].wl);
		for (size_t i = 0; i < src->jobs[j].ntargets; i++)
			job_spec_add_target(job, src->jobs[j].targets[i]);
	}
}

struct job_spec *run_spec_add_job(struct run_spec *s, const char *name)
{
	struct job_spec *j;

	s->jobs = xrealloc(s->jobs, (s->njobs + 1) * sizeof(*s->jobs));
	j = &s->jobs[s->njobs++];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	workload_init(&j->wl);
	return j;
}

void job_spec_add_target(struct job_spec *j, const char *target)
{
	j->targets = xrealloc(j->targets, (j->ntargets + 1) * sizeof(*j->targets));
	j->targets[j->ntargets++] = xstrdup(target);
}

/* Keeps a text field when every job has the same one, else sets `differ` (NULL for "unknown"). */
static void summary_str(char **dst, const struct run_spec *s, size_t off, const char *differ)
{
	const char *first = *(char *const *)((const char *)&s->jobs[0].wl + off);

	for (size_t j = 1; j < s->njobs; j++) {
		const char *v = *(char *const *)((const char *)&s->jobs[j].wl + off);
		if (!first != !v || (first && strcmp(first, v))) {
			first = differ;
			break;
		}
	}
	free(*dst);
	*dst = xstrdup(first);
}

void run_spec_summarise(struct run_spec *s)
{
	struct workload *w = &s->wl;
	long read_sum = 0, random_sum = 0;
	int unknown = 0;

	if (!s->njobs)
		return;
	workload_release(w);
	workload_copy(w, &s->jobs[0].wl);
	/* the options every job has with the same value, in the first job's order */
	kvlist_release(&w->opts);
	kvlist_init(&w->opts);
	for (size_t i = 0; i < s->jobs[0].wl.opts.n; i++) {
		const struct kv *o = &s->jobs[0].wl.opts.v[i];
		int all = 1;
		for (size_t j = 1; j < s->njobs && all; j++) {
			const struct kv *x = kvlist_find(&s->jobs[j].wl.opts, o->key);
			all = x && !x->value == !o->value && (!o->value || !strcmp(x->value, o->value));
		}
		if (all)
			kvlist_add(&w->opts, o->key, o->value);
	}
	summary_str(&w->rw, s, offsetof(struct workload, rw), "mixed");
	summary_str(&w->bssplit, s, offsetof(struct workload, bssplit), NULL);
	w->numjobs = 0;
	for (size_t j = 0; j < s->njobs; j++) {
		const struct workload *x = &s->jobs[j].wl;
		unsigned nj = x->numjobs ? x->numjobs : 1;
		w->numjobs += nj;
		read_sum += x->read_pct * (long)nj;
		random_sum += x->random_pct * (long)nj;
		unknown |= x->read_pct < 0 || x->random_pct < 0;
		if (x->bs_bytes != w->bs_bytes)
			w->bs_bytes = 0;
		if (x->compress_pct != w->compress_pct)
			w->compress_pct = 0;
		if (x->dedupe_pct != w->dedupe_pct)
			w->dedupe_pct = 0;
		if (x->iodepth > w->iodepth)
			w->iodepth = x->iodepth;
		if (x->runtime_s > w->runtime_s)
			w->runtime_s = x->runtime_s;
		if (x->ramp_s > w->ramp_s)
			w->ramp_s = x->ramp_s;
	}
	/* the planned shares: the jobs' shares weighted by their numjobs (rounded), unknown when one is */
	w->read_pct = unknown ? -1 : (int)((read_sum + w->numjobs / 2) / w->numjobs);
	w->random_pct = unknown ? -1 : (int)((random_sum + w->numjobs / 2) / w->numjobs);
	strv_free(s->targets, s->ntargets);
	s->targets = NULL;
	s->ntargets = 0;
	for (size_t j = 0; j < s->njobs; j++)
		for (size_t t = 0; t < s->jobs[j].ntargets; t++) {
			size_t k = 0;
			while (k < s->ntargets && strcmp(s->targets[k], s->jobs[j].targets[t]))
				k++;
			if (k == s->ntargets)
				run_spec_add_target(s, s->jobs[j].targets[t]);
		}
}

void run_spec_job(const struct run_spec *s, size_t idx, struct run_spec *dst)
{
	const struct job_spec *j = &s->jobs[idx];

	copy_run_as(dst, s, j->name, &j->wl, j->targets, j->ntargets);
}

void run_spec_add_target(struct run_spec *s, const char *target)
{
	s->targets = xrealloc(s->targets, (s->ntargets + 1) * sizeof(*s->targets));
	s->targets[s->ntargets++] = xstrdup(target);
}

void host_release(struct host *h)
{
	if (!h)
		return;
	free_members(h, host_strs, NOFFS(host_strs));
	strv_free(h->targets, h->ntargets);
	memset(h, 0, sizeof(*h));
}

void host_list_release(struct host_list *l)
{
	if (!l)
		return;
	ARRAY_RELEASE(l->v, l->n, host_release);
	host_list_init(l);
}

void host_list_init(struct host_list *l)
{
	memset(l, 0, sizeof(*l));
}

void dir_result_release(struct dir_result *d)
{
	if (!d)
		return;
	free(d->pct);
	free(d->bins);
	dir_result_init(d);
}

void dir_result_init(struct dir_result *d)
{
	memset(d, 0, sizeof(*d));
}

void host_result_init(struct host_result *h, const char *host)
{
	memset(h, 0, sizeof(*h));
	h->host = xstrdup(host);
	h->start_offset_ms = NAN;
	h->usr_cpu_pct = NAN;
	h->sys_cpu_pct = NAN;
	h->job_start_ms = NAN;
}

void host_result_release(struct host_result *h)
{
	if (!h)
		return;
	free_members(h, host_result_strs, NOFFS(host_result_strs));
	for (int d = 0; d < DDIR_NR; d++)
		dir_result_release(&h->dir[d]);
	memset(h, 0, sizeof(*h));
}

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
}

void run_result_release(struct run_result *r)
{
	if (!r)
		return;
	ARRAY_RELEASE(r->hosts, r->nhosts, host_result_release);
#define FREE2(v, n, T, a, b) array_free_members(v, n, sizeof(T), (const size_t[]){ offsetof(T, a), offsetof(T, b) }, 2)
	FREE2(r->cpu, r->ncpu, struct cpu_result, host, source);
	FREE2(r->disks, r->ndisks, struct disk_result, host, device);
	FREE2(r->samples, r->nsamples, struct sample, host, metric);
	FREE2(r->art, r->nart, struct artifact, name, content);
#undef FREE2
	kvlist_release(&r->labels);
	run_result_init(r);
}

struct host_result *run_result_add_host(struct run_result *r, const char *host)
{
	ARRAY_GROW(r->hosts, r->hosts_cap, r->nhosts + 1);
	host_result_init(&r->hosts[r->nhosts], host);
	return &r->hosts[r->nhosts++];
}

struct host_result *run_result_find_host(struct run_result *r, const char *host)
{
	return run_result_find_job(r, host, NULL);
}

struct host_result *run_result_find_job(struct run_result *r, const char *host, const char *job)
{
	for (size_t i = 0; i < r->nhosts; i++)
		if (!strcmp(r->hosts[i].host, host) && !r->hosts[i].job == !job &&
		    (!job || !strcmp(r->hosts[i].job, job)))
			return &r->hosts[i];
	return NULL;
}

void run_result_add_artifact(struct run_result *r, const char *name, const char *content, size_t len)
{
	ARRAY_GROW(r->art, r->art_cap, r->nart + 1);
	r->art[r->nart].name = xstrdup(name);
	r->art[r->nart].content = xstrndup(content ? content : "", content ? len : 0);
	r->art[r->nart].len = content ? len : 0;
	r->nart++;
}

void run_result_add_sample(struct run_result *r, const char *host, const char *metric, int64_t t_ms, double value)
{
	ARRAY_GROW(r->samples, r->samples_cap, r->nsamples + 1);
	memset(&r->samples[r->nsamples], 0, sizeof(r->samples[0]));
	r->samples[r->nsamples].host = xstrdup(host);
	r->samples[r->nsamples].metric = xstrdup(metric);
	r->samples[r->nsamples].t_ms = t_ms;
	r->samples[r->nsamples].value = value;
	r->nsamples++;
}

struct cpu_result *run_result_add_cpu(struct run_result *r, const char *host, enum host_role role, const char *source)
{
	struct cpu_result *c;

	ARRAY_GROW(r->cpu, r->cpu_cap, r->ncpu + 1);
	c = &r->cpu[r->ncpu++];
	memset(c, 0, sizeof(*c));
	c->host = xstrdup(host);
	c->role = role;
	c->source = xstrdup(source);
	c->user_pct = c->nice_pct = c->system_pct = c->iowait_pct = NAN;
	c->irq_pct = c->softirq_pct = c->steal_pct = c->idle_pct = NAN;
	c->util_pct = NAN;
	c->cpu_us_per_io = NAN;
	return c;
}
