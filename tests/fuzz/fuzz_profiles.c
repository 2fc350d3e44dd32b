/*
 * fuzz_profiles: a fuzz target for bench's profile readers (style.md: every parser has one). The first byte picks
 * the reader, the rest is the file text:
 *   0 fio job file (fio_jobfile_parse_text, then every job's normalised workload),
 *   1 vdbench parameter file (vdbench_expand_text: reading, for-loop expansion, translation),
 *   2 suite file (suite_parse_text),
 *   3 HCIbench name (profile_name_parse, and format/parse round trip when it parses).
 * Invariants checked (abort() on violation, so a fuzzer reports them): a reader returns 0 or -1; on -1 the
 * message is non-empty, one line, of kind ERR_INPUT; a parsed name formats back to itself.
 *
 * With libFuzzer: compile this file with clang -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -I<repo>, together
 * with the sources of profiles/ and core/ (and build/schema_sql.c; link sqlite3, cjson, m), then run it on the
 * corpus directories tests/data/profiles-broken and profiles/library. -DBENCH_FUZZ_MAIN instead gives a plain
 * program that replays the files named on its command line.
 * Without it, tests/unit/test_profiles_fuzz.c runs the same function over mutated corpus files in ctest.
 * Includes are read relative to a directory that does not exist; absolute includes of non-regular files are
 * refused by the readers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "profiles/fio_job.h"
#include "profiles/internal.h"
#include "profiles/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(int rc, const struct errbuf *err)
{
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && (!err->msg[0] || strchr(err->msg, '\n') || err->kind != ERR_INPUT))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text;
	size_t len;
	struct errbuf err;
	int rc;

	if (size < 1 || size > 1 << 20)
		return 0;
	text = (const char *)data + 1;
	len = size - 1;
	errbuf_init(&err);
	switch (data[0] % 4) {
	case 0: {
		struct fio_jobfile jf;
		fio_jobfile_init(&jf);
		rc = fio_jobfile_parse_text(text, len, "fuzz.fio", "/nonexistent-bench-fuzz", NULL, &jf, &err);
		check_err(rc, &err);
		for (size_t i = 0; rc == 0 && i < jf.n; i++) {
			struct kvlist opts;
			struct workload w;
			if (jf.v[i].is_global)
				continue;
			kvlist_init(&opts);
			workload_init(&w);
			fio_jobfile_resolve(&jf, i, &opts);
			errbuf_init(&err);
			check_err(workload_from_fio(&w, &opts, "fuzz.fio", jf.v[i].line, &err), &err);
			workload_release(&w);
			kvlist_release(&opts);
		}
		fio_jobfile_release(&jf);
		break;
	}
	case 1: {
		struct plan p;
		struct profile_workloads out;
		plan_init(&p);
		workloads_init(&out);
		rc = vdbench_expand_text(text, len, "fuzz.vdb", 0, "/nonexistent-bench-fuzz", NULL, NULL, &p, &out, &err);
		check_err(rc, &err);
		workloads_release(&out);
		plan_release(&p);
		break;
	}
	case 2: {
		struct suite s;
		suite_init(&s);
		rc = suite_parse_text(text, len, "fuzz.suite", &s, &err);
		check_err(rc, &err);
		suite_release(&s);
		break;
	}
	default: {
		char *name = xstrndup(text, len);
		struct profile_name n;
		if (profile_name_parse(name, &n) == 0) {
			char buf[512];
			struct profile_name n2;
			if (profile_name_format(&n, buf, sizeof(buf)) < 0 || profile_name_parse(buf, &n2) < 0 ||
			    memcmp(&n, &n2, sizeof(n)))
				abort();
		}
		free(name);
		break;
	}
	}
	return 0;
}

#ifdef BENCH_FUZZ_MAIN
/* Replays files given on the command line (each with every reader). */
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct strbuf sb;
		strbuf_init(&sb);
		if (strbuf_read_file(&sb, argv[i]) == 0) {
			for (uint8_t k = 0; k < 4; k++) {
				uint8_t *buf = xmalloc(sb.len + 1);
				buf[0] = k;
				memcpy(buf + 1, sb.buf, sb.len);
				LLVMFuzzerTestOneInput(buf, sb.len + 1);
				free(buf);
			}
		}
		strbuf_release(&sb);
	}
	return 0;
}
#endif
