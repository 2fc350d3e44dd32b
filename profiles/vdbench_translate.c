/*
 * vdbench_translate: vdbench parameter files (read by vdbench_params.c) expanded into runs in vdbench's
 * for-loop order, and each run translated to one fio workload (docs/profiles.md has the mapping). What fio
 * cannot do is refused (fsd/fwd file-system runs, replay, distributions fio cannot express exactly) or warned
 * about by name (curve points, rhpct/whpct cache hits, several workloads at once, hosts); nothing is dropped
 * silently.
 */
#include "profiles/vdbench_translate.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/fio_workload.h"
#include "profiles/text.h"
#include "profiles/vdbench_params.h"

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
	int curve_max;          /* the max run of a curve (iorate=curve) */
	double stopcurve_ms;    /* vdbench stopcurve= of the rd: stop the curve past this mean latency; 0 none */
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

/* What one run of an rd reads from its wd, sd and the for-loops, before it becomes fio options. */
struct vrun {
	const struct vdef *wds[64], *sds[256];
	size_t nwd, nsd;
	double xfer, rdpct, seek, threads, rhpct, whpct, elapsed, warmup;
	double range_lo, range_hi, compratio, dedupratio;
	char *bssplit;           /* fio bssplit text, "range:LO-HI" for (min,max,align), or NULL: xfer */
	char *align;             /* fio ba= for (min,max,align), or NULL */
	int direct;
	const char *syncmode;
};

static void vrun_init(struct vrun *v)
{
	memset(v, 0, sizeof(*v));
	v->xfer = 4096;
	v->rdpct = 100;
	v->seek = 100;
	v->threads = 8;
	v->elapsed = 30;
	v->range_hi = 100;
	v->compratio = 1;
	v->dedupratio = 1;
}

static void vrun_release(struct vrun *v)
{
	free(v->bssplit);
	free(v->align);
}

/* The rd's workloads and storage: the first wd (others warned about) and its sds that have a lun=. */
static int select_storage(const struct xlate *x, struct vrun *v, struct errbuf *err)
{
	const struct vfile *vf = x->vf;
	const struct vdef *rd = x->rd;
	const struct vparam *vp, *sel = vdef_get(rd, "wd");
	size_t k = 0;

	if (!sel)
		return err_set(err, ERR_INPUT, "%s:%d: rd=%s names no workload (wd=)", rd->file, rd->line, rd->name);
	v->nwd = vfile_select(vf, G_WD, sel, v->wds, 64);
	if (!v->nwd)
		return err_set(err, ERR_INPUT, "%s:%d: rd=%s: wd=%s matches no workload definition", rd->file, rd->line,
			       rd->name, sel->items[0]);
	if (v->nwd > 1) {
		struct strbuf sb;
		strbuf_init(&sb);
		for (size_t i = 0; i < v->nwd; i++)
			strbuf_addf(&sb, "%s%s", i ? "," : "", v->wds[i]->name);
		plan_warn(vf->plan, "%s:%d: rd=%s runs %zu workloads at once (%s) with skew; one fio job cannot: the "
			  "translation uses wd=%s only", rd->file, rd->line, rd->name, v->nwd, sb.buf, v->wds[0]->name);
		strbuf_release(&sb);
	}
	vp = vdef_get(v->wds[0], "sd");
	if (!vp)
		return err_set(err, ERR_INPUT, "%s:%d: wd=%s names no storage (sd=)", v->wds[0]->file, v->wds[0]->line,
			       v->wds[0]->name);
	if ((sel = vdef_get(rd, "sd")))
		vp = sel; /* rd's sd= overrides */
	v->nsd = vfile_select(vf, G_SD, vp, v->sds, 256);
	if (!v->nsd)
		return err_set(err, ERR_INPUT, "%s:%d: sd=%s matches no storage definition", vp->file, vp->line,
			       vp->items[0]);
	/* placeholders without lun= (sd=sd.... in an example) are left out, with a warning */
	for (size_t i = 0; i < v->nsd; i++) {
		if (!vdef_get(v->sds[i], "lun")) {
			plan_warn(vf->plan, "%s:%d: sd=%s has no lun= and is left out", v->sds[i]->file, v->sds[i]->line,
				  v->sds[i]->name);
			continue;
		}
		v->sds[k++] = v->sds[i];
	}
	v->nsd = k;
	if (!v->nsd)
		return err_set(err, ERR_INPUT, "%s:%d: rd=%s: none of its storage definitions has a lun=", rd->file,
			       rd->line, rd->name);
	return 0;
}

/* A range=(low,high) in percent; `what` is "sd" or "wd". */
static int read_range(const struct vparam *vp, const char *what, double *lo, double *hi, struct errbuf *err)
{
	if (vp->n != 2 || vdb_num(vp->items[0], 0, lo) < 0 || vdb_num(vp->items[1], 0, hi) < 0 || *lo < 0 ||
	    *hi > 100 || *lo >= *hi)
		return err_set(err, ERR_INPUT, "%s:%d: %s range= must be (low,high) in percent, 0 <= low < high <= 100",
			       vp->file, vp->line, what);
	return 0;
}

/* Storage parameters: threads (from the first sd; others must agree), ranges, openflags. */
static int read_storage(const struct xlate *x, struct vrun *v, struct errbuf *err)
{
	const struct vfile *vf = x->vf;
	const struct vparam *vp;

	if ((vp = vdef_get(v->sds[0], "threads")) && vdb_num1(vp, 0, &v->threads, err) < 0)
		return -1;
	for (size_t i = 1; i < v->nsd; i++) {
		const struct vparam *t = vdef_get(v->sds[i], "threads");
		double th = 8;
		if (t && vdb_num1(t, 0, &th, err) < 0)
			return -1;
		if (th != v->threads)
			plan_warn(vf->plan, "%s:%d: sd=%s has threads=%g but sd=%s has %g: fio's iodepth is one value, "
				  "%g is used", v->sds[i]->file, v->sds[i]->line, v->sds[i]->name, th, v->sds[0]->name,
				  v->threads, v->threads);
	}
	if ((vp = vdef_get(v->sds[0], "range")) && read_range(vp, "sd", &v->range_lo, &v->range_hi, err) < 0)
		return -1;
	if ((vp = vdef_get(v->wds[0], "range"))) {
		double lo, hi, span = v->range_hi - v->range_lo;
		if (read_range(vp, "wd", &lo, &hi, err) < 0)
			return -1;
		/* the wd range is taken within the sd range */
		v->range_hi = v->range_lo + span * hi / 100;
		v->range_lo = v->range_lo + span * lo / 100;
	}
	for (int pass = 0; pass < 3; pass++) {
		const struct vdef *d = pass == 0 ? v->sds[0] : pass == 1 ? v->wds[0] : x->rd;
		if (!(vp = vdef_get(d, "openflags")))
			continue;
		for (size_t i = 0; i < vp->n; i++) {
			const char *f = vp->items[i];
			if (!strcasecmp(f, "o_direct") || !strcasecmp(f, "directio"))
				v->direct = 1;
			else if (!strcasecmp(f, "o_sync"))
				v->syncmode = "sync";
			else if (!strcasecmp(f, "o_dsync"))
				v->syncmode = "dsync";
			else
				plan_warn(vf->plan, "%s:%d: openflags=%s has no fio equivalent and is not translated",
					  vp->file, vp->line, f);
		}
	}
	return 0;
}

/*
 * xfersize=: one size; (min,max,align) as fio's bsrange= and ba=; (size,pct,...) pairs as fio's bssplit=,
 * exactly (whole bytes, whole percentages adding up to 100; 0% items are never used and left out), or refused.
 */
static int read_xfersize(const struct vparam *vp, struct vrun *v, struct errbuf *err)
{
	char buf[64], buf2[64];
	struct strbuf sb;
	double total = 0;

	if (vp->n == 1)
		return vdb_num1(vp, 0, &v->xfer, err);
	if (vp->n == 3) {
		double a, b, c;
		if (vdb_num(vp->items[0], 0, &a) < 0 || vdb_num(vp->items[1], 0, &b) < 0 ||
		    vdb_num(vp->items[2], 0, &c) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: xfersize=(min,max,align) wants three sizes", vp->file,
				       vp->line);
		if (a <= 0 || b < a || c <= 0 || a != floor(a) || b != floor(b) || c != floor(c))
			return err_set(err, ERR_INPUT, "%s:%d: xfersize=(min,max,align) wants whole sizes with min <= "
				       "max, got (%s,%s,%s); a distribution is (size,pct) pairs", vp->file, vp->line,
				       vp->items[0], vp->items[1], vp->items[2]);
		fmt_size(buf, sizeof(buf), a);
		fmt_size(buf2, sizeof(buf2), b);
		v->bssplit = xasprintf("range:%s-%s", buf, buf2);
		fmt_size(buf, sizeof(buf), c);
		v->align = xstrdup(buf);
		v->xfer = 0;
		return 0;
	}
	if (vp->n % 2)
		return err_set(err, ERR_INPUT, "%s:%d: xfersize= wants one size, (size,pct,...) pairs or "
			       "(min,max,align)", vp->file, vp->line);
	strbuf_init(&sb);
	for (size_t i = 0; i < vp->n; i += 2) {
		double sz, pct;
		if (vdb_num(vp->items[i], 0, &sz) < 0 || vdb_num(vp->items[i + 1], 0, &pct) < 0 || sz <= 0 || pct < 0) {
			strbuf_release(&sb);
			return err_set(err, ERR_INPUT, "%s:%d: xfersize=(size,pct,...) pairs are not sizes and "
				       "percentages", vp->file, vp->line);
		}
		/* fio's bssplit takes whole sizes and whole percentages (0 means "share the rest") */
		if (sz != floor(sz) || pct != floor(pct)) {
			strbuf_release(&sb);
			return err_set(err, ERR_INPUT, "%s:%d: xfersize=(%s,%s) cannot be translated exactly: fio's "
				       "bssplit wants whole bytes and whole percentages", vp->file, vp->line,
				       vp->items[i], vp->items[i + 1]);
		}
		total += pct;
		if (pct == 0)
			continue; /* never used: left out */
		fmt_size(buf, sizeof(buf), sz);
		fmt_num(buf2, sizeof(buf2), pct);
		strbuf_addf(&sb, "%s%s/%s", sb.len ? ":" : "", buf, buf2);
	}
	if (fabs(total - 100) > 1e-6) {
		strbuf_release(&sb);
		return err_set(err, ERR_INPUT, "%s:%d: xfersize distribution percentages add up to %g, not 100",
			       vp->file, vp->line, total);
	}
	v->bssplit = strbuf_detach(&sb, NULL);
	v->xfer = 0;
	return 0;
}

/* The workload's and run's parameters, the for-loop values over them, and their checks. */
static int read_workload(const struct xlate *x, struct vrun *v, struct errbuf *err)
{
	const struct vfile *vf = x->vf;
	const struct vdef *rd = x->rd, *wd = v->wds[0];
	const struct vparam *vp;
	static const struct { int loop; size_t off; } loop_fields[] = { /* what a for-loop value sets, beside xfersize */
		{ L_THREADS, offsetof(struct vrun, threads) }, { L_RDPCT, offsetof(struct vrun, rdpct) },
		{ L_SEEKPCT, offsetof(struct vrun, seek) },    { L_RHPCT, offsetof(struct vrun, rhpct) },
		{ L_WHPCT, offsetof(struct vrun, whpct) },     { L_COMPRATIO, offsetof(struct vrun, compratio) },
	};
	static const struct { const char *key; int loop; size_t off; } nums[] = {
		{ "rhpct", L_RHPCT, offsetof(struct vrun, rhpct) },
		{ "whpct", L_WHPCT, offsetof(struct vrun, whpct) },
	};

	if ((vp = vdef_get(wd, "xfersize")) && read_xfersize(vp, v, err) < 0)
		return -1;
	if ((vp = vdef_get(wd, "rdpct")) && vdb_num1(vp, 0, &v->rdpct, err) < 0)
		return -1;
	if (!vdef_get(wd, "rdpct") && (vp = vdef_get(wd, "wrpct"))) {
		double w;
		if (vdb_num1(vp, 0, &w, err) < 0)
			return -1;
		v->rdpct = 100 - w;
	}
	if ((vp = vdef_get(wd, "seekpct")) && vdb_seek_value(vp->items[0], vp, &v->seek, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if ((vp = vdef_get(wd, nums[i].key)) &&
		    vdb_num1(vp, 0, (double *)(void *)((char *)v + nums[i].off), err) < 0)
			return -1;
	if ((vp = vdef_get(&vf->general, "compratio")) && vdb_num1(vp, 0, &v->compratio, err) < 0)
		return -1;
	if ((vp = vdef_get(&vf->general, "dedupratio")) && vdb_num1(vp, 0, &v->dedupratio, err) < 0)
		return -1;
	/* the for-loop values override every wd and sd */
	if (x->have[L_XFERSIZE]) {
		v->xfer = x->val[L_XFERSIZE];
		free(v->bssplit);
		free(v->align);
		v->bssplit = v->align = NULL;
	}
	for (size_t i = 0; i < sizeof(loop_fields) / sizeof(loop_fields[0]); i++)
		if (x->have[loop_fields[i].loop])
			*(double *)(void *)((char *)v + loop_fields[i].off) = x->val[loop_fields[i].loop];
	if ((vp = vdef_get(rd, "elapsed")) && vdb_num1(vp, 1, &v->elapsed, err) < 0)
		return -1;
	if ((vp = vdef_get(rd, "warmup")) && vdb_num1(vp, 1, &v->warmup, err) < 0)
		return -1;
	if (v->rdpct < 0 || v->rdpct > 100) {
		vp = vdef_get(wd, "rdpct");
		return err_set(err, ERR_INPUT, "%s:%d: 'rdpct' must be 0..100, got '%g'", vp ? vp->file : rd->file,
			       vp ? vp->line : rd->line, v->rdpct);
	}
	if (v->threads < 1 || v->threads != floor(v->threads) || v->threads > 100000)
		return err_set(err, ERR_INPUT, "%s:%d: 'threads' must be a whole number >= 1, got '%g'",
			       v->sds[0]->file, v->sds[0]->line, v->threads);
	if (!v->bssplit && (v->xfer < 512 || v->xfer != floor(v->xfer)))
		return err_set(err, ERR_INPUT, "%s:%d: 'xfersize' must be a whole number of bytes >= 512, got '%g'",
			       wd->file, wd->line, v->xfer);
	if (v->elapsed <= 0)
		return err_set(err, ERR_INPUT, "%s:%d: 'elapsed' must be > 0", rd->file, rd->line);
	if (v->compratio < 1)
		return err_set(err, ERR_INPUT, "%s:%d: 'compratio' must be >= 1, got '%g'", rd->file, rd->line,
			       v->compratio);
	if (v->rhpct > 0 || v->whpct > 0)
		plan_warn(vf->plan, "%s:%d: rd=%s: rhpct=%g/whpct=%g (cache hit areas) have no fio equivalent: the "
			  "translation reads and writes the whole range", rd->file, rd->line, rd->name, v->rhpct,
			  v->whpct);
	return 0;
}

static void add_num(struct kvlist *o, const char *key, double v, const char *suffix)
{
	char buf[64], out[80];

	fmt_num(buf, sizeof(buf), v);
	snprintf(out, sizeof(out), "%s%s", buf, suffix);
	add_opt(o, key, out);
}

/* Access pattern and block sizes: rw=, percentage_random=, rwmixread=, bs/bssplit/bsrange, iodepth. */
static void access_options(const struct vrun *v, struct kvlist *o)
{
	const double rd = v->rdpct;
	char buf[64];

	if (v->seek <= 0) {
		add_opt(o, "rw", rd >= 100 ? "read" : rd <= 0 ? "write" : "rw");
	} else if (v->seek >= 100) {
		add_opt(o, "rw", rd >= 100 ? "randread" : rd <= 0 ? "randwrite" : "randrw");
	} else {
		add_opt(o, "rw", "randrw");
		add_num(o, "percentage_random", v->seek, "");
	}
	if (!strcmp(kvlist_get(o, "rw", ""), "randrw") || !strcmp(kvlist_get(o, "rw", ""), "rw"))
		add_num(o, "rwmixread", rd, "");
	if (v->bssplit && !strncmp(v->bssplit, "range:", 6)) {
		add_opt(o, "bsrange", v->bssplit + 6);
	} else if (v->bssplit) {
		add_opt(o, "bssplit", v->bssplit);
	} else {
		fmt_size(buf, sizeof(buf), v->xfer);
		add_opt(o, "bs", buf);
	}
	add_num(o, "iodepth", v->threads, "");
}

/* Option `key` of o set to the size the sd parameter vp gives (bytes, as fio size text); -1 with err. */
static int add_size(struct kvlist *o, const char *key, const struct vparam *vp, struct errbuf *err)
{
	char buf[64];
	double bytes;

	if (vdb_num1(vp, 0, &bytes, err) < 0)
		return -1;
	fmt_size(buf, sizeof(buf), bytes);
	add_opt(o, key, buf);
	return 0;
}

/* The fio options of one run, after the suite's base options. */
static int fio_options(const struct xlate *x, const struct vrun *v, const struct kvlist *base_opts,
		       struct kvlist *o, struct errbuf *err)
{
	const struct vparam *vp;

	if (v->align)
		kvlist_add(o, "ba", v->align); /* first, where the reading of xfersize= has always put it */
	if (base_opts)
		kvlist_copy(o, base_opts);
	add_opt(o, "ioengine", kvlist_get(base_opts ? base_opts : o, "ioengine", "libaio"));
	if (v->direct)
		add_opt(o, "direct", "1");
	if (v->syncmode)
		add_opt(o, "sync", v->syncmode);
	access_options(v, o);
	if (v->range_lo > 0)
		add_num(o, "offset", v->range_lo, "%");
	if ((vp = vdef_get(v->sds[0], "size"))) {
		if (add_size(o, "size", vp, err) < 0)
			return -1;
	} else if (v->range_lo > 0 || v->range_hi < 100 || vdef_get(v->sds[0], "range") ||
		   vdef_get(v->wds[0], "range")) {
		add_num(o, "size", v->range_hi - v->range_lo, "%");
	}
	if ((vp = vdef_get(v->sds[0], "offset")) && add_size(o, "offset", vp, err) < 0)
		return -1;
	if (v->seek >= 0)
		add_opt(o, "time_based", NULL);
	add_num(o, "runtime", ceil(v->elapsed), "");
	add_num(o, "ramp_time", ceil(v->warmup), "");
	/* vdbench's iorate is for the whole run; fio's rate_iops is per job: one job per target */
	if (x->iorate > 0)
		add_num(o, "rate_iops", ceil(x->iorate / (double)v->nsd), "");
	if (v->compratio > 1)
		add_num(o, "buffer_compress_percentage", round(100.0 * (1.0 - 1.0 / v->compratio)), "");
	if (v->dedupratio > 1) {
		add_num(o, "dedupe_percentage", round(100.0 * (1.0 - 1.0 / v->dedupratio)), "");
		plan_warn(x->vf->plan, "%s: dedupratio=%g is translated as fio dedupe_percentage=%s (approximate: "
			  "vdbench dedup units and sets are not modelled)", x->rd->file, v->dedupratio,
			  kvlist_get(o, "dedupe_percentage", ""));
	}
	return 0;
}

/* Name and labels: the rd's name, with the for-loop values that tell expanded runs apart. */
static void name_run(const struct xlate *x, const struct vrun *v, struct run_spec *s, int *explicit_name)
{
	struct strbuf sb;
	char buf[64];

	strbuf_init(&sb);
	if (x->curve_pct > 0)
		strbuf_addf(&sb, "%s_(%g%%)", x->rd->name, x->curve_pct);
	else
		strbuf_adds(&sb, x->rd->name);
	s->name = strbuf_detach(&sb, NULL);
	kvlist_set(&s->labels, "vdbench.rd", x->rd->name);
	kvlist_set(&s->labels, "vdbench.wd", v->wds[0]->name);
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
	strbuf_release(&sb);
	/* curve points keep vdbench's own name; the others get an HCIbench-style name where it fits */
	*explicit_name = x->curve_pct > 0;
	/* the run loop sets a point's rate (bench/runloop_method.c); vdbench.curve_pct= says where it came from */
	if (x->curve_pct > 0) {
		fmt_num(buf, sizeof(buf), x->curve_pct);
		kvlist_set(&s->labels, "vdbench.curve_pct", buf);
		s->method.kind = RUN_METHOD_CURVE_POINT;
		s->method.curve_pct = x->curve_pct;
	} else if (x->curve_max) {
		s->method.kind = RUN_METHOD_CURVE_MAX;
	}
	if (x->stopcurve_ms > 0)
		s->method.stopcurve_ms = x->stopcurve_ms;
}

/* One run of an rd (one point of its for-loops) as one fio workload appended to `out`. */
static int translate(const struct xlate *x, const struct kvlist *base_opts, struct profile_workloads *out,
		     struct errbuf *err)
{
	struct vrun v;
	struct kvlist o;
	struct run_spec *s;
	int rc = -1;

	vrun_init(&v);
	kvlist_init(&o);
	if (select_storage(x, &v, err) < 0 || read_storage(x, &v, err) < 0 || read_workload(x, &v, err) < 0 ||
	    fio_options(x, &v, base_opts, &o, err) < 0)
		goto out;
	s = workloads_add(out);
	for (size_t i = 0; i < v.nsd; i++)
		run_spec_add_target(s, vdef_get(v.sds[i], "lun")->items[0]);
	if (workload_from_fio(&s->wl, &o, x->rd->file, x->rd->line, err) < 0)
		goto out;
	free(s->wl.tool);
	s->wl.tool = xstrdup("vdbench");
	name_run(x, &v, s, &out->explicit_name[out->n - 1]);
	rc = 0;
out:
	vrun_release(&v);
	kvlist_release(&o);
	return rc;
}

static int expand_rd(struct vfile *vf, const struct vdef *rd, const struct kvlist *base_opts,
		     struct profile_workloads *out, struct errbuf *err)
{
	struct loop loops[L_NR];
	size_t nloops = 0, total = 1;
	double *rates = NULL, curve[32], stopcurve_ms = 0;
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
				if (vdb_seek_value(rd->p[i].items[k], &rd->p[i], &l.v[k], err) < 0) {
					free(l.v);
					goto out;
				}
			l.n = rd->p[i].n;
		} else if (vdb_nums(&rd->p[i], 0, &l.v, &l.n, err) < 0) {
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
			} else if (vdb_num(vp->items[k], 0, &rates[k]) < 0 || rates[k] <= 0) {
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
				if (vdb_num(vp->items[k], 0, &curve[ncurve++]) < 0 || curve[ncurve - 1] <= 0) {
					err_set(err, ERR_INPUT, "%s:%d: curve= wants percentages", vp->file, vp->line);
					goto out;
				}
		} else {
			for (size_t k = 0; k < 6; k++)
				curve[ncurve++] = def_curve[k];
		}
		plan_warn(vf->plan, "%s:%d: rd=%s uses iorate=curve: each curve point (%s_(NN%%)) runs with rate_iops "
			  "set at run time to NN%% of the max run's measured IO/s, and is flagged (curve.miss_pct) when "
			  "it misses that by more than 5%% (docs/method.md)", rd->file, rd->line, rd->name, rd->name);
		if ((vp = vdef_get(rd, "stopcurve")) &&
		    (vdb_num(vp->items[0], 0, &stopcurve_ms) < 0 || !(stopcurve_ms > 0))) {
			err_set(err, ERR_INPUT, "%s:%d: stopcurve= wants a latency in ms > 0", vp->file, vp->line);
			goto out;
		}
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
			x.curve_max = rates[q] == -2;
			x.stopcurve_ms = rates[q] == -2 ? stopcurve_ms : 0;
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

static int expand(struct vfile *vf, const char *file, const struct kvlist *base_opts, struct profile_workloads *out,
		  struct errbuf *err)
{
	size_t nrd = 0, before = out->n;

	for (size_t i = 0; i < vf->n; i++) {
		const struct vdef *d = &vf->d[i];
		if (!d->name)
			return err_set(err, ERR_INPUT, "%s:%d: %s= without a name", d->file, d->line, vgroup_name(d->g));
		for (size_t j = 0; j < i; j++)
			if (vf->d[j].g == d->g && vf->d[j].name && !strcmp(vf->d[j].name, d->name) &&
			    strcmp(d->name, "default") && d->g != G_RD)
				return err_set(err, ERR_INPUT, "%s:%d: duplicate %s=%s (first at %s:%d)", d->file, d->line,
					       vgroup_name(d->g), d->name, vf->d[j].file, vf->d[j].line);
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
	vfile_apply_defaults(vf);
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
			struct profile_workloads *out, struct errbuf *err)
{
	struct vfile vf;
	int rc = -1;

	vfile_init(&vf, plan, vars);
	if (vfile_read(&vf, text, len, file, line0, dir, err) < 0)
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

int vdbench_expand_file(const char *path, const struct kvlist *vars, struct plan *plan, struct profile_workloads *out,
			struct errbuf *err)
{
	struct strbuf sb;
	char *dir;
	const char *slash = strrchr(path, '/');
	int rc;

	strbuf_init(&sb);
	if (profile_read_file(&sb, path, err) < 0)
		return -1;
	dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	rc = vdbench_expand_text(sb.buf, sb.len, path, 0, dir, vars, NULL, plan, out, err);
	free(dir);
	strbuf_release(&sb);
	return rc;
}
