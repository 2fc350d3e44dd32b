/*
 * testutil: the scratch files and databases of the unit tests, a one-statement count and report rows
 * (see testutil.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/errbuf.h"
#include "core/identity.h"
#include "core/model.h"
#include "core/proc.h"
#include "core/store.h"
#include "core/strbuf.h"
#include "report/load.h"
#include "testutil.h"

char tu_dir[64];

int tu_dir_setup(void **state)
{
	(void)state;
	snprintf(tu_dir, sizeof(tu_dir), "/tmp/bench-test-XXXXXX");
	return mkdtemp(tu_dir) ? 0 : -1;
}

int tu_dir_teardown(void **state)
{
	(void)state;
	return tu_rm_rf(tu_dir);
}

int tu_db_teardown(void **state)
{
	tu_remove_db(*state);
	return 0;
}

int tu_rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", (char *)path, NULL };
	struct errbuf err;
	int code = -1;

	errbuf_init(&err);
	if (proc_run_capture(argv, 10000, NULL, &code, &err) < 0 || code != 0)
		return -1;
	return 0;
}

void tu_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

char *tu_write_in(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	tu_write_file(p, text);
	return p;
}

char *tu_tmp_db(const char *tag)
{
	char *p = xasprintf("/tmp/bench-test-%s-XXXXXX", tag);
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	return p;
}

void tu_remove_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		char *p = xasprintf("%s%s", path, suffix[i]);

		unlink(p);
		free(p);
	}
}

void tu_free_db(char *path)
{
	tu_remove_db(path);
	free(path);
}

int64_t tu_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

struct rep_run *tu_rep_add(struct rep_set *s, int64_t id, const char *name, const char *status, const char *tool,
			   uint64_t bs, int rd, int rnd, const char *transport, const char *stack, double iops, double lat)
{
	struct rep_run *r;
	struct workload w;

	ARRAY_GROW(s->v, s->cap, s->n + 1);
	r = &s->v[s->n++];
	memset(r, 0, sizeof(*r));
	kvlist_init(&r->labels);
	r->id = id;
	r->name = xstrdup(name);
	r->status = xstrdup(status);
	r->tool = xstrdup(tool);
	r->bs_bytes = bs;
	r->read_pct = rd;
	r->random_pct = rnd;
	workload_init(&w);
	w.tool = xstrdup(tool);
	w.bs_bytes = bs;
	w.read_pct = rd;
	w.random_pct = rnd;
	r->identity = workload_identity(&w);
	workload_release(&w);
	kvlist_add(&r->labels, "stack", stack);
	kvlist_add(&r->labels, "transport", transport);
	for (int m = 0; m < RM_NR; m++)
		r->m[m] = NAN;
	r->m[RM_IOPS] = iops;
	r->m[RM_RLAT] = lat;
	return r;
}

void tu_spec(struct run_spec *s, const char *name, unsigned seq, unsigned rep, const char *engine, const char *rw,
	     int read_pct, unsigned iodepth, unsigned runtime_s)
{
	run_spec_init(s);
	s->name = xstrdup(name);
	s->seq = seq;
	s->repetition = rep;
	s->engine = xstrdup(engine);
	s->wl.tool = xstrdup("fio");
	s->wl.rw = xstrdup(rw);
	s->wl.bs_bytes = 4096;
	s->wl.read_pct = read_pct;
	s->wl.random_pct = 100;
	s->wl.iodepth = iodepth;
	s->wl.numjobs = 1;
	if (runtime_s)
		s->wl.runtime_s = runtime_s;
}

struct dir_result *tu_clat_dir(struct host_result *h, enum ddir d, double iops, double mean_ns)
{
	struct dir_result *r = &h->dir[d];

	r->present = 1;
	r->iops = iops;
	r->bw_bytes = iops * 4096.0;
	r->clat.present = 1;
	r->clat.mean_ns = mean_ns;
	return r;
}

void tu_expect_bad_input(const struct tu_bad_input *cases, size_t n, tu_parse_fn parse, int flags)
{
	for (size_t i = 0; i < n; i++) {
		struct errbuf err;
		const char *want = cases[i].want;
		int rc;

		errbuf_init(&err);
		rc = parse(cases[i].text, &err);
		if (rc != -1)
			fail_msg("case %zu accepted (%d): %s", i, rc, cases[i].text);
		if (flags & TU_KIND_INPUT)
			assert_int_equal(err.kind, ERR_INPUT);
		if ((flags & TU_PREFIX) ? strncmp(err.msg, want, strlen(want)) != 0 : !strstr(err.msg, want))
			fail_msg("case %zu: got '%s', want '%s%s'", i, err.msg, want, (flags & TU_PREFIX) ? "..." : "");
		if (flags & TU_ONE_LINE)
			assert_null(strchr(err.msg, '\n'));
	}
}

char *tu_src_path(const char *rel)
{
	const char *src = getenv("BENCH_SRC");

	if (!src)
		fail_msg("BENCH_SRC is not set: run the unit tests through ctest (it names the source tree)");
	return xasprintf("%s/%s", src, rel);
}

struct store *tu_store_fresh(char *path, size_t size, const char *tag)
{
	struct store *st;
	struct errbuf err;

	snprintf(path, size, "/tmp/bench-test-%s-%ld.db", tag, (long)getpid());
	tu_remove_db(path);
	errbuf_init(&err);
	if (store_open(path, 0, &st, &err) < 0)
		fail_msg("%s: %s", path, err.msg);
	return st;
}
