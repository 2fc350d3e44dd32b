/*
 * sim_model: the modelled target of the sim ioengine (see sim_model.h for the model, docs/sim.md for users).
 * Plain C11 without fio: the engine glue (sim_engine.c) feeds it submissions and gets completion times back,
 * and tests/unit/test_sim_model.c checks its arithmetic without timing noise.
 */
#include "sim_model.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/rng.h"
#include "core/sim_presets.h"

/* ---------------------------------------------------------------- options */

static const char *const dist_names[] = { "fixed", "lognormal", "empirical", NULL };
static const char *const raid_names[] = { "none", "raid0", "raid1", "raid5", "raid6", "raid10", NULL };

static int sim_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sim_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void sim_config_defaults(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->dist = SIM_DIST_FIXED;
	c->lat_ns = 100e3;
	c->cv = 0.3;
	c->units = 1;
	c->raid = SIM_RAID_NONE;
	c->members = 1;
	c->chunk_bytes = 512 * 1024;
	c->seed = 1;
	c->spin_ns = -1;
}

static int pick(const char *const *names, const char *value, int *out)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], value)) {
			*out = i;
			return 0;
		}
	return -1;
}

static void join(const char *const *names, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
}

/* pick(), or -1 with "sim_OPT: unknown WHAT 'VALUE' (known: the names)" in err. */
static int pick_or_fail(const char *const *names, const char *value, const char *opt, const char *what, int *out,
			char *err, size_t errlen)
{
	char list[128];

	if (pick(names, value, out) == 0)
		return 0;
	join(names, list, sizeof(list));
	return sim_fail(err, errlen, "sim_%s: unknown %s '%s' (known: %s)", opt, what, value, list);
}

static int whole(const char *value, double min, double max, double *out)
{
	double v;
	const char *rest;

	if (sim_parse_number(value, &v, &rest) < 0 || *rest || v != floor(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "START:LEN[:FACTOR][@WHERE]" of sim_stall. */
static int parse_stall(struct sim_config *c, const char *value, char *err, size_t errlen)
{
	char buf[512], *at, *f2, *f3;
	const char *rest;

	snprintf(buf, sizeof(buf), "%s", value);
	at = strchr(buf, '@');
	if (at)
		*at++ = '\0';
	f2 = strchr(buf, ':');
	if (!f2)
		goto bad;
	*f2++ = '\0';
	f3 = strchr(f2, ':');
	if (f3)
		*f3++ = '\0';
	if (sim_parse_duration_ns(buf, &c->stall_at_ns) < 0 || sim_parse_duration_ns(f2, &c->stall_len_ns) < 0)
		goto bad;
	c->stall_factor = 20;
	if (f3 && (sim_parse_number(f3, &c->stall_factor, &rest) < 0 || *rest || c->stall_factor < 1))
		goto bad;
	snprintf(c->stall_where, sizeof(c->stall_where), "%s", at ? at : "");
	return 0;
bad:
	return sim_fail(err, errlen, "sim_stall: '%s' is not START:LEN[:FACTOR][@WHERE] (e.g. 4s:2s, 4s:2s:50@host2; "
		    "durations with ns, us, ms or s)", value);
}

int sim_config_set(struct sim_config *c, const char *name, const char *value, char *err, size_t errlen)
{
	double v;
	int i;

	if (!strcmp(name, "preset")) {
		const struct sim_preset *p;

		if (pick_or_fail(sim_preset_names, value, name, "preset", &i, err, errlen) < 0)
			return -1;
		p = sim_preset_find(sim_preset_names[i]);
		c->transport_ns = p->transport_ns;
		c->link_bw = p->link_bw;
		c->link_iops = p->link_iops;
		c->dist = SIM_DIST_LOGNORMAL;
		c->lat_ns = p->lat_ns;
		c->cv = p->cv;
		c->units = p->units;
		c->iops = p->iops;
		c->bw = p->bw;
		return 0;
	}
	if (!strcmp(name, "transport_lat") || !strcmp(name, "lat") || !strcmp(name, "spin") || !strcmp(name, "cpu")) {
		if (!strcmp(name, "spin") && !strcmp(value, "auto")) {
			c->spin_ns = -1;
			return 0;
		}
		if (sim_parse_duration_ns(value, &v) < 0)
			return sim_fail(err, errlen, "sim_%s: '%s' is not a duration (e.g. 100us, 0.1ms, 100000ns; a bare "
				    "number is microseconds)", name, value);
		if (!strcmp(name, "lat"))
			c->lat_ns = v;
		else if (!strcmp(name, "spin"))
			c->spin_ns = v;
		else if (!strcmp(name, "cpu"))
			c->cpu_ns = v;
		else
			c->transport_ns = v;
		return 0;
	}
	if (!strcmp(name, "stall"))
		return parse_stall(c, value, err, errlen);
	if (!strcmp(name, "link_bw") || !strcmp(name, "bw")) {
		if (sim_parse_bytes(value, &v) < 0)
			return sim_fail(err, errlen, "sim_%s: '%s' is not a bandwidth in bytes per second (e.g. 1000000000 "
				    "or 1e9 for 1 GB/s; k, m, g are powers of 1024)", name, value);
		*(!strcmp(name, "bw") ? &c->bw : &c->link_bw) = v;
		return 0;
	}
	if (!strcmp(name, "link_iops") || !strcmp(name, "iops")) {
		const char *rest;

		if (sim_parse_number(value, &v, &rest) < 0 || *rest)
			return sim_fail(err, errlen, "sim_%s: '%s' is not a number of IOs per second", name, value);
		*(!strcmp(name, "iops") ? &c->iops : &c->link_iops) = v;
		return 0;
	}
	if (!strcmp(name, "dist") || !strcmp(name, "raid")) {
		int is_dist = !strcmp(name, "dist");

		if (pick_or_fail(is_dist ? dist_names : raid_names, value, name, is_dist ? "distribution" : "layout", &i,
				 err, errlen) < 0)
			return -1;
		if (is_dist)
			c->dist = (enum sim_dist)i;
		else
			c->raid = (enum sim_raid)i;
		return 0;
	}
	if (!strcmp(name, "cv")) {
		const char *rest;

		if (sim_parse_number(value, &v, &rest) < 0 || *rest || v > 100)
			return sim_fail(err, errlen, "sim_cv: '%s' is not a coefficient of variation (0 to 100, e.g. 0.3)",
				    value);
		c->cv = v;
		return 0;
	}
	if (!strcmp(name, "hist")) {
		if (!*value || strlen(value) >= sizeof(c->hist_path))
			return sim_fail(err, errlen, "sim_hist: wants the path of a histogram file from 'bench export "
				    "--histogram'");
		memcpy(c->hist_path, value, strlen(value) + 1);
		c->dist = SIM_DIST_EMPIRICAL;
		return 0;
	}
	if (!strcmp(name, "units") || !strcmp(name, "members")) {
		if (whole(value, 1, 65536, &v) < 0)
			return sim_fail(err, errlen, "sim_%s: '%s' is not a whole number from 1 to 65536", name, value);
		*(!strcmp(name, "units") ? &c->units : &c->members) = (unsigned)v;
		return 0;
	}
	if (!strcmp(name, "chunk")) {
		if (sim_parse_bytes(value, &v) < 0 || v < 512 || v != floor(v) || v > (double)(1ULL << 40))
			return sim_fail(err, errlen, "sim_chunk: '%s' is not a chunk size of at least 512 bytes (e.g. 64k)",
				    value);
		c->chunk_bytes = (uint64_t)v;
		return 0;
	}
	if (!strcmp(name, "seed")) {
		char *end;
		unsigned long long s;

		errno = 0;
		s = strtoull(value, &end, 0);
		if (!*value || *end || errno || value[0] == '-')
			return sim_fail(err, errlen, "sim_seed: '%s' is not a whole number", value);
		c->seed = s;
		return 0;
	}
	return sim_fail(err, errlen, "unknown sim option 'sim_%s'", name);
}

int sim_config_check(const struct sim_config *c, char *err, size_t errlen)
{
	unsigned n = c->members;

	switch (c->raid) {
	case SIM_RAID_NONE:
		if (n != 1)
			return sim_fail(err, errlen, "sim_members=%u needs a RAID layout (sim_raid=raid0, ...)", n);
		break;
	case SIM_RAID0:
	case SIM_RAID1:
		if (n < 2)
			return sim_fail(err, errlen, "sim_raid=%s needs sim_members of 2 or more, got %u",
				    raid_names[c->raid], n);
		break;
	case SIM_RAID5:
		if (n < 3)
			return sim_fail(err, errlen, "sim_raid=raid5 needs sim_members of 3 or more, got %u", n);
		break;
	case SIM_RAID6:
		if (n < 4)
			return sim_fail(err, errlen, "sim_raid=raid6 needs sim_members of 4 or more, got %u", n);
		break;
	case SIM_RAID10:
		if (n < 4 || n % 2)
			return sim_fail(err, errlen, "sim_raid=raid10 needs an even sim_members of 4 or more, got %u", n);
		break;
	}
	if (c->dist == SIM_DIST_LOGNORMAL && c->lat_ns <= 0)
		return sim_fail(err, errlen, "sim_dist=lognormal needs a mean sim_lat above 0");
	if (c->dist == SIM_DIST_EMPIRICAL && !c->hist_path[0])
		return sim_fail(err, errlen, "sim_dist=empirical needs sim_hist=FILE (from 'bench export --histogram')");
	return 0;
}

/* ---------------------------------------------------------------- random numbers */

struct rng {
	uint64_t s[4];
	int have_spare;
	double spare;
};

static void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
	r->have_spare = 0;
}

/* xoshiro256** */
static uint64_t rng_next(struct rng *r)
{
	return rng_xoshiro256ss(r->s);
}

/* Uniform in (0, 1). */
static double rng_uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Standard normal (Box-Muller, the second value kept for the next call). */
static double rng_normal(struct rng *r)
{
	double u, v, rad;

	if (r->have_spare) {
		r->have_spare = 0;
		return r->spare;
	}
	u = rng_uniform(r);
	v = rng_uniform(r);
	rad = sqrt(-2.0 * log(u));
	r->spare = rad * sin(2.0 * M_PI * v);
	r->have_spare = 1;
	return rad * cos(2.0 * M_PI * v);
}

/* ---------------------------------------------------------------- empirical histogram */

struct hist_bin {
	double lo, width; /* the bucket's range [lo, lo + width) in ns */
	double cum;       /* cumulative count up to and including this bin */
};

/* fio's bucket layout (reference/fio.md): 64 buckets per power of two, exact below 128. */
static unsigned plat_val_to_idx(uint64_t v)
{
	unsigned msb = 0, eb, idx;

	for (uint64_t x = v; x > 1; x >>= 1)
		msb++;
	if (msb <= 6)
		return (unsigned)v;
	eb = msb - 6;
	idx = ((eb + 1) << 6) + (unsigned)(63 & (v >> eb));
	return idx > 1855 ? 1855 : idx;
}

static void plat_idx_range(unsigned idx, uint64_t v, double *lo, double *width)
{
	unsigned eb;

	if (idx < 128) { /* exact buckets */
		*lo = (double)v;
		*width = 0;
		return;
	}
	eb = (idx >> 6) - 1;
	*lo = (double)((1ULL << (eb + 6)) + (uint64_t)(idx % 64) * (1ULL << eb));
	*width = (double)(1ULL << eb);
	if ((double)v < *lo || (double)v >= *lo + *width) { /* not a bucket value: take it as exact */
		*lo = (double)v;
		*width = 0;
	}
}

static int hist_load(const char *path, struct hist_bin **out, size_t *n_out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	struct hist_bin *bins = NULL;
	size_t n = 0, cap = 0;
	unsigned lineno = 0;
	double total = 0;
	uint64_t prev = 0;

	if (!f)
		return sim_fail(err, errlen, "sim_hist: cannot open '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		unsigned long long v, cnt;

		lineno++;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (end == p || errno || !isspace((unsigned char)*end))
			goto bad;
		p = end;
		cnt = strtoull(p, &end, 10);
		if (end == p || errno)
			goto bad;
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			goto bad;
		if (n && v <= prev) {
			fclose(f);
			free(bins);
			return sim_fail(err, errlen, "%s:%u: latencies must ascend, got %llu after %llu", path, lineno,
				    v, (unsigned long long)prev);
		}
		prev = v;
		if (!cnt)
			continue;
		if (n == cap) {
			struct hist_bin *nb;

			cap = cap ? cap * 2 : 256;
			nb = realloc(bins, cap * sizeof(*bins));
			if (!nb) {
				fclose(f);
				free(bins);
				return sim_fail(err, errlen, "sim_hist: out of memory");
			}
			bins = nb;
		}
		plat_idx_range(plat_val_to_idx(v), v, &bins[n].lo, &bins[n].width);
		total += (double)cnt;
		bins[n].cum = total;
		n++;
	}
	fclose(f);
	if (!n) {
		free(bins);
		return sim_fail(err, errlen, "%s: no latency bins with a count (want lines 'value_ns count')", path);
	}
	*out = bins;
	*n_out = n;
	return 0;
bad:
	fclose(f);
	free(bins);
	return sim_fail(err, errlen, "%s:%u: want 'value_ns count' (two whole numbers)", path, lineno);
}

/* ---------------------------------------------------------------- devices */

struct device {
	double *unit_free; /* min-heap of the units' free times */
	unsigned units;
	double iops_next;  /* earliest start allowed by the IOPS cap */
	double bw_free;    /* when the bandwidth cap's transfer queue is free */
};

static void heap_sift_down(double *h, unsigned n, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;
		double t;

		if (l < n && h[l] < h[m])
			m = l;
		if (r < n && h[r] < h[m])
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

struct op {
	unsigned member;
	double bytes;
	int read_phase; /* 1: a read of a read-modify-write, whose writes wait for it */
};

struct stream {
	int active;      /* a sequential write stream is filling a stripe */
	uint64_t stripe; /* which one */
	uint64_t end;    /* bytes of it written from its start */
};

struct sim_model {
	struct sim_config c;
	struct rng rng;
	double mu, sigma;         /* lognormal parameters */
	struct hist_bin *hist;
	size_t hist_n;
	struct device *dev;
	double link_iops_next, link_bw_free;
	struct op *ops;
	size_t nops, capops;
	struct stream stream;
	unsigned rr;              /* round robin for ties between mirrors */
	unsigned last_reads, last_writes;
	double (*wear)(void *ctx, unsigned member, int write, double bytes); /* sim_model_set_wear; or NULL */
	void *wear_ctx;
	double first_ns;          /* the first IO's submission time, < 0 before it */
};

struct sim_model *sim_model_new(const struct sim_config *c, uint64_t stream, char *err, size_t errlen)
{
	struct sim_model *m;

	if (sim_config_check(c, err, errlen) < 0)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		sim_fail(err, errlen, "sim: out of memory");
		return NULL;
	}
	m->c = *c;
	m->first_ns = -1;
	if (c->stall_len_ns > 0 && c->stall_where[0]) {
		char cwd[4096];
		if (!getcwd(cwd, sizeof(cwd)) || !strstr(cwd, c->stall_where))
			m->c.stall_len_ns = 0; /* another host: no stall here */
	}
	rng_seed(&m->rng, c->seed, stream);
	if (c->dist == SIM_DIST_LOGNORMAL) {
		double s2 = log(1.0 + c->cv * c->cv);

		m->sigma = sqrt(s2);
		m->mu = log(c->lat_ns) - s2 / 2.0;
	}
	if (c->dist == SIM_DIST_EMPIRICAL && hist_load(c->hist_path, &m->hist, &m->hist_n, err, errlen) < 0)
		goto fail;
	m->dev = calloc(c->members, sizeof(*m->dev));
	if (!m->dev)
		goto oom;
	for (unsigned i = 0; i < c->members; i++) {
		m->dev[i].units = c->units;
		m->dev[i].unit_free = calloc(c->units, sizeof(double));
		if (!m->dev[i].unit_free)
			goto oom;
	}
	return m;
oom:
	sim_fail(err, errlen, "sim: out of memory");
fail:
	sim_model_free(m);
	return NULL;
}

void sim_model_free(struct sim_model *m)
{
	if (!m)
		return;
	if (m->dev)
		for (unsigned i = 0; i < m->c.members; i++)
			free(m->dev[i].unit_free);
	free(m->dev);
	free(m->hist);
	free(m->ops);
	free(m);
}

double sim_model_draw(struct sim_model *m)
{
	switch (m->c.dist) {
	case SIM_DIST_LOGNORMAL:
		return exp(m->mu + m->sigma * rng_normal(&m->rng));
	case SIM_DIST_EMPIRICAL: {
		double target = rng_uniform(&m->rng) * m->hist[m->hist_n - 1].cum;
		size_t lo = 0, hi = m->hist_n - 1;

		while (lo < hi) { /* first bin whose cumulative count exceeds target */
			size_t mid = (lo + hi) / 2;

			if (m->hist[mid].cum > target)
				hi = mid;
			else
				lo = mid + 1;
		}
		return m->hist[lo].lo + rng_uniform(&m->rng) * m->hist[lo].width;
	}
	case SIM_DIST_FIXED:
	default:
		return m->c.lat_ns;
	}
}

/* Reserves one operation on a device from `ready`; returns its end, and its duration in *dur. */
static double device_reserve(struct sim_model *m, struct device *d, double ready, double bytes, double factor,
			     double *dur)
{
	double start = d->unit_free[0], end;

	if (start < ready)
		start = ready;
	if (m->c.iops > 0) {
		if (start < d->iops_next)
			start = d->iops_next;
		d->iops_next = start + 1e9 / m->c.iops;
	}
	end = start + sim_model_draw(m) * factor;
	if (m->c.stall_len_ns > 0 && start - m->first_ns >= m->c.stall_at_ns &&
	    start - m->first_ns < m->c.stall_at_ns + m->c.stall_len_ns)
		end = start + (end - start) * m->c.stall_factor;
	if (m->c.bw > 0) {
		double xs = d->bw_free > start ? d->bw_free : start;

		d->bw_free = xs + bytes * 1e9 / m->c.bw;
		if (end < d->bw_free)
			end = d->bw_free;
	}
	d->unit_free[0] = end;
	heap_sift_down(d->unit_free, d->units, 0);
	*dur = end - start;
	return end;
}

static void add_op(struct sim_model *m, unsigned member, double bytes, int read_phase)
{
	if (m->nops == m->capops) {
		size_t cap = m->capops ? m->capops * 2 : 64;
		struct op *n = realloc(m->ops, cap * sizeof(*n));

		if (!n)
			abort(); /* out of memory inside fio's IO path: nothing sensible is left to do */
		m->ops = n;
		m->capops = cap;
	}
	m->ops[m->nops].member = member;
	m->ops[m->nops].bytes = bytes;
	m->ops[m->nops].read_phase = read_phase;
	m->nops++;
}

/* The mirror (of `a`, `b`) whose first unit frees first; alternates on ties. */
static unsigned least_loaded(struct sim_model *m, unsigned a, unsigned b)
{
	double fa = m->dev[a].unit_free[0], fb = m->dev[b].unit_free[0];

	if (fa < fb)
		return a;
	if (fb < fa)
		return b;
	return (m->rr++ & 1) ? b : a;
}

static unsigned parity_count(const struct sim_model *m)
{
	return m->c.raid == SIM_RAID6 ? 2 : 1;
}

/* Member of data chunk i (0-based) and of parity j of stripe s (left-symmetric rotation). */
static unsigned parity_member(const struct sim_model *m, uint64_t s, unsigned j)
{
	unsigned n = m->c.members;

	return (unsigned)((n - 1 - (s % n) + j) % n);
}

static unsigned data_member(const struct sim_model *m, uint64_t s, unsigned i)
{
	return (parity_member(m, s, 0) + parity_count(m) + i) % m->c.members;
}

/*
 * A partial-stripe update of data range [a, b) of stripe s (bytes within the stripe's data): reads, by
 * read-modify-write (old data + old parity) or reconstruct-write (the same rows of the chunks not written),
 * whichever needs fewer reads (md's choice), then the parity writes, and the data writes when `data` is set.
 * Rows are counted in bytes: the parity range is min(chunk, b - a).
 */
static void partial_stripe(struct sim_model *m, uint64_t s, uint64_t a, uint64_t b, int data)
{
	uint64_t k = m->c.chunk_bytes;
	unsigned d = m->c.members - parity_count(m), p = parity_count(m);
	unsigned touched = 0;
	uint64_t pbytes = b - a < k ? b - a : k;

	for (unsigned i = 0; i < d; i++) {
		uint64_t lo = i * k, hi = lo + k, x = a > lo ? a : lo, y = b < hi ? b : hi;

		if (x < y)
			touched++;
	}
	if (touched + p <= d - touched) { /* read-modify-write: old data and old parity */
		for (unsigned i = 0; i < d; i++) {
			uint64_t lo = i * k, hi = lo + k, x = a > lo ? a : lo, y = b < hi ? b : hi;

			if (x < y)
				add_op(m, data_member(m, s, i), (double)(y - x), 1);
		}
		for (unsigned j = 0; j < p; j++)
			add_op(m, parity_member(m, s, j), (double)pbytes, 1);
	} else { /* reconstruct-write: the same rows of the data chunks not written */
		for (unsigned i = 0; i < d; i++) {
			uint64_t lo = i * k, hi = lo + k, x = a > lo ? a : lo, y = b < hi ? b : hi;

			if (x >= y)
				add_op(m, data_member(m, s, i), (double)pbytes, 1);
		}
	}
	for (unsigned j = 0; j < p; j++)
		add_op(m, parity_member(m, s, j), (double)pbytes, 0);
	if (data)
		for (unsigned i = 0; i < d; i++) {
			uint64_t lo = i * k, hi = lo + k, x = a > lo ? a : lo, y = b < hi ? b : hi;

			if (x < y)
				add_op(m, data_member(m, s, i), (double)(y - x), 0);
		}
}

/* Data writes of [a, b) of stripe s, without parity. */
static void stripe_data_writes(struct sim_model *m, uint64_t s, uint64_t a, uint64_t b)
{
	uint64_t k = m->c.chunk_bytes;
	unsigned d = m->c.members - parity_count(m);

	for (unsigned i = 0; i < d; i++) {
		uint64_t lo = i * k, hi = lo + k, x = a > lo ? a : lo, y = b < hi ? b : hi;

		if (x < y)
			add_op(m, data_member(m, s, i), (double)(y - x), 0);
	}
}

static void stream_flush(struct sim_model *m)
{
	if (m->stream.active && m->stream.end)
		partial_stripe(m, m->stream.stripe, 0, m->stream.end, 0);
	m->stream.active = 0;
}

static void parity_write(struct sim_model *m, uint64_t off, uint64_t len)
{
	unsigned d = m->c.members - parity_count(m), p = parity_count(m);
	uint64_t w = (uint64_t)d * m->c.chunk_bytes;

	for (uint64_t s = off / w; s <= (off + len - 1) / w; s++) {
		uint64_t base = s * w;
		uint64_t a = off > base ? off - base : 0, b = off + len < base + w ? off + len - base : w;
		int cont = m->stream.active && m->stream.stripe == s && a == m->stream.end;

		if (a == 0 && b == w) { /* full stripe: no reads */
			if (m->stream.active && m->stream.stripe == s)
				m->stream.active = 0;
			stripe_data_writes(m, s, 0, w);
			for (unsigned j = 0; j < p; j++)
				add_op(m, parity_member(m, s, j), (double)m->c.chunk_bytes, 0);
		} else if (cont || a == 0) { /* a sequential stream fills the stripe: parity when it is full */
			if (!cont)
				stream_flush(m);
			stripe_data_writes(m, s, a, b);
			m->stream.active = 1;
			m->stream.stripe = s;
			m->stream.end = b;
			if (b == w) {
				m->stream.active = 0;
				for (unsigned j = 0; j < p; j++)
					add_op(m, parity_member(m, s, j), (double)m->c.chunk_bytes, 0);
			}
		} else {
			if (m->stream.active && m->stream.stripe == s)
				stream_flush(m);
			partial_stripe(m, s, a, b, 1);
		}
	}
}

/* Member operations of one IO. */
static void plan(struct sim_model *m, enum sim_op op, uint64_t off, uint64_t len)
{
	unsigned n = m->c.members;
	uint64_t k = m->c.chunk_bytes;

	m->nops = 0;
	if (op == SIM_SYNC) {
		for (unsigned i = 0; i < n; i++)
			add_op(m, i, 0, 0);
		return;
	}
	if (!len)
		len = 1;
	switch (m->c.raid) {
	case SIM_RAID_NONE:
		add_op(m, 0, op == SIM_TRIM ? 0 : (double)len, 0);
		return;
	case SIM_RAID1:
		if (op == SIM_READ) {
			unsigned best = m->rr++ % n;

			for (unsigned i = 0; i < n; i++)
				if (m->dev[i].unit_free[0] < m->dev[best].unit_free[0])
					best = i;
			add_op(m, best, (double)len, 0);
		}
		else
			for (unsigned i = 0; i < n; i++)
				add_op(m, i, op == SIM_TRIM ? 0 : (double)len, 0);
		return;
	case SIM_RAID0:
	case SIM_RAID10: {
		unsigned cols = m->c.raid == SIM_RAID0 ? n : n / 2;

		for (uint64_t c = off / k; c <= (off + len - 1) / k; c++) {
			uint64_t lo = c * k, x = off > lo ? off : lo, y = off + len < lo + k ? off + len : lo + k;
			double bytes = op == SIM_TRIM ? 0 : (double)(y - x);
			unsigned col = (unsigned)(c % cols);

			if (m->c.raid == SIM_RAID0)
				add_op(m, col, bytes, 0);
			else if (op == SIM_READ)
				add_op(m, least_loaded(m, 2 * col, 2 * col + 1), bytes, 0);
			else {
				add_op(m, 2 * col, bytes, 0);
				add_op(m, 2 * col + 1, bytes, 0);
			}
		}
		return;
	}
	case SIM_RAID5:
	case SIM_RAID6: {
		unsigned d = n - parity_count(m);
		uint64_t w = (uint64_t)d * k;

		if (op == SIM_WRITE) {
			parity_write(m, off, len);
			return;
		}
		for (uint64_t c = off / k; c <= (off + len - 1) / k; c++) {
			uint64_t lo = c * k, x = off > lo ? off : lo, y = off + len < lo + k ? off + len : lo + k;

			add_op(m, data_member(m, c / d, (unsigned)(c % d)), op == SIM_TRIM ? 0 : (double)(y - x), 0);
		}
		(void)w;
		return;
	}
	}
}

void sim_model_set_wear(struct sim_model *m, double (*factor)(void *ctx, unsigned member, int write, double bytes),
			void *ctx)
{
	m->wear = factor;
	m->wear_ctx = ctx;
}

/* The wear hook's device-time factor for one member operation (1 without a hook). */
static double wear_factor(struct sim_model *m, unsigned member, int write, double bytes)
{
	return m->wear ? m->wear(m->wear_ctx, member, write, bytes) : 1.0;
}

double sim_model_submit(struct sim_model *m, double now_ns, enum sim_op op, uint64_t offset, uint64_t len)
{
	double t = now_ns + m->c.transport_ns, reads_done = t, done = t;
	double bytes = (op == SIM_READ || op == SIM_WRITE) ? (double)len : 0;

	if (m->first_ns < 0)
		m->first_ns = now_ns;
	if (m->c.link_iops > 0) {
		if (t < m->link_iops_next)
			t = m->link_iops_next;
		m->link_iops_next = t + 1e9 / m->c.link_iops;
	}
	if (m->c.link_bw > 0 && bytes > 0) {
		if (t < m->link_bw_free)
			t = m->link_bw_free;
		t += bytes * 1e9 / m->c.link_bw;
		m->link_bw_free = t;
	}
	plan(m, op, offset, len);
	m->last_reads = m->last_writes = 0;
	/* Reads of a read-modify-write first: their writes wait for them. */
	for (size_t i = 0; i < m->nops; i++) {
		double dur, end;

		if (!m->ops[i].read_phase)
			continue;
		end = device_reserve(m, &m->dev[m->ops[i].member], t, m->ops[i].bytes,
				     wear_factor(m, m->ops[i].member, 0, m->ops[i].bytes), &dur);
		if (end > reads_done)
			reads_done = end;
		m->last_reads++;
	}
	/*
	 * The other operations are reserved from t as well (no idle gap is left on a unit), but one that depends
	 * on reads cannot end before the reads plus its own duration.
	 */
	for (size_t i = 0; i < m->nops; i++) {
		double dur, end;

		if (m->ops[i].read_phase)
			continue;
		end = device_reserve(m, &m->dev[m->ops[i].member], t, m->ops[i].bytes,
				     wear_factor(m, m->ops[i].member, op == SIM_WRITE, m->ops[i].bytes), &dur);
		if (end < reads_done + dur)
			end = reads_done + dur;
		if (end > done)
			done = end;
		m->last_writes++;
	}
	if (reads_done > done)
		done = reads_done;
	return done;
}

void sim_model_last_ops(const struct sim_model *m, unsigned *rmw_reads, unsigned *others)
{
	*rmw_reads = m->last_reads;
	*others = m->last_writes;
}
