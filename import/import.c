/*
 * import: batches of imported runs and the content digest of an import source (see import.h).
 */
#include "import/import.h"
#include "core/sha256.h"
#include "core/spec_json.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void imported_run_release(struct imported_run *r);

void import_batch_release(struct import_batch *b)
{
	if (!b)
		return;
	ARRAY_RELEASE(b->runs, b->n, imported_run_release);
	if (b->part_free)
		b->part_free(b->part);
	free(b->suite_name);
	kvlist_release(&b->suite_labels);
	import_batch_init(b);
}

void import_batch_init(struct import_batch *b)
{
	memset(b, 0, sizeof(*b));
	kvlist_init(&b->suite_labels);
}

struct imported_run *import_batch_add(struct import_batch *b)
{
	struct imported_run *r;

	ARRAY_GROW(b->runs, b->cap, b->n + 1);
	r = &b->runs[b->n++];
	memset(r, 0, sizeof(*r));
	run_spec_init(&r->spec);
	run_result_init(&r->res);
	r->status = RUN_DONE;
	return r;
}

int import_check_path(const char *path, int allow_dir, struct errbuf *err)
{
	struct stat sb;
	const char *what;

	if (stat(path, &sb) < 0)
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	if (S_ISREG(sb.st_mode) || (allow_dir && S_ISDIR(sb.st_mode)))
		return 0;
	what = S_ISDIR(sb.st_mode)    ? "a directory"
	       : S_ISFIFO(sb.st_mode) ? "a FIFO"
	       : S_ISCHR(sb.st_mode)  ? "a character device"
	       : S_ISBLK(sb.st_mode)  ? "a block device"
	       : S_ISSOCK(sb.st_mode) ? "a socket"
				      : "not a regular file";
	return err_set(err, ERR_INPUT, "%s: is %s, not a file to import", path, what);
}

static void imported_run_release(struct imported_run *r)
{
	run_spec_release(&r->spec);
	run_result_release(&r->res);
	free(r->error);
	free(r->spec_json);
}

void import_batch_finish(struct import_batch *b, const struct kvlist *labels)
{
	for (size_t i = 0; labels && i < labels->n; i++)
		kvlist_set(&b->suite_labels, labels->v[i].key, labels->v[i].value);
	for (size_t i = 0; i < b->n; i++) {
		struct imported_run *ir = &b->runs[i];
		struct kvlist merged;

		if (ir->target_run_id)
			continue;
		kvlist_init(&merged);
		kvlist_copy(&merged, &b->suite_labels);
		for (size_t k = 0; k < ir->spec.labels.n; k++)
			kvlist_set(&merged, ir->spec.labels.v[k].key, ir->spec.labels.v[k].value);
		kvlist_release(&ir->spec.labels);
		ir->spec.labels = merged;
		if (!ir->spec.seq)
			ir->spec.seq = (unsigned)(i + 1);
		free(ir->spec_json);
		ir->spec_json = run_spec_to_json(&ir->spec);
	}
}

int import_batch_next(struct import_batch *b, const struct kvlist *labels, struct errbuf *err)
{
	while (b->n > 0)
		imported_run_release(&b->runs[--b->n]); /* the array is kept for the next part */
	if (b->next(b, err) < 0)
		return -1;
	import_batch_finish(b, labels);
	return 0;
}

/* Adds the bytes of the regular file at path to c. */
static int digest_file(struct sha256 *c, const char *path, struct errbuf *err)
{
	char buf[65536];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(c, buf, (size_t)got);
	if (got < 0) {
		int e = errno;
		close(fd);
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(e));
	}
	close(fd);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the regular files directly in dir, in name order: name, NUL, size, NUL, bytes. */
static int digest_dir(struct sha256 *c, const char *dir, struct errbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d)
		return err_set(err, ERR_INPUT, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			ARRAY_GROW(names, cap, n + 1);
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n && ret == 0; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct stat sb;

		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
			char size[32];

			snprintf(size, sizeof(size), "%lld", (long long)sb.st_size);
			sha256_update(c, names[i], strlen(names[i]) + 1);
			sha256_update(c, size, strlen(size) + 1);
			ret = digest_file(c, p, err);
		}
		free(p);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

int import_digest(const char *path, char hex[65], struct errbuf *err)
{
	struct sha256 c;
	struct stat sb;

	if (import_check_path(path, 1, err) < 0)
		return -1;
	if (stat(path, &sb) < 0)
		return err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	sha256_init(&c);
	if ((S_ISDIR(sb.st_mode) ? digest_dir(&c, path, err) : digest_file(&c, path, err)) < 0)
		return -1;
	sha256_hex(&c, hex);
	return 0;
}
