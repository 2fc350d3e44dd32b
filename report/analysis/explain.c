/*
 * explain: the ceiling model (explain.h). explain_facts_of() gathers what a run stored (figures, workload, fio's
 * rate options, the sim engine's model options, CPU); each rule of the table explain_rules turns the facts
 * into a ceiling with its evidence, or says nothing when its figures are missing; explain_run() picks the
 * verdict. docs/explain.md is this table in prose, with the sources.
 */
#include "report/analysis/explain.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fio_options.h"
#include "core/kv.h"
#include "core/sim_presets.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/cpuview.h"

enum raid { RAID_NONE, RAID_0, RAID_1, RAID_5, RAID_6, RAID_10 };

/* What the rules read: a run's figures and stored facts. Unknown: NAN (counts 0). */
struct facts {
	double iops, bw_bytes;    /* measured, all directions */
	double lat_ns;            /* mean latency over read and write, weighted by IOPS */
	double read_frac;         /* share of IOs that are reads, 0..1 */
	double bs_bytes;          /* IO size: the block size, else bytes/s over IOPS */
	int sequential;           /* random_pct == 0 */
	unsigned iodepth, numjobs, hosts; /* numjobs: fio jobs per host, numjobs x targets (one job each) */
	double job_cpu_pct;       /* fio's job threads, usr + sys, mean per job (run_host '*') */
	int polls;                /* the engine busy-waits for completions: job CPU is no cost per IO */
	double host_cpu_pct, cpu_us_per_io, target_cpu_pct;
	double rate_iops[2];      /* fio rate_iops per job, read and write; NAN none */
	double rate_bytes[2];     /* fio rate= per job, bytes/s; NAN none */
	/* the sim engine's target (one per job: its ceilings scale with jobs x hosts) */
	int sim;
	int have_device;          /* sim_units and sim_lat known (given, the defaults or the preset's) */
	const char *preset;       /* the sim_preset the model came from, NULL none */
	double units, dev_lat_ns, dev_iops, dev_bw, members, chunk_bytes, transport_ns;
	enum raid raid;
	double link_iops, link_bw;
	double net_rate_bps;      /* the network's shaped rate, bits/s (label cfg.net.rate_bps); NAN unknown */
	int null_engine;          /* ran on bench's null engine: fixed placeholder figures, no IO */
	/* member baselines (stored runs labelled phase=baseline of the same workload, one per member device) */
	size_t nbase;
	double base_iops_sum;     /* their IOPS added (each member's median over its repetitions) */
	char base_members[240];   /* "loop1 1,234 (run 3); loop2 1,250 (run 4)" */
	int64_t base_runs[EXPLAIN_MAX_RUNS]; /* the runs whose IOPS are added (each member's median run) */
	double tog_iops;          /* the members together (baseline.kind=members: all at once); NAN none */
	int64_t tog_run;
	size_t tog_members;       /* how many (label baseline.members) */
	/* the member operations this run did per front-end IO, from its disk rows over the devices it names (its
	   configuration's members): what the stack really cost, beside the layout's rule; NAN unknown */
	double ops_read, ops_write;
	/* the transport baseline (baseline.kind=transport: the workload over the same transport, null export) */
	double tr_base_iops;      /* its IOPS, all hosts (the median of its repetitions); NAN none */
	int64_t tr_base_run;
	unsigned tr_base_hosts;
	/* the initiator CPU baseline (phase=baseline, baseline.kind=cpu: the workload on fio's null engine) */
	double cpu_base_iops;     /* its IOPS per host (the median of its repetitions); NAN none */
	int64_t cpu_base_run;     /* that run */
	unsigned cpu_base_hosts;  /* the hosts it ran on */
	enum raid layout;         /* the layout the run's labels name (raid=, stack=, config=); -1 unknown */
	int layout_known;
};

/* ---- reading the stored facts ------------------------------------------------------------------------ */

/* A sim_* option's number (core/sim_presets.h: durations in ns, sizes/rates); NAN when absent or not readable
 * (then the rule that needs it says nothing). */
static double sim_opt(const struct kvlist *o, const char *key, int duration)
{
	const char *s = kvlist_get(o, key, NULL);
	double v;

	if (!s || (duration ? sim_parse_duration_ns(s, &v) : sim_parse_bytes(s, &v)) < 0)
		return NAN;
	return v;
}

static enum raid sim_raid(const char *s)
{
	static const char *const names[] = { "none", "raid0", "raid1", "raid5", "raid6", "raid10" };

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (enum raid)i;
	return RAID_NONE;
}

/* A model option given besides the preset (or the defaults) overrides it, whatever the order (docs/sim.md). */
static void sim_override(const struct kvlist *o, const char *key, int duration, double *dst)
{
	if (kvlist_get(o, key, NULL))
		*dst = sim_opt(o, key, duration);
}

/* The sim engine's model of the run (docs/sim.md): the engine's defaults or the preset's values
 * (core/sim_presets.h, the engine's own table), then the options given. */
static void sim_facts(const struct run_spec *spec, struct facts *f)
{
	const struct kvlist *o = &spec->engine_opts;
	const char *spin = kvlist_get(o, "sim_spin", NULL);
	const char *preset = kvlist_get(o, "sim_preset", NULL);
	const struct sim_preset *p = sim_preset_find(preset);
	double members;

	f->sim = 1;
	f->polls = !spin || strcmp(spin, "0"); /* the default busy-waits before every completion */
	if (p) {
		f->units = p->units;
		f->dev_lat_ns = p->lat_ns;
		f->transport_ns = p->transport_ns;
		f->dev_iops = p->iops;
		f->dev_bw = p->bw;
		f->link_iops = p->link_iops;
		f->link_bw = p->link_bw;
		f->preset = p->name;
	} else if (!preset) { /* the engine's defaults (sim_model.c sim_config_defaults) */
		f->units = 1;
		f->dev_lat_ns = 100e3;
		f->transport_ns = f->dev_iops = f->dev_bw = f->link_iops = f->link_bw = 0;
	} /* else a preset this build does not know: nothing of the model is known but what was given */
	sim_override(o, "sim_units", 0, &f->units);
	sim_override(o, "sim_lat", 1, &f->dev_lat_ns);
	sim_override(o, "sim_transport_lat", 1, &f->transport_ns);
	sim_override(o, "sim_iops", 0, &f->dev_iops);
	sim_override(o, "sim_bw", 0, &f->dev_bw);
	sim_override(o, "sim_link_iops", 0, &f->link_iops);
	sim_override(o, "sim_link_bw", 0, &f->link_bw);
	f->have_device = !isnan(f->units) && f->units >= 1 && f->dev_lat_ns > 0 && !kvlist_get(o, "sim_hist", NULL);
	members = sim_opt(o, "sim_members", 0);
	f->members = isnan(members) ? 1 : members;
	f->chunk_bytes = kvlist_get(o, "sim_chunk", NULL) ? sim_opt(o, "sim_chunk", 0) : 512.0 * 1024;
	f->raid = sim_raid(kvlist_get(o, "sim_raid", NULL));
}

/* The layout a label names: raid=, stack=, config= ("btrfs-raid5", "zfs-raidz2", "mdadm-raid10", "zfs-stripe"). */
static const char *num(char *buf, size_t len, double v);

static int label_layout(const struct rep_run *r, enum raid *out)
{
	static const struct { const char *word; enum raid raid; } words[] = {
		{ "raid10", RAID_10 }, { "raidz2", RAID_6 }, { "raid6", RAID_6 }, { "raidz", RAID_5 },
		{ "raid5", RAID_5 }, { "raid1", RAID_1 }, { "mirror", RAID_1 }, { "raid0", RAID_0 }, { "stripe", RAID_0 },
	};
	static const char *const keys[] = { "raid", "stack", "config" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *v = kvlist_get(&r->labels, keys[k], NULL);

		for (size_t i = 0; v && i < sizeof(words) / sizeof(words[0]); i++)
			if (strstr(v, words[i].word)) {
				*out = words[i].raid;
				return 1;
			}
	}
	return 0;
}

/* The kind of a stored baseline: baseline.kind, else "member" for one with baseline.member (bench baseline
 * before the label existed). */
static const char *baseline_kind(const struct rep_run *b)
{
	const char *k = kvlist_get(&b->labels, "baseline.kind", NULL);

	return k ? k : kvlist_get(&b->labels, "baseline.member", NULL) ? "member" : "";
}

/* An identity text (items "key=value" joined by '|', core/identity.h) without its size item: malloc'd. */
static char *identity_but_size(const char *id)
{
	struct strbuf sb;
	const char *p = id;

	strbuf_init(&sb);
	while (*p) {
		const char *e = strchr(p, '|');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (strncmp(p, "size=", 5)) {
			if (sb.len)
				strbuf_addc(&sb, '|');
			strbuf_add(&sb, p, n);
		}
		p += n + (e != NULL);
	}
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

/* Whether b is a usable baseline of `kind` for r's workload (IOPS measured, the same identity; a CPU baseline
 * whatever its working set: fio's null engine needs a size of its own when the workload's is a share of its
 * target, and with no device the range of offsets costs nothing). */
static int baseline_for(const struct rep_run *b, const struct rep_run *r, const char *kind)
{
	char *x, *y;
	int same;

	if (b->id == r->id || strcmp(baseline_kind(b), kind) || !(b->fig.iops[DDIR_TOTAL] > 0) ||
	    rep_run_is_baseline(r))
		return 0; /* a baseline itself (a row of `--where phase=baseline`) is measured alone: none stand for it */
	if (strcmp(kind, "cpu"))
		return !strcmp(b->identity, r->identity);
	x = identity_but_size(b->identity);
	y = identity_but_size(r->identity);
	same = !strcmp(x, y);
	free(x);
	free(y);
	return same;
}

/* Whether b was measured for r's configuration: the same config label (and, when such baselines exist in a
 * suite of r's name, from one of those: `same_suite`). */
static int baseline_of_config(const struct rep_run *b, const struct rep_run *r, int same_suite)
{
	const char *cfg = kvlist_get(&r->labels, "config", NULL);

	return cfg && kvlist_get(&b->labels, "baseline.set", NULL) &&
	       !strcmp(kvlist_get(&b->labels, "config", ""), cfg) &&
	       (!same_suite || (b->suite && r->suite && !strcmp(b->suite, r->suite)));
}

/*
 * The baselines of `kind` that stand for run r, into v (at most max), their count returned. A configuration's
 * own (`baseline = on`: labels config and baseline.set): of those with r's configuration name (from a suite of
 * r's name when there are such), the set (label baseline.set: one state of the members or initiator) of the
 * newest one stored before r, else of the newest; that set is what was measured, or reused, for r. Without
 * them, the baselines that belong to no configuration set (`bench baseline`), whatever their labels.
 */
static size_t pick_baselines(const struct rep_run *r, const struct rep_set *base, const char *kind,
			     const struct rep_run **v, size_t max)
{
	const struct rep_run *newest = NULL, *before = NULL;
	const char *set = NULL;
	int same_suite = 0;
	size_t n = 0;

	for (size_t i = 0; base && i < base->n; i++)
		if (baseline_for(&base->v[i], r, kind) && baseline_of_config(&base->v[i], r, 1))
			same_suite = 1;
	for (size_t i = 0; base && i < base->n; i++) {
		const struct rep_run *b = &base->v[i];

		if (!baseline_for(b, r, kind) || !baseline_of_config(b, r, same_suite))
			continue;
		if (!newest || b->id > newest->id)
			newest = b;
		if (b->id < r->id && (!before || b->id > before->id))
			before = b;
	}
	if (before || newest)
		set = kvlist_get(&(before ? before : newest)->labels, "baseline.set", "");
	for (size_t i = 0; base && i < base->n && n < max; i++) {
		const struct rep_run *b = &base->v[i];

		if (!baseline_for(b, r, kind))
			continue;
		if (set ? baseline_of_config(b, r, same_suite) && !strcmp(kvlist_get(&b->labels, "baseline.set", ""), set)
			: !kvlist_get(&b->labels, "baseline.set", NULL))
			v[n++] = b;
	}
	return n;
}

/* The hosts a run ran on (its rows but the all-hosts one), at least 1. */
static unsigned run_hosts(const struct rep_run *r)
{
	unsigned h = 0;

	for (size_t i = 0; i < r->nhosts; i++)
		h += strcmp(r->hosts[i].host, HOST_AGGREGATE) != 0;
	return h ? h : 1;
}

/* The median of v[0..n) by IOPS (per host when per_host), and its run. */
static double median_run(const struct rep_run **v, size_t n, int per_host, const struct rep_run **at)
{
	const struct rep_run *s[64] = { NULL };
	size_t m = n < 64 ? n : 64;

	if (!m) { /* callers pass at least one */
		*at = NULL;
		return NAN;
	}

	for (size_t i = 0; i < m; i++)
		s[i] = v[i];
	for (size_t a = 1; a < m; a++) /* sort by IOPS for the median */
		for (size_t c = a; c > 0 && s[c]->fig.iops[DDIR_TOTAL] < s[c - 1]->fig.iops[DDIR_TOTAL]; c--) {
			const struct rep_run *t = s[c];
			s[c] = s[c - 1];
			s[c - 1] = t;
		}
	*at = s[m / 2];
	if (!per_host)
		return m % 2 ? s[m / 2]->fig.iops[DDIR_TOTAL] :
			       (s[m / 2 - 1]->fig.iops[DDIR_TOTAL] + s[m / 2]->fig.iops[DDIR_TOTAL]) / 2;
	return (*at)->fig.iops[DDIR_TOTAL] / run_hosts(*at);
}

/*
 * The member baselines of run r among `base` (runs labelled phase=baseline): those that stand for r
 * (pick_baselines), one per baseline.member label value (the median of its repetitions); and the initiator CPU
 * baseline.
 */
static void baseline_facts(const struct rep_run *r, const struct rep_set *base, struct facts *f)
{
	const struct rep_run *v[64], *one[64], *at;
	size_t n = pick_baselines(r, base, "member", v, 64), len = 0;

	for (size_t i = 0; i < n && f->nbase < EXPLAIN_MAX_RUNS; i++) {
		const char *m = kvlist_get(&v[i]->labels, "baseline.member", NULL);
		size_t nv = 0, k;
		double iops;
		char nb[48];

		for (k = 0; k < i && strcmp(kvlist_get(&v[k]->labels, "baseline.member", ""), m ? m : ""); k++)
			;
		if (!m || k < i)
			continue; /* this member is counted */
		for (size_t j = i; j < n; j++)
			if (!strcmp(kvlist_get(&v[j]->labels, "baseline.member", ""), m))
				one[nv++] = v[j];
		iops = median_run(one, nv, 0, &at);
		f->base_runs[f->nbase++] = at->id;
		f->base_iops_sum += iops;
		if (len + 1 < sizeof(f->base_members))
			len += (size_t)snprintf(f->base_members + len, sizeof(f->base_members) - len, "%s%s %s (run %lld)",
						len ? "; " : "", m, num(nb, sizeof(nb), iops), (long long)at->id);
	}
	f->layout_known = label_layout(r, &f->layout);
	if (!f->layout_known && f->nbase == 1) { /* one member and no layout: the device itself */
		f->layout = RAID_NONE;
		f->layout_known = 1;
	}
	f->tog_iops = NAN;
	if ((n = pick_baselines(r, base, "members", v, 64)) > 0) {
		f->tog_iops = median_run(v, n, 0, &at);
		f->tog_run = at->id;
		f->tog_members = (size_t)strtoul(kvlist_get(&at->labels, "baseline.members", "0"), NULL, 10);
	}
	f->tr_base_iops = NAN;
	if ((n = pick_baselines(r, base, "transport", v, 64)) > 0) {
		f->tr_base_iops = median_run(v, n, 0, &at);
		f->tr_base_run = at->id;
		f->tr_base_hosts = run_hosts(at);
	}
	f->cpu_base_iops = NAN;
	if ((n = pick_baselines(r, base, "cpu", v, 64)) > 0) {
		f->cpu_base_iops = median_run(v, n, 1, &at);
		f->cpu_base_run = at->id;
		f->cpu_base_hosts = run_hosts(at);
	}
}

/* fio's rate_iops= and rate= of the workload, per job and direction (fio_options' canonical value). */
static void rate_facts(const struct workload *wl, struct facts *f)
{
	static const char *const keys[] = { "rate_iops", "rate" };
	unsigned kb = fio_opt_kb_base(&wl->opts);

	for (int k = 0; k < 2; k++) {
		double *dst = k ? f->rate_bytes : f->rate_iops;
		const char *v = NULL;
		char *canon, *p;

		dst[0] = dst[1] = NAN;
		for (size_t i = 0; i < wl->opts.n; i++)
			if (!strcmp(fio_opt_canonical_name(wl->opts.v[i].key), keys[k]))
				v = wl->opts.v[i].value; /* the last one wins, as in fio */
		if (!v || !(canon = fio_opt_value_canonical(keys[k], v, kb)))
			continue;
		p = canon;
		for (int d = 0; d < 2; d++) { /* "r" or "r,w[,t]": one value applies to every direction */
			char *end;
			double x = strtod(p, &end);

			if (end != p && x > 0)
				dst[d] = x;
			else if (d)
				dst[d] = NAN;
			if (*end != ',') {
				if (!d)
					dst[1] = dst[0];
				break;
			}
			p = end + 1;
		}
		free(canon);
	}
}

static void figure_facts(const struct rep_run *r, struct facts *f)
{
	const struct figures *g = &r->fig;
	double ri = g->iops[DDIR_READ], wi = g->iops[DDIR_WRITE];
	double rl = g->lat_mean_ns[DDIR_READ], wl = g->lat_mean_ns[DDIR_WRITE];
	double n = (ri > 0 ? ri : 0) + (wi > 0 ? wi : 0);

	f->iops = g->iops[DDIR_TOTAL];
	f->bw_bytes = g->bw_bytes[DDIR_TOTAL];
	f->read_frac = n > 0 ? (ri > 0 ? ri : 0) / n : (r->read_pct >= 0 ? r->read_pct / 100.0 : NAN);
	f->lat_ns = NAN;
	if (n > 0)
		f->lat_ns = ((ri > 0 && rl > 0 ? ri * rl : 0) + (wi > 0 && wl > 0 ? wi * wl : 0)) / n;
	if (!(f->lat_ns > 0))
		f->lat_ns = NAN;
	f->bs_bytes = r->bs_bytes ? (double)r->bs_bytes : (f->iops > 0 ? f->bw_bytes / f->iops : NAN);
	f->host_cpu_pct = g->cpu_from_fio_job ? NAN : g->cpu_pct;
	f->cpu_us_per_io = g->cpu_us_per_io;
	f->target_cpu_pct = g->target_cpu_pct;
}

/* The member operations per front-end IO the run's disk rows count (reads and writes apart), when they count the
 * devices the run names (cpuview_count_named: its members) and the run has front-end IOs. */
static void disk_facts(const struct cpuview_run *d, struct facts *f)
{
	uint64_t rd = 0, wr = 0;

	f->ops_read = f->ops_write = NAN;
	if (!d || d->scope != CPUVIEW_SCOPE_DEVICES || !(d->front_end_ios > 0))
		return;
	for (size_t i = 0; i < d->ndisks; i++)
		if (d->disks[i].counted) {
			rd += d->disks[i].reads;
			wr += d->disks[i].writes;
		}
	if (rd + wr) {
		f->ops_read = (double)rd / d->front_end_ios;
		f->ops_write = (double)wr / d->front_end_ios;
	}
}

static void explain_facts_of(const struct rep_run *r, const struct rep_set *base, const struct cpuview_run *disks,
			     struct facts *f)
{
	const char *net;

	memset(f, 0, sizeof(*f));
	disk_facts(disks, f);
	figure_facts(r, f);
	f->sequential = r->random_pct == 0;
	f->iodepth = r->iodepth;
	f->numjobs = r->numjobs ? (unsigned)r->numjobs : 1;
	if (r->spec && !r->spec->njobs && r->spec->ntargets > 1) /* one job per target (HCIbench's NNvmdk) */
		f->numjobs *= (unsigned)r->spec->ntargets;
	f->job_cpu_pct = NAN;
	for (size_t i = 0; i < r->nhosts; i++) {
		const struct rep_host *h = &r->hosts[i];

		if (strcmp(h->host, HOST_AGGREGATE))
			f->hosts++;
		else if (!isnan(h->usr_cpu_pct) && !isnan(h->sys_cpu_pct))
			f->job_cpu_pct = h->usr_cpu_pct + h->sys_cpu_pct;
	}
	if (!f->hosts)
		f->hosts = 1;
	f->units = f->dev_lat_ns = f->transport_ns = f->dev_iops = f->dev_bw = f->link_iops = f->link_bw = NAN;
	if (r->spec && r->spec->engine && !strcmp(r->spec->engine, "sim"))
		sim_facts(r->spec, f);
	f->null_engine = r->spec && r->spec->engine && !strcmp(r->spec->engine, "null");
	net = kvlist_get(&r->labels, "cfg.net.rate_bps", NULL);
	if (!net || parse_double(net, &f->net_rate_bps) < 0 || !(f->net_rate_bps > 0))
		f->net_rate_bps = NAN;
	if (r->spec)
		rate_facts(&r->spec->wl, f);
	else
		f->rate_iops[0] = f->rate_iops[1] = f->rate_bytes[0] = f->rate_bytes[1] = NAN;
	baseline_facts(r, base, f);
}

static double member_ops(const struct facts *f, int write, double *op_bytes);

/* The modelled service time of one IO without queueing (sim facts), ns; NAN when not known. */
static double service_ns(const struct facts *f)
{
	double t, op_bytes;

	if (!f->sim || !f->have_device || isnan(f->transport_ns) || isnan(f->link_bw) || isnan(f->dev_bw))
		return NAN;
	t = f->transport_ns + f->dev_lat_ns;
	if ((f->raid == RAID_5 || f->raid == RAID_6) && !f->sequential && f->read_frac < 1)
		t += (1 - f->read_frac) * f->dev_lat_ns; /* writes wait for their reads */
	if (f->link_bw > 0 && f->bs_bytes > 0)
		t += f->bs_bytes / f->link_bw;
	member_ops(f, 0, &op_bytes);
	if (f->dev_bw > 0)
		t = fmax(t, f->transport_ns + op_bytes / f->dev_bw);
	return t;
}

/* ---- the rules ------------------------------------------------------------------------------------- */

/* Appends to the evidence. */
static void ev(struct explain_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ev(struct explain_check *c, const char *fmt, ...)
{
	size_t len = strlen(c->evidence);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->evidence + len, sizeof(c->evidence) - len, fmt, ap);
	va_end(ap);
}

/* "1,234" (thousands separated, no decimals) or "12.3" below 100. */
static const char *num(char *buf, size_t len, double v)
{
	char raw[64];
	size_t n, o = 0, lead;

	if (v < 100) {
		snprintf(buf, len, "%.3g", v);
		return buf;
	}
	snprintf(raw, sizeof(raw), "%.0f", v);
	n = strlen(raw);
	lead = n % 3 ? n % 3 : 3;
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i >= lead && (i - lead) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = 0;
	return buf;
}

/* "1.00 ms", "250 us" */
static const char *dur(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", ns / 1e3);
	return buf;
}

#define N(i, v) num(nb[i], sizeof(nb[i]), (v))

/* How many jobs x hosts share the load: "1 job x 1 host". */
static void ev_jobs(struct explain_check *c, const struct facts *f)
{
	ev(c, "%u job%s x %u host%s", f->numjobs, f->numjobs == 1 ? "" : "s", f->hosts, f->hosts == 1 ? "" : "s");
}

static int rule_rate(const struct facts *f, struct explain_check *c)
{
	double per_job = 0;
	char nb[4][48];
	int by_bytes = 0;

	for (int d = 0; d < 2; d++) {
		double share = d ? 1 - f->read_frac : f->read_frac, cap = f->rate_iops[d];

		if (!(share > 0))
			continue;
		if (isnan(cap) && f->rate_bytes[d] > 0 && f->bs_bytes > 0) {
			cap = f->rate_bytes[d] / f->bs_bytes;
			by_bytes = 1;
		}
		if (isnan(cap))
			return 0; /* a direction without a cap: no cap on the total */
		per_job += cap;
	}
	if (!(per_job > 0))
		return 0;
	c->ceiling_iops = per_job * f->numjobs * f->hosts;
	ev(c, "fio %s caps each job at %s IOPS; ", by_bytes ? "rate=" : "rate_iops=", N(0, per_job));
	ev_jobs(c, f);
	ev(c, " = %s IOPS (fio's rate cap)", N(1, c->ceiling_iops));
	return 1;
}

static int rule_transport(const struct facts *f, struct explain_check *c)
{
	double by_iops = f->link_iops > 0 ? f->link_iops : INFINITY;
	double by_bw = f->link_bw > 0 && f->bs_bytes > 0 ? f->link_bw / f->bs_bytes : INFINITY;
	char nb[4][48];

	if (!f->sim || (isinf(by_iops) && isinf(by_bw)))
		return 0;
	if (f->preset)
		ev(c, "sim_preset=%s: ", f->preset);
	if (by_bw <= by_iops)
		ev(c, "link %s B/s / %s B per IO = %s IOPS per job target; ", N(0, f->link_bw), N(1, f->bs_bytes),
		   N(2, by_bw));
	else
		ev(c, "link IOPS cap %s per job target; ", N(3, by_iops));
	c->ceiling_iops = (by_bw < by_iops ? by_bw : by_iops) * f->numjobs * f->hosts;
	ev_jobs(c, f);
	ev(c, " = %s IOPS (transport rate)", N(0, c->ceiling_iops));
	return 1;
}

/* The network between initiator and target, shaped to a rate (the lab's tc, stored by the configuration record
 * as cfg.net.rate_bps): at most rate / 8 / block size IOs a second cross it. */
static int rule_network(const struct facts *f, struct explain_check *c)
{
	char nb[4][48];

	if (!(f->net_rate_bps > 0) || !(f->bs_bytes > 0))
		return 0;
	c->ceiling_iops = f->net_rate_bps / 8.0 / f->bs_bytes;
	ev(c, "network shaped to %s bit/s (cfg.net.rate_bps) / 8 / %s B per IO = %s IOPS (network rate)",
	   N(0, f->net_rate_bps), N(1, f->bs_bytes), N(2, c->ceiling_iops));
	return 1;
}

/* fio's job threads: their CPU per IO from usr + sys (not with an engine that busy-waits: its CPU is no cost). */
static int rule_job_cpu(const struct facts *f, struct explain_check *c)
{
	char nb[4][48];

	if (!(f->iops > 0) || !(f->job_cpu_pct > 0) || f->polls)
		return 0;
	c->ceiling_iops = f->iops * 100.0 / f->job_cpu_pct;
	ev(c, "fio's job threads %.1f %% busy (usr+sys, mean per job) at %s IOPS = %s us CPU per IO; ", f->job_cpu_pct,
	   N(0, f->iops), N(1, 1e6 * f->job_cpu_pct / 100.0 * f->numjobs * f->hosts / f->iops));
	ev_jobs(c, f);
	ev(c, " at 100 %% = %s IOPS (CPU ceiling)", N(2, c->ceiling_iops));
	return 1;
}

/* The initiator CPU baseline: the same workload on fio's null engine (no device, no transport) on this
 * configuration's initiator, measured: its IOPS per host x the run's hosts. */
static int rule_cpu_baseline(const struct facts *f, struct explain_check *c)
{
	char nb[4][48];

	if (!(f->cpu_base_iops > 0))
		return 0;
	c->ceiling_iops = f->cpu_base_iops * f->hosts;
	c->runs[c->nruns++] = f->cpu_base_run;
	ev(c, "initiator CPU baseline (run %lld: the workload on fio's ioengine=null, phase=baseline "
	   "baseline.kind=cpu): %s IOPS per host (%u host%s ran it) x %u host%s = %s IOPS (CPU ceiling, measured)",
	   (long long)f->cpu_base_run, N(0, f->cpu_base_iops), f->cpu_base_hosts ? f->cpu_base_hosts : 1,
	   f->cpu_base_hosts > 1 ? "s" : "", f->hosts, f->hosts == 1 ? "" : "s", N(1, c->ceiling_iops));
	return 1;
}

/* The initiators' host CPU (collector rows): a full host limits the load, whoever used the CPU. */
static int rule_host_cpu(const struct facts *f, struct explain_check *c)
{
	char nb[4][48];

	if (!(f->iops > 0) || !(f->host_cpu_pct > 0) || f->polls)
		return 0; /* a busy-waiting engine fills the CPU whatever the IOPS: its CPU is no cost per IO */
	c->ceiling_iops = f->iops * 100.0 / f->host_cpu_pct;
	ev(c, "initiator host CPU %.1f %% busy at %s IOPS", f->host_cpu_pct, N(0, f->iops));
	if (f->cpu_us_per_io > 0)
		ev(c, " (%s us CPU per IO)", N(1, f->cpu_us_per_io));
	ev(c, "; at 100 %% = %s IOPS (CPU ceiling)", N(2, c->ceiling_iops));
	return 1;
}

static int rule_target_cpu(const struct facts *f, struct explain_check *c)
{
	char nb[4][48];

	if (!(f->iops > 0 && f->target_cpu_pct > 0))
		return 0;
	c->ceiling_iops = f->iops * 100.0 / f->target_cpu_pct;
	ev(c, "target CPU %.1f %% busy at %s IOPS; at 100 %% = %s IOPS (CPU ceiling)", f->target_cpu_pct,
	   N(0, f->iops), N(1, c->ceiling_iops));
	return 1;
}

/* Member operations one IO costs on the layout (read or write), and the bytes of each. */
static double member_ops(const struct facts *f, int write, double *op_bytes)
{
	double pieces = 1, m = f->members, par;

	*op_bytes = f->bs_bytes;
	if (f->raid != RAID_NONE && f->raid != RAID_1 && f->chunk_bytes > 0 && f->bs_bytes > f->chunk_bytes) {
		pieces = ceil(f->bs_bytes / f->chunk_bytes);
		*op_bytes = f->chunk_bytes;
	}
	switch (f->raid) {
	case RAID_NONE:
	case RAID_0:
		return pieces;
	case RAID_1:
		return write ? m : 1;
	case RAID_10:
		return write ? 2 * pieces : pieces;
	case RAID_5:
	case RAID_6:
		par = f->raid == RAID_5 ? 1 : 2;
		if (!write)
			return pieces;
		if (f->sequential) /* a stream fills stripes: parity once per stripe (docs/sim.md) */
			return pieces * m / (m - par);
		/* a partial-stripe write: the fewer reads of read-modify-write and reconstruct-write, then data and
		 * parity writes (RAID5 small write: 2 reads + 2 writes = 4) */
		return pieces * ((1 + par) + fmin(1 + par, m - 1 - par));
	}
	return pieces;
}

static const char *const raid_names[] = { "one device", "raid0", "raid1", "raid5", "raid6", "raid10" };

static int rule_devices(const struct facts *f, struct explain_check *c)
{
	double op_bytes, rops, wops, cost, per_member, by_lat;
	char nb[4][48], d[32];

	if (!f->sim || !f->have_device || isnan(f->read_frac) || !(f->bs_bytes > 0) || isnan(f->dev_iops) ||
	    isnan(f->dev_bw))
		return 0;
	rops = member_ops(f, 0, &op_bytes);
	wops = member_ops(f, 1, &op_bytes);
	cost = f->read_frac * rops + (1 - f->read_frac) * wops;
	by_lat = f->units * 1e9 / f->dev_lat_ns;
	per_member = by_lat;
	if (f->dev_iops > 0 && f->dev_iops < per_member)
		per_member = f->dev_iops;
	if (f->dev_bw > 0 && f->dev_bw / op_bytes < per_member)
		per_member = f->dev_bw / op_bytes;
	c->ceiling_iops = f->members * per_member / cost * f->numjobs * f->hosts;
	if (f->preset)
		ev(c, "sim_preset=%s: ", f->preset);
	ev(c, "%.0f unit%s x %s per operation = %s ops/s per device", f->units, f->units == 1 ? "" : "s",
	   dur(d, sizeof(d), f->dev_lat_ns), N(0, by_lat));
	if (per_member < by_lat)
		ev(c, " (capped at %s by sim_%s)", N(1, per_member), f->dev_iops == per_member ? "iops" : "bw");
	ev(c, "; x %.0f member%s (%s) / %.2f member ops per IO", f->members, f->members == 1 ? "" : "s",
	   raid_names[f->raid], cost);
	if (f->raid == RAID_5 || f->raid == RAID_6 || f->raid == RAID_10 || f->raid == RAID_1)
		ev(c, " (reads %.2f, writes %.2f)", rops, wops);
	ev(c, "; ");
	ev_jobs(c, f);
	ev(c, " = %s IOPS (RAID geometry x device units / device time)", N(2, c->ceiling_iops));
	return 1;
}

/* Member devices from their baselines: the members' own IOPS at this workload, added (or what all of them did at
 * once, when that is less: members sharing a host's CPU, bus or backing store), over the member operations one
 * IO costs on the layout the run's labels name. */
static int rule_baselines(const struct facts *f, struct explain_check *c)
{
	struct facts g = *f;
	int together = f->tog_iops > 0 && f->tog_members >= 2 && (!f->nbase || f->tog_iops < f->base_iops_sum);
	double op_bytes, rops, wops, cost, measured, base = together ? f->tog_iops : f->base_iops_sum;
	size_t members = together ? f->tog_members : f->nbase;
	char nb[4][48];

	if ((!f->nbase && !together) || !f->layout_known || isnan(f->read_frac) || !(f->bs_bytes > 0))
		return 0;
	g.raid = f->layout;
	g.members = (double)members;
	g.chunk_bytes = 0; /* the layout's chunk is not stored: an IO is one piece */
	rops = member_ops(&g, 0, &op_bytes);
	wops = member_ops(&g, 1, &op_bytes);
	cost = f->read_frac * rops + (1 - f->read_frac) * wops;
	measured = f->ops_read + f->ops_write;
	c->ceiling_iops = base / (measured > 0 ? measured : cost);
	if (together) {
		c->runs[c->nruns++] = f->tog_run;
		ev(c, "members together (run %lld: all %zu at once, phase=baseline baseline.kind=members): %s IOPS",
		   (long long)f->tog_run, members, N(0, base));
		if (f->nbase)
			ev(c, ", under their %s alone added (%s)", N(1, f->base_iops_sum), f->base_members);
	} else {
		for (size_t i = 0; i < f->nbase && c->nruns < EXPLAIN_MAX_RUNS; i++)
			c->runs[c->nruns++] = f->base_runs[i];
		ev(c, "member baselines (phase=baseline, same workload): %s = %s IOPS over %zu member%s", f->base_members,
		   N(0, base), members, members == 1 ? "" : "s");
	}
	if (measured > 0)
		ev(c, "; the members did %.2f ops per IO in this run (%.2f reads, %.2f writes: its disk rows; %s's rule "
		   "says %.2f) = %s IOPS (member baselines / member ops per IO, measured)", measured, f->ops_read,
		   f->ops_write, raid_names[f->layout], cost, N(2, c->ceiling_iops));
	else
		ev(c, "; %s costs %.2f member ops per IO (reads %.2f, writes %.2f) = %s IOPS (RAID geometry x member "
		   "baselines)", raid_names[f->layout], cost, rops, wops, N(2, c->ceiling_iops));
	return 1;
}

/* The transport baseline: the workload over the configuration's own transport to a null export, from as many
 * hosts as the run: what the initiators, the network and the transport reach with nothing below it. */
static int rule_transport_baseline(const struct facts *f, struct explain_check *c)
{
	char nb[1][48];

	if (!(f->tr_base_iops > 0) || f->tr_base_hosts != (f->hosts ? f->hosts : 1))
		return 0; /* from other hosts: a link they share does not scale with them */
	c->ceiling_iops = f->tr_base_iops;
	c->runs[c->nruns++] = f->tr_base_run;
	ev(c, "transport baseline (run %lld: the workload over the same transport to a null export, phase=baseline "
	   "baseline.kind=transport, from %u host%s): %s IOPS (network and transport ceiling, measured)",
	   (long long)f->tr_base_run, f->tr_base_hosts, f->tr_base_hosts == 1 ? "" : "s", N(0, c->ceiling_iops));
	return 1;
}

/* Little's law at the modelled service time when the model is stored (the sim), else at the measured mean
 * latency (then it says whether the load could have gone higher at the latency it got). */
static int rule_queue_depth(const struct facts *f, struct explain_check *c)
{
	double qd = (double)f->iodepth * f->numjobs * f->hosts, svc = service_ns(f);
	double lat = svc > 0 ? svc : f->lat_ns;
	char nb[4][48], d[32];

	if (!f->iodepth || !(lat > 0))
		return 0;
	c->ceiling_iops = qd * 1e9 / lat;
	ev(c, "iodepth %u x %u job%s x %u host%s at %s %s = %s IOPS (Little's law)", f->iodepth, f->numjobs,
	   f->numjobs == 1 ? "" : "s", f->hosts, f->hosts == 1 ? "" : "s", dur(d, sizeof(d), lat),
	   svc > 0 ? "modelled service time" : "mean latency", N(0, c->ceiling_iops));
	return 1;
}

struct explain_rule {
	enum explain_limit limit;
	int weak;  /* an extrapolation that others' load can reach: named only when no other resource is at its limit */
	int (*fn)(const struct facts *f, struct explain_check *c);
	const char *formula;
	const char *source;
};

/* The model table (docs/explain.md repeats it with the sources in full). */
static const struct explain_rule explain_rules[] = {
	{ EXPLAIN_RATE_CAP, 0, rule_rate, "rate_iops (or rate / block size) per job x jobs x hosts",
	  "fio HOWTO: rate, rate_iops (per job)" },
	{ EXPLAIN_TRANSPORT, 0, rule_transport, "min(link IOPS cap, link bandwidth / block size) x job targets",
	  "link rate / IO size (sim_link_iops, sim_link_bw)" },
	{ EXPLAIN_TRANSPORT, 0, rule_network, "network rate (bits/s) / 8 / block size",
	  "a link moves at most its rate / IO size (cfg.net.rate_bps: the tc shaping on the lab host)" },
	{ EXPLAIN_TRANSPORT, 0, rule_transport_baseline, "the transport baseline's IOPS (from as many hosts)",
	  "a stored run labelled phase=baseline, baseline.kind=transport: the same workload over the same transport to "
	  "a null export (baseline.fio)" },
	{ EXPLAIN_INITIATOR_CPU, 0, rule_cpu_baseline, "the initiator CPU baseline's IOPS per host x hosts",
	  "a stored run labelled phase=baseline, baseline.kind=cpu: the same workload on fio's ioengine=null" },
	{ EXPLAIN_INITIATOR_CPU, 0, rule_job_cpu, "IOPS x 100 / busy % of fio's job threads (usr + sys)",
	  "CPU cost per IO from the measured CPU: IOPS at 100 % busy" },
	{ EXPLAIN_INITIATOR_CPU, 1, rule_host_cpu, "IOPS x 100 / initiator host CPU busy %",
	  "the host's CPU rows (collectors): IOPS at 100 % busy" },
	{ EXPLAIN_TARGET_CPU, 0, rule_target_cpu, "IOPS x 100 / target CPU busy %",
	  "CPU cost per IO from the target's measured CPU" },
	{ EXPLAIN_DEVICES, 0, rule_devices,
	  "members x min(units / device time, IOPS cap, bw cap / op size) / member ops per IO x job targets",
	  "RAID geometry: RAID0 1 op per chunk, RAID1/10 writes 2, RAID5 small write 4, RAID6 6 (md RMW/RCW)" },
	{ EXPLAIN_DEVICES, 0, rule_baselines,
	  "member baselines' IOPS added (or all at once, when less) / member ops per IO on the labelled layout",
	  "stored runs labelled phase=baseline, baseline.member=DEV of the same workload; RAID geometry as above" },
	{ EXPLAIN_QUEUE_DEPTH, 0, rule_queue_depth, "iodepth x jobs x hosts / mean latency", "Little's law (L = X R)" },
};

#define NRULES (sizeof(explain_rules) / sizeof(explain_rules[0]))
_Static_assert(NRULES <= sizeof(((struct explain_verdict *)0)->checks) / sizeof(struct explain_check),
	       "explain_verdict.checks holds one check per rule");

const char *explain_rule_text(size_t i, enum explain_limit *limit, const char **source)
{
	if (i >= NRULES)
		return NULL;
	*limit = explain_rules[i].limit;
	*source = explain_rules[i].source;
	return explain_rules[i].formula;
}

const char *explain_limit_title(enum explain_limit l)
{
	static const char *const t[EXPLAIN_NR] = { "rate cap", "network/transport", "initiator CPU", "target CPU",
						   "member devices", "queue depth", "unexplained" };

	return (unsigned)l < EXPLAIN_NR ? t[l] : "unexplained";
}

const char *explain_limit_key(enum explain_limit l)
{
	static const char *const k[EXPLAIN_NR] = { "rate_cap", "transport", "initiator_cpu", "target_cpu",
						   "devices", "queue_depth", "unexplained" };

	return (unsigned)l < EXPLAIN_NR ? k[l] : "unexplained";
}

/* ---- the verdict ----------------------------------------------------------------------------------- */

static void verdict_of(const struct facts *f, struct explain_verdict *v, const struct explain_check *qd)
{
	const struct explain_check *best = NULL, *lowest = NULL;
	double svc = service_ns(f);
	char nb[4][48], d1[32], d2[32];

	for (int weak = 0; weak < 2 && !best; weak++)
		for (size_t i = 0; i < v->nchecks; i++) {
			const struct explain_check *c = &v->checks[i];

			if (!weak && (!lowest || c->ceiling_iops < lowest->ceiling_iops))
				lowest = c;
			if (c->limit == EXPLAIN_QUEUE_DEPTH || c->weak != weak)
				continue;
			if (c->at_limit && (!best || c->ceiling_iops < best->ceiling_iops))
				best = c;
		}
	if (!best && qd && qd->at_limit && !(f->lat_ns > EXPLAIN_QUEUED_FACTOR * svc))
		best = qd;
	if (best) {
		v->limit = best->limit;
		v->ceiling_iops = best->ceiling_iops;
		v->pct = best->pct;
		snprintf(v->evidence, sizeof(v->evidence), "%s; measured %s = %.1f %%", best->evidence, N(0, f->iops),
			 best->pct);
		return;
	}
	v->limit = EXPLAIN_UNEXPLAINED;
	v->ceiling_iops = lowest ? lowest->ceiling_iops : NAN;
	v->pct = lowest ? lowest->pct : NAN;
	if (qd && f->lat_ns > EXPLAIN_QUEUED_FACTOR * svc)
		snprintf(v->evidence, sizeof(v->evidence), "mean latency %s is %.1fx the modelled service time %s, and "
			 "no known limit is reached (lowest: %s at %.1f %%)", dur(d1, sizeof(d1), f->lat_ns),
			 f->lat_ns / svc, dur(d2, sizeof(d2), svc), lowest ? explain_limit_title(lowest->limit) : "none",
			 lowest ? lowest->pct : 0.0);
	else
		snprintf(v->evidence, sizeof(v->evidence), "no limit with stored figures is reached: %s",
			 lowest ? lowest->evidence : (qd ? qd->evidence : "no ceiling has its figures stored"));
}

void explain_run(const struct rep_run *r, const struct rep_set *baselines, const struct cpuview_run *disks,
		 struct explain_verdict *v)
{
	const struct explain_check *qd = NULL;
	struct facts f;

	memset(v, 0, sizeof(*v));
	v->ceiling_iops = v->pct = NAN;
	v->limit = EXPLAIN_UNEXPLAINED;
	explain_facts_of(r, baselines, disks, &f);
	v->measured_iops = f.iops;
	if (f.null_engine) {
		snprintf(v->evidence, sizeof(v->evidence), "ran on the null engine: no IO was done and its figures are "
			 "fixed placeholders (engines/null.c), so no ceiling applies");
		return;
	}
	if (!(f.iops > 0)) {
		v->measured_iops = NAN;
		snprintf(v->evidence, sizeof(v->evidence), "no IOPS measured");
		return;
	}
	for (size_t i = 0; i < NRULES; i++) {
		struct explain_check *c = &v->checks[v->nchecks];

		memset(c, 0, sizeof(*c));
		c->limit = explain_rules[i].limit;
		c->weak = explain_rules[i].weak;
		if (!explain_rules[i].fn(&f, c) || !(c->ceiling_iops > 0))
			continue;
		c->pct = 100.0 * f.iops / c->ceiling_iops;
		c->at_limit |= c->pct >= EXPLAIN_AT_LIMIT_PCT;
		if (c->limit == EXPLAIN_QUEUE_DEPTH)
			qd = c;
		v->nchecks++;
	}
	verdict_of(&f, v, qd);
}
