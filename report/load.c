/*
 * load: runs and their figures for reports (load.h), read through core/store_read.h. Every figure of a
 * run (rep_run.fig, and the table's rep_run.m from it) comes from the one figures layer (figures.h: the host
 * that stands for the run, p99 with the bins fallback, core's one CPU rule). With REP_CPU_DETAIL the cpu and
 * disk rows become rep_run.cpuview (cpuview.h). Selections are select.h's.
 */
#include "report/load.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/identity.h"
#include "core/spec_json.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "report/cpuview.h"
#include "report/select.h"

const struct rep_metric_info rep_metrics[RM_NR] = {
	[RM_IOPS] = { "iops", "IOPS", 1, 0 },
	[RM_MBPS] = { "mbps", "MiB/s", 1, 1 },
	[RM_CPU] = { "cpu_pct", "CPU %", 0, 1 },
	[RM_RLAT] = { "read_lat_ms", "read lat ms", 0, 3 },
	[RM_WLAT] = { "write_lat_ms", "write lat ms", 0, 3 },
	[RM_RP99] = { "read_p99_ms", "read p99 ms", 0, 3 },
	[RM_WP99] = { "write_p99_ms", "write p99 ms", 0, 3 },
};

void rep_set_init(struct rep_set *s)
{
	memset(s, 0, sizeof(*s));
}

static const size_t run_strs[] = {
	offsetof(struct rep_run, suite),       offsetof(struct rep_run, suite_created), offsetof(struct rep_run, name),
	offsetof(struct rep_run, status),      offsetof(struct rep_run, error),	     offsetof(struct rep_run, engine),
	offsetof(struct rep_run, started_at),  offsetof(struct rep_run, finished_at),   offsetof(struct rep_run, tool),
	offsetof(struct rep_run, rw),	       offsetof(struct rep_run, bssplit),	     offsetof(struct rep_run, identity),
	offsetof(struct rep_run, cpu_source),
};
static const size_t host_strs[] = { offsetof(struct rep_host, host), offsetof(struct rep_host, fio_version),
				     offsetof(struct rep_host, error), offsetof(struct rep_host, hostname) };

static void rep_run_release(struct rep_run *r)
{
	free_members(r, run_strs, sizeof(run_strs) / sizeof(run_strs[0]));
	cpuview_run_free(r->cpuview);
	kvlist_release(&r->labels);
	array_free_members(r->hosts, r->nhosts, sizeof(*r->hosts), host_strs, sizeof(host_strs) / sizeof(host_strs[0]));
}

/*
 * The specs of a set's runs, parsed once per load key (run_spec_json_load_key: the stored spec without the
 * run's name, seq, repetition and times), with their identity: runs of one workload repeated thousands of
 * times share one parse. Open addressing over SPEC_MEMO_SLOTS slots, at most SPEC_MEMO_MAX specs (more
 * distinct specs are parsed run by run).
 */
#define SPEC_MEMO_SLOTS 8192u
#define SPEC_MEMO_MAX 4096u

struct spec_memo_entry {
	char *key;
	struct run_spec spec;
	char *identity;
};

struct spec_memo {
	struct spec_memo_entry **slot;
	size_t n;
	struct strbuf key;
	struct spec_memo_entry **own; /* specs of one run each: no load key, unparsed JSON, or the memo full */
	size_t nown, capown;
};

static void spec_memo_entry_free(struct spec_memo_entry *e)
{
	if (!e)
		return;
	free(e->key);
	free(e->identity);
	run_spec_release(&e->spec);
	free(e);
}

static void spec_memo_free(struct spec_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->slot && i < SPEC_MEMO_SLOTS; i++)
		spec_memo_entry_free(m->slot[i]);
	for (size_t i = 0; i < m->nown; i++)
		spec_memo_entry_free(m->own[i]);
	free(m->own);
	free(m->slot);
	strbuf_release(&m->key);
	free(m);
}

static uint32_t fnv1a(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* The memo's entry for the spec JSON (parsed and added when new); NULL when it has no load key, does not
 * parse or the memo is full. */
static const struct spec_memo_entry *spec_memo_get(struct spec_memo *m, const char *json)
{
	struct spec_memo_entry *e;
	struct errbuf err;
	size_t i;

	if (run_spec_json_load_key(json, &m->key) < 0)
		return NULL;
	for (i = fnv1a(m->key.buf, m->key.len) & (SPEC_MEMO_SLOTS - 1); m->slot[i]; i = (i + 1) & (SPEC_MEMO_SLOTS - 1))
		if (!strcmp(m->slot[i]->key, m->key.buf))
			return m->slot[i];
	if (m->n >= SPEC_MEMO_MAX)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	errbuf_init(&err);
	run_spec_init(&e->spec);
	if (run_spec_from_json(json, &e->spec, &err) < 0) {
		run_spec_release(&e->spec);
		free(e);
		return NULL;
	}
	e->key = xstrdup(m->key.buf);
	e->identity = run_spec_identity(&e->spec);
	m->slot[i] = e;
	m->n++;
	return e;
}

static struct spec_memo *spec_memo_new(void)
{
	struct spec_memo *m = xcalloc(1, sizeof(*m));

	m->slot = xcalloc(SPEC_MEMO_SLOTS, sizeof(*m->slot));
	strbuf_init(&m->key);
	return m;
}

void rep_set_release(struct rep_set *s)
{
	if (!s)
		return;
	ARRAY_RELEASE(s->v, s->n, rep_run_release);
	spec_memo_free(s->memo);
	rep_set_init(s);
}

/* ---- selections (select.h) ------------------------------------------------------------------------ */

static void subject_of(const struct rep_run *r, struct select_subject *s)
{
	memset(s, 0, sizeof(*s));
	s->labels = &r->labels;
	s->name = r->name;
	s->tool = r->tool;
	s->rw = r->rw;
	s->engine = r->engine;
	s->suite = r->suite;
	s->status = r->status;
	s->suite_id = r->suite_id;
	s->bs_bytes = r->bs_bytes;
	s->read_pct = r->read_pct;
	s->random_pct = r->random_pct;
	s->iodepth = r->iodepth;
	s->numjobs = r->numjobs;
}

int rep_where_add(struct kvlist *where, const char *arg, struct errbuf *err)
{
	return select_add(where, arg, err);
}

const char *rep_run_value(const struct rep_run *r, const char *key, char *buf, size_t len)
{
	struct select_subject s;

	subject_of(r, &s);
	return select_value(&s, key, buf, len);
}

int rep_run_matches(const struct rep_run *r, const struct kvlist *where)
{
	struct select_subject s;

	subject_of(r, &s);
	return select_matches(&s, where);
}

/* ---- runs and figures ------------------------------------------------------------------------------ */

/*
 * The run spec of a stored run from its spec JSON (the whole workload); a run stored without a readable spec
 * gets a spec with the workload columns it has.
 */
static void spec_of(const char *spec_json, const struct rep_run *r, struct run_spec *spec)
{
	struct errbuf e;

	errbuf_init(&e);
	run_spec_init(spec);
	if (spec_json && run_spec_from_json(spec_json, spec, &e) == 0)
		return;
	run_spec_release(spec);
	run_spec_init(spec);
	spec->name = xstrdup(r->name);
	spec->repetition = r->repetition > 0 ? (unsigned)r->repetition : 1;
	spec->wl.tool = xstrdup(r->tool);
	spec->wl.rw = xstrdup(r->rw);
	spec->wl.bs_bytes = r->bs_bytes;
	spec->wl.bssplit = xstrdup(r->bssplit);
	spec->wl.read_pct = r->read_pct;
	spec->wl.random_pct = r->random_pct;
	spec->wl.iodepth = (unsigned)r->iodepth;
	spec->wl.numjobs = (unsigned)r->numjobs;
	spec->wl.runtime_s = r->runtime_s > 0 ? (unsigned)r->runtime_s : 0;
}

/*
 * The run's spec (through the memo, else one of its own kept by the memo) and identity, from its stored spec
 * JSON (NULL or unreadable: the workload columns). r->spec is never NULL afterwards.
 */
static void run_identify(struct rep_run *r, const char *spec_json, struct spec_memo *memo)
{
	const struct spec_memo_entry *e = spec_json ? spec_memo_get(memo, spec_json) : NULL;
	struct spec_memo_entry *own;

	if (!e) {
		own = xcalloc(1, sizeof(*own));
		spec_of(spec_json, r, &own->spec);
		own->identity = run_spec_identity(&own->spec); /* a run of several jobs: every job, in order */
		ARRAY_GROW(memo->own, memo->capown, memo->nown + 1);
		memo->own[memo->nown++] = own;
		e = own;
	}
	r->spec = &e->spec;
	r->identity = xstrdup(e->identity);
}

/*
 * Takes over the fields of a stored run but its spec JSON, which goes to *spec_json (malloc'd; sr is left
 * empty). The identity is run_identify's.
 */
static void run_from_store(struct rep_run *r, struct store_run *sr, char **spec_json)
{
	memset(r, 0, sizeof(*r));
	figures_init(&r->fig);
	rep_metrics_from(&r->fig, r->m);
	r->cpu_us_per_io = r->target_cpu_pct = NAN;
	r->id = sr->id;
	r->suite_id = sr->suite_id;
	r->suite = sr->suite;
	r->suite_created = sr->suite_created;
	r->name = sr->name;
	r->status = sr->status;
	r->error = sr->error;
	r->engine = sr->engine;
	r->started_at = sr->started_at;
	r->finished_at = sr->finished_at;
	r->tool = sr->tool;
	r->rw = sr->rw;
	r->bssplit = sr->bssplit;
	r->bs_bytes = sr->bs_bytes;
	r->read_pct = sr->read_pct;
	r->random_pct = sr->random_pct;
	r->iodepth = sr->iodepth;
	r->numjobs = sr->numjobs;
	r->repetition = (int)sr->repetition;
	r->runtime_s = sr->runtime_s;
	r->labels = sr->labels;
	*spec_json = sr->spec;
	free(sr->size);
	memset(sr, 0, sizeof(*sr));
	kvlist_init(&sr->labels);
}

/* The hosts of the run (run_host rows), with their own IOPS and MiB/s from the result rows of all hosts. */
static void load_hosts(struct rep_run *r, const struct store_result *res, size_t nres, const struct store_host *hosts,
		       size_t nhosts)
{
	r->hosts = nhosts ? xcalloc(nhosts, sizeof(*r->hosts)) : NULL;
	r->nhosts = nhosts;
	for (size_t i = 0; i < nhosts; i++) {
		const struct store_host *sh = &hosts[i];
		struct rep_host *h = &r->hosts[i];
		double iops = 0, bw = 0;
		int any = 0;

		h->host = xstrdup(sh->host);
		h->fio_version = xstrdup(sh->fio_version);
		h->hostname = xstrdup(sh->hostname);
		h->error = xstrdup(sh->error);
		h->start_offset_ms = sh->start_offset_ms;
		h->error_code = sh->error_code;
		h->usr_cpu_pct = sh->usr_cpu_pct;
		h->sys_cpu_pct = sh->sys_cpu_pct;
		for (size_t k = 0; k < nres; k++)
			if (res[k].ddir != DDIR_TOTAL && !strcmp(res[k].host, sh->host)) {
				iops += res[k].iops;
				bw += res[k].bw_bytes;
				any = 1;
			}
		h->iops = any ? iops : NAN;
		h->mbps = any ? bw / 1048576.0 : NAN;
	}
}

void rep_metrics_from(const struct figures *f, double m[RM_NR])
{
	m[RM_IOPS] = f->iops[DDIR_TOTAL];
	m[RM_MBPS] = f->bw_bytes[DDIR_TOTAL] / 1048576.0;
	m[RM_CPU] = f->cpu_pct;
	m[RM_RLAT] = f->lat_mean_ns[DDIR_READ] / 1e6;
	m[RM_WLAT] = f->lat_mean_ns[DDIR_WRITE] / 1e6;
	m[RM_RP99] = f->p99_ns[DDIR_READ] / 1e6;
	m[RM_WP99] = f->p99_ns[DDIR_WRITE] / 1e6;
}

/* Front-end IOs of the run: ios of result '*' total, else the sum of its directions; NAN when none. */
static double front_end_ios(const struct store_result *res, size_t nres)
{
	double dirs = 0;
	int have_dirs = 0;

	for (size_t i = 0; i < nres; i++) {
		if (strcmp(res[i].host, HOST_AGGREGATE))
			continue;
		if (res[i].ddir == DDIR_TOTAL)
			return (double)res[i].ios;
		dirs += (double)res[i].ios;
		have_dirs = 1;
	}
	return have_dirs ? dirs : NAN;
}

/*
 * The CPU figures of the run's figures (figures_cpu: core's one rule) onto the run and, with detail, the
 * cpuview, which takes the rows over (*cpu is then NULL).
 */
static int load_cpu(struct store *st, struct rep_run *r, struct store_cpu **cpup, size_t ncpu,
		    const struct store_host *hosts, size_t nhosts, double fe_ios, int detail, struct errbuf *err)
{
	struct store_cpu *cpu = *cpup;
	struct store_disk *disks = NULL;
	size_t ndisks = 0;

	figures_cpu(&r->fig, cpu, ncpu, hosts, nhosts);
	r->cpu_us_per_io = r->fig.cpu_us_per_io;
	r->cpu_source = r->fig.cpu_source[0] ? xstrdup(r->fig.cpu_source) : NULL;
	r->cpu_from_fio_job = r->fig.cpu_from_fio_job;
	r->target_cpu_pct = r->fig.target_cpu_pct;
	for (size_t i = 0; i < ncpu; i++)
		r->has_target_cpu |= !strcmp(cpu[i].role, "target");
	if (!detail)
		return 0;
	if (store_read_disks(st, r->id, &disks, &ndisks, err) < 0)
		return -1;
	r->cpuview = cpuview_new(cpu, ncpu, disks, ndisks, fe_ios);
	*cpup = NULL;
	store_disks_free(disks, ndisks);
	return 0;
}

/* The scans report_load reads every run's rows through (core/store_read.h), in run id order. */
struct run_scans {
	struct store_scan *res, *hosts, *cpu;
};

/* Hosts, headline figures and CPU of one run, from its rows in the scans. */
static int load_run(struct store *st, struct run_scans *sc, struct rep_run *r, unsigned flags, struct errbuf *err)
{
	struct store_result *res = NULL;
	struct store_host *hosts = NULL;
	struct store_cpu *cpu = NULL;
	double *p99 = NULL;
	size_t nres = 0, nhosts = 0, ncpu = 0;
	int ret = -1;

	if (store_scan_next_results(sc->res, r->id, &res, &p99, &nres, err) < 0 ||
	    store_scan_next_hosts(sc->hosts, r->id, &hosts, &nhosts, err) < 0 ||
	    store_scan_next_cpu(sc->cpu, r->id, &cpu, &ncpu, err) < 0)
		goto out;
	load_hosts(r, res, nres, hosts, nhosts);
	/* the aggregate '*', else the only host with results (figures_host) */
	if (figures_from_results(st, res, p99, nres, NULL, NULL, &r->fig, err) < 0)
		goto out;
	if (load_cpu(st, r, &cpu, ncpu, hosts, nhosts, front_end_ios(res, nres), (flags & REP_CPU_DETAIL) != 0, err) < 0)
		goto out;
	rep_metrics_from(&r->fig, r->m);
	ret = 0;
out:
	store_results_free(res, nres);
	free(p99);
	store_hosts_free(hosts, nhosts);
	store_cpu_free(cpu, ncpu);
	return ret;
}

static int cmp_run_id(const void *a, const void *b)
{
	const struct rep_run *x = *(const struct rep_run *const *)a, *y = *(const struct rep_run *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/* load_run for the runs set->v[first..n), in run id order (the scans' order): three statements for all. */
static int load_runs(struct store *st, const struct rep_set *set, size_t first, unsigned flags, struct errbuf *err)
{
	size_t n = set->n - first;
	struct rep_run **by_id = xmalloc((n ? n : 1) * sizeof(*by_id));
	struct run_scans sc = { NULL, NULL, NULL };
	int64_t from;
	int ret = -1;

	for (size_t i = 0; i < n; i++)
		by_id[i] = &set->v[first + i];
	qsort(by_id, n, sizeof(*by_id), cmp_run_id);
	from = n ? by_id[0]->id : 0;
	if (store_scan_results(st, 99.0, from, &sc.res, err) < 0 || store_scan_hosts(st, from, &sc.hosts, err) < 0 ||
	    store_scan_cpu(st, from, &sc.cpu, err) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (load_run(st, &sc, by_id[i], flags, err) < 0)
			goto out;
	ret = 0;
out:
	store_scan_close(sc.res);
	store_scan_close(sc.hosts);
	store_scan_close(sc.cpu);
	free(by_id);
	return ret;
}

void rep_set_remove(struct rep_set *s, size_t i)
{
	rep_run_release(&s->v[i]);
	memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(s->v[0]));
	s->n--;
}

static int status_wanted(const char *st, unsigned flags)
{
	if (flags & REP_ALL_STATUS)
		return 1;
	return st && (!strcmp(st, "done") || !strcmp(st, "partial"));
}

/* What report_load's reading of the runs needs: the set, its flags and selection. */
struct load_ctx {
	struct rep_set *out;
	unsigned flags;
	const struct kvlist *where;
	struct kvlist keys; /* the label keys of the runs looked at (select_check_keys) */
	size_t nruns;       /* how many runs were looked at */
};

/* Whether a run may match the selection, from its labels (the rest of its row is not read otherwise). */
static int want_run(void *ctx, const struct kvlist *labels)
{
	struct load_ctx *lc = ctx;

	lc->nruns++;
	select_note_keys(&lc->keys, labels);
	return !select_labels_exclude(labels, lc->where);
}

/* One stored run (store order): into the set when its status is wanted and it matches the selection. */
static int take_run(void *ctx, struct store_run *sr, struct errbuf *err)
{
	struct load_ctx *lc = ctx;
	struct rep_set *out = lc->out;
	struct rep_run *r;
	char *spec_json;

	(void)err;
	if (!status_wanted(sr->status, lc->flags))
		return 0;
	ARRAY_GROW(out->v, out->cap, out->n + 1);
	r = &out->v[out->n++];
	run_from_store(r, sr, &spec_json);
	if (rep_run_matches(r, lc->where)) { /* a selection never looks at the identity */
		run_identify(r, spec_json, out->memo);
	} else {
		rep_run_release(r);
		out->n--;
	}
	free(spec_json);
	return 0;
}

int report_load(struct store *st, const struct kvlist *where, unsigned flags, struct rep_set *out,
		struct errbuf *err)
{
	struct load_ctx lc = { out, flags, where, { NULL, 0, 0 }, 0 };
	size_t first = out->n;
	int ret = -1;

	if (!out->memo)
		out->memo = spec_memo_new();
	if (store_snapshot_begin(st, err) < 0) /* one read transaction: not a lock and a check per read */
		return -1;
	if (store_read_runs_each(st, where && where->n ? want_run : NULL, take_run, &lc, err) < 0)
		goto out;
	/* A condition on a key no stored run has is a typo, not "nothing matched" (an empty store says nothing). */
	if (lc.nruns && select_check_keys(where, &lc.keys, "--where", err) < 0)
		goto out;
	if (load_runs(st, out, first, flags, err) < 0)
		goto out;
	ret = 0;
out:
	kvlist_release(&lc.keys);
	store_snapshot_end(st);
	return ret;
}

int rep_check_keys(const struct rep_set *set, const struct kvlist *by, const char *cmp_key, struct errbuf *err)
{
	struct kvlist keys, one;
	int rc;

	if (!set->n)
		return 0;
	kvlist_init(&keys);
	kvlist_init(&one);
	for (size_t i = 0; i < set->n; i++)
		select_note_keys(&keys, &set->v[i].labels);
	rc = by ? select_check_keys(by, &keys, "--by", err) : 0;
	if (!rc && cmp_key) {
		kvlist_add(&one, cmp_key, NULL);
		rc = select_check_keys(&one, &keys, "--compare", err);
	}
	kvlist_release(&one);
	kvlist_release(&keys);
	return rc;
}

const char *rep_run_workload_name(const struct rep_run *r)
{
	return r->name ? r->name : r->identity;
}

int rep_run_is_baseline(const struct rep_run *r)
{
	return !strcmp(kvlist_get(&r->labels, "phase", ""), "baseline");
}

int rep_run_is_workload(const struct rep_run *r, const char *name, const char *identity)
{
	return !strcmp(rep_run_workload_name(r), name) && !strcmp(r->identity, identity);
}

struct cpuview_run *rep_run_disks(struct store *st, const struct rep_run *r, int *owned)
{
	struct store_cpu *cpu = NULL;
	struct store_disk *disks = NULL;
	size_t ncpu = 0, ndisks = 0;
	struct cpuview_run *v = NULL;
	struct errbuf err;

	*owned = 0;
	if (r->cpuview)
		return r->cpuview->ndisks ? r->cpuview : NULL;
	errbuf_init(&err);
	if (!st || store_read_disks(st, r->id, &disks, &ndisks, &err) < 0 || !ndisks ||
	    store_read_cpu(st, r->id, &cpu, &ncpu, &err) < 0) {
		store_disks_free(disks, ndisks);
		return NULL;
	}
	v = cpuview_new(cpu, ncpu, disks, ndisks, r->fig.ios > 0 ? (double)r->fig.ios : NAN);
	store_disks_free(disks, ndisks);
	cpuview_count_named(v, &r->labels, r->spec ? r->spec->targets : NULL, r->spec ? r->spec->ntargets : 0);
	*owned = 1;
	return v;
}
