/*
 * test_profiles_fuzz: the profile readers' fuzz target (tests/fuzz/fuzz_profiles.c) run in ctest without a
 * fuzzing engine: every seed (the broken-inputs corpus, the built-in suites, the vdbench parameter fixtures, a
 * few fio examples, HCIbench names) is fed to every reader as it is and in 40 deterministic mutations (bit
 * flips, byte insertions and deletions, truncation, duplication of a slice, swapping in ',' '=' '(' ')' '['
 * ']' '$' '{' '}' and newlines). The target aborts when a reader breaks its contract (a return other than 0/-1,
 * an empty or multi-line message); built with BENCH_SANITIZE=ON this also catches memory errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_profiles.c"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static size_t nseeds, ncalls;
static int rounds = 40; /* mutations per seed; BENCH_FUZZ_ROUNDS raises it for a longer session */

static void feed(const char *data, size_t len)
{
	static const char special[] = ",=()[]${}\n*;#-\"";
	uint8_t *buf = xmalloc(len * 2 + 64);

	for (int m = 0; m <= rounds; m++) {
		size_t n = len;
		memcpy(buf + 1, data, len);
		if (m > 0) {
			int edits = 1 + (int)(next() % 4);
			for (int e = 0; e < edits; e++) {
				size_t pos = n ? next() % n : 0;
				switch (next() % 6) {
				case 0: if (n) buf[1 + pos] ^= (uint8_t)(1u << (next() % 8)); break;
				case 1: if (n) buf[1 + pos] = (uint8_t)special[next() % (sizeof(special) - 1)]; break;
				case 2: /* insert */
					if (n < len * 2 + 60) {
						memmove(buf + 2 + pos, buf + 1 + pos, n - pos);
						buf[1 + pos] = (uint8_t)special[next() % (sizeof(special) - 1)];
						n++;
					}
					break;
				case 3: /* delete */
					if (n) {
						memmove(buf + 1 + pos, buf + 2 + pos, n - pos - 1);
						n--;
					}
					break;
				case 4: n = pos; break; /* truncate */
				default: /* duplicate a short slice */ {
					size_t l = n - pos < 16 ? n - pos : 16;
					if (n + l < len * 2 + 60) {
						memmove(buf + 1 + pos + l, buf + 1 + pos, n - pos);
						n += l;
					}
				}
				}
			}
		}
		for (uint8_t k = 0; k < 4; k++) {
			buf[0] = k;
			LLVMFuzzerTestOneInput(buf, n + 1);
			ncalls++;
		}
	}
	free(buf);
	nseeds++;
}

static void feed_dir(const char *dir, const char *suffix, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t done = 0;

	if (!d)
		return;
	while ((e = readdir(d)) && done < max) {
		size_t l = strlen(e->d_name);
		char *p;
		struct strbuf sb;
		if (e->d_name[0] == '.' || (suffix && (l < strlen(suffix) || strcmp(e->d_name + l - strlen(suffix), suffix))))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		strbuf_init(&sb);
		if (strbuf_read_file(&sb, p) == 0 && sb.len < 65536) {
			feed(sb.buf, sb.len);
			done++;
		}
		strbuf_release(&sb);
		free(p);
	}
	closedir(d);
}

static void test_fuzz_corpus(void **state)
{
	const char *src = getenv("BENCH_SRC");
	static const char *const names[] = {
		"fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads",
		"vdb-2vmdk-100ws-64k-75rdpct-80randompct-4threads-50compress-50dedupe",
	};
	char *p;

	(void)state;
	if (getenv("BENCH_FUZZ_ROUNDS")) {
		long r = strtol(getenv("BENCH_FUZZ_ROUNDS"), NULL, 10);
		if (r > 0 && r < 1000000)
			rounds = (int)r;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		feed(names[i], strlen(names[i]));
	if (!src)
		fail_msg("BENCH_SRC is not set: run the unit tests through ctest (it names the source tree)");
	{
		p = xasprintf("%s/tests/data/profiles-broken", src);
		feed_dir(p, NULL, 100);
		free(p);
		p = xasprintf("%s/profiles/library", src);
		feed_dir(p, ".suite", 20);
		free(p);
	}
	{
		/* the vdbench parameter fixtures: 8 of raw/, the 3 file-system files, the HCIbench file */
		size_t before = nseeds;
		p = xasprintf("%s/tests/fixtures/vdbench/params/raw", src);
		feed_dir(p, NULL, 8);
		free(p);
		p = xasprintf("%s/tests/fixtures/vdbench/params/filesys", src);
		feed_dir(p, NULL, 8);
		free(p);
		p = xasprintf("%s/tests/fixtures/vdbench/params", src);
		feed_dir(p, NULL, 8);
		free(p);
		if (nseeds - before < 12)
			fail_msg("only %zu vdbench parameter fixtures found in %s/tests/fixtures/vdbench/params",
				 nseeds - before, src);
	}
	feed_dir("/usr/share/doc/fio/examples", ".fio", 12);
	print_message("fuzzed %zu seeds, %zu reader calls\n", nseeds, ncalls);
	assert_true(nseeds >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
