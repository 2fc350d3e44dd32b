/*
 * fuzz_tmp: a private scratch directory for fuzz targets whose parser only reads files (fuzz_vdbench_output.c,
 * fuzz_fio_json.c's import step). Created on first use under $TMPDIR (default /tmp), removed with its files at
 * exit, so neither the replay driver nor libFuzzer leaves anything behind.
 */
#ifndef BENCH_TESTS_FUZZ_TMP_H
#define BENCH_TESTS_FUZZ_TMP_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/errbuf.h"
#include "core/strbuf.h"

static char *fuzz_tmp_dir_path;

static inline void fuzz_tmp_cleanup(void)
{
	DIR *d;
	struct dirent *e;

	if (!fuzz_tmp_dir_path)
		return;
	d = opendir(fuzz_tmp_dir_path);
	if (d) {
		while ((e = readdir(d))) {
			char *p;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = xasprintf("%s/%s", fuzz_tmp_dir_path, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(fuzz_tmp_dir_path);
	free(fuzz_tmp_dir_path);
	fuzz_tmp_dir_path = NULL;
}

/* The scratch directory (aborts when it cannot be made: the target could not test anything). */
static inline const char *fuzz_tmp_dir(void)
{
	if (!fuzz_tmp_dir_path) {
		const char *t = getenv("TMPDIR");
		char *p = xasprintf("%s/bench-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(p))
			abort();
		fuzz_tmp_dir_path = p;
		atexit(fuzz_tmp_cleanup);
	}
	return fuzz_tmp_dir_path;
}

/* Writes data to <scratch>/name (replacing it); returns the malloc'd path. */
static inline char *fuzz_tmp_write(const char *name, const uint8_t *data, size_t size)
{
	char *path = xasprintf("%s/%s", fuzz_tmp_dir(), name);
	FILE *f = fopen(path, "wb");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
	return path;
}

/* Removes <scratch>/name if it is there. */
static inline void fuzz_tmp_remove(const char *name)
{
	char *path = xasprintf("%s/%s", fuzz_tmp_dir(), name);
	unlink(path);
	free(path);
}

/* The invariants of a parser's error path: 0 or -1; on -1 one non-empty line (abort() otherwise). Returns RC. */
static inline int fuzz_check_err(int rc, const struct errbuf *err)
{
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && (!err->msg[0] || strchr(err->msg, '\n')))
		abort();
	return rc;
}

#endif
