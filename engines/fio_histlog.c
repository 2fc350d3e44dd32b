/*
 * fio_histlog: fio latency histogram logs into histogram samples (see fio_histlog.h). Histogram logs are small
 * (one line per interval and direction), so lines are read whole with getline and kept until the interval
 * length is known.
 */
#include "engines/fio_histlog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "engines/fio_logname.h"

void fio_histlog_bucket_range(unsigned idx, int64_t *lo_ns, int64_t *hi_ns)
{
	unsigned g = idx / 64, b = idx % 64;
	int64_t width = g <= 1 ? 1 : (int64_t)1 << (g - 1);
	int64_t base = g == 0 ? 0 : (int64_t)64 << (g - 1);

	*lo_ns = base + (int64_t)b * width;
	*hi_ns = *lo_ns + width;
}

int fio_histlog_name(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *at;

	base = base ? base + 1 : path;
	at = strstr(base, "_hist.");
	return at && strstr(at, ".log") != NULL;
}

int fio_histlog_client_name(const char *path)
{
	const char *base = strrchr(path, '/'), *at;

	base = base ? base + 1 : path;
	at = strstr(base, "_hist.");
	at = at ? strstr(at, ".log.") : NULL;
	return at && at[5] != '\0';
}

/* One line: its time, direction and the offset of its counts in the shared array. */
struct hline {
	int64_t t_ms;
	unsigned ddir;
	size_t off;
};

struct hfile {
	struct hline *l;
	size_t n, cap;
	uint64_t *counts; /* n * nb */
	size_t ccap;
	unsigned nb;      /* buckets per line */
};

static int parse_line(struct hfile *h, char *s, const char *path, long lineno, struct errbuf *err)
{
	uint64_t v[3];
	unsigned nb = 0;
	char *end;

	for (int k = 0; k < 3; k++) {
		errno = 0;
		v[k] = strtoull(s, &end, 10);
		if (end == s || errno || *end != ',')
			return err_set(err, ERR_INPUT, "%s:%ld: expected 'time, ddir, bs, counts...' in a fio histogram log",
				       path, lineno);
		s = end + 1;
	}
	if (v[1] > 2)
		return err_set(err, ERR_INPUT, "%s:%ld: direction must be 0, 1 or 2", path, lineno);
	ARRAY_GROW(h->l, h->cap, h->n + 1);
	h->l[h->n].t_ms = (int64_t)v[0];
	h->l[h->n].ddir = (unsigned)v[1];
	h->l[h->n].off = h->n * (h->nb ? h->nb : FIO_HISTLOG_BUCKETS);
	for (;;) {
		uint64_t c;
		while (*s == ' ')
			s++;
		errno = 0;
		c = strtoull(s, &end, 10);
		if (end == s || errno || *s == '-')
			return err_set(err, ERR_INPUT, "%s:%ld: bad bucket count in a fio histogram log", path, lineno);
		if (nb >= FIO_HISTLOG_BUCKETS || (h->nb && nb >= h->nb))
			return err_set(err, ERR_INPUT, "%s:%ld: more buckets than the first line's (%u)", path, lineno,
				       h->nb ? h->nb : FIO_HISTLOG_BUCKETS);
		ARRAY_GROW(h->counts, h->ccap, h->l[h->n].off + nb + 1);
		h->counts[h->l[h->n].off + nb++] = c;
		s = end;
		while (*s == ' ' || *s == '\r' || *s == '\n')
			s++;
		if (!*s)
			break;
		if (*s != ',')
			return err_set(err, ERR_INPUT, "%s:%ld: expected ', ' between bucket counts", path, lineno);
		s++;
	}
	if (!h->nb) {
		/* 1856 >> log_hist_coarseness */
		unsigned c = 0;
		while (c < 8 && (FIO_HISTLOG_BUCKETS >> c) != (int)nb)
			c++;
		if (c == 8)
			return err_set(err, ERR_INPUT, "%s:%ld: %u buckets: fio 3.x writes 1856 >> log_hist_coarseness",
				       path, lineno, nb);
		h->nb = nb;
	} else if (nb != h->nb) {
		return err_set(err, ERR_INPUT, "%s:%ld: %u buckets, the first line had %u", path, lineno, nb, h->nb);
	}
	h->n++;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* log_hist_msec from the stamps: the median step of a direction's lines, to 10 ms (fio stamps drift). */
static unsigned infer_ms(const struct hfile *h)
{
	int64_t last[3] = { -1, -1, -1 }, *step = xcalloc(h->n + 1, sizeof(int64_t)), best;
	size_t n = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (last[h->l[i].ddir] >= 0 && h->l[i].t_ms > last[h->l[i].ddir])
			step[n++] = h->l[i].t_ms - last[h->l[i].ddir];
		last[h->l[i].ddir] = h->l[i].t_ms;
	}
	qsort(step, n, sizeof(*step), cmp_i64);
	best = n ? step[n / 2] : h->l[0].t_ms;
	free(step);
	if (best >= 50)
		best = (best + 5) / 10 * 10;
	return best > 0 && best < INT32_MAX ? (unsigned)best : 0;
}

/*
 * fio 3.33's client (fio --client) writes the histogram logs its servers send with each line's counts
 * chained: line k holds C_k - line(k-1) instead of C_k - C_(k-1) (C: the cumulative histogram of that
 * direction), so a steady load shows counts growing by half its rate per line. The true interval counts are
 * line(k) - line(k-2) per bucket (lines of one direction; missing ones are 0). Applied when every result
 * is >= 0; returns 1 if applied, 0 if the file does not have that shape (left as it is).
 */
static int unchain(struct hfile *h)
{
	uint64_t *orig = xcalloc((size_t)h->n * h->nb + 1, sizeof(uint64_t));
	long prev[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }; /* the last two lines of each direction */
	int ok = 1;

	memcpy(orig, h->counts, (size_t)h->n * h->nb * sizeof(uint64_t));
	for (size_t i = 0; i < h->n && ok; i++) {
		unsigned d = h->l[i].ddir;
		long two_back = prev[d][1];
		for (unsigned b = 0; b < h->nb && two_back >= 0; b++) {
			uint64_t cur = orig[h->l[i].off + b], old = orig[h->l[two_back].off + b];
			if (cur < old)
				ok = 0;
			h->counts[h->l[i].off + b] = cur - old;
		}
		prev[d][1] = prev[d][0];
		prev[d][0] = (long)i;
	}
	if (!ok)
		memcpy(h->counts, orig, (size_t)h->n * h->nb * sizeof(uint64_t));
	free(orig);
	return ok;
}

static void emit(const struct hfile *h, const char *path, const char *host, int64_t t0_ms, unsigned ms,
		 struct run_result *out)
{
	static const char *const dirs[3] = { "read", "write", "trim" };
	unsigned coarse = 0;
	char job[48];

	while ((unsigned)(FIO_HISTLOG_BUCKETS >> coarse) != h->nb)
		coarse++;
	fio_log_job_from_name(path, job, sizeof(job));
	for (size_t i = 0; i < h->n; i++) {
		char metric[32];
		snprintf(metric, sizeof(metric), "clat_hist.%s", dirs[h->l[i].ddir]);
		for (unsigned b = 0; b < h->nb; b++) {
			uint64_t c = h->counts[h->l[i].off + b];
			int64_t lo, hi, dummy;
			struct sample *x;
			if (!c)
				continue;
			fio_histlog_bucket_range(b << coarse, &lo, &dummy);
			fio_histlog_bucket_range(((b + 1) << coarse) - 1, &dummy, &hi);
			run_result_add_sample(out, host, metric, h->l[i].t_ms - t0_ms, (double)c);
			x = &out->samples[out->nsamples - 1];
			snprintf(x->job, sizeof(x->job), "%s", job);
			snprintf(x->source, sizeof(x->source), "fio-histlog");
			x->window_ms = ms;
			x->is_bin = 1;
			x->bucket_lo_ns = lo;
			x->bucket_hi_ns = hi;
		}
	}
}

long fio_histlog_read(const char *path, const char *host, int64_t t0_ms, unsigned hist_ms, unsigned flags,
		      struct run_result *out, struct errbuf *err)
{
	struct hfile h = { 0 };
	struct stat sb;
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0, ret = -1;
	FILE *f;

	if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
		return err_set(err, ERR_INPUT, "%s: not a regular file", path);
	f = fopen(path, "r");
	if (!f)
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if (line[0] == '\n' || line[0] == '\r')
			continue;
		if (parse_line(&h, line, path, lineno, err) < 0)
			goto out;
	}
	if (!h.n) {
		err_set(err, ERR_INPUT, "%s: empty fio histogram log, no data lines", path);
		goto out;
	}
	if (flags & FIO_HISTLOG_CLIENT)
		unchain(&h);
	emit(&h, path, host, t0_ms, hist_ms ? hist_ms : infer_ms(&h), out);
	ret = (long)h.n;
out:
	fclose(f);
	free(line);
	free(h.l);
	free(h.counts);
	return ret;
}
