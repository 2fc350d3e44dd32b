/*
 * fio_log: fast reading of fio log files into per-interval samples and latency histograms (see fio_log.h).
 *
 * Speed matters: a per-IO log of a long run has hundreds of millions of lines (issue 19: >= 40 million lines
 * a CPU-second). The file is read in 256 KiB chunks (memory stays flat) in one pass. A line as fio writes it
 * goes through parse_line: numbers read 8 bytes at a time (SWAR: no strtoull, no per-digit loop), separators
 * checked with 16-bit compares, the time stamp converted only when its digits change; anything else (more
 * spaces, 8 digits or more, fractions, malformed lines) is read again, every field checked, by
 * parse_line_slow, which says what is wrong. The interval is looked up only when the time stamp changes; the
 * histogram index is fio's plat_val_to_idx without a branch. Everything a line contributes goes into fixed
 * arrays, so memory does not grow with the number of lines.
 */
#include "engines/fio_log.h"
#include "engines/fio_logname.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/aggregate.h"
#include "core/strbuf.h"
#include "engines/fio_histlog.h"

#if defined(__GNUC__) && !defined(__clang__)
/*
 * GCC's block vectorizer makes one 2-lane add of a cell's n++ and sum += v in the parse loop, and building
 * the vector costs more than the two adds (5 instructions of ~160 a line).
 */
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

static const char *const kind_names[FIO_LOG_KINDS] = { "lat", "clat", "slat", "bw", "iops" };
static const char *const dir_names[3] = { "read", "write", "trim" };

const char *fio_log_kind_name(enum fio_log_kind k)
{
	return (unsigned)k < FIO_LOG_KINDS ? kind_names[k] : "?";
}

/*
 * fio's plat_val_to_idx: values below 128 are their own bucket; above, with eb = msb - 6, bucket
 * ((eb + 1) << 6) + the 6 bits below the msb, which is (eb << 6) + (v >> eb) since v >> eb is 64 + those
 * bits. v | 64 makes eb 0 below 128, where (eb << 6) + (v >> eb) is v: no branch.
 */
unsigned fio_hist_val_to_idx(uint64_t v)
{
	unsigned eb = 57u - (unsigned)__builtin_clzll(v | 64);
	uint64_t idx = ((uint64_t)eb << 6) + (v >> eb);

	return idx < FIO_HIST_NR ? (unsigned)idx : FIO_HIST_NR - 1;
}

uint64_t fio_hist_idx_to_val(unsigned idx)
{
	unsigned eb;

	if (idx < 128)
		return idx;
	eb = (idx >> 6) - 1;
	return (1ULL << (eb + 6)) + (uint64_t)(((double)(idx % 64) + 0.5) * (double)(1ULL << eb));
}

void fio_log_release(struct fio_log *l)
{
	if (!l)
		return;
	free(l->win);
	free(l->ent);
	for (int d = 0; d < 3; d++)
		free(l->hist[d]);
	fio_log_init(l);
}

void fio_log_init(struct fio_log *l)
{
	memset(l, 0, sizeof(*l));
	l->window_ms = 1000;
}

int fio_log_kind_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *suffixes[FIO_LOG_KINDS] = { "_lat.", "_clat.", "_slat.", "_bw.", "_iops." };
	int best = -1;
	const char *best_at = NULL;

	base = base ? base + 1 : path;
	if (strstr(base, "_hist."))
		return -1; /* histogram logs have another format */
	for (int k = 0; k < FIO_LOG_KINDS; k++) {
		const char *at = NULL, *p = base;
		/* the last occurrence: a job name may itself contain "_lat." */
		while ((p = strstr(p, suffixes[k])) != NULL)
			at = p++;
		if (!at)
			continue;
		/* then "log" or "N.log" (optionally compressed logs are not read) */
		p = at + strlen(suffixes[k]);
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.')
			p++;
		if (strcmp(p, "log"))
			continue;
		if (!best_at || at > best_at) {
			best = k;
			best_at = at;
		}
	}
	return best;
}

/* ---- the parser ------------------------------------------------------------------------------------ */

#define IS_DIGIT(c) ((unsigned)((c) - '0') < 10u)

/* A log may span at most this many intervals (24 days at 1 s): a wild time stamp is an error, not an OOM. */
#define MAX_WINDOWS (1u << 21)

/* Makes room for the interval of time t (which may be before interval 0: then the array is shifted). */
static int ensure_window(struct fio_log *l, int64_t t)
{
	int64_t idx;

	if (t < l->t0_ms) {
		int64_t shift = (l->t0_ms - t + l->window_ms - 1) / l->window_ms;
		if (shift > (int64_t)MAX_WINDOWS || l->nwin + (size_t)shift > MAX_WINDOWS)
			return -1;
		ARRAY_GROW(l->win, l->wcap, l->nwin + (size_t)shift);
		memmove(l->win + shift, l->win, l->nwin * sizeof(*l->win));
		memset(l->win, 0, (size_t)shift * sizeof(*l->win));
		l->nwin += (size_t)shift;
		l->t0_ms -= shift * (int64_t)l->window_ms;
	}
	idx = (t - l->t0_ms) / l->window_ms;
	if (idx >= (int64_t)MAX_WINDOWS)
		return -1;
	if ((size_t)idx >= l->nwin) {
		size_t old = l->nwin;
		ARRAY_GROW(l->win, l->wcap, (size_t)idx + 1);
		memset(l->win + old, 0, ((size_t)idx + 1 - old) * sizeof(*l->win));
		l->nwin = (size_t)idx + 1;
	}
	return 0;
}

/*
 * "name:LINE: what in fio log line '...'" for the line at ls; the hot loop does not count lines, so LINE is
 * `before` (lines ahead of the region) plus the newlines from the region's start rs to ls, plus one.
 */
static int line_error(struct errbuf *err, const char *name, uint64_t before, const char *rs, const char *ls,
		      const char *end, const char *what)
{
	uint64_t line = before + 1;
	size_t n = 0;

	for (const char *q = rs; (q = memchr(q, '\n', (size_t)(ls - q))) != NULL; q++)
		line++;
	while (ls + n < end && ls[n] != '\n' && n < 60)
		n++;
	return err_set(err, ERR_INPUT, "%s:%llu: %s in fio log line '%.*s'", name, (unsigned long long)line, what,
		       (int)n, ls);
}

/*
 * The scanners below load 8 bytes at a time (SWAR: a 64-bit word as 8 byte lanes). The text they are given
 * ends with a '\n' and is followed by at least SCAN_PAD readable bytes, and no scan goes on past a '\n', so
 * no load needs a bounds check. Lanes are taken first byte lowest (a byte swap on big-endian machines).
 */
#define SCAN_PAD 16
#define ONES 0x0101010101010101ULL

static inline uint64_t load8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* 8 bytes at p less '0' each: a digit's lane holds 0..9, and so do the lanes below the first non-digit. */
static inline uint64_t digits8(uint64_t x)
{
	return x - 0x30 * ONES;
}

/*
 * Bit 7 set in the lanes of x (load8) that are not digits, exact up to the first of them (the lanes below it
 * pass no borrow or carry up): below '0' the subtraction borrows, above '9' the addition reaches 0x80.
 */
static inline uint64_t nondigit_lanes(uint64_t x)
{
	return ((x + 0x46 * ONES) | digits8(x)) & (0x80 * ONES);
}

/* The value of the 8 digits in t (load_digits, first digit lowest): pairs, then quads, then all 8. */
static inline uint64_t value8(uint64_t t)
{
	t = ((t * 2561) >> 8) & 0x00ff00ff00ff00ffULL;    /* 10 * 256 + 1 */
	t = ((t * 6553601) >> 16) & 0x0000ffff0000ffffULL; /* 100 * 65536 + 1 */
	return (t * 42949672960001ULL) >> 32;              /* 10000 << 32 + 1 */
}

/* The value of the first n digits (1 to 7) of t: moved up so the lanes below are leading zeros. */
static inline uint64_t value_n(uint64_t t, unsigned n)
{
	return value8(t << (64 - 8 * n));
}

static const uint64_t pow10_8[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };

/* scan_u64 for 8 digits or more at p. */
static const char *scan_long(const char *p, uint64_t *v)
{
	uint64_t x = value8(digits8(load8(p))), w = load8(p + 8), m = nondigit_lanes(w);
	unsigned n;

	p += 8;
	if (m) {
		n = (unsigned)__builtin_ctzll(m) >> 3;
		if (n)
			x = x * pow10_8[n] + value_n(digits8(w), n);
		*v = x;
		return p + n;
	}
	x = x * 100000000 + value8(digits8(w)); /* 16 digits: below 2^64 */
	for (p += 8; IS_DIGIT(*p); p++)
		if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (uint64_t)(*p - '0'), &x))
			return NULL;
	*v = x;
	return p;
}

/*
 * The decimal number at p (leading zeros allowed): its value in *v and the end of its digits, which is p
 * itself when there is no digit; NULL when it is above 2^64 - 1.
 */
static inline __attribute__((always_inline)) const char *scan_u64(const char *p, uint64_t *v)
{
	uint64_t w = load8(p), m = nondigit_lanes(w);
	unsigned n;

	if (__builtin_expect(!m, 0))
		return scan_long(p, v);
	n = (unsigned)__builtin_ctzll(m) >> 3;
	if (!n)
		return p;
	*v = value_n(digits8(w), n);
	return p + n;
}

/* A ',' and the spaces after it at p (fio writes ", "): the end of them, or NULL when p is not at a ','. */
static inline const char *skip_sep(const char *p)
{
	if (*p != ',')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

/* The first '\n' at or after p (one ends the text). */
static inline const char *find_newline(const char *p)
{
	for (;; p += 8) {
		uint64_t x = load8(p) ^ (0x0a * ONES);
		uint64_t z = (x - ONES) & ~x & (0x80 * ONES); /* exact up to the first zero lane */
		if (z)
			return p + ((unsigned)__builtin_ctzll(z) >> 3);
	}
}

#define NO_KEY UINT64_MAX
#define TOO_FAR "time stamp too far from the others (more than 24 days of 1 s intervals)"

/*
 * The fields of one line. t_key: the digits of the time stamp t was converted from (value8's input), or
 * NO_KEY, which no digits give (their lanes hold 0 to 9). parse_line_slow also says where the line it read
 * starts (ls) and counts the blank lines it went past.
 */
struct log_line {
	uint64_t t, v, bs, t_key;
	double frac;
	unsigned d;
	const char *ls;
	uint64_t nblank;
};

/*
 * The line at p read field by field, every separator and number checked, for what parse_line leaves: blank
 * lines (skipped), more than one space, 8 digits or more, fractions, malformed lines. The end of the line
 * (past its '\n'); or NULL with *what saying what is wrong, or with *what NULL when only blank lines were left
 * before end.
 */
static const char *parse_line_slow(const char *p, const char *end, struct log_line *f, const char **what)
{
	const char *q;

	while (*p == '\n' || *p == '\r') {
		p = find_newline(p) + 1;
		f->nblank++;
		if (p >= end) {
			*what = NULL;
			return NULL;
		}
	}
	f->ls = p;

#define NUMBER(x, name)                                                                        \
	do {                                                                                   \
		if (!(q = scan_u64(p, &(x))) || q == p) {                                      \
			*what = !q ? name " does not fit in 64 bits" : "expected a " name;     \
			return NULL;                                                           \
		}                                                                              \
		p = q;                                                                         \
	} while (0)
#define SEP(after)                                                   \
	do {                                                         \
		if (!(p = skip_sep(p))) {                            \
			*what = "expected ', ' after the " after;    \
			return NULL;                                 \
		}                                                    \
	} while (0)

	f->frac = 0;
	f->t_key = NO_KEY; /* f->t is no longer value8(f->t_key) */
	NUMBER(f->t, "time stamp");
	SEP("time");
	NUMBER(f->v, "value");
	if (*p == '.') { /* fractional values (newer fio averages): kept for windowed entries */
		double scale = 0.1;
		p++;
		while (IS_DIGIT(*p)) {
			f->frac += scale * (*p++ - '0');
			scale *= 0.1;
		}
	}
	SEP("value");
	f->d = (unsigned)(*p - '0');
	if (f->d > 2 || IS_DIGIT(p[1])) {
		*what = "direction must be 0, 1 or 2";
		return NULL;
	}
	p++;
	SEP("direction");
	NUMBER(f->bs, "block size");
	if (*p != '\n') {
		/* offset, prio and later columns: checked for shape only up to the newline */
		if (*p != ',' && *p != '\r') {
			*what = "expected ', ' after the block size";
			return NULL;
		}
		p = find_newline(p);
	}
	if (f->t > (uint64_t)INT64_MAX / 2) { /* after the other fields, as the interval check was */
		*what = TOO_FAR;
		return NULL;
	}
	return p + 1;
#undef SEP
#undef NUMBER
}

/*
 * The digits at p as parse_line wants them: their count n, 0 to 7, and in *key the word value8 makes their value
 * of (when n > 0). Eight digits or more count as 7: the byte after those is a digit, not the separator
 * parse_line looks for next, and the line goes to parse_line_slow.
 */
static inline unsigned short_number(const char *p, uint64_t *key)
{
	uint64_t x = load8(p);
	unsigned b = (unsigned)__builtin_ctzll(nondigit_lanes(x) | 1ULL << 63); /* 8 * n + 7 */

	*key = digits8(x) << ((71 - b) & 63); /* up by 64 - 8 * n */
	return b >> 3;
}

#define SEP_LE 0x202cULL /* ", " */

/*
 * One line as fio writes it ("T, V, D, BS" and more columns, numbers below 8 digits) with no more checks than
 * the shape needs; anything else goes to parse_line_slow, which reads the line again. A time stamp is mostly
 * the one of the line before: its digits are converted only when they change.
 */
static inline __attribute__((always_inline)) const char *parse_line(const char *ls, const char *end,
								    struct log_line *f, const char **what)
{
	const char *p = ls;
	struct log_line s;
	uint64_t key;
	unsigned n;

	n = short_number(p, &key);
	if (__builtin_expect(!n, 0))
		goto slow;
	if (key != f->t_key) {
		f->t_key = key;
		f->t = value8(key);
	}
	p += n;
	if (__builtin_expect((load8(p) & 0xffff) != SEP_LE, 0))
		goto slow;
	n = short_number(p + 2, &key);
	if (__builtin_expect(!n, 0))
		goto slow;
	f->v = value8(key);
	p += 2 + n;
	f->d = (unsigned)(p[2] - '0');
	if (__builtin_expect((load8(p) & 0xffff) != SEP_LE || f->d > 2 || (load8(p + 3) & 0xffff) != SEP_LE, 0))
		goto slow;
	n = short_number(p + 5, &key);
	if (__builtin_expect(!n, 0))
		goto slow;
	f->bs = value8(key);
	p += 5 + n;
	f->frac = 0;
	if (*p != '\n') {
		if (__builtin_expect(*p != ',' && *p != '\r', 0))
			goto slow;
		p = find_newline(p);
	}
	return p + 1;
slow:
	/* through a copy, so that the caller's f (its address never taken) can stay in registers */
	s = *f;
	p = parse_line_slow(ls, end, &s, what);
	*f = s;
	return p;
}

/*
 * Parses the lines of [rs, end): end[-1] is '\n' and SCAN_PAD readable bytes follow. `hist` (a constant at
 * each call site) says whether per-IO latency statistics are kept. *lineno: lines before rs, then after end.
 */
static inline __attribute__((always_inline)) int parse_region(struct fio_log *l, const char *const rs,
							      const char *end, const char *name, uint64_t *lineno,
							      const int hist, struct errbuf *err)
{
	const char *p = rs, *what = NULL;
	uint64_t nlines = 0;
	int64_t wstart = 0;
	uint64_t wlen = 0; /* current interval [wstart, wstart + wlen); 0: none yet */
	struct fio_log_cell *cur = NULL;
	struct log_line f = { .t_key = NO_KEY };
	uint64_t *hp[3] = { l->hist[0], l->hist[1], l->hist[2] };
	/* hot state in locals: stores through cur[] may not alias them */
	uint64_t mn[3] = { l->min_v[0], l->min_v[1], l->min_v[2] }, mx[3] = { l->max_v[0], l->max_v[1], l->max_v[2] };
	unsigned __int128 sq[3] = { l->sumsq[0], l->sumsq[1], l->sumsq[2] };
	int64_t tmax = l->tmax_ms;
	uint64_t t_prev = UINT64_MAX; /* no time stamp: parse_line_slow refuses those above INT64_MAX / 2 */
	int rc = 0;

	while (p < end) {
		const char *ls = p;
		uint64_t t, v;
		unsigned d;

		p = parse_line(ls, end, &f, &what);
		if (__builtin_expect(!p, 0)) {
			if (!what) /* blank lines to the end */
				break;
			rc = line_error(err, name, *lineno, rs, f.ls, end, what);
			goto done;
		}
		t = f.t;
		v = f.v;
		d = f.d;
		if (t == t_prev) /* the interval and the latest time stamp as for the line before */
			goto count;
		t_prev = t;
		/* time stamps move forward inside an interval: keep the latest for the run time */
		if ((int64_t)t > tmax)
			tmax = (int64_t)t;
		if ((uint64_t)((int64_t)t - wstart) >= wlen) {
			if (!l->lines && !nlines) {
				l->t0_ms = (int64_t)(t - t % l->window_ms);
				l->tmin_ms = tmax = (int64_t)t;
			}
			if (t > (uint64_t)INT64_MAX / 2 || ensure_window(l, (int64_t)t) < 0) {
				/* the line ends at p - 1; blank lines may have come before it (ls) */
				for (ls = p - 1; ls > rs && ls[-1] != '\n'; ls--)
					;
				rc = line_error(err, name, *lineno, rs, ls, end, TOO_FAR);
				goto done;
			}
			wstart = (int64_t)t - ((int64_t)t - l->t0_ms) % l->window_ms;
			wlen = l->window_ms;
			cur = l->win[(wstart - l->t0_ms) / l->window_ms];
			if ((int64_t)t < l->tmin_ms)
				l->tmin_ms = (int64_t)t;
		}
	count:
		cur[d].n++;
		cur[d].sum += v;
		cur[d].bytes += f.bs;
		nlines++;
		if (!hist && l->windowed) {
			ARRAY_GROW(l->ent, l->ecap, l->nent + 1);
			l->ent[l->nent].t_ms = (int64_t)t;
			l->ent[l->nent].value = (double)v + f.frac;
			l->ent[l->nent].ddir = d;
			l->nent++;
		}
		if (hist) {
			hp[d][fio_hist_val_to_idx(v)]++;
			mn[d] = v < mn[d] ? v : mn[d];
			mx[d] = v > mx[d] ? v : mx[d];
			sq[d] += (unsigned __int128)v * v;
		}
	}
	*lineno += nlines + f.nblank;
done:
	for (int d = 0; d < 3; d++) {
		l->min_v[d] = mn[d];
		l->max_v[d] = mx[d];
		l->sumsq[d] = sq[d];
	}
	l->tmax_ms = tmax;
	l->lines += nlines;
	return rc;
}

/* Looks at the first data line: columns, per-IO or windowed. */
static void first_line_shape(struct fio_log *l, const char *buf, size_t len)
{
	unsigned commas = 0, field = 0;
	const char *bsf = NULL;

	for (size_t i = 0; i < len && buf[i] != '\n'; i++) {
		if (buf[i] == ',') {
			commas++;
			field++;
			if (field == 3) {
				size_t k = i + 1;
				while (k < len && buf[k] == ' ')
					k++;
				bsf = buf + k;
			}
		}
	}
	l->ncols = commas + 1;
	/* bsf may point at buf + len (the text ends after the comma): read nothing past len */
	l->windowed = bsf && bsf < buf + len && *bsf == '0' && (bsf + 1 == buf + len || !IS_DIGIT(bsf[1]));
}

/* Sets up out for a log whose text starts with buf (shape of the first line decides the mode). */
static int parse_begin(struct fio_log *out, const char *buf, size_t len, const char *name, enum fio_log_kind kind,
		       unsigned window_ms, struct errbuf *err)
{
	fio_log_release(out);
	out->kind = kind;
	out->window_ms = window_ms ? window_ms : 1000;
	out->avg_ms = window_ms;
	fio_log_job_from_name(name, out->job, sizeof(out->job));
	first_line_shape(out, buf, len);
	if (len && out->ncols < 4)
		return err_set(err, ERR_INPUT, "%s:1: not a fio log: %u column%s, fio writes 4 to 6", name, out->ncols,
			       out->ncols == 1 ? "" : "s");
	if (kind <= FIO_LOG_SLAT && !out->windowed) {
		for (int d = 0; d < 3; d++) {
			out->hist[d] = xcalloc(FIO_HIST_NR, sizeof(uint64_t));
			out->min_v[d] = UINT64_MAX;
		}
	}
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/*
 * log_avg_msec of a windowed log that was not given: the median step between two entries of one direction,
 * to 10 ms (fio flushes a latency window at an IO's completion, so steps scatter: 915, 1000, 1085 ...;
 * IOPS and bandwidth stamps drift by a millisecond: 499, 999, 1499).
 */
static void infer_avg_ms(struct fio_log *l)
{
	int64_t last[3] = { -1, -1, -1 }, *step, best = 0;
	size_t n = 0;

	if (!l->windowed || l->avg_ms || !l->nent)
		return;
	step = xcalloc(l->nent, sizeof(*step));
	for (size_t i = 0; i < l->nent; i++) {
		const struct fio_log_entry *e = &l->ent[i];
		if (last[e->ddir] >= 0 && e->t_ms > last[e->ddir])
			step[n++] = e->t_ms - last[e->ddir];
		last[e->ddir] = e->t_ms;
	}
	if (n) {
		qsort(step, n, sizeof(*step), cmp_i64);
		best = step[n / 2];
	} else {
		best = l->ent[0].t_ms; /* one window: fio stamps it at its end */
	}
	free(step);
	if (best >= 50)
		best = (best + 5) / 10 * 10;
	l->avg_ms = best > 0 && best < INT32_MAX ? (unsigned)best : 0;
}

/* Parses complete lines [buf, buf + len): len 0 or buf[len - 1] == '\n', SCAN_PAD readable bytes after. */
static int parse_feed(struct fio_log *l, const char *buf, size_t len, const char *name, uint64_t *line,
		      struct errbuf *err)
{
	if (!len)
		return 0;
	return l->hist[0] ? parse_region(l, buf, buf + len, name, line, 1, err)
			  : parse_region(l, buf, buf + len, name, line, 0, err);
}

/* Where the text of a log comes from: a file (fd >= 0) or memory. */
struct log_src {
	int fd;
	const char *mem;
	size_t len, off;
};

/* Up to room bytes of the text into dst: how many, 0 at its end, -1 with err set. */
static ssize_t src_read(struct log_src *s, char *dst, size_t room, const char *name, struct errbuf *err)
{
	ssize_t n;

	if (s->fd < 0) {
		size_t k = s->len - s->off < room ? s->len - s->off : room;
		memcpy(dst, s->mem + s->off, k);
		s->off += k;
		return (ssize_t)k;
	}
	do
		n = read(s->fd, dst, room);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err_set(err, ERR_INPUT, "%s: cannot read: %s", name, strerror(errno));
	return n;
}

/*
 * The text is parsed in chunks of LOG_CHUNK bytes (small enough to stay in the CPU's cache between the copy
 * and the parse), so memory stays at one chunk however long the log is; a partial last line of a chunk moves
 * to the front of the next. The buffer has SCAN_PAD bytes more for the scanners, and room for the '\n' that
 * ends a last line written without one.
 */
#define LOG_CHUNK (256u << 10)

static int parse_src(struct log_src *src, const char *name, enum fio_log_kind kind, unsigned window_ms,
		     struct fio_log *out, struct errbuf *err)
{
	/* text in memory shorter than a chunk: a buffer its size (fuzzing parses many small ones) */
	size_t cap = src->fd < 0 && src->len < LOG_CHUNK ? src->len + 1 : LOG_CHUNK;
	char *buf = xcalloc(cap + SCAN_PAD, 1);
	size_t have = 0;
	uint64_t line = 0;
	int ret = -1, started = 0;

	for (;;) {
		ssize_t n = src_read(src, buf + have, cap - have, name, err);
		size_t body;

		if (n < 0)
			goto out;
		have += (size_t)n;
		if (!started) {
			if (parse_begin(out, buf, have, name, kind, window_ms, err) < 0)
				goto out;
			started = 1;
		}
		if (n == 0) {
			if (have) { /* the last line has no newline: give it one */
				buf[have++] = '\n';
				if (parse_feed(out, buf, have, name, &line, err) < 0)
					goto out;
			}
			break;
		}
		body = have;
		while (body && buf[body - 1] != '\n')
			body--;
		if (!body && have == cap) {
			err_set(err, ERR_INPUT, "%s:%llu: line longer than %u bytes: not a fio log", name,
				(unsigned long long)line + 1, LOG_CHUNK);
			goto out;
		}
		if (parse_feed(out, buf, body, name, &line, err) < 0)
			goto out;
		memmove(buf, buf + body, have - body);
		have -= body;
	}
	if (!out->lines) {
		err_set(err, ERR_INPUT, "%s: empty fio log, no data lines", name);
		goto out;
	}
	infer_avg_ms(out);
	ret = 0;
out:
	if (ret < 0)
		fio_log_release(out);
	free(buf);
	return ret;
}

int fio_log_parse_buf(const char *buf, size_t len, const char *name, enum fio_log_kind kind, unsigned window_ms,
		      struct fio_log *out, struct errbuf *err)
{
	struct log_src src = { .fd = -1, .mem = buf, .len = len };

	return parse_src(&src, name, kind, window_ms, out, err);
}

int fio_log_parse_file(const char *path, enum fio_log_kind kind, unsigned window_ms, struct fio_log *out,
		       struct errbuf *err)
{
	struct log_src src = { .fd = -1 };
	struct stat sb;
	int ret;

	src.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src.fd < 0)
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	if (fstat(src.fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(src.fd);
		fio_log_release(out);
		return err_set(err, ERR_INPUT, "%s: not a regular file", path);
	}
	posix_fadvise(src.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	ret = parse_src(&src, path, kind, window_ms, out, err);
	close(src.fd);
	return ret;
}

/* ---- samples and results ------------------------------------------------------------------------------ */

static const char *metric_base(int kind)
{
	static const char *const base[FIO_LOG_KINDS] = { "lat_ns", "clat_ns", "slat_ns", "bw_bytes", "iops" };
	return base[kind];
}

static void add_one(struct run_result *out, const char *host, const struct fio_log *l, int kind, unsigned d,
		    int64_t t_ms, unsigned window_ms, double value)
{
	char metric[32];
	struct sample *x;

	snprintf(metric, sizeof(metric), "%s.%s", metric_base(kind), dir_names[d]);
	run_result_add_sample(out, host, metric, t_ms, value);
	x = &out->samples[out->nsamples - 1];
	{ /* the job name, cut to the sample's field */
		size_t n = strnlen(l->job, sizeof(x->job) - 1);
		memcpy(x->job, l->job, n);
		x->job[n] = '\0';
	}
	snprintf(x->source, sizeof(x->source), "fio-log");
	x->window_ms = window_ms;
}

/* A window-averaged log: every line is one sample at fio's own time. */
static void windowed_samples(const struct fio_log *l, const char *host, struct run_result *out)
{
	for (int d = 0; d < 3; d++)
		for (size_t i = 0; i < l->nent; i++)
			if (l->ent[i].ddir == (unsigned)d)
				add_one(out, host, l, l->kind, (unsigned)d, l->ent[i].t_ms, l->avg_ms,
					l->ent[i].value * (l->kind == FIO_LOG_BW ? 1024.0 : 1.0));
}

/* A per-IO log: one sample per interval and direction (kind: the metric to make of it). */
static void perio_samples(const struct fio_log *l, int kind, const char *host, struct run_result *out)
{
	unsigned w = l->window_ms;

	for (int d = 0; d < 3; d++)
		for (size_t k = 0; k < l->nwin; k++) {
			const struct fio_log_cell *c = &l->win[k][d];
			double v;
			if (!c->n)
				continue;
			if (kind <= FIO_LOG_SLAT)
				v = (double)c->sum / (double)c->n;
			else if (kind == FIO_LOG_IOPS)
				v = (double)c->n * 1000.0 / w;
			else
				v = (double)c->bytes * 1000.0 / w;
			add_one(out, host, l, kind, (unsigned)d, l->t0_ms + (int64_t)(k + 1) * w, w, v);
		}
}

/* Whether any log of the same job is of kind k. */
static int job_has_kind(const struct fio_log *logs, size_t n, const char *job, int k)
{
	for (size_t i = 0; i < n; i++)
		if ((int)logs[i].kind == k && !strcmp(logs[i].job, job))
			return 1;
	return 0;
}

void fio_logs_to_samples(const struct fio_log *logs, size_t n, const char *host, struct run_result *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct fio_log *l = &logs[i];
		int first_lat = 1;

		if (!l->lines)
			continue;
		if (l->windowed) {
			windowed_samples(l, host, out);
			continue;
		}
		perio_samples(l, l->kind, host, out);
		if (l->kind > FIO_LOG_SLAT)
			continue;
		/* IOPS and bandwidth from the job's first per-IO latency log, when no iops/bw log says them */
		for (size_t j = 0; j < i; j++)
			if (!logs[j].windowed && logs[j].kind <= FIO_LOG_SLAT && !strcmp(logs[j].job, l->job))
				first_lat = 0;
		if (!first_lat)
			continue;
		if (!job_has_kind(logs, n, l->job, FIO_LOG_IOPS))
			perio_samples(l, FIO_LOG_IOPS, host, out);
		if (!job_has_kind(logs, n, l->job, FIO_LOG_BW))
			perio_samples(l, FIO_LOG_BW, host, out);
	}
}

int fio_logs_to_result(const struct fio_log *logs, size_t n, struct host_result *h)
{
	int kind = -1;
	int64_t tmin = INT64_MAX, tmax = INT64_MIN;

	for (int k = FIO_LOG_LAT; k <= FIO_LOG_SLAT && kind < 0; k++)
		for (size_t i = 0; i < n; i++)
			if ((int)logs[i].kind == k && logs[i].hist[0])
				kind = k;
	if (kind < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if ((int)logs[i].kind != kind || !logs[i].hist[0])
			continue;
		if (logs[i].tmin_ms < tmin)
			tmin = logs[i].tmin_ms;
		if (logs[i].tmax_ms > tmax)
			tmax = logs[i].tmax_ms;
	}
	for (int d = 0; d < 3; d++) {
		struct dir_result *dr = &h->dir[d];
		struct lat_summary *ls = kind == FIO_LOG_LAT ? &dr->lat : kind == FIO_LOG_CLAT ? &dr->clat : &dr->slat;
		uint64_t cnt = 0, bytes = 0, sum = 0, mn = UINT64_MAX, mx = 0;
		unsigned __int128 sq = 0;
		size_t nb = 0;

		for (size_t i = 0; i < n; i++) {
			const struct fio_log *l = &logs[i];
			if ((int)l->kind != kind || !l->hist[0])
				continue;
			for (size_t k = 0; k < l->nwin; k++) {
				cnt += l->win[k][d].n;
				sum += l->win[k][d].sum;
				bytes += l->win[k][d].bytes;
			}
			sq += l->sumsq[d];
			if (l->min_v[d] < mn)
				mn = l->min_v[d];
			if (l->max_v[d] > mx)
				mx = l->max_v[d];
		}
		if (!cnt)
			continue;
		dir_result_release(dr);
		dr->present = 1;
		dr->ios = cnt;
		dr->bytes = bytes;
		dr->runtime_ms = (uint64_t)(tmax - tmin);
		if (dr->runtime_ms) {
			dr->iops = (double)cnt * 1000.0 / (double)dr->runtime_ms;
			dr->bw_bytes = (double)bytes * 1000.0 / (double)dr->runtime_ms;
		}
		ls->present = 1;
		ls->n = cnt;
		ls->min_ns = mn;
		ls->max_ns = mx;
		ls->mean_ns = (double)sum / (double)cnt;
		if (cnt > 1) {
			/* exact: n * sumsq - sum^2 in 128 bits, then one division */
			unsigned __int128 s2 = (unsigned __int128)sum * sum;
			unsigned __int128 num = (unsigned __int128)cnt * sq;
			double var = num > s2 ? (double)(num - s2) / ((double)cnt * (double)(cnt - 1)) : 0;
			ls->stddev_ns = sqrt(var);
		}
		for (unsigned b = 0; b < FIO_HIST_NR; b++) {
			uint64_t c = 0;
			for (size_t i = 0; i < n; i++)
				if ((int)logs[i].kind == kind && logs[i].hist[d])
					c += logs[i].hist[d][b];
			if (!c)
				continue;
			dr->bins = xrealloc(dr->bins, (nb + 1) * sizeof(*dr->bins));
			dr->bins[nb].value_ns = fio_hist_idx_to_val(b);
			dr->bins[nb].count = c;
			nb++;
		}
		dr->nbins = nb;
		dr->pct = xcalloc(17, sizeof(*dr->pct));
		dr->npct = 17;
		for (int p = 0; p < 17; p++) {
			dr->pct[p].pct = agg_default_pcts[p];
			dr->pct[p].value_ns = hist_percentile(dr->bins, dr->nbins, agg_default_pcts[p]);
		}
		snprintf(dr->pct_kind, sizeof(dr->pct_kind), "%s", kind_names[kind]);
	}
	host_result_total(h);
	return 0;
}

/* ---- detection ----------------------------------------------------------------------------------------- */

int fio_log_detect(const char *path)
{
	char buf[256];
	ssize_t n;
	int fd, commas = 0, ok = 1;
	struct stat sb;

	if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
		return 0;
	if (fio_log_kind_from_name(path) >= 0)
		return 1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "digits, digits, digit, digits" at the very start */
	for (ssize_t i = 0; i < n && buf[i] != '\n'; i++) {
		if (buf[i] == ',')
			commas++;
		else if (!IS_DIGIT(buf[i]) && buf[i] != ' ' && buf[i] != '\r' && buf[i] != '.')
			ok = 0;
	}
	return ok && IS_DIGIT(buf[0]) && commas >= 3 && commas <= 6 && memchr(buf, '\n', (size_t)n);
}

int fio_log_collect_dir(const char *dir, const char *host, struct run_result *out, struct errbuf *err)
{
	DIR *dh;
	struct dirent *de;
	struct fio_log *logs = NULL;
	size_t n = 0, cap = 0;
	int ret = -1;

	dh = opendir(dir);
	if (!dh)
		return err_set(err, ERR_HOST, "%s: cannot read the fio log directory: %s", dir, strerror(errno));
	while ((de = readdir(dh)) != NULL) {
		int kind = fio_log_kind_from_name(de->d_name);
		char *p;

		if (kind < 0 && fio_histlog_name(de->d_name)) {
			struct stat sb;
			p = xasprintf("%s/%s", dir, de->d_name);
			if (stat(p, &sb) == 0 && sb.st_size > 0 && fio_histlog_read(p, host, 0, 0, 0, out, err) < 0) {
				free(p);
				goto out;
			}
			free(p);
			continue;
		}
		if (kind < 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		{
			/* fio writes an empty log for what an engine does not measure (slat of a sync engine). */
			struct stat sb;
			if (stat(p, &sb) == 0 && sb.st_size == 0) {
				free(p);
				continue;
			}
		}
		ARRAY_GROW(logs, cap, n + 1);
		fio_log_init(&logs[n]);
		if (fio_log_parse_file(p, (enum fio_log_kind)kind, 0, &logs[n], err) < 0) {
			free(p);
			goto out;
		}
		free(p);
		n++;
	}
	fio_logs_to_samples(logs, n, host, out);
	ret = (int)n;
out:
	closedir(dh);
	for (size_t i = 0; i < n; i++)
		fio_log_release(&logs[i]);
	free(logs);
	return ret;
}
