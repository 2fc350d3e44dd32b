/*
 * csv_import: published results as CSV into an import batch (csv_import.h, docs/csv-format.md).
 *
 * The reader is RFC 4180 (quoted fields, "" inside quotes, line breaks inside quotes, CRLF or LF, a UTF-8
 * byte-order mark). Header names are normalised (lower case, every run of other characters than letters and
 * digits becomes '_') and classified: identity, metric with unit, description, or label. Each data row
 * becomes one run with the aggregate host '*': ddir total (iops, bandwidth), read and write (mean latency,
 * p99, and IOPS/bandwidth given or derived from the read share), and the cluster CPU figure
 * (host '*', role initiator or target, source "import").
 */
#include "import/csv_import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/units.h"

enum fkind {
	F_IGNORE = 0, F_LABEL, F_NOTE, F_NAME, F_TOOL, F_BS, F_RDPCT, F_RANDPCT, F_IODEPTH, F_NUMJOBS, F_RW, F_REP,
	F_STATUS, F_ERROR, F_IOPS, F_BW, F_LAT, F_P99, F_CPU, F_TCPU,
};

struct field {
	enum fkind kind;
	int dir;          /* metrics: DDIR_READ, DDIR_WRITE, DDIR_TOTAL */
	double scale;     /* metrics: factor to bytes/s, ns or % */
	char *label;      /* F_LABEL: the label key */
};

static const struct { const char *name; enum fkind kind; } plain_fields[] = {
	{ "workload", F_NAME }, { "name", F_NAME }, { "run", F_NAME }, { "job", F_NAME },
	{ "tool", F_TOOL }, { "bs", F_BS }, { "block_size", F_BS }, { "blocksize", F_BS },
	{ "rdpct", F_RDPCT }, { "read_pct", F_RDPCT }, { "rwmixread", F_RDPCT },
	{ "randpct", F_RANDPCT }, { "random_pct", F_RANDPCT },
	{ "iodepth", F_IODEPTH }, { "queue_depth", F_IODEPTH }, { "numjobs", F_NUMJOBS }, { "threads", F_NUMJOBS },
	{ "rw", F_RW }, { "repetition", F_REP }, { "rep", F_REP }, { "iteration", F_REP },
	{ "status", F_STATUS }, { "error", F_ERROR },
	{ "note", F_NOTE }, { "comment", F_NOTE }, { "description", F_NOTE }, { "label", F_NOTE },
	{ "cpu_pct", F_CPU }, { "cpu", F_CPU }, { "initiator_cpu_pct", F_CPU }, { "target_cpu_pct", F_TCPU },
};

/* Metric bases (after an optional read_/write_/total_ prefix) with their unit factor. */
static const struct { const char *name; enum fkind kind; double scale; } metric_fields[] = {
	{ "iops", F_IOPS, 1 },
	{ "mbps", F_BW, 1048576.0 }, { "mb_s", F_BW, 1048576.0 }, { "mib_s", F_BW, 1048576.0 },
	{ "mibps", F_BW, 1048576.0 }, { "kib_s", F_BW, 1024.0 }, { "kbps", F_BW, 1024.0 },
	{ "bw_bytes", F_BW, 1.0 }, { "bytes_s", F_BW, 1.0 },
	{ "lat_ms", F_LAT, 1e6 }, { "lat_us", F_LAT, 1e3 }, { "lat_ns", F_LAT, 1.0 },
	{ "p99_ms", F_P99, 1e6 }, { "p99_us", F_P99, 1e3 }, { "p99_ns", F_P99, 1.0 },
};

static void normalise(const char *in, char *out, size_t len)
{
	size_t o = 0;
	int sep = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p && o + 1 < len; p++) {
		if (isalnum(*p) && *p < 0x80) {
			if (sep && o)
				out[o++] = '_';
			sep = 0;
			if (o + 1 < len)
				out[o++] = (char)tolower(*p);
		} else {
			sep = 1;
		}
	}
	out[o] = '\0';
}

/* Classifies a normalised name; returns 0, or -1 when it is not a known field name. */
static int classify_known(const char *n, struct field *f)
{
	static const struct { const char *pfx; int dir; } pfx[] = {
		{ "read_", DDIR_READ }, { "r_", DDIR_READ }, { "write_", DDIR_WRITE }, { "w_", DDIR_WRITE },
		{ "total_", DDIR_TOTAL }, { "", DDIR_TOTAL },
	};
	size_t nl = strlen(n);

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < sizeof(plain_fields) / sizeof(plain_fields[0]); i++)
		if (!strcmp(n, plain_fields[i].name)) {
			f->kind = plain_fields[i].kind;
			f->scale = 1;
			return 0;
		}
	for (size_t p = 0; p < sizeof(pfx) / sizeof(pfx[0]); p++) {
		size_t pl = strlen(pfx[p].pfx);
		if (strncmp(n, pfx[p].pfx, pl))
			continue;
		for (size_t i = 0; i < sizeof(metric_fields) / sizeof(metric_fields[0]); i++) {
			if (strcmp(n + pl, metric_fields[i].name))
				continue;
			/* Mean latency and p99 need a direction; a bare lat_ms is not taken as either. */
			if ((metric_fields[i].kind == F_LAT || metric_fields[i].kind == F_P99) && pfx[p].dir == DDIR_TOTAL)
				return -1;
			f->kind = metric_fields[i].kind;
			f->dir = pfx[p].dir;
			f->scale = metric_fields[i].scale;
			return 0;
		}
	}
	if (nl > 6 && !strcmp(n + nl - 6, "_label")) {
		f->kind = F_NOTE;
		return 0;
	}
	return -1;
}

static int label_key_ok(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!(isalnum((unsigned char)*k) || *k == '_' || *k == '-' || *k == '.') || (unsigned char)*k >= 0x80)
			return 0;
	return 1;
}

int csv_map_add(struct kvlist *map, const char *arg, struct errbuf *err)
{
	const char *p = arg;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *pair = xstrndup(p, n);
		char *eq = strrchr(pair, '=');
		struct field f;
		char norm[128];

		if (!eq || eq == pair || !eq[1]) {
			err_set(err, ERR_USAGE, "--map wants column=field, got '%s'", pair);
			free(pair);
			return -1;
		}
		*eq = '\0';
		if (strcmp(eq + 1, "-") && strncmp(eq + 1, "label:", 6)) {
			normalise(eq + 1, norm, sizeof(norm));
			if (classify_known(norm, &f) < 0) {
				err_set(err, ERR_USAGE, "--map %s=%s: unknown field '%s' (see docs/csv-format.md)", pair,
					eq + 1, eq + 1);
				free(pair);
				return -1;
			}
		} else if (!strncmp(eq + 1, "label:", 6) && !label_key_ok(eq + 7)) {
			err_set(err, ERR_USAGE, "--map %s=%s: a label key is letters, digits, '_', '-', '.'", pair,
				eq + 1);
			free(pair);
			return -1;
		}
		kvlist_set(map, pair, eq + 1);
		free(pair);
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* ---- RFC 4180 reader ---------------------------------------------------------------------------- */

struct csv_reader {
	const char *p, *end;
	int line;              /* current line (1-based) */
};

/* Reads one record into fields (strings owned by the caller); returns its count, 0 at the end, -1 on an
 * unterminated quote. *line is where the record starts. */
static int csv_record(struct csv_reader *r, char ***fields, size_t *cap, int *line, struct errbuf *err,
		      const char *name)
{
	size_t n = 0;
	struct strbuf cell;

	if (r->p >= r->end)
		return 0;
	*line = r->line;
	strbuf_init(&cell);
	for (;;) {
		int quoted = 0;

		strbuf_reset(&cell);
		if (r->p < r->end && *r->p == '"') {
			quoted = 1;
			r->p++;
			for (;;) {
				if (r->p >= r->end) {
					strbuf_release(&cell);
					for (size_t i = 0; i < n; i++)
						free((*fields)[i]);
					return err_set(err, ERR_INPUT, "%s:%d: a quoted field is not closed", name, *line);
				}
				if (*r->p == '"') {
					if (r->p + 1 < r->end && r->p[1] == '"') {
						strbuf_addc(&cell, '"');
						r->p += 2;
						continue;
					}
					r->p++;
					break;
				}
				if (*r->p == '\n')
					r->line++;
				strbuf_addc(&cell, *r->p++);
			}
		}
		while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r') {
			if (quoted && *r->p != ' ' && *r->p != '\t') {
				strbuf_release(&cell);
				for (size_t i = 0; i < n; i++)
					free((*fields)[i]);
				return err_set(err, ERR_INPUT, "%s:%d: text after a closing quote", name, r->line);
			}
			strbuf_addc(&cell, *r->p++);
		}
		ARRAY_GROW(*fields, *cap, n + 1);
		(*fields)[n++] = strbuf_detach(&cell, NULL);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == '\r')
			r->p++;
		if (r->p < r->end && *r->p == '\n')
			r->p++;
		r->line++;
		break;
	}
	strbuf_release(&cell);
	return (int)n;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/* ---- rows into runs ------------------------------------------------------------------------------ */

struct row_vals {
	double iops[DDIR_NR], bw[DDIR_NR], lat[DDIR_NR], p99[DDIR_NR];
	double cpu, tcpu;
};

static int num_field(const char *s, double *out, const char *name, int line, const char *col, struct errbuf *err)
{
	if (parse_double(s, out) < 0 || isnan(*out) || isinf(*out) || *out < 0)
		return err_set(err, ERR_INPUT, "%s:%d: column '%s': '%s' is not a non-negative number", name, line, col,
			       s);
	return 0;
}

static void set_dir(struct host_result *h, int d, double iops, double bw, double lat_ns, double p99_ns)
{
	struct dir_result *dr = &h->dir[d];

	dr->present = 1;
	dr->iops = isnan(iops) ? 0 : iops;
	dr->bw_bytes = isnan(bw) ? 0 : bw;
	if (!isnan(lat_ns)) {
		dr->lat.present = 1;
		dr->lat.mean_ns = lat_ns;
	}
	if (!isnan(p99_ns)) {
		dr->pct = xcalloc(1, sizeof(*dr->pct));
		dr->pct[0].pct = 99.0;
		dr->pct[0].value_ns = (uint64_t)llround(p99_ns);
		dr->npct = 1;
		memcpy(dr->pct_kind, "lat", 4);
	}
}

static void fill_result(struct imported_run *run, const struct row_vals *v)
{
	struct host_result *h = run_result_add_host(&run->res, HOST_AGGREGATE);
	int rd = run->spec.wl.read_pct;
	double tot_iops = v->iops[DDIR_TOTAL], tot_bw = v->bw[DDIR_TOTAL];

	for (int d = DDIR_READ; d <= DDIR_WRITE; d++) {
		double share = rd < 0 ? NAN : (d == DDIR_READ ? rd : 100 - rd) / 100.0;
		double iops = v->iops[d], bw = v->bw[d];
		int has = !isnan(v->lat[d]) || !isnan(v->p99[d]) || !isnan(iops) || !isnan(bw) ||
			  (!isnan(share) && share > 0 && (!isnan(tot_iops) || !isnan(tot_bw)));

		if (!has)
			continue;
		/* Not published per direction: derived from the read share of the workload (documented). */
		if (isnan(iops) && !isnan(share) && !isnan(tot_iops))
			iops = tot_iops * share;
		if (isnan(bw) && !isnan(share) && !isnan(tot_bw))
			bw = tot_bw * share;
		set_dir(h, d, iops, bw, v->lat[d], v->p99[d]);
	}
	if (isnan(tot_iops) && (h->dir[DDIR_READ].present || h->dir[DDIR_WRITE].present))
		tot_iops = h->dir[DDIR_READ].iops + h->dir[DDIR_WRITE].iops;
	if (isnan(tot_bw) && (h->dir[DDIR_READ].present || h->dir[DDIR_WRITE].present))
		tot_bw = h->dir[DDIR_READ].bw_bytes + h->dir[DDIR_WRITE].bw_bytes;
	if (!isnan(tot_iops) || !isnan(tot_bw))
		set_dir(h, DDIR_TOTAL, tot_iops, tot_bw, NAN, NAN);
	for (int role = 0; role < 2; role++) {
		double util = role ? v->tcpu : v->cpu;
		struct cpu_result *c;

		if (isnan(util))
			continue;
		c = run_result_add_cpu(&run->res, HOST_AGGREGATE, role ? ROLE_TARGET : ROLE_INITIATOR, "import");
		c->util_pct = util;
	}
}

/* Classifies the header's columns into fld (nhdr of them); -1 on a bad or missing column. */
static int classify_header(char **hdr, size_t nhdr, const struct kvlist *map, const char *name, int line,
			   struct field *fld, struct errbuf *err)
{
	int name_col = -1, metrics = 0;

	for (size_t i = 0; i < nhdr; i++) {
		char norm[128];
		const char *h = trim(hdr[i]);
		const char *m = map ? kvlist_get(map, h, NULL) : NULL;

		normalise(m ? m : h, norm, sizeof(norm));
		if (m && !strcmp(m, "-")) {
			fld[i].kind = F_IGNORE;
		} else if (m && !strncmp(m, "label:", 6)) {
			fld[i].kind = F_LABEL;
			fld[i].label = xstrdup(m + 6);
		} else if (classify_known(norm, &fld[i]) < 0) {
			if (m)
				return err_set(err, ERR_INPUT, "%s: --map '%s=%s': unknown field", name, h, m);
			if (!*norm)
				return err_set(err, ERR_INPUT, "%s:%d: column %zu has no name", name, line, i + 1);
			fld[i].kind = F_LABEL;
			fld[i].label = xstrdup(norm);
		}
		for (size_t k = 0; k < i; k++)
			if (fld[k].kind == fld[i].kind && fld[i].kind != F_IGNORE && fld[i].kind != F_NOTE &&
			    fld[k].dir == fld[i].dir &&
			    (fld[i].kind != F_LABEL || !strcmp(fld[k].label, fld[i].label)))
				return err_set(err, ERR_INPUT, "%s:%d: columns '%s' and '%s' give the same field", name,
					       line, trim(hdr[k]), h);
		if (fld[i].kind == F_NAME)
			name_col = (int)i;
		if (fld[i].kind >= F_IOPS)
			metrics++;
	}
	if (name_col < 0)
		return err_set(err, ERR_INPUT, "%s:%d: no 'workload' (or 'name') column: each row needs a workload "
			       "name (see docs/csv-format.md)", name, line);
	if (!metrics)
		return err_set(err, ERR_INPUT, "%s:%d: no metric column (iops, mbps, read_lat_ms, ..., see "
			       "docs/csv-format.md)", name, line);
	return 0;
}

/* Where a cell is: file, line and column name, for messages. */
struct cell_at {
	const char *file, *col;
	int line;
};

static int apply_number(struct imported_run *run, struct row_vals *v, const struct field *f, const char *c,
			const struct cell_at *at, struct errbuf *err)
{
	long l;
	double x;
	uint64_t sz;

	switch (f->kind) {
	case F_BS:
		if (parse_size(c, &sz) < 0 || !sz)
			return err_set(err, ERR_INPUT, "%s:%d: column '%s': '%s' is not a block size", at->file,
				       at->line, at->col, c);
		run->spec.wl.bs_bytes = sz;
		return 0;
	case F_RDPCT:
	case F_RANDPCT:
		if (parse_long(c, 0, 100, &l) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: column '%s' must be 0..100, got '%s'", at->file,
				       at->line, at->col, c);
		*(f->kind == F_RDPCT ? &run->spec.wl.read_pct : &run->spec.wl.random_pct) = (int)l;
		return 0;
	case F_IODEPTH:
	case F_NUMJOBS:
	case F_REP:
		if (parse_long(c, 1, 1000000, &l) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: column '%s' must be a whole number >= 1, got '%s'",
				       at->file, at->line, at->col, c);
		*(f->kind == F_IODEPTH ? &run->spec.wl.iodepth : f->kind == F_NUMJOBS ? &run->spec.wl.numjobs :
		  &run->spec.repetition) = (unsigned)l;
		return 0;
	default: /* metrics */
		if (num_field(c, &x, at->file, at->line, at->col, err) < 0)
			return -1;
		x *= f->scale;
		if (f->kind == F_IOPS)
			v->iops[f->dir] = x;
		else if (f->kind == F_BW)
			v->bw[f->dir] = x;
		else if (f->kind == F_LAT)
			v->lat[f->dir] = x;
		else if (f->kind == F_P99)
			v->p99[f->dir] = x;
		else if (f->kind == F_CPU)
			v->cpu = x;
		else
			v->tcpu = x;
		return 0;
	}
}

/* One cell (trimmed, not empty unless the name) into the run or the row's figures. */
static int apply_cell(struct imported_run *run, struct row_vals *v, const struct field *f, const char *c,
		      const struct cell_at *at, struct errbuf *err)
{
	switch (f->kind) {
	case F_IGNORE:
	case F_NOTE:
		return 0;
	case F_LABEL:
		kvlist_set(&run->spec.labels, f->label, c);
		return 0;
	case F_NAME:
		if (!*c)
			return err_set(err, ERR_INPUT, "%s:%d: column '%s' is empty: each row needs a workload name",
				       at->file, at->line, at->col);
		run->spec.name = xstrdup(c);
		return 0;
	case F_TOOL:
	case F_RW:
	case F_ERROR: {
		char **dst = f->kind == F_TOOL ? &run->spec.wl.tool : f->kind == F_RW ? &run->spec.wl.rw : &run->error;
		free(*dst);
		*dst = xstrdup(c);
		return 0;
	}
	case F_STATUS:
		if (run_status_parse(c, &run->status) < 0 || run->status == RUN_RUNNING)
			return err_set(err, ERR_INPUT, "%s:%d: column '%s': status is done, failed, partial or "
				       "aborted, got '%s'", at->file, at->line, at->col, c);
		return 0;
	default:
		return apply_number(run, v, f, c, at, err);
	}
}

/* One data row (n == nhdr cells) into a new run of the batch, the seq-th of its table. */
static int import_row(struct import_batch *out, unsigned seq, char **hdr, char **cells, size_t nhdr,
		      const struct field *fld, const char *name, int line, struct errbuf *err)
{
	struct imported_run *run;
	struct row_vals v;

	for (int d = 0; d < DDIR_NR; d++)
		v.iops[d] = v.bw[d] = v.lat[d] = v.p99[d] = NAN;
	v.cpu = v.tcpu = NAN;
	run = import_batch_add(out);
	run->spec.seq = seq;
	run->spec.repetition = 1;
	run->spec.engine = xstrdup("import");
	for (size_t i = 0; i < nhdr; i++) {
		const char *c = trim(cells[i]);
		struct cell_at at = { name, trim(hdr[i]), line };

		if (!*c && fld[i].kind != F_NAME)
			continue;
		if (apply_cell(run, &v, &fld[i], c, &at, err) < 0)
			return -1;
	}
	if (!run->spec.wl.tool)
		run->spec.wl.tool = xstrdup("csv");
	fill_result(run, &v);
	return 0;
}

static void free_cells(char **cells, int n)
{
	for (int i = 0; i < n; i++)
		free(cells[i]);
}

/*
 * A table being read: the header classified, the reader after the last row read. A table read by
 * csv_import_file() is handed over CSV_PART runs at a time (import.h "parts"), so that a table of 100,000
 * rows does not hold 100,000 runs at once.
 */
#define CSV_PART 1000

struct csv_table {
	struct strbuf text;      /* csv_import_file: the file's text, which the reader walks */
	struct csv_reader r;
	char *name;
	char **hdr, **cells;
	size_t nhdr, hcap, ccap;
	struct field *fld;
	struct strbuf row_text;
	unsigned rows;           /* data rows read so far: the seq of the last run */
};

static void csv_table_free(void *arg)
{
	struct csv_table *t = arg;

	if (!t)
		return;
	for (size_t i = 0; i < t->nhdr; i++) {
		free(t->hdr[i]);
		if (t->fld)
			free(t->fld[i].label);
	}
	free(t->hdr);
	free(t->cells);
	free(t->fld);
	free(t->name);
	strbuf_release(&t->row_text);
	strbuf_release(&t->text);
	free(t);
}

/*
 * Reads the header of text (which must outlive t), classifies its columns (map: --map, only needed here) and
 * names out's suite. Returns t, or NULL with err set on a bad header (t freed).
 */
static struct csv_table *csv_table_open(struct csv_table *t, const char *text, size_t len, const struct kvlist *map,
					struct import_batch *out, struct errbuf *err)
{
	const char *base;
	int line = 0, n;

	t->r.p = text;
	t->r.end = text + len;
	t->r.line = 1;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		t->r.p += 3;
	n = csv_record(&t->r, &t->hdr, &t->hcap, &line, err, t->name);
	if (n < 0)
		goto fail;
	t->nhdr = (size_t)n;
	if (n == 0 || (n == 1 && !*trim(t->hdr[0]))) {
		err_set(err, ERR_INPUT, "%s: empty file, a header row is needed (see docs/csv-format.md)", t->name);
		goto fail;
	}
	if (memchr(text, '\0', len)) {
		err_set(err, ERR_INPUT, "%s: binary data, not CSV", t->name);
		goto fail;
	}
	t->fld = xcalloc(t->nhdr, sizeof(*t->fld));
	if (classify_header(t->hdr, t->nhdr, map, t->name, line, t->fld, err) < 0)
		goto fail;
	base = strrchr(t->name, '/');
	free(out->suite_name);
	out->suite_name = xstrdup(base ? base + 1 : t->name);
	return t;
fail:
	csv_table_free(t);
	return NULL;
}

static struct csv_table *csv_table_new(const char *name)
{
	struct csv_table *t = xcalloc(1, sizeof(*t));

	strbuf_init(&t->text);
	strbuf_init(&t->row_text);
	t->name = xstrdup(name);
	return t;
}

/* Whether a record is blank: every field empty or white space (a skipped row). */
static int record_blank(char **cells, int n)
{
	for (int i = 0; i < n; i++)
		if (*trim(cells[i]))
			return 0;
	return 1;
}

/* Counts the data rows (records not blank) from r to the end of the text: 0, or -1 at a bad record (which the
 * rows' own reading reports where it is). */
static int count_rows(struct csv_reader r, unsigned *rows)
{
	char **cells = NULL;
	size_t cap = 0;
	struct errbuf e;
	int line, n;

	errbuf_init(&e);
	*rows = 0;
	while ((n = csv_record(&r, &cells, &cap, &line, &e, "")) > 0) {
		*rows += !record_blank(cells, n);
		free_cells(cells, n);
	}
	free(cells);
	return n;
}

/*
 * Appends up to `max` runs, one per data row, to out. Returns 1 when the text goes on after them, 0 at its
 * end (err set when the table had no data row at all), -1 with err set on a bad row.
 */
static int csv_table_rows(struct csv_table *t, struct import_batch *out, size_t max, struct errbuf *err)
{
	for (size_t got = 0; got < max;) {
		const char *start = t->r.p;
		int rc, line = 0;
		int n = csv_record(&t->r, &t->cells, &t->ccap, &line, err, t->name);

		if (n < 0)
			return -1;
		if (n == 0)
			break;
		if (record_blank(t->cells, n)) {
			free_cells(t->cells, n);
			continue;
		}
		if ((size_t)n != t->nhdr) {
			err_set(err, ERR_INPUT, "%s:%d: %d fields, the header has %zu", t->name, line, n, t->nhdr);
			free_cells(t->cells, n);
			return -1;
		}
		rc = import_row(out, t->rows + 1, t->hdr, t->cells, t->nhdr, t->fld, t->name, line, err);
		free_cells(t->cells, n);
		if (rc < 0)
			return -1;
		t->rows++;
		got++;
		/* The source row, description columns included, stays with the run. */
		strbuf_reset(&t->row_text);
		for (size_t i = 0; i < t->nhdr; i++)
			strbuf_addf(&t->row_text, "%s%s", i ? "," : "", t->hdr[i]);
		strbuf_addc(&t->row_text, '\n');
		strbuf_add(&t->row_text, start, (size_t)(t->r.p - start));
		run_result_add_artifact(&out->runs[out->n - 1].res, "csv-row", t->row_text.buf, t->row_text.len);
	}
	if (t->r.p < t->r.end)
		return 1;
	if (!t->rows)
		return err_set(err, ERR_INPUT, "%s: no data rows after the header", t->name);
	return 0;
}

int csv_import_parse(const char *text, size_t len, const char *name, const struct kvlist *map,
		     struct import_batch *out, struct errbuf *err)
{
	struct csv_table *t = csv_table_open(csv_table_new(name), text, len, map, out, err);
	int rc;

	if (!t)
		return -1;
	rc = csv_table_rows(t, out, SIZE_MAX, err);
	csv_table_free(t);
	return rc < 0 ? -1 : 0;
}

/* import_batch.next of a table read in parts: its next CSV_PART runs; the last part ends the parts. */
static int csv_table_next(struct import_batch *b, struct errbuf *err)
{
	int rc = csv_table_rows(b->part, b, CSV_PART, err);

	if (rc <= 0) {
		csv_table_free(b->part);
		b->part = NULL;
		b->next = NULL;
		b->part_free = NULL;
	}
	return rc < 0 ? -1 : 0;
}

int csv_import_file(const char *path, const struct kvlist *map, struct import_batch *out, struct errbuf *err)
{
	struct csv_table *t;
	int rc;

	if (import_check_path(path, 0, err) < 0)
		return -1;
	t = csv_table_new(path);
	if (strbuf_read_file(&t->text, path) < 0) {
		int e = errno;
		csv_table_free(t);
		return err_set(err, ERR_INPUT, "%s: cannot read: %s", path, strerror(e == EISDIR ? EISDIR : e));
	}
	if (!csv_table_open(t, t->text.buf, t->text.len, map, out, err))
		return -1;
	rc = csv_table_rows(t, out, CSV_PART, err);
	if (rc == 1) { /* more rows: the caller stores this part, then asks for the next (import_batch_next) */
		unsigned rest;

		if (count_rows(t->r, &rest) == 0)
			out->planned = t->rows + rest;
		out->part = t;
		out->next = csv_table_next;
		out->part_free = csv_table_free;
		return 0;
	}
	csv_table_free(t);
	return rc < 0 ? -1 : 0;
}
