/*
 * target: target safety checks and file target creation (see target.h, docs/safety.md).
 *
 * A block device is probed with libblkid's superblocks chain (filesystems, RAID and LVM members, crypto headers,
 * swap; signatures with bad checksums count too) and partitions chain (partition tables), and looked up in
 * /proc/self/mountinfo, /proc/swaps, its sysfs holders/ and partitions. A regular file is bench's when it
 * carries the TARGET_XATTR extended attribute that bench sets when it creates the file.
 */
#include "engines/target.h"
#include "engines/fio_jobfile.h"
#include "core/paths.h"
#include "core/strbuf.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#define DEFAULT_FILE_SIZE (1024ull * 1024 * 1024)
#define MAX_OPENED_PATHS 4096

static int dir_has_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* The mount point of a mount of device `rdev` in /proc/self/mountinfo (field 3 is major:minor), or NULL. */
static char *mount_point(dev_t rdev)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192], mnt[4096];
	unsigned maj, min;
	char *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &maj, &min, mnt) == 3 && maj == major(rdev) &&
		    min == minor(rdev))
			found = xstrdup(mnt);
	fclose(f);
	return found;
}

/* Whether /proc/swaps lists this device (or this file: same device and inode). */
static int is_swap(const struct stat *target)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[8192], name[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat sb;
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/' || stat(name, &sb) < 0)
			continue;
		if (S_ISBLK(target->st_mode) ? (S_ISBLK(sb.st_mode) && sb.st_rdev == target->st_rdev)
					     : (sb.st_dev == target->st_dev && sb.st_ino == target->st_ino))
			found = 1;
	}
	fclose(f);
	return found;
}

/* The first partition sysfs shows under the device, or NULL. */
static char *sysfs_partition(dev_t rdev)
{
	char sys[128];
	DIR *d;
	struct dirent *e;
	char *found = NULL;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	d = opendir(sys);
	if (!d)
		return NULL;
	while (!found && (e = readdir(d))) {
		char *p = xasprintf("%s/%s/partition", sys, e->d_name);
		struct stat ps;
		if (e->d_name[0] != '.' && stat(p, &ps) == 0)
			found = xstrdup(e->d_name);
		free(p);
	}
	closedir(d);
	return found;
}

/*
 * Every signature libblkid knows on the device, as "TYPE (usage)" words into `found`; 0 when probing worked.
 * blkid_do_probe steps through all matches of all chains (as wipefs does), so several signatures are all named.
 */
static int blkid_signatures(const char *path, struct strbuf *found, struct errbuf *err)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	int rc;

	if (!pr)
		return err_set(err, ERR_INPUT, "target '%s': cannot probe it: %s", path,
			       errno ? strerror(errno) : "libblkid failed");
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_MAGIC |
						      BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
	while ((rc = blkid_do_probe(pr)) == 0) {
		const char *type = NULL, *usage = NULL;
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
			usage = "partition table";
		} else {
			continue;
		}
		if (strstr(found->len ? found->buf : "", type))
			continue;
		strbuf_addf(found, "%s%s", found->len ? ", " : "", type);
		if (usage && *usage)
			strbuf_addf(found, " (%s)", usage);
		if (found->len > 200)
			break;
	}
	blkid_free_probe(pr);
	if (rc < 0 && !found->len)
		return err_set(err, ERR_INPUT, "target '%s': cannot probe it for signatures", path);
	return 0;
}

int target_check_blockdev(const char *path, struct errbuf *err)
{
	struct strbuf found;
	struct stat sb;
	char sys[128], *what;
	int ret = 0;

	if (stat(path, &sb) < 0)
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	if ((what = mount_point(sb.st_rdev))) {
		err_set(err, ERR_INPUT, "target '%s' is mounted on '%s' (needs --destructive)", path, what);
		free(what);
		return -1;
	}
	if (is_swap(&sb))
		return err_set(err, ERR_INPUT, "target '%s' is an active swap area (see /proc/swaps)", path);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/holders", major(sb.st_rdev), minor(sb.st_rdev));
	if (dir_has_entries(sys))
		return err_set(err, ERR_INPUT, "target '%s' is held by another device (%s is not empty; needs --destructive)",
			       path, sys);
	if ((what = sysfs_partition(sb.st_rdev))) {
		err_set(err, ERR_INPUT, "target '%s' has partitions (%s; needs --destructive)", path, what);
		free(what);
		return -1;
	}
	strbuf_init(&found);
	if (blkid_signatures(path, &found, err) < 0)
		ret = -1;
	else if (found.len)
		ret = err_set(err, ERR_INPUT, "target '%s' holds data: blkid found %s (needs --destructive)", path,
			      found.buf);
	strbuf_release(&found);
	return ret;
}

/* Whether bench created this file: it carries TARGET_XATTR. */
static int bench_made(const char *path)
{
	char v[16];
	return getxattr(path, TARGET_XATTR, v, sizeof(v)) > 0;
}

static void mark_bench_made(int fd)
{
	/* Best effort: without user xattrs (some tmpfs, NFS) the file is not known as bench's next time. */
	(void)fsetxattr(fd, TARGET_XATTR, "target", 6, 0);
}

static int check_regular(const char *path, const struct stat *sb, int flags, struct errbuf *err)
{
	if (flags & (TARGET_DESTRUCTIVE | TARGET_OVERWRITE_FILES) || sb->st_size == 0 || bench_made(path))
		return 0;
	if (is_swap(sb))
		return err_set(err, ERR_INPUT, "target '%s' is an active swap file", path);
	return err_set(err, ERR_INPUT,
		       "target '%s' is an existing file that bench did not create (%lld bytes): it would be "
		       "overwritten (needs --overwrite-files)",
		       path, (long long)sb->st_size);
}

static int check_existing(const char *path, const struct stat *sb, int flags, struct errbuf *err)
{
	if (S_ISBLK(sb->st_mode))
		return (flags & TARGET_DESTRUCTIVE) ? 0 : target_check_blockdev(path, err);
	if (S_ISDIR(sb->st_mode))
		return err_set(err, ERR_INPUT, "target '%s' is a directory: give a file or a block device", path);
	if (S_ISCHR(sb->st_mode)) {
		if (!strcmp(path, "/dev/null") || !strcmp(path, "/dev/zero"))
			return 0;
		return err_set(err, ERR_INPUT, "target '%s' is a character device: give a block device or a file", path);
	}
	if (!S_ISREG(sb->st_mode))
		return err_set(err, ERR_INPUT, "target '%s' is not a regular file or block device", path);
	return check_regular(path, sb, flags, err);
}

static int fill_file(int fd, const char *path, uint64_t from, uint64_t to, struct errbuf *err)
{
	enum { CHUNK = 1 << 20 };
	char *buf = xmalloc(CHUNK);
	uint64_t x = 0x9e3779b97f4a7c15ull;

	/* Incompressible, non-zero data so that reads and compressing targets see real blocks. */
	for (size_t i = 0; i < CHUNK / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i * 8, &x, 8);
	}
	for (uint64_t off = from; off < to;) {
		size_t len = to - off < CHUNK ? (size_t)(to - off) : CHUNK;
		ssize_t n = pwrite(fd, buf, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return err_set(err, ERR_HOST, "cannot write target file '%s': %s", path, strerror(errno));
		}
		off += (uint64_t)n;
	}
	free(buf);
	if (fsync(fd) < 0)
		return err_set(err, ERR_HOST, "cannot sync target file '%s': %s", path, strerror(errno));
	return 0;
}

int target_prepare(const char *path, uint64_t size_bytes, int flags, struct errbuf *err)
{
	struct stat sb;
	int fd, ret, created = 0;

	if (stat(path, &sb) == 0) {
		if (S_ISBLK(sb.st_mode))
			return (flags & TARGET_DESTRUCTIVE) ? 0 : target_check_blockdev(path, err);
		if (!S_ISREG(sb.st_mode))
			return check_existing(path, &sb, flags, err);
		if (!size_bytes || (uint64_t)sb.st_size >= size_bytes)
			return 0;
	} else if (errno != ENOENT) {
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	} else {
		sb.st_size = 0;
		created = 1;
	}
	if (!size_bytes)
		size_bytes = DEFAULT_FILE_SIZE;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(err, ERR_INPUT, "cannot create target file '%s': %s", path, strerror(errno));
	if (created)
		mark_bench_made(fd);
	ret = fill_file(fd, path, (uint64_t)sb.st_size, size_bytes, err);
	close(fd);
	return ret;
}

int target_check(const char *path, int flags, struct errbuf *err)
{
	char real[PATH_MAX];
	struct stat sb;
	char *dir;
	int ok;

	if (!*path)
		return err_set(err, ERR_INPUT, "empty target path");
	if (stat(path, &sb) == 0) {
		/* What fio opens is what the symlinks point at: check and name that. */
		const char *p = realpath(path, real) ? real : path;
		if (check_existing(p, &sb, flags, err) < 0)
			return strcmp(p, path) ? err_prefix(err, "'%s' is a link to '%s'", path, p) : -1;
		return 0;
	}
	if (errno != ENOENT)
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	if (lstat(path, &sb) == 0)
		return err_set(err, ERR_INPUT, "target '%s' is a dangling symbolic link", path);
	dir = path_dir(path);
	ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
	if (!ok)
		err_set(err, ERR_INPUT, "target '%s': directory '%s' does not exist", path, dir);
	free(dir);
	return ok ? 0 : -1;
}

/* ---- the paths fio opens ------------------------------------------------------------------- */

/* The last value of `key` in the job's options, then the engine options (fio: a later value wins). */
static const char *job_opt(const struct run_spec *s, const char *key, int skip_workload)
{
	const char *v = NULL;

	if (!skip_workload)
		for (size_t i = 0; i < s->wl.opts.n; i++)
			if (!strcmp(s->wl.opts.v[i].key, key))
				v = s->wl.opts.v[i].value ? s->wl.opts.v[i].value : "";
	for (size_t i = 0; i < s->engine_opts.n; i++)
		if (!strcmp(s->engine_opts.v[i].key, key))
			v = s->engine_opts.v[i].value ? s->engine_opts.v[i].value : "";
	return v;
}

/* Splits a fio name list on ':' ("\:" is a literal colon) into items of `out` (value = `origin`). */
static void split_names(const char *list, const char *origin, struct kvlist *out)
{
	struct strbuf one;

	strbuf_init(&one);
	for (const char *p = list;; p++) {
		if (*p == '\\' && p[1] == ':') {
			strbuf_addc(&one, ':');
			p++;
		} else if (*p == ':' || !*p) {
			if (one.len)
				kvlist_add(out, one.buf, origin);
			strbuf_reset(&one);
			if (!*p)
				break;
		} else {
			strbuf_addc(&one, *p);
		}
	}
	strbuf_release(&one);
}

/* fio's filename_format: $jobname, $jobnum, $filenum (other $ words are kept as they are). */
static char *expand_format(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (const char *p = fmt; *p; p++) {
		if (!strncmp(p, "$jobname", 8)) {
			strbuf_adds(&sb, jobname);
			p += 7;
		} else if (!strncmp(p, "$jobnum", 7)) {
			strbuf_addf(&sb, "%u", jobnum);
			p += 6;
		} else if (!strncmp(p, "$filenum", 8)) {
			strbuf_addf(&sb, "%u", filenum);
			p += 7;
		} else {
			strbuf_addc(&sb, *p);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static unsigned opt_count(const char *v, unsigned def)
{
	char *end;
	unsigned long n;

	if (!v || !*v)
		return def;
	n = strtoul(v, &end, 10);
	return (*end || !n || n > 1024) ? def : (unsigned)n;
}

static void add_under_dirs(const struct kvlist *dirs, const char *name, const char *origin, struct kvlist *out)
{
	if (name[0] == '/' || !dirs->n) {
		kvlist_add(out, name, origin);
		return;
	}
	for (size_t d = 0; d < dirs->n; d++) {
		char *p = xasprintf("%s/%s", dirs->v[d].key, name);
		char *o = xasprintf("%s under directory=%s", origin, dirs->v[d].key);
		kvlist_add(out, p, o);
		free(p);
		free(o);
	}
}

int target_opened_paths(const struct run_spec *s, int flags, struct kvlist *out, struct errbuf *err)
{
	/* With targets, fio_jobfile_write drops the workload's own file options: only engine options remain. */
	int skip = s->ntargets > 0;
	const char *dir = job_opt(s, "directory", skip), *fname = job_opt(s, "filename", skip);
	const char *opendir_v = job_opt(s, "opendir", skip), *engine = job_opt(s, "ioengine", 0);
	struct kvlist dirs, names;

	if (engine && !strcmp(engine, "null"))
		return 0; /* fio's null engine opens no file */
	if (opendir_v && !(flags & TARGET_DESTRUCTIVE))
		return err_set(err, ERR_INPUT,
			       "run '%s': opendir=%s makes fio write every file below it (needs --destructive)",
			       s->name ? s->name : "run", opendir_v);
	kvlist_init(&dirs);
	kvlist_init(&names);
	if (dir)
		split_names(dir, "directory", &dirs);
	if (s->ntargets) {
		for (size_t i = 0; i < s->ntargets; i++)
			add_under_dirs(&dirs, s->targets[i], "target", out);
	} else if (fname) {
		split_names(fname, "filename", &names);
		for (size_t i = 0; i < names.n; i++)
			add_under_dirs(&dirs, names.v[i].key, "filename", out);
	} else {
		const char *fmt = job_opt(s, "filename_format", 0);
		char *job = fio_job_name(s->name);
		unsigned njobs = opt_count(job_opt(s, "numjobs", 0), s->wl.numjobs ? s->wl.numjobs : 1);
		unsigned nfiles = opt_count(job_opt(s, "nrfiles", 0), 1);

		for (unsigned j = 0; j < njobs && out->n < MAX_OPENED_PATHS; j++)
			for (unsigned f = 0; f < nfiles && out->n < MAX_OPENED_PATHS; f++) {
				char *name = expand_format(fmt ? fmt : "$jobname.$jobnum.$filenum", job, j, f);
				add_under_dirs(&dirs, name, fmt ? "filename_format" : "fio's default file name", out);
				free(name);
			}
		free(job);
	}
	kvlist_release(&dirs);
	kvlist_release(&names);
	return 0;
}

int target_check_spec(const struct run_spec *s, int flags, struct errbuf *err)
{
	struct kvlist paths;
	int ret = 0;

	kvlist_init(&paths);
	if (target_opened_paths(s, flags, &paths, err) < 0)
		ret = -1;
	for (size_t i = 0; !ret && i < paths.n; i++)
		if (target_check(paths.v[i].key, flags, err) < 0) {
			if (strcmp(paths.v[i].value, "target"))
				err_prefix(err, "run '%s' (%s)", s->name ? s->name : "run", paths.v[i].value);
			ret = -1;
		}
	kvlist_release(&paths);
	return ret;
}

int target_prepare_spec(const struct run_spec *s, uint64_t size_bytes, int flags, struct errbuf *err)
{
	struct kvlist paths;
	int ret = 0;

	kvlist_init(&paths);
	if (target_opened_paths(s, flags, &paths, err) < 0)
		ret = -1;
	for (size_t i = 0; !ret && i < paths.n; i++) {
		const char *p = paths.v[i].key;
		struct stat sb;

		if (!strncmp(paths.v[i].value, "target", 6)) {
			ret = target_prepare(p, size_bytes, flags, err);
		} else if (stat(p, &sb) < 0 && errno == ENOENT) {
			int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd >= 0) {
				mark_bench_made(fd);
				close(fd);
			}
		} else if (stat(p, &sb) == 0 && S_ISBLK(sb.st_mode) && !(flags & TARGET_DESTRUCTIVE)) {
			ret = target_check_blockdev(p, err);
		}
	}
	kvlist_release(&paths);
	return ret;
}
