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
#include "engines/vdbench_output.h"

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

int vdbench_output_import(const char *dir, struct import_batch *out, struct errbuf *err)
{
	char *flat = xasprintf("%s/flatfile.html", dir), *parm_path = xasprintf("%s/parmfile.html", dir);
	struct strbuf sb, parm;
	struct started *starts = NULL;
	size_t nstarts = 0, nruns = 0;
	char *version = NULL;
	int col[C_NR], ncols = 0, line = 0, rc = -1, have_header = 0;
	char *fields[256];
	/* the interval rows of the current run: first/last time of day and count, for the interval length */
	double t_first = NAN, t_prev = NAN;
	long i_first = -1, i_prev = -1;
	const char *p;

	strbuf_init(&sb);
	strbuf_init(&parm);
	for (int c = 0; c < C_NR; c++)
		col[c] = -1;
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
			strbuf_read_file(&parm, parm_path);
	}
	nstarts = read_totals(dir, &starts);
	version = read_version(dir);
	free(out->suite_name);
	{
		const char *b = strrchr(dir, '/');
		size_t l;
		char *name = xstrdup(b && b[1] ? b + 1 : dir);
		l = strlen(name);
		while (l > 1 && name[l - 1] == '/')
			name[--l] = '\0';
		out->suite_name = name;
	}
	kvlist_set(&out->suite_labels, "source", "vdbench");
	if (version)
		kvlist_set(&out->suite_labels, "vdbench.version", version);

	for (p = sb.buf; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char *raw = xstrndup(p, l);
		size_t nf;
		int last = !e || !e[1];

		line++;
		p = e ? e + 1 : p + l;
		if (l && raw[l - 1] == '\r')
			raw[--l] = '\0';
		if (!l || raw[0] == '*' || raw[0] == '<' || !strncmp(raw, "</pre>", 6)) {
			free(raw);
			continue;
		}
		if (!have_header) {
			if (raw[0] != ' ' && raw[0] != '\t') {
				err_set(err, ERR_INPUT, "%s:%d: data before the column header (a header line starts with a "
					"blank)", flat, line);
				free(raw);
				goto out;
			}
			ncols = (int)split_ws(raw, fields, 256);
			for (int i = 0; i < ncols; i++)
				for (int c = 0; c < C_NR; c++)
					if (!strcmp(fields[i], col_name[c]))
						col[c] = i;
			for (size_t r = 0; r < sizeof(required) / sizeof(required[0]); r++) {
				if (col[required[r]] < 0) {
					err_set(err, ERR_INPUT, "%s:%d: the header has no '%s' column: not a raw-device vdbench "
						"flatfile", flat, line, col_name[required[r]]);
					free(raw);
					goto out;
				}
			}
			have_header = 1;
			free(raw);
			continue;
		}
		nf = split_ws(raw, fields, 256);
		if ((int)nf < ncols) {
			free(raw);
			if (last)
				break; /* vdbench killed while writing: the last row is cut short */
			err_set(err, ERR_INPUT, "%s:%d: %zu values for %d columns", flat, line, nf, ncols);
			goto out;
		}
		{
			double v[C_NR];
			const char *interval = fields[col[C_INTERVAL]];
			const char *run = fields[col[C_RUN]];
			for (int c = 0; c < C_NR; c++) {
				v[c] = NAN;
				if (col[c] < 0 || c == C_RUN || c == C_INTERVAL || c == C_TOD)
					continue;
				if (num(fields[col[c]], &v[c]) < 0 || v[c] < 0) {
					err_set(err, ERR_INPUT, "%s:%d: '%s' is not a number >= 0 in column '%s'", flat, line,
						fields[col[c]], col_name[c]);
					free(raw);
					goto out;
				}
			}
			if (strncmp(interval, "avg_", 4)) {
				char *end;
				long iv = strtol(interval, &end, 10);
				double t = col[C_TOD] >= 0 ? tod_s(fields[col[C_TOD]]) : NAN;
				if (*end || end == interval) {
					err_set(err, ERR_INPUT, "%s:%d: interval '%s' is neither a number nor avg_N-M", flat,
						line, interval);
					free(raw);
					goto out;
				}
				if (i_first < 0 || iv <= i_prev) {
					i_first = iv;
					t_first = t;
				}
				i_prev = iv;
				t_prev = t;
			} else {
				/* the run's totals */
				long a = 0, b = 0;
				double interval_s = 1, runtime_s, rd_frac, total_bw;
				struct imported_run *ir;
				struct host_result *h;
				char buf[64];
				char *wds;
				if (sscanf(interval + 4, "%ld-%ld", &a, &b) != 2) {
					err_set(err, ERR_INPUT, "%s:%d: total row '%s' is not avg_<first>-<last>", flat, line,
						interval);
					free(raw);
					goto out;
				}
				if (i_prev > i_first && !isnan(t_first) && !isnan(t_prev)) {
					double d = t_prev - t_first;
					if (d < 0)
						d += 86400;
					interval_s = round(d / (double)(i_prev - i_first) * 10) / 10;
					if (interval_s <= 0)
						interval_s = 1;
				}
				/* in double: b - a + 1 may overflow long (avg_-5-9223372036854775807) */
				runtime_s = b >= a ? ((double)b - (double)a + 1) * interval_s : 0;
				if (isnan(v[C_RATE]) || isnan(v[C_MBSEC])) {
					err_set(err, ERR_INPUT, "%s:%d: run '%s' has no rate or MB/sec in its total row", flat,
						line, run);
					free(raw);
					goto out;
				}
				ir = import_batch_add(out);
				nruns++;
				ir->spec.name = xstrdup(run);
				ir->spec.engine = xstrdup("vdbench");
				ir->spec.wl.tool = xstrdup("vdbench");
				ir->spec.wl.bs_bytes = isnan(v[C_BYTESIO]) ? (isnan(v[C_XFERSIZE]) ? 0 :
							(uint64_t)llround(v[C_XFERSIZE])) : (uint64_t)llround(v[C_BYTESIO]);
				ir->spec.wl.read_pct = isnan(v[C_RDPCT]) ? -1 : (int)lround(v[C_RDPCT]);
				ir->spec.wl.random_pct = isnan(v[C_SEEKPCT]) ? -1 : (int)lround(v[C_SEEKPCT]);
				ir->spec.wl.iodepth = isnan(v[C_THREADS]) ? 0 : (unsigned)lround(v[C_THREADS]);
				ir->spec.wl.numjobs = 1;
				ir->spec.wl.runtime_s = (unsigned)lround(runtime_s);
				ir->spec.wl.src_file = xstrdup(flat);
				ir->spec.wl.src_line = line;
				kvlist_set(&ir->spec.labels, "vdbench.rd", run);
				if (!strcmp(run, "SD_format") || !strncmp(run, "format_for_", 11))
					kvlist_set(&ir->spec.labels, "vdbench.format", "yes");
				for (size_t k = 0; k < nstarts; k++) {
					if (!starts[k].used && !strcmp(starts[k].rd, run)) {
						starts[k].used = 1;
						if (starts[k].forloops && strcmp(starts[k].forloops, "None"))
							kvlist_set(&ir->spec.labels, "vdbench.forloops", starts[k].forloops);
						break;
					}
				}
				if (parm.len && (wds = rd_workloads(parm.buf, run))) {
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
					kvlist_set(&ir->spec.wl.opts, "iorate", buf); /* the rate changes the load: part of the identity */
				}
				if (version)
					kvlist_set(&ir->spec.labels, "vdbench.version", version);
				h = run_result_add_host(&ir->res, HOST_AGGREGATE);
				rd_frac = isnan(v[C_READPCT]) ? NAN : v[C_READPCT] / 100.0;
				total_bw = v[C_MBSEC] * 1048576.0;
				set_dir(&h->dir[DDIR_TOTAL], v[C_RATE], total_bw, runtime_s, v[C_RESP], v[C_RESP_MAX],
					v[C_RESP_STD]);
				if (!isnan(rd_frac) && rd_frac > 0)
					set_dir(&h->dir[DDIR_READ], v[C_RATE] * rd_frac, total_bw * rd_frac, runtime_s,
						v[C_READ_RESP], v[C_READ_MAX], v[C_READ_STD]);
				if (!isnan(rd_frac) && rd_frac < 1)
					set_dir(&h->dir[DDIR_WRITE], v[C_RATE] * (1 - rd_frac), total_bw * (1 - rd_frac),
						runtime_s, v[C_WRITE_RESP], v[C_WRITE_MAX], v[C_WRITE_STD]);
				if (!isnan(v[C_CPU_USER]) || !isnan(v[C_CPU_KERNEL])) {
					struct cpu_result *c = run_result_add_cpu(&ir->res, HOST_AGGREGATE, ROLE_INITIATOR,
										  "vdbench");
					c->user_pct = v[C_CPU_USER];
					c->system_pct = v[C_CPU_KERNEL];
					c->iowait_pct = v[C_CPU_WAIT];
					c->idle_pct = v[C_CPU_IDLE];
					/* vdbench 5.04.06 writes cpu_used = cpu_user on interval rows: recompute */
					c->util_pct = (isnan(v[C_CPU_USER]) ? 0 : v[C_CPU_USER]) +
						      (isnan(v[C_CPU_KERNEL]) ? 0 : v[C_CPU_KERNEL]);
				}
				if (parm.len)
					run_result_add_artifact(&ir->res, "vdbench-parmfile.html", parm.buf, parm.len);
				i_first = i_prev = -1;
				t_first = t_prev = NAN;
			}
		}
		free(raw);
	}
	if (!have_header) {
		err_set(err, ERR_INPUT, "%s:%d: no column header line: not a vdbench flatfile", flat, line ? line : 1);
		goto out;
	}
	if (!nruns) {
		err_set(err, ERR_INPUT, "%s:%d: no run totals (avg_ rows): the run did not finish an interval", flat,
			line);
		goto out;
	}
	rc = 0;
out:
	for (size_t k = 0; k < nstarts; k++) {
		free(starts[k].rd);
		free(starts[k].forloops);
	}
	free(starts);
	free(version);
	strbuf_release(&sb);
	strbuf_release(&parm);
	free(flat);
	free(parm_path);
	return rc;
}
