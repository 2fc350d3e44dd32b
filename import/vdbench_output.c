/*
 * vdbench_output: a vdbench output directory as stored runs (see vdbench_output.h).
 *
 * flatfile.html is the source of the numbers: the first line is HTML, '*' lines are comments, the header is the
 * first line that starts with a blank, every other line is a row of whitespace-separated values mapped by
 * header name (so the 5.04.01 fixed-width layout, the 5.04.06 `timestamp` column and the 5.04.07 read/write
 * max and std columns all read the same). A run is the rows up to and including its `avg_<first>-<last>` row,
 * which holds the run's totals. totals.html says which for-loop values each run had ("Starting RD=..; For
 * loops: .."); logfile.html the vdbench version; parmfile.html which wd= each rd= ran.
 */
#include "import/vdbench_output.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/strbuf.h"

enum col {
	C_TOD, C_RUN, C_INTERVAL, C_REQRATE, C_RATE, C_MBSEC, C_BYTESIO, C_READPCT, C_RESP, C_READ_RESP, C_WRITE_RESP,
	C_RESP_MAX, C_READ_MAX, C_WRITE_MAX, C_RESP_STD, C_READ_STD, C_WRITE_STD, C_XFERSIZE, C_THREADS, C_RDPCT,
	C_SEEKPCT, C_QDEPTH, C_CPU_USED, C_CPU_USER, C_CPU_KERNEL, C_CPU_WAIT, C_CPU_IDLE, C_NR
};

static const char *const col_name[C_NR] = {
	"tod", "Run", "Interval", "reqrate", "rate", "MB/sec", "bytes/io", "read%", "resp", "read_resp", "write_resp",
	"resp_max", "read_max", "write_max", "resp_std", "read_std", "write_std", "xfersize", "threads", "rdpct",
	"seekpct", "queue_depth", "cpu_used", "cpu_user", "cpu_kernel", "cpu_wait", "cpu_idle",
};

/* Columns a flatfile must have. */
static const enum col required[] = { C_RUN, C_INTERVAL, C_RATE, C_MBSEC, C_RESP };

int vdbench_output_detect(const char *path)
{
	struct stat st;
	char *f;
	int ok;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	f = xasprintf("%s/flatfile.html", path);
	ok = stat(f, &st) == 0 && S_ISREG(st.st_mode);
	free(f);
	return ok;
}

/* Splits on blanks; returns the count (fields point into `line`, which is modified). */
static size_t split_ws(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (*p && n < max) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		f[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* A number, or NAN for "n/a"; -1 when neither. */
static int num(const char *s, double *out)
{
	char *end;

	if (!strcmp(s, "n/a")) {
		*out = NAN;
		return 0;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out))
		return -1;
	return 0;
}

/* HH:MM:SS.mmm -> seconds of the day, NAN if not that form. */
static double tod_s(const char *s)
{
	int h, m;
	double sec;
	char tail;

	if (sscanf(s, "%d:%d:%lf%c", &h, &m, &sec, &tail) != 3)
		return NAN;
	return h * 3600.0 + m * 60.0 + sec;
}

struct started {
	char *rd;
	char *forloops;
	int used;
};

/* "Starting RD=<name>; ...; For loops: <text>" lines of totals.html, in order. */
static size_t read_totals(const char *dir, struct started **out)
{
	char *path = xasprintf("%s/totals.html", dir);
	struct strbuf sb;
	struct started *v = NULL;
	size_t n = 0;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) == 0) {
		for (char *p = sb.buf; (p = strstr(p, "Starting RD="));) {
			char *e = strchr(p, '\n'), *semi, *fl;
			char *line = xstrndup(p, e ? (size_t)(e - p) : strlen(p));
			semi = strchr(line + 12, ';');
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].rd = xstrndup(line + 12, semi ? (size_t)(semi - line - 12) : strlen(line + 12));
			v[n].forloops = NULL;
			v[n].used = 0;
			if ((fl = strstr(line, "For loops: "))) {
				char *t = fl + 11, *lt = strchr(t, '<');
				v[n].forloops = xstrndup(t, lt ? (size_t)(lt - t) : strlen(t));
			}
			n++;
			free(line);
			p = e ? e : p + 12;
		}
	}
	strbuf_release(&sb);
	free(path);
	*out = v;
	return n;
}

/* "vdbench50407" from logfile.html's "Vdbench distribution: vdbench50407", or NULL. */
static char *read_version(const char *dir)
{
	char *path = xasprintf("%s/logfile.html", dir), *ver = NULL, *p;
	struct strbuf sb;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) == 0 && (p = strstr(sb.buf, "Vdbench distribution: "))) {
		p += 22;
		ver = xstrndup(p, strcspn(p, " \r\n<"));
	}
	strbuf_release(&sb);
	free(path);
	return ver;
}

/* The wd= text of rd=<name> in parmfile.html, or NULL. */
static char *rd_workloads(const char *parm, const char *rd)
{
	char *want = xasprintf("rd=%s,", rd), *res = NULL;

	for (const char *p = parm; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l > strlen(want) && !strncmp(p, want, strlen(want))) {
			char *line = xstrndup(p, l), *w = strstr(line, ",wd=");
			if (w) {
				w += 4;
				if (*w == '(') {
					char *c = strchr(w, ')');
					res = xstrndup(w, c ? (size_t)(c - w + 1) : strlen(w));
				} else {
					res = xstrndup(w, strcspn(w, ", \t"));
				}
			}
			free(line);
			break;
		}
		p = e ? e + 1 : NULL;
	}
	free(want);
	return res;
}

static void set_dir(struct dir_result *d, double iops, double bw, double runtime_s, double mean_ms, double max_ms,
		    double std_ms)
{
	d->present = 1;
	d->iops = iops;
	d->bw_bytes = bw;
	d->runtime_ms = (uint64_t)llround(runtime_s * 1000);
	d->ios = (uint64_t)llround(iops * runtime_s);
	d->bytes = (uint64_t)llround(bw * runtime_s);
	if (!isnan(mean_ms)) {
		d->lat.present = 1;
		d->lat.n = d->ios;
		d->lat.mean_ns = mean_ms * 1e6;
		d->lat.max_ns = isnan(max_ms) ? 0 : (uint64_t)llround(max_ms * 1e6);
		d->lat.stddev_ns = isnan(std_ms) ? 0 : std_ms * 1e6;
	}
}

/* What reading one flatfile keeps between its lines. */
struct flat_read {
	const char *flat;          /* the flatfile's path, for messages */
	struct import_batch *out;
	struct strbuf parm;        /* parmfile.html, or empty */
	struct started *starts;    /* totals.html: the rds in start order */
	size_t nstarts, nruns;
	char *version;
	int col[C_NR], ncols, line, have_header;
	/* the interval rows of the current run: first/last time of day and count, for the interval length */
	double t_first, t_prev;
	long i_first, i_prev;
};

/* The column header line: which column holds what; every required column must be there. */
static int flat_header(struct flat_read *x, char *raw, struct errbuf *err)
{
	char *fields[256];

	if (raw[0] != ' ' && raw[0] != '\t')
		return err_set(err, ERR_INPUT, "%s:%d: data before the column header (a header line starts with a blank)",
			       x->flat, x->line);
	x->ncols = (int)split_ws(raw, fields, 256);
	for (int i = 0; i < x->ncols; i++)
		for (int c = 0; c < C_NR; c++)
			if (!strcmp(fields[i], col_name[c]))
				x->col[c] = i;
	for (size_t r = 0; r < sizeof(required) / sizeof(required[0]); r++)
		if (x->col[required[r]] < 0)
			return err_set(err, ERR_INPUT, "%s:%d: the header has no '%s' column: not a raw-device vdbench "
				       "flatfile", x->flat, x->line, col_name[required[r]]);
	x->have_header = 1;
	return 0;
}

/* The labels of an imported run: rd, format run, for-loop values, workloads, iorate (also an option: it changes
 * the load, so it is part of the identity) and version. */
static void run_labels(struct flat_read *x, struct imported_run *ir, const char *run, const double *v)
{
	char buf[64];
	char *wds;

	kvlist_set(&ir->spec.labels, "vdbench.rd", run);
	if (!strcmp(run, "SD_format") || !strncmp(run, "format_for_", 11))
		kvlist_set(&ir->spec.labels, "vdbench.format", "yes");
	for (size_t k = 0; k < x->nstarts; k++) {
		if (!x->starts[k].used && !strcmp(x->starts[k].rd, run)) {
			x->starts[k].used = 1;
			if (x->starts[k].forloops && strcmp(x->starts[k].forloops, "None"))
				kvlist_set(&ir->spec.labels, "vdbench.forloops", x->starts[k].forloops);
			break;
		}
	}
	if (x->parm.len && (wds = rd_workloads(x->parm.buf, run))) {
		kvlist_set(&ir->spec.labels, "vdbench.wd", wds);
		free(wds);
	}
	if (!isnan(v[C_REQRATE])) {
		/* 9999988 = max, 9999977 = curve */
		if (v[C_REQRATE] == 9999988)
			snprintf(buf, sizeof(buf), "max");
		else if (v[C_REQRATE] == 9999977)
			snprintf(buf, sizeof(buf), "curve");
		else
			snprintf(buf, sizeof(buf), "%g", v[C_REQRATE]);
		kvlist_set(&ir->spec.labels, "vdbench.iorate", buf);
		kvlist_set(&ir->spec.wl.opts, "iorate", buf);
	}
	if (x->version)
		kvlist_set(&ir->spec.labels, "vdbench.version", x->version);
}

/* The figures of a run's total row: the aggregate host per direction, and vdbench's CPU columns. */
static void run_figures(struct flat_read *x, struct imported_run *ir, const double *v, double runtime_s)
{
	struct host_result *h = run_result_add_host(&ir->res, HOST_AGGREGATE);
	double rd_frac = isnan(v[C_READPCT]) ? NAN : v[C_READPCT] / 100.0;
	double total_bw = v[C_MBSEC] * 1048576.0;

	set_dir(&h->dir[DDIR_TOTAL], v[C_RATE], total_bw, runtime_s, v[C_RESP], v[C_RESP_MAX], v[C_RESP_STD]);
	if (!isnan(rd_frac) && rd_frac > 0)
		set_dir(&h->dir[DDIR_READ], v[C_RATE] * rd_frac, total_bw * rd_frac, runtime_s, v[C_READ_RESP],
			v[C_READ_MAX], v[C_READ_STD]);
	if (!isnan(rd_frac) && rd_frac < 1)
		set_dir(&h->dir[DDIR_WRITE], v[C_RATE] * (1 - rd_frac), total_bw * (1 - rd_frac), runtime_s,
			v[C_WRITE_RESP], v[C_WRITE_MAX], v[C_WRITE_STD]);
	if (!isnan(v[C_CPU_USER]) || !isnan(v[C_CPU_KERNEL])) {
		struct cpu_result *c = run_result_add_cpu(&ir->res, HOST_AGGREGATE, ROLE_INITIATOR, "vdbench");
		c->user_pct = v[C_CPU_USER];
		c->system_pct = v[C_CPU_KERNEL];
		c->iowait_pct = v[C_CPU_WAIT];
		c->idle_pct = v[C_CPU_IDLE];
		/* vdbench 5.04.06 writes cpu_used = cpu_user on interval rows: recompute */
		c->util_pct = (isnan(v[C_CPU_USER]) ? 0 : v[C_CPU_USER]) + (isnan(v[C_CPU_KERNEL]) ? 0 : v[C_CPU_KERNEL]);
	}
	if (x->parm.len)
		run_result_add_artifact(&ir->res, "vdbench-parmfile.html", x->parm.buf, x->parm.len);
}

/* A run's total row (interval avg_<first>-<last>): one imported run. */
static int flat_total(struct flat_read *x, const double *v, const char *run, const char *interval,
		      struct errbuf *err)
{
	long a = 0, b = 0;
	double interval_s = 1, runtime_s;
	struct imported_run *ir;

	if (sscanf(interval + 4, "%ld-%ld", &a, &b) != 2)
		return err_set(err, ERR_INPUT, "%s:%d: total row '%s' is not avg_<first>-<last>", x->flat, x->line,
			       interval);
	if (x->i_prev > x->i_first && !isnan(x->t_first) && !isnan(x->t_prev)) {
		double d = x->t_prev - x->t_first;
		if (d < 0)
			d += 86400;
		interval_s = round(d / (double)(x->i_prev - x->i_first) * 10) / 10;
		if (interval_s <= 0)
			interval_s = 1;
	}
	/* in double: b - a + 1 may overflow long (avg_-5-9223372036854775807) */
	runtime_s = b >= a ? ((double)b - (double)a + 1) * interval_s : 0;
	if (isnan(v[C_RATE]) || isnan(v[C_MBSEC]))
		return err_set(err, ERR_INPUT, "%s:%d: run '%s' has no rate or MB/sec in its total row", x->flat, x->line,
			       run);
	ir = import_batch_add(x->out);
	x->nruns++;
	ir->spec.name = xstrdup(run);
	ir->spec.engine = xstrdup("vdbench");
	ir->spec.wl.tool = xstrdup("vdbench");
	ir->spec.wl.bs_bytes = isnan(v[C_BYTESIO]) ? (isnan(v[C_XFERSIZE]) ? 0 : (uint64_t)llround(v[C_XFERSIZE]))
						  : (uint64_t)llround(v[C_BYTESIO]);
	ir->spec.wl.read_pct = isnan(v[C_RDPCT]) ? -1 : (int)lround(v[C_RDPCT]);
	ir->spec.wl.random_pct = isnan(v[C_SEEKPCT]) ? -1 : (int)lround(v[C_SEEKPCT]);
	ir->spec.wl.iodepth = isnan(v[C_THREADS]) ? 0 : (unsigned)lround(v[C_THREADS]);
	ir->spec.wl.numjobs = 1;
	ir->spec.wl.runtime_s = (unsigned)lround(runtime_s);
	ir->spec.wl.src_file = xstrdup(x->flat);
	ir->spec.wl.src_line = x->line;
	run_labels(x, ir, run, v);
	run_figures(x, ir, v, runtime_s);
	x->i_first = x->i_prev = -1;
	x->t_first = x->t_prev = NAN;
	return 0;
}

/* One data row: an interval (remembered for the interval length) or a run's totals. */
static int flat_row(struct flat_read *x, char **fields, struct errbuf *err)
{
	const char *interval = fields[x->col[C_INTERVAL]];
	const char *run = fields[x->col[C_RUN]];
	double v[C_NR];

	for (int c = 0; c < C_NR; c++) {
		v[c] = NAN;
		if (x->col[c] < 0 || c == C_RUN || c == C_INTERVAL || c == C_TOD)
			continue;
		if (num(fields[x->col[c]], &v[c]) < 0 || v[c] < 0)
			return err_set(err, ERR_INPUT, "%s:%d: '%s' is not a number >= 0 in column '%s'", x->flat, x->line,
				       fields[x->col[c]], col_name[c]);
	}
	if (!strncmp(interval, "avg_", 4))
		return flat_total(x, v, run, interval, err);
	{
		char *end;
		long iv = strtol(interval, &end, 10);
		double t = x->col[C_TOD] >= 0 ? tod_s(fields[x->col[C_TOD]]) : NAN;
		if (*end || end == interval)
			return err_set(err, ERR_INPUT, "%s:%d: interval '%s' is neither a number nor avg_N-M", x->flat,
				       x->line, interval);
		if (x->i_first < 0 || iv <= x->i_prev) {
			x->i_first = iv;
			x->t_first = t;
		}
		x->i_prev = iv;
		x->t_prev = t;
	}
	return 0;
}

/* Every line of the flatfile text. */
static int flat_lines(struct flat_read *x, const char *text, struct errbuf *err)
{
	char *fields[256];

	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char *raw = xstrndup(p, l);
		int last = !e || !e[1], rc = 0;
		size_t nf;

		x->line++;
		p = e ? e + 1 : p + l;
		if (l && raw[l - 1] == '\r')
			raw[--l] = '\0';
		if (!l || raw[0] == '*' || raw[0] == '<' || !strncmp(raw, "</pre>", 6)) {
			free(raw);
			continue;
		}
		if (!x->have_header) {
			rc = flat_header(x, raw, err);
		} else if ((int)(nf = split_ws(raw, fields, 256)) < x->ncols) {
			free(raw);
			if (last)
				break; /* vdbench killed while writing: the last row is cut short */
			return err_set(err, ERR_INPUT, "%s:%d: %zu values for %d columns", x->flat, x->line, nf, x->ncols);
		} else {
			rc = flat_row(x, fields, err);
		}
		free(raw);
		if (rc < 0)
			return -1;
	}
	if (!x->have_header)
		return err_set(err, ERR_INPUT, "%s:%d: no column header line: not a vdbench flatfile", x->flat,
			       x->line ? x->line : 1);
	if (!x->nruns)
		return err_set(err, ERR_INPUT, "%s:%d: no run totals (avg_ rows): the run did not finish an interval",
			       x->flat, x->line);
	return 0;
}

/* The suite of an import: named after the directory, labelled with the source and vdbench's version. */
static void suite_of(struct flat_read *x, const char *dir)
{
	const char *b = strrchr(dir, '/');
	char *name = xstrdup(b && b[1] ? b + 1 : dir);
	size_t l = strlen(name);

	while (l > 1 && name[l - 1] == '/')
		name[--l] = '\0';
	free(x->out->suite_name);
	x->out->suite_name = name;
	kvlist_set(&x->out->suite_labels, "source", "vdbench");
	if (x->version)
		kvlist_set(&x->out->suite_labels, "vdbench.version", x->version);
}

int vdbench_output_import(const char *dir, struct import_batch *out, struct errbuf *err)
{
	char *flat = xasprintf("%s/flatfile.html", dir), *parm_path = xasprintf("%s/parmfile.html", dir);
	struct flat_read x;
	struct strbuf sb;
	int rc = -1;

	memset(&x, 0, sizeof(x));
	x.flat = flat;
	x.out = out;
	x.t_first = x.t_prev = NAN;
	x.i_first = x.i_prev = -1;
	for (int c = 0; c < C_NR; c++)
		x.col[c] = -1;
	strbuf_init(&sb);
	strbuf_init(&x.parm);
	if (!vdbench_output_detect(dir)) {
		struct stat st;
		if (stat(dir, &st) != 0)
			err_set(err, ERR_INPUT, "%s: %s", dir, strerror(errno));
		else
			err_set(err, ERR_INPUT, "%s: not a vdbench output directory (no flatfile.html)", dir);
		goto out;
	}
	if (import_check_path(flat, 0, err) < 0)
		goto out;
	if (strbuf_read_file(&sb, flat) < 0) {
		err_set(err, ERR_INPUT, "%s: %s", flat, strerror(errno));
		goto out;
	}
	if (memchr(sb.buf, '\0', sb.len)) {
		err_set(err, ERR_INPUT, "%s:1: binary data (NUL bytes), not a vdbench flatfile", flat);
		goto out;
	}
	{
		struct errbuf perr; /* parmfile.html is optional; a FIFO there must not block */
		errbuf_init(&perr);
		if (import_check_path(parm_path, 0, &perr) == 0)
			strbuf_read_file(&x.parm, parm_path);
	}
	x.nstarts = read_totals(dir, &x.starts);
	x.version = read_version(dir);
	suite_of(&x, dir);
	rc = flat_lines(&x, sb.buf, err);
out:
	for (size_t k = 0; k < x.nstarts; k++) {
		free(x.starts[k].rd);
		free(x.starts[k].forloops);
	}
	free(x.starts);
	free(x.version);
	strbuf_release(&sb);
	strbuf_release(&x.parm);
	free(flat);
	free(parm_path);
	return rc;
}
