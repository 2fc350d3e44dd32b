/*
 * test_gate: cells, verdicts, exclusions, selections and renderers of the CI gate.
 *
 * A real SQLite database is written through core/store (the same path `bench run` uses): a baseline suite, a
 * candidate suite whose random-read workload is 30% slower (IOPS down, latency up) and whose random-write
 * workload is unchanged, with a failed run, a run with a fio error and a short run that must be excluded with their
 * reasons. The gate must find exactly the regressions, call the unchanged workload equivalent, and render
 * JUnit XML, Markdown and JSON that carry the same verdicts. Paired (A B B A) data with drift shows why
 * --paired exists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/identity.h"
#include "core/store.h"
#include "report/gate/gate.h"
#include "report/gate/gate_select.h"
#include "testutil.h"

static char dbpath[256];
static uint64_t next_runtime_ms = 10000; /* measured time of the next add_run (the job asks for 10 s) */

/* Adds one run with an aggregate read or write result. status/fio_error let runs be spoiled. */
static void add_run(struct store *st, int64_t suite, unsigned seq, unsigned rep, const char *name,
		    const char *rw, int read_pct, double iops, enum run_status status, int fio_error,
		    const char *label_value)
{
	struct run_spec spec;
	struct run_result res;
	struct host_result *h;
	struct dir_result *d;
	struct errbuf err;
	int64_t id;
	enum ddir dir = read_pct ? DDIR_READ : DDIR_WRITE;

	errbuf_init(&err);
	tu_spec(&spec, name, seq, rep, "fio", rw, read_pct, 32, 10);
	kvlist_add(&spec.wl.opts, "time_based", NULL);
	kvlist_add(&spec.labels, "git", label_value);
	assert_int_equal(store_run_add(st, suite, &spec, status, &id, &err), 0);

	run_result_init(&res);
	if (status == RUN_DONE || fio_error) {
		h = run_result_add_host(&res, HOST_AGGREGATE);
		h->error = fio_error;
		if (fio_error)
			h->errmsg = strdup("Input/output error");
		d = &h->dir[dir];
		d->present = 1;
		d->ios = (uint64_t)(iops * 10);
		d->bytes = d->ios * 4096;
		d->runtime_ms = next_runtime_ms;
		d->iops = iops;
		d->bw_bytes = iops * 4096;
		d->lat.present = 1;
		d->lat.n = d->ios;
		d->lat.mean_ns = 32e9 / iops; /* Little's law at iodepth 32 */
		d->npct = 1;
		d->pct = calloc(1, sizeof(*d->pct));
		d->pct[0].pct = 99.0;
		d->pct[0].value_ns = (uint64_t)(2 * d->lat.mean_ns);
		strcpy(d->pct_kind, "clat");
		assert_int_equal(store_run_write_result(st, id, &res, &err), 0);
	}
	run_result_release(&res);
	run_spec_release(&spec);
}

/* Deterministic noise of about +-1.5% */
static double noise(unsigned i, unsigned salt)
{
	static const double n[] = { 0.012, -0.008, 0.003, -0.014, 0.007, -0.002, 0.010, -0.011, 0.005 };
	return 1 + n[(i * 7 + salt) % 9];
}

static int setup_db(void **state)
{
	struct store *st;
	struct errbuf err;
	struct kvlist labels;
	int64_t s1, s2, s3;
	*state = dbpath;

	errbuf_init(&err);
	st = tu_store_fresh(dbpath, sizeof(dbpath), "gate");
	kvlist_init(&labels);

	kvlist_set(&labels, "git", "abc");
	assert_int_equal(store_suite_add(st, "base", "run", NULL, 10, &labels, &s1, &err), 0);
	for (unsigned r = 1; r <= 5; r++) {
		add_run(st, s1, 1, r, "rr-4k", "randread", 100, 10000 * noise(r, 0), RUN_DONE, 0, "abc");
		add_run(st, s1, 2, r, "rw-4k", "randwrite", 0, 5000 * noise(r, 3), RUN_DONE, 0, "abc");
	}
	kvlist_set(&labels, "git", "def");
	assert_int_equal(store_suite_add(st, "cand", "run", NULL, 12, &labels, &s2, &err), 0);
	for (unsigned r = 1; r <= 5; r++) {
		add_run(st, s2, 1, r, "rr-4k", "randread", 100, 7000 * noise(r, 5), RUN_DONE, 0, "def");
		add_run(st, s2, 2, r, "rw-4k", "randwrite", 0, 5000 * noise(r, 1), RUN_DONE, 0, "def");
	}
	/* spoiled runs: excluded with a reason, never counted */
	add_run(st, s2, 1, 6, "rr-4k", "randread", 100, 1, RUN_FAILED, 0, "def");
	add_run(st, s2, 1, 7, "rr-4k", "randread", 100, 20000, RUN_DONE, 5, "def");
	next_runtime_ms = 6000; /* a time_based 10 s job that measured 6 s */
	add_run(st, s2, 1, 8, "rr-4k", "randread", 100, 20000, RUN_DONE, 0, "def");
	next_runtime_ms = 10000;

	/* a third suite with nothing in common */
	kvlist_set(&labels, "git", "xyz");
	assert_int_equal(store_suite_add(st, "other", "run", NULL, 2, &labels, &s3, &err), 0);
	for (unsigned r = 1; r <= 2; r++)
		add_run(st, s3, 1, r, "seq-write", "write", 0, 300, RUN_DONE, 0, "xyz");
	kvlist_release(&labels);
	store_close(st);
	return 0;
}

/* Starts the sides of a gate: baseline B selected by BSEL, candidate C by CSEL. */
static void sides_init(struct gate_side *b, struct gate_side *c, const char *bsel, const char *csel)
{
	gate_side_init(b, bsel);
	gate_side_init(c, csel);
}

/* Builds and evaluates G (gate_init done) of B against C; both must succeed. */
static void judge(struct gate *g, struct gate_side *b, struct gate_side *c, struct errbuf *err)
{
	assert_int_equal(gate_build(g, b, c, err), 0);
	assert_int_equal(gate_evaluate(g, err), 0);
}

/* Releases a gate and both of its sides. */
static void release_all(struct gate *g, struct gate_side *b, struct gate_side *c)
{
	gate_release(g);
	gate_side_release(b);
	gate_side_release(c);
}

/* OUT holds G as RENDER writes it (what it held before is dropped); returns that text. */
static const char *render(void (*fn)(const struct gate *, struct strbuf *), const struct gate *g, struct strbuf *out)
{
	strbuf_reset(out);
	fn(g, out);
	return out->buf;
}

/* A gate of baseline "b" against candidate "c", with its error. */
struct duel {
	struct gate_side b, c;
	struct gate g;
	struct errbuf err;
};

static void duel_init(struct duel *d)
{
	errbuf_init(&d->err);
	sides_init(&d->b, &d->c, "b", "c");
}

/* Adds repetition R of workload w to both sides (baseline run R, candidate run 10 + R); returns the
 * baseline's run, the candidate's in *Y. */
static struct gate_run *duel_add(struct duel *d, unsigned r, struct gate_run **y)
{
	struct gate_run *x = gate_side_add(&d->b, r, "w", "w", r);

	*y = gate_side_add(&d->c, 10 + r, "w", "w", r);
	return x;
}

static const struct gate_cell *find_cell(const struct gate *g, const char *workload, enum gate_metric m)
{
	for (size_t i = 0; i < g->ncells; i++)
		if (!strcmp(g->cells[i].workload, workload) && g->cells[i].metric == m)
			return &g->cells[i];
	return NULL;
}

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void load(struct store *st, const char *bsel, const char *csel, const struct gate_opts *o,
		 struct gate_side *b, struct gate_side *c, struct gate *g)
{
	struct errbuf err;

	errbuf_init(&err);
	gate_side_init(b, bsel);
	gate_side_init(c, csel);
	assert_int_equal(gate_select_load(st, bsel, NULL, b, &err), 0);
	assert_int_equal(gate_select_load(st, csel, NULL, c, &err), 0);
	gate_init(g, o);
	assert_int_equal(gate_build(g, b, c, &err), 0);
	assert_int_equal(gate_evaluate(g, &err), 0);
}

static void test_verdicts_from_store(void **state)
{
	struct store *st;
	struct errbuf err;
	struct gate_side b, c;
	struct gate g;
	const struct gate_cell *cell;
	struct strbuf out;
	size_t excluded = 0;
	(void)state;

	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, STORE_READONLY, &st, &err), 0);
	load(st, "git=abc", "latest:git=def", NULL, &b, &c, &g);

	assert_int_equal(b.n, 10);
	assert_int_equal(c.n, 13);
	for (size_t i = 0; i < c.n; i++)
		if (c.runs[i].invalid) {
			excluded++;
			assert_true(strstr(c.runs[i].invalid, "status failed") || strstr(c.runs[i].invalid, "fio error 5") ||
				    strstr(c.runs[i].invalid, "ran short: 6.0 s of the 10 s"));
		}
	assert_int_equal(excluded, 3);

	/* random read: IOPS, MiB/s down 30%, mean and p99 latency up: regressions */
	cell = find_cell(&g, "rr-4k", GM_IOPS_READ);
	assert_non_null(cell);
	assert_int_equal(cell->verdict, GATE_REGRESSION);
	assert_int_equal(cell->nbase, 5);
	assert_int_equal(cell->ncand, 5); /* the spoiled runs are not samples */
	assert_true(cell->ratio > 0.66 && cell->ratio < 0.74);
	assert_true(cell->ratio_lo <= cell->ratio && cell->ratio <= cell->ratio_hi && cell->ratio_hi < 1);
	assert_int_equal(find_cell(&g, "rr-4k", GM_MBPS_READ)->verdict, GATE_REGRESSION);
	assert_int_equal(find_cell(&g, "rr-4k", GM_LAT_MEAN_READ)->verdict, GATE_REGRESSION);
	assert_int_equal(find_cell(&g, "rr-4k", GM_LAT_P99_READ)->verdict, GATE_REGRESSION);
	/* the write workload did not change: within +-5% at these noise levels */
	cell = find_cell(&g, "rw-4k", GM_IOPS_WRITE);
	assert_non_null(cell);
	assert_true(cell->verdict == GATE_EQUIVALENT || cell->verdict == GATE_INCONCLUSIVE);
	assert_true(cell->verdict != GATE_REGRESSION);
	assert_null(find_cell(&g, "rw-4k", GM_IOPS_READ)); /* no read figures in a write workload */
	assert_int_equal(g.ncells, 8);
	/* judged by default: IOPS, MiB/s and p99 (--metric); mean latency and CPU per IO are information */
	assert_int_equal(g.count[GATE_REGRESSION], 3);
	assert_true(find_cell(&g, "rr-4k", GM_LAT_MEAN_READ)->info);
	assert_false(find_cell(&g, "rr-4k", GM_LAT_P99_READ)->info);
	assert_int_equal(gate_outcome(&g), GATE_FAIL_REGRESSION);
	/* sorted by effect: the worst first */
	assert_int_equal(g.cells[0].verdict, GATE_REGRESSION);

	/* JUnit: one testcase per cell, a failure per regression */
	strbuf_init(&out);
	gate_render_junit(&g, &out);
	assert_int_equal(count_str(out.buf, "<testcase "), g.ncells);
	assert_int_equal(count_str(out.buf, "<failure "), 3);
	assert_int_equal(count_str(out.buf, "<skipped "), g.count[GATE_INCONCLUSIVE] + g.count[GATE_INVALID]);
	assert_int_equal(count_str(out.buf, "name=\"judged\" value=\"false\""), g.ninfo);
	assert_non_null(strstr(out.buf, "name=\"ci_low\""));

	/* Markdown: a table with one row per cell */
	strbuf_reset(&out);
	gate_render_markdown(&g, &out);
	assert_non_null(strstr(out.buf, "| Verdict | Workload |"));
	assert_int_equal(count_str(out.buf, "\n| "), g.ncells + 1);
	assert_non_null(strstr(out.buf, "status failed"));

	/* JSON: parses, same verdicts, the raw samples */
	strbuf_reset(&out);
	gate_render_json(&g, &out);
	{
		cJSON *root = cJSON_Parse(out.buf), *cells, *first, *samples;
		assert_non_null(root);
		cells = cJSON_GetObjectItemCaseSensitive(root, "cells");
		assert_true(cJSON_IsArray(cells));
		assert_int_equal(cJSON_GetArraySize(cells), (int)g.ncells);
		first = cJSON_GetArrayItem(cells, 0);
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(first, "verdict")->valuestring, "REGRESSION");
		samples = cJSON_GetObjectItemCaseSensitive(first, "baseline_samples");
		assert_int_equal(cJSON_GetArraySize(samples), 5);
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
					 cJSON_GetObjectItemCaseSensitive(root, "candidate"), "excluded")), 3);
		cJSON_Delete(root);
	}

	/* text */
	strbuf_reset(&out);
	gate_render_text(&g, &out);
	assert_non_null(strstr(out.buf, "VERDICT"));
	assert_non_null(strstr(out.buf, "excluded: candidate run"));
	assert_non_null(strstr(out.buf, "gate: REGRESSION"));
	strbuf_release(&out);

	release_all(&g, &b, &c);

	/* the baseline against itself: nothing is a regression */
	load(st, "suite:1", "git=abc", NULL, &b, &c, &g);
	assert_int_equal(g.count[GATE_REGRESSION], 0);
	assert_int_equal(g.count[GATE_IMPROVEMENT], 0);
	assert_int_equal(g.count[GATE_EQUIVALENT], g.ncells - g.ninfo); /* the judged cells */
	assert_int_equal(gate_outcome(&g), GATE_PASS);
	release_all(&g, &b, &c);
	store_close(st);
}

static void test_bad_selections(void **state)
{
	struct store *st;
	struct errbuf err;
	struct gate_side b, c;
	struct gate g;
	(void)state;

	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, STORE_READONLY, &st, &err), 0);

	/* malformed */
	assert_int_equal(gate_selection_check("main", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_int_equal(gate_selection_check("suite:x", &err), -1);
	assert_int_equal(gate_selection_check("latest:", &err), -1);
	assert_int_equal(gate_selection_check("git=abc,os=linux", &err), 0);

	/* latest: with no such suite */
	gate_side_init(&b, "latest:git=nope");
	assert_int_equal(gate_select_load(st, "latest:git=nope", NULL, &b, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	gate_side_release(&b);

	/* matching nothing: gate_build refuses, naming the selection */
	sides_init(&b, &c, "git=nope", "git=def");
	assert_int_equal(gate_select_load(st, "git=nope", NULL, &b, &err), 0);
	assert_int_equal(gate_select_load(st, "git=def", NULL, &c, &err), 0);
	assert_int_equal(b.n, 0);
	gate_init(&g, NULL);
	assert_int_equal(gate_build(&g, &b, &c, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "matches no runs"));
	release_all(&g, &b, &c);

	/* no workload in common */
	sides_init(&b, &c, "git=abc", "suite:3");
	assert_int_equal(gate_select_load(st, "git=abc", NULL, &b, &err), 0);
	assert_int_equal(gate_select_load(st, "suite:3", NULL, &c, &err), 0);
	gate_init(&g, NULL);
	assert_int_equal(gate_build(&g, &b, &c, &err), -1);
	assert_non_null(strstr(err.msg, "no workload in common"));
	release_all(&g, &b, &c);
	store_close(st);
}

/* Too few valid runs: INVALID, and the gate is not a pass. */
static void test_too_few_runs_is_not_a_pass(void **state)
{
	struct gate_side b, c;
	struct gate g;
	struct gate_opts o;
	struct errbuf err;
	(void)state;

	errbuf_init(&err);
	sides_init(&b, &c, "mem:b", "mem:c");
	for (unsigned r = 1; r <= 5; r++)
		gate_side_add(&b, r, "w", "w", r)->value[GM_IOPS_READ] = 1000 * noise(r, 0);
	for (unsigned r = 1; r <= 4; r++) {
		struct gate_run *x = gate_side_add(&c, 10 + r, "w", "w", r);
		x->value[GM_IOPS_READ] = 1000 * noise(r, 2);
		if (r > 2)
			gate_run_set_invalid(x, "status aborted");
	}
	gate_opts_default(&o);
	gate_init(&g, &o);
	judge(&g, &b, &c, &err);
	assert_int_equal(g.ncells, 1);
	assert_int_equal(g.cells[0].verdict, GATE_INVALID);
	assert_non_null(strstr(g.cells[0].note, "need 3"));
	assert_int_equal(gate_outcome(&g), GATE_FAIL_INVALID);
	g.opts.allow_invalid = 1;
	/* nothing judged is no evidence for a pass either */
	assert_int_equal(gate_outcome(&g), GATE_UNDECIDED);
	assert_string_equal(gate_headline(&g), "INCONCLUSIVE");
	release_all(&g, &b, &c);
}

/* A figure missing from one side: CPU only noted, a vanished direction INVALID (never a silent pass). */
static void test_missing_figures(void **state)
{
	struct duel d;
	(void)state;

	duel_init(&d);
	for (unsigned r = 1; r <= 4; r++) {
		struct gate_run *y, *x = duel_add(&d, r, &y);
		x->value[GM_IOPS_READ] = 1000 * noise(r, 0);
		x->value[GM_IOPS_WRITE] = 500 * noise(r, 1);
		x->value[GM_CPU_PER_IO] = 20 * noise(r, 2);
		y->value[GM_IOPS_READ] = 1000 * noise(r, 3); /* no writes, no CPU figure */
	}
	gate_init(&d.g, NULL);
	judge(&d.g, &d.b, &d.c, &d.err);
	assert_int_equal(d.g.ncells, 2);
	assert_int_equal(find_cell(&d.g, "w", GM_IOPS_WRITE)->verdict, GATE_INVALID);
	assert_non_null(strstr(find_cell(&d.g, "w", GM_IOPS_WRITE)->note, "no write IOPS in the candidate"));
	assert_null(find_cell(&d.g, "w", GM_CPU_PER_IO));
	assert_int_equal(d.g.nnotes, 1);
	assert_non_null(strstr(d.g.notes[0], "CPU per IO of w: not measured in the candidate"));
	assert_int_equal(gate_outcome(&d.g), GATE_FAIL_INVALID);
	release_all(&d.g, &d.b, &d.c);
}

/*
 * Interleaved blocks with a strong drift between repetitions (+-8%) and a true 7% latency increase: pairing
 * by repetition cancels the drift; without pairing the drift hides it.
 */
static void test_paired_cancels_drift(void **state)
{
	static const double drift[] = { 0.00, 0.08, -0.06, 0.05, -0.08, 0.03, -0.04, 0.07 };
	struct gate_side b, c;
	struct gate g;
	struct gate_opts o;
	struct errbuf err;
	enum gate_verdict unpaired, paired;
	double ulo, uhi;
	(void)state;

	errbuf_init(&err);
	sides_init(&b, &c, "config=A", "config=B");
	for (unsigned r = 1; r <= 8; r++) {
		double base = 100000 * exp(drift[r - 1]); /* the drift both configurations of a block share */
		gate_side_add(&b, r, "w", "w", r)->value[GM_LAT_MEAN_READ] = base * (1 + 0.002 * (r % 3));
		gate_side_add(&c, 100 + r, "w", "w", r)->value[GM_LAT_MEAN_READ] = base * 1.07 * (1 - 0.002 * (r % 2));
	}
	gate_opts_default(&o);
	gate_init(&g, &o);
	judge(&g, &b, &c, &err);
	unpaired = g.cells[0].verdict;
	ulo = g.cells[0].ratio_lo;
	uhi = g.cells[0].ratio_hi;
	gate_release(&g);

	o.paired = 1;
	gate_init(&g, &o);
	judge(&g, &b, &c, &err);
	paired = g.cells[0].verdict;
	printf("7%% latency increase under +-8%% drift: unpaired %s (interval [%+.1f%%, %+.1f%%]), paired %s "
	       "(interval [%+.1f%%, %+.1f%%])\n", gate_verdict_name(unpaired), (ulo - 1) * 100, (uhi - 1) * 100,
	       gate_verdict_name(paired), (g.cells[0].ratio_lo - 1) * 100, (g.cells[0].ratio_hi - 1) * 100);
	assert_int_equal(paired, GATE_REGRESSION);
	assert_true(g.cells[0].ratio > 1.06 && g.cells[0].ratio < 1.08);
	assert_int_not_equal(unpaired, GATE_REGRESSION);
	release_all(&g, &b, &c);
}

/* Benjamini-Hochberg across cells: a borderline cell among many is not called a regression. */
static void test_bh_across_cells(void **state)
{
	struct duel d;
	const struct gate_cell *cell;
	(void)state;

	duel_init(&d);
	/* 4 runs per side: the best exact two-sided p is 2/70 = 0.029, just significant alone */
	for (unsigned r = 1; r <= 4; r++) {
		struct gate_run *y, *x = duel_add(&d, r, &y);
		for (int m = 0; m < GM_NR; m++) {
			x->value[m] = 1000 * (1 + 0.001 * r);
			y->value[m] = 1000 * (1 + 0.001 * (r + 4)); /* all candidate values above: p = 0.029 */
		}
		x->value[GM_IOPS_READ] = 1000 * (1 + 0.01 * r);
		y->value[GM_IOPS_READ] = 800 * (1 + 0.01 * r); /* clearly lower IOPS */
	}
	gate_init(&d.g, NULL);
	d.g.opts.min_runs = 3;
	d.g.opts.method = GATE_METHOD_RANK; /* the exact rank p-values */
	judge(&d.g, &d.b, &d.c, &d.err);
	assert_int_equal(d.g.ncells, GM_NR);
	/* every cell has p = 2/70; with 13 cells their q stays 0.029 (all equal), so BH keeps them */
	for (size_t i = 0; i < d.g.ncells; i++)
		assert_true(fabs(d.g.cells[i].q - 2.0 / 70) < 1e-9);
	gate_release(&d.g);

	/* now only one cell is shifted, the others are noise: its q is 13 times its p and it is not called */
	for (unsigned r = 1; r <= 4; r++)
		for (int m = 0; m < GM_NR; m++)
			if (m != GM_IOPS_READ)
				d.c.runs[r - 1].value[m] = d.b.runs[r - 1].value[m] * (r % 2 ? 1.001 : 0.999);
	gate_init(&d.g, NULL);
	d.g.opts.method = GATE_METHOD_RANK;
	judge(&d.g, &d.b, &d.c, &d.err);
	cell = find_cell(&d.g, "w", GM_IOPS_READ);
	assert_true(cell->s.p < 0.05);
	assert_true(cell->q > 0.05);
	assert_int_equal(cell->verdict, GATE_INCONCLUSIVE);
	assert_non_null(strstr(cell->note, "not significant after adjusting"));
	release_all(&d.g, &d.b, &d.c);
}

static void test_judge_directions(void **state)
{
	struct stats_shift s = { 0 };
	(void)state;

	/* latency up 10%, interval [+6%, +14%]: regression for lower-is-better, improvement for IOPS */
	s.est = log(1.10);
	s.lo = log(1.06);
	s.hi = log(1.14);
	assert_int_equal(gate_judge(&s, 0.01, 0.05, 0.05, 1), GATE_REGRESSION);
	assert_int_equal(gate_judge(&s, 0.01, 0.05, 0.05, 0), GATE_IMPROVEMENT);
	/* not significant after adjustment */
	assert_int_equal(gate_judge(&s, 0.2, 0.05, 0.05, 1), GATE_INCONCLUSIVE);
	/* a real but small change inside the threshold: equivalent */
	s.est = log(1.02);
	s.lo = log(1.01);
	s.hi = log(1.03);
	assert_int_equal(gate_judge(&s, 0.01, 0.05, 0.05, 1), GATE_EQUIVALENT);
	/* wide interval */
	s.lo = log(0.9);
	s.hi = log(1.2);
	assert_int_equal(gate_judge(&s, 0.5, 0.05, 0.05, 1), GATE_INCONCLUSIVE);
	/* unbounded interval (too few runs for the level) */
	s.lo = -INFINITY;
	s.hi = INFINITY;
	assert_int_equal(gate_judge(&s, 0.1, 0.05, 0.05, 0), GATE_INCONCLUSIVE);
}

/* ---- like for like ------------------------------------------------------------------------------- */

/* A run spec of the random-read workload with optional extra fio option and engine. */
static void like_spec(struct run_spec *spec, const char *opt, const char *val, const char *engine)
{
	tu_spec(spec, "rr", 0, 0, engine, "randread", 100, 4, 0);
	kvlist_add(&spec->wl.opts, "time_based", NULL);
	kvlist_add(&spec->wl.opts, "write_lat_log", "x"); /* logging: never part of the fingerprint */
	if (opt)
		kvlist_add(&spec->wl.opts, opt, val);
	run_spec_add_target(spec, "/tmp/bench-gate-like");
}

/*
 * Four runs per side named "rr" (the candidate's `cname`); the candidate's runs get `opt`=`val` and `engine`.
 * Keyed "rr", or, with by_identity, by their workload identity as gate_select keys them (rep_match_key).
 */
static void like_sides_keyed(struct gate_side *b, struct gate_side *c, const char *opt, const char *val,
			     const char *engine, int by_identity, const char *cname)
{
	struct run_spec sb, sc;
	char *kb, *kc;

	like_spec(&sb, NULL, NULL, "sim");
	like_spec(&sc, opt, val, engine);
	kb = by_identity ? run_spec_identity(&sb) : xstrdup("rr");
	kc = by_identity ? run_spec_identity(&sc) : xstrdup("rr");
	gate_side_init(b, "cfg=A");
	gate_side_init(c, "cfg=B");
	for (unsigned r = 1; r <= 4; r++) {
		struct gate_run *x = gate_side_add(b, r, "rr", kb, r), *y = gate_side_add(c, 10 + r, cname, kc, r);
		x->value[GM_IOPS_READ] = 10000 * noise(r, 0);
		y->value[GM_IOPS_READ] = 7000 * noise(r, 1); /* a capped candidate: fewer IOPS ... */
		x->value[GM_LAT_MEAN_READ] = 400e3 * noise(r, 2);
		y->value[GM_LAT_MEAN_READ] = 300e3 * noise(r, 3); /* ... and a lower mean latency */
		gate_run_set_like(x, &sb, 0);
		gate_run_set_like(y, &sc, 0);
	}
	free(kb);
	free(kc);
	run_spec_release(&sb);
	run_spec_release(&sc);
}

static void like_sides(struct gate_side *b, struct gate_side *c, const char *opt, const char *val, const char *engine)
{
	like_sides_keyed(b, c, opt, val, engine, 0, "rr");
}

static void test_like_for_like(void **state)
{
	static const char *const allow[] = { "rate_iops" };
	struct gate_side b, c;
	struct gate g;
	struct errbuf err;
	(void)state;

	errbuf_init(&err);
	/* rate_iops added on the candidate: every cell INVALID, naming the option and both values */
	like_sides(&b, &c, "rate_iops", "15000", "sim");
	assert_null(kvlist_find(&b.runs[0].like, "write_lat_log"));
	assert_string_equal(kvlist_get(&c.runs[0].like, "rate_iops", ""), "15000");
	assert_string_equal(kvlist_get(&c.runs[0].like, "engine", ""), "sim");
	assert_string_equal(kvlist_get(&c.runs[0].like, "targets", ""), "/tmp/bench-gate-like");
	assert_string_equal(kvlist_get(&c.runs[0].like, "hosts", ""), "0");
	gate_init(&g, NULL);
	judge(&g, &b, &c, &err);
	assert_int_equal(g.ncells, 2);
	for (size_t i = 0; i < g.ncells; i++) {
		assert_int_equal(g.cells[i].verdict, GATE_INVALID);
		assert_non_null(strstr(g.cells[i].note, "rate_iops: baseline -, candidate 15000"));
	}
	assert_int_equal(gate_outcome(&g), GATE_FAIL_INVALID);
	gate_release(&g);

	/* --allow-diff rate_iops: judged (IOPS down: REGRESSION, latency down: IMPROVEMENT) */
	{
		struct gate_opts o;
		gate_opts_default(&o);
		o.allow_diff = allow;
		o.nallow_diff = 1;
		gate_init(&g, &o);
	}
	judge(&g, &b, &c, &err);
	assert_int_equal(find_cell(&g, "rr", GM_IOPS_READ)->verdict, GATE_REGRESSION);
	assert_int_equal(find_cell(&g, "rr", GM_LAT_MEAN_READ)->verdict, GATE_IMPROVEMENT);
	assert_int_equal(gate_outcome(&g), GATE_FAIL_REGRESSION);
	release_all(&g, &b, &c);

	/* another engine is not like for like either; the same spec on both sides is */
	like_sides(&b, &c, NULL, NULL, "fio");
	gate_init(&g, NULL);
	judge(&g, &b, &c, &err);
	assert_non_null(strstr(g.cells[0].note, "engine: baseline sim, candidate fio"));
	release_all(&g, &b, &c);
	like_sides(&b, &c, NULL, NULL, "sim");
	gate_init(&g, NULL);
	judge(&g, &b, &c, &err);
	assert_int_equal(find_cell(&g, "rr", GM_IOPS_READ)->verdict, GATE_REGRESSION);
	release_all(&g, &b, &c);
}

/*
 * Keyed by identity (as gate_select keys runs): a candidate with rate_iops has another identity; under the same
 * name it is still put beside the baseline so that the difference is named (INVALID), and judged with
 * --allow-diff rate_iops; under another name the two are notes, and the sides have no workload in common.
 */
static void test_like_by_identity(void **state)
{
	static const char *const allow[] = { "rate_iops" };
	struct gate_side b, c;
	struct gate_opts o;
	struct gate g;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	like_sides_keyed(&b, &c, "rate_iops", "15000", "sim", 1, "rr");
	assert_string_not_equal(b.runs[0].key, c.runs[0].key);
	gate_init(&g, NULL);
	judge(&g, &b, &c, &err);
	assert_int_equal(g.ncells, 2);
	for (size_t i = 0; i < g.ncells; i++) {
		assert_int_equal(g.cells[i].verdict, GATE_INVALID);
		assert_non_null(strstr(g.cells[i].note, "rate_iops: baseline -, candidate 15000"));
	}
	for (size_t i = 0; i < g.nnotes; i++)
		assert_null(strstr(g.notes[i], "only in the"));
	gate_release(&g);
	gate_opts_default(&o);
	o.allow_diff = allow;
	o.nallow_diff = 1;
	gate_init(&g, &o);
	judge(&g, &b, &c, &err);
	assert_int_equal(find_cell(&g, "rr", GM_IOPS_READ)->verdict, GATE_REGRESSION);
	release_all(&g, &b, &c);

	like_sides_keyed(&b, &c, "rate_iops", "15000", "sim", 1, "rr-capped");
	gate_init(&g, NULL);
	assert_int_equal(gate_build(&g, &b, &c, &err), -1);
	assert_non_null(strstr(err.msg, "no workload in common"));
	release_all(&g, &b, &c);
}

/* ---- outcomes -------------------------------------------------------------------------------------- */

/* Four pairs, all -32% within 1%: REGRESSION paired and unpaired (the case that used to PASS). */
static void test_four_pairs_decide(void **state)
{
	static const double base[4] = { 10000, 10400, 9700, 10150 };
	static const double off[4] = { 0.678, 0.683, 0.676, 0.681 };
	(void)state;

	for (int paired = 0; paired <= 1; paired++) {
		struct gate_side b, c;
		struct gate g;
		struct errbuf err;

		errbuf_init(&err);
		sides_init(&b, &c, "A", "B");
		for (unsigned r = 1; r <= 4; r++) {
			gate_side_add(&b, r, "w", "w", r)->value[GM_IOPS_READ] = base[r - 1];
			gate_side_add(&c, 10 + r, "w", "w", r)->value[GM_IOPS_READ] = base[r - 1] * off[r - 1];
		}
		gate_init(&g, NULL);
		g.opts.paired = paired;
		judge(&g, &b, &c, &err);
		assert_int_equal(g.cells[0].verdict, GATE_REGRESSION);
		assert_string_equal(g.cells[0].method, paired ? "paired-t" : "welch-t");
		assert_string_equal(gate_headline(&g), "REGRESSION");
		release_all(&g, &b, &c);
	}
}

/*
 * Issue 30: rate-capped runs, the candidate 10.0% slower in every pair but one noisy pair. The outlier check
 * sends the cell to the 20%-trimmed t interval, which is bounded with 4 pairs (the rank interval is not):
 * REGRESSION, paired and unpaired, with 4 and 6 pairs, with and without jitter in the consistent pairs.
 */
static void test_outlier_pair_decides(void **state)
{
	static const double jitter[6] = { 0, 0.0004, -0.0003, 0.0002, -0.0001, 0.0003 };
	(void)state;

	for (unsigned n = 4; n <= 6; n += 2)
		for (int paired = 0; paired <= 1; paired++)
			for (int jit = 0; jit <= 1; jit++) {
				struct gate_side b, c;
				struct gate g;
				struct errbuf err;

				errbuf_init(&err);
				sides_init(&b, &c, "A", "B");
				for (unsigned r = 1; r <= n; r++) {
					double base = 3000 * (1 + (jit ? jitter[r - 1] : 0));
					double cand = r == 2 ? 3000 * 1.18 : 2700 * (1 - (jit ? jitter[n - r] : 0));
					gate_side_add(&b, r, "w", "w", r)->value[GM_IOPS_READ] = base;
					gate_side_add(&c, 10 + r, "w", "w", r)->value[GM_IOPS_READ] = cand;
				}
				gate_init(&g, NULL);
				g.opts.paired = paired;
				judge(&g, &b, &c, &err);
				assert_string_equal(g.cells[0].method, paired ? "trimmed-t" : "yuen-t");
				assert_true(isfinite(g.cells[0].s.lo) && isfinite(g.cells[0].s.hi));
				assert_true(g.cells[0].ratio_hi < 0.95 && g.cells[0].ratio_lo > 0.8);
				assert_int_equal(g.cells[0].verdict, GATE_REGRESSION);
				assert_non_null(strstr(g.cells[0].note, "is an outlier: 20%-trimmed t interval"));
				release_all(&g, &b, &c);
			}
}

/* All cells INCONCLUSIVE: the headline says so in every format, never PASS. */
static void test_inconclusive_headline(void **state)
{
	struct gate_side b, c;
	struct gate g;
	struct errbuf err;
	struct strbuf out;
	(void)state;

	errbuf_init(&err);
	strbuf_init(&out);
	sides_init(&b, &c, "A", "B");
	for (unsigned r = 1; r <= 3; r++) {
		gate_side_add(&b, r, "w", "w", r)->value[GM_IOPS_READ] = 1000 * (1 + 0.2 * (r % 3));
		gate_side_add(&c, 10 + r, "w", "w", r)->value[GM_IOPS_READ] = 1000 * (1 + 0.2 * ((r + 1) % 3));
	}
	gate_init(&g, NULL);
	judge(&g, &b, &c, &err);
	assert_int_equal(g.cells[0].verdict, GATE_INCONCLUSIVE);
	assert_int_equal(gate_outcome(&g), GATE_UNDECIDED);
	assert_non_null(strstr(render(gate_render_markdown, &g, &out), "### bench gate: INCONCLUSIVE\n"));
	assert_null(strstr(out.buf, "PASS"));
	assert_non_null(strstr(out.buf, "read IOPS INCONCLUSIVE (~"));
	assert_non_null(strstr(render(gate_render_junit, &g, &out), "name=\"outcome\" value=\"INCONCLUSIVE\""));
	assert_non_null(strstr(render(gate_render_text, &g, &out), "gate: INCONCLUSIVE: "));
	assert_non_null(strstr(out.buf, "baseline runs 1 2 3"));
	g.opts.on_inconclusive = GATE_INC_PASS;
	assert_string_equal(gate_headline(&g), "INCONCLUSIVE (accepted: --on-inconclusive pass)");
	strbuf_release(&out);
	release_all(&g, &b, &c);
}

/* ---- acceptance: error rates of the whole gate, seeded simulation ---------------------------------- */

#define TRIALS 1000

/*
 * The grid of test_error_grid: in CI every other size (4, 6, 10, 20) at cv 3% and 10%, the cells of the full
 * grid with their own seeds, so that each figure CI prints is the one docs/gate.md quotes; GATE_GRID_FULL in the
 * environment (scripts/perf/gate_grid.sh) runs every cell for the tables.
 */
static int grid_cell(size_t size_index, size_t cv_index)
{
	return getenv("GATE_GRID_FULL") || (size_index % 2 == 0 && cv_index != 1);
}

/* Share of TRIALS gates (one cell: read IOPS, lognormal noise cv) that end in each verdict. */
static void gate_rates_outlier(uint64_t seed, unsigned n, int paired, double cv, double ratio, double outlier,
			       double rate[GATE_VERDICT_NR]);

static void gate_rates(uint64_t seed, unsigned n, int paired, double cv, double ratio, double rate[GATE_VERDICT_NR])
{
	gate_rates_outlier(seed, n, paired, cv, ratio, 1, rate);
}

/* As gate_rates, the candidate's second run multiplied by `outlier` (a run that stalled: 0.6). */
static void gate_rates_outlier(uint64_t seed, unsigned n, int paired, double cv, double ratio, double outlier,
			       double rate[GATE_VERDICT_NR])
{
	double sigma = sqrt(log(1 + cv * cv));
	size_t count[GATE_VERDICT_NR] = { 0 };
	struct stats_rng rng;

	stats_rng_seed(&rng, seed);
	for (int t = 0; t < TRIALS; t++) {
		struct gate_side b, c;
		struct gate g;
		struct errbuf err;

		errbuf_init(&err);
		sides_init(&b, &c, "A", "B");
		for (unsigned r = 1; r <= n; r++) {
			gate_side_add(&b, r, "w", "w", r)->value[GM_IOPS_READ] = 1e4 * exp(sigma * stats_rng_normal(&rng));
			gate_side_add(&c, 100 + r, "w", "w", r)->value[GM_IOPS_READ] =
				1e4 * ratio * exp(sigma * stats_rng_normal(&rng)) * (r == 2 ? outlier : 1);
		}
		gate_init(&g, NULL);
		g.opts.paired = paired;
		judge(&g, &b, &c, &err);
		count[g.cells[0].verdict]++;
		release_all(&g, &b, &c);
	}
	for (int v = 0; v < GATE_VERDICT_NR; v++)
		rate[v] = (double)count[v] / TRIALS;
}

static void test_error_rates(void **state)
{
	static const unsigned sizes[] = { 3, 4, 5, 7, 10 };
	(void)state;

	printf("whole gate, %d seeded trials per row, one cell (read IOPS), lognormal noise cv 3%%, threshold 5%%, "
	       "95%%:\n", TRIALS);
	printf("%-9s %3s %-10s %12s %12s %12s %12s\n", "pairing", "n", "truth", "REGRESSION", "EQUIVALENT",
	       "INCONCLUSIVE", "IMPROVEMENT");
	for (int paired = 0; paired <= 1; paired++) {
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			double r[GATE_VERDICT_NR];
			gate_rates(1000 + 17 * k + paired, sizes[k], paired, 0.03, 1.0, r);
			printf("%-9s %3u %-10s %11.1f%% %11.1f%% %11.1f%% %11.1f%%\n", paired ? "paired" : "unpaired",
			       sizes[k], "A/A", r[GATE_REGRESSION] * 100, r[GATE_EQUIVALENT] * 100,
			       r[GATE_INCONCLUSIVE] * 100, r[GATE_IMPROVEMENT] * 100);
			assert_true(r[GATE_REGRESSION] <= 0.01);
		}
		{
			double r[GATE_VERDICT_NR];
			gate_rates(5000 + paired, 7, paired, 0.03, 0.9, r);
			printf("%-9s %3u %-10s %11.1f%% %11.1f%% %11.1f%% %11.1f%%\n", paired ? "paired" : "unpaired", 7,
			       "-10% IOPS", r[GATE_REGRESSION] * 100, r[GATE_EQUIVALENT] * 100,
			       r[GATE_INCONCLUSIVE] * 100, r[GATE_IMPROVEMENT] * 100);
			assert_true(r[GATE_REGRESSION] >= 0.90);
		}
	}
}

/*
 * Issue 30: the error rates over a grid, 1000 seeded trials per cell: false REGRESSION under no change and
 * REGRESSION for a 10% drop (power), n = 4..20 runs per side, cv 3/5/10%, paired and not; then the same with
 * the candidate's second run stalled to 0.6 (an outlier) at cv 3%.
 */
static void test_error_grid(void **state)
{
	static const unsigned sizes[] = { 4, 5, 6, 8, 10, 15, 20 };
	static const double cvs[] = { 0.03, 0.05, 0.10 };
	(void)state;

	printf("false REGRESSION (A/A) / REGRESSION for -10%% IOPS, %d trials per cell, threshold 5%%, 95%%:\n", TRIALS);
	printf("%-9s %3s %15s %15s %15s\n", "pairing", "n", "cv 3%", "cv 5%", "cv 10%");
	for (int paired = 0; paired <= 1; paired++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			if (!grid_cell(k, 0))
				continue;
			printf("%-9s %3u", paired ? "paired" : "unpaired", sizes[k]);
			for (size_t j = 0; j < 3; j++) {
				double aa[GATE_VERDICT_NR], drop[GATE_VERDICT_NR];
				if (!grid_cell(k, j)) {
					printf("   %13s", "-");
					continue;
				}
				gate_rates(7000 + 100 * k + 10 * j + paired, sizes[k], paired, cvs[j], 1.0, aa);
				gate_rates(9000 + 100 * k + 10 * j + paired, sizes[k], paired, cvs[j], 0.9, drop);
				printf("   %5.1f%% %5.1f%%", aa[GATE_REGRESSION] * 100, drop[GATE_REGRESSION] * 100);
				/* the one-sided error of a 95% interval is 2.5%; 3 standard errors of 1000 trials */
				assert_true(aa[GATE_REGRESSION] <= 0.025 + 3 * sqrt(0.025 * 0.975 / TRIALS));
				if (cvs[j] <= 0.05 && sizes[k] >= 8)
					assert_true(drop[GATE_REGRESSION] >= 0.8);
			}
			printf("\n");
		}
	printf("one candidate run stalled to 0.6, cv 3%%: false REGRESSION / REGRESSION for -10%%\n");
	for (int paired = 0; paired <= 1; paired++)
		for (size_t k = 0; k < 4; k++) {
			double aa[GATE_VERDICT_NR], drop[GATE_VERDICT_NR];
			if (!grid_cell(k, 0))
				continue;
			gate_rates_outlier(11000 + 10 * k + paired, sizes[k], paired, 0.03, 1.0, 0.6, aa);
			gate_rates_outlier(13000 + 10 * k + paired, sizes[k], paired, 0.03, 0.9, 0.6, drop);
			printf("%-9s %3u   %5.1f%% %5.1f%%\n", paired ? "paired" : "unpaired", sizes[k],
			       aa[GATE_REGRESSION] * 100, drop[GATE_REGRESSION] * 100);
			assert_true(aa[GATE_REGRESSION] <= 0.025 + 3 * sqrt(0.025 * 0.975 / TRIALS));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_directions),
		cmocka_unit_test(test_verdicts_from_store),
		cmocka_unit_test(test_bad_selections),
		cmocka_unit_test(test_too_few_runs_is_not_a_pass),
		cmocka_unit_test(test_missing_figures),
		cmocka_unit_test(test_paired_cancels_drift),
		cmocka_unit_test(test_bh_across_cells),
		cmocka_unit_test(test_like_for_like),
		cmocka_unit_test(test_like_by_identity),
		cmocka_unit_test(test_four_pairs_decide),
		cmocka_unit_test(test_outlier_pair_decides),
		cmocka_unit_test(test_inconclusive_headline),
		cmocka_unit_test(test_error_rates),
		cmocka_unit_test(test_error_grid),
	};
	return cmocka_run_group_tests(tests, setup_db, tu_db_teardown);
}
