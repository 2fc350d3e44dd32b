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
#include "core/proc.h"
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
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#define DEFAULT_FILE_SIZE (1024ull * 1024 * 1024)

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

/* ---- facts ---------------------------------------------------------------------------------------- */

/* The device number in a sysfs "dev" file ("MAJ:MIN"), or 0. */
static dev_t sysfs_dev(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned maj, min;
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	return n == 2 ? makedev(maj, min) : 0;
}

/* Appends the names in a sysfs holders/ directory to `sb`. */
static void add_holders(const char *dir, struct strbuf *sb)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", e->d_name);
	closedir(d);
}

/*
 * How a block device is in use, over itself and its partitions: where it (or a partition) is mounted, what
 * holds it, whether it is swap, whether it has partitions.
 */
static void block_use(dev_t rdev, struct target_facts *f)
{
	char sys[128];
	struct strbuf holders;
	DIR *d;
	struct dirent *e;

	strbuf_init(&holders);
	f->mounted_at = mount_point(rdev);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	{
		char *h = xasprintf("%s/holders", sys);
		add_holders(h, &holders);
		free(h);
	}
	if ((d = opendir(sys))) {
		while ((e = readdir(d))) {
			char *part = xasprintf("%s/%s/partition", sys, e->d_name);
			struct stat ps;
			if (e->d_name[0] != '.' && stat(part, &ps) == 0) {
				char *dev = xasprintf("%s/%s/dev", sys, e->d_name), *h = xasprintf("%s/%s/holders", sys, e->d_name);
				dev_t pd = sysfs_dev(dev);
				struct stat pst = { .st_mode = S_IFBLK, .st_rdev = pd };
				f->partitions = 1;
				if (!f->mounted_at && pd)
					f->mounted_at = mount_point(pd);
				if (pd && is_swap(&pst))
					f->swap = 1;
				add_holders(h, &holders);
				free(dev);
				free(h);
			}
			free(part);
		}
		closedir(d);
	}
	if (holders.len)
		f->holders = strbuf_detach(&holders, NULL);
	strbuf_release(&holders);
}

/*
 * The loop device a regular file backs (same device and inode as the loop's backing file, read from sysfs
 * and stat'ed), when that device is in use (mounted, held, swap): f->backs_loop and f->loop_use.
 */
static void loop_backing(const struct stat *sb, struct target_facts *f)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;

	if (!d)
		return;
	while (!f->backs_loop && (e = readdir(d))) {
		char *bf, line[PATH_MAX + 32];
		FILE *in;
		struct stat bs;
		struct target_facts use = { 0 };
		size_t n;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		bf = xasprintf("/sys/block/%s/loop/backing_file", e->d_name);
		in = fopen(bf, "re");
		free(bf);
		if (!in)
			continue;
		n = fgets(line, sizeof(line), in) ? strcspn(line, "\n") : 0;
		fclose(in);
		line[n] = '\0';
		if (!n || stat(line, &bs) < 0 || bs.st_dev != sb->st_dev || bs.st_ino != sb->st_ino)
			continue;
		bf = xasprintf("/sys/block/%s/dev", e->d_name);
		block_use(sysfs_dev(bf), &use);
		free(bf);
		if (use.mounted_at)
			f->loop_use = xasprintf("mounted on '%s'", use.mounted_at);
		else if (use.holders)
			f->loop_use = xasprintf("held by %s", use.holders);
		else if (use.swap)
			f->loop_use = xstrdup("an active swap area");
		if (f->loop_use)
			f->backs_loop = xasprintf("/dev/%s", e->d_name);
		target_facts_release(&use);
	}
	closedir(d);
}

static uint64_t block_size(dev_t rdev)
{
	char sys[128];
	unsigned long long sectors = 0;
	FILE *f;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/size", major(rdev), minor(rdev));
	if ((f = fopen(sys, "re"))) {
		if (fscanf(f, "%llu", &sectors) != 1)
			sectors = 0;
		fclose(f);
	}
	return (uint64_t)sectors * 512;
}

int target_facts_local(const char *path, struct target_facts *f, struct errbuf *err)
{
	char real[PATH_MAX];
	struct stat sb;

	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	if (!*path)
		return err_set(err, ERR_INPUT, "empty target path");
	if (stat(path, &sb) < 0) {
		if (errno != ENOENT)
			return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
		if (lstat(path, &sb) == 0) {
			f->kind = TARGET_DANGLING;
		} else {
			char *dir = path_dir(path);
			f->dir_exists = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
			free(dir);
		}
		return 0;
	}
	f->real = realpath(path, real) ? xstrdup(real) : NULL;
	if (S_ISREG(sb.st_mode)) {
		f->kind = TARGET_REGULAR;
		f->size = (uint64_t)sb.st_size;
		f->bench_made = bench_made(path);
		f->swap = is_swap(&sb);
		loop_backing(&sb, f);
	} else if (S_ISBLK(sb.st_mode)) {
		struct strbuf found;
		f->kind = TARGET_BLOCK;
		f->size = block_size(sb.st_rdev);
		f->swap = is_swap(&sb);
		block_use(sb.st_rdev, f);
		strbuf_init(&found);
		if (blkid_signatures(f->real ? f->real : path, &found, err) < 0) {
			strbuf_reset(&found); /* unknown counts as data: only --destructive writes it */
			strbuf_addf(&found, "nothing readable (%s)", err->msg);
		}
		if (found.len)
			f->signatures = strbuf_detach(&found, NULL);
		strbuf_release(&found);
	} else if (S_ISDIR(sb.st_mode)) {
		f->kind = TARGET_DIR;
	} else if (S_ISCHR(sb.st_mode) && f->real && (!strcmp(f->real, "/dev/null") || !strcmp(f->real, "/dev/zero"))) {
		f->kind = TARGET_CHAR_NULL;
	} else {
		f->kind = TARGET_OTHER;
	}
	return 0;
}

void target_facts_release(struct target_facts *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->real);
	free(f->mounted_at);
	free(f->holders);
	free(f->signatures);
	free(f->backs_loop);
	free(f->loop_use);
	memset(f, 0, sizeof(*f));
}

/* ---- the one rule --------------------------------------------------------------------------------- */

/* Refusals of a block device for writing: in use (whatever the flags), then signs of data. */
static int judge_block(const struct target_facts *f, const char *t, int flags, struct errbuf *err)
{
	if (f->mounted_at)
		return err_set(err, ERR_INPUT,
			       "target %s is mounted on '%s': bench never writes a mounted device, not even with "
			       "--destructive (unmount it first: umount '%s')", t, f->mounted_at, f->mounted_at);
	if (f->swap)
		return err_set(err, ERR_INPUT,
			       "target %s is an active swap area (see /proc/swaps): bench never writes it, not even "
			       "with --destructive (swapoff it first)", t);
	if (f->holders)
		return err_set(err, ERR_INPUT,
			       "target %s is held by %s (device mapper, RAID or LVM): bench never writes it, not even "
			       "with --destructive (remove what holds it first)", t, f->holders);
	if (flags & TARGET_DESTRUCTIVE)
		return 0;
	if (f->partitions)
		return err_set(err, ERR_INPUT, "target %s has partitions%s%s (needs --destructive)", t,
			       f->signatures ? ": blkid found " : "", f->signatures ? f->signatures : "");
	if (f->signatures)
		return err_set(err, ERR_INPUT, "target %s holds data: blkid found %s (needs --destructive)", t,
			       f->signatures);
	return 0;
}

static int judge_regular(const struct target_facts *f, const char *t, int flags, struct errbuf *err)
{
	if (f->swap)
		return err_set(err, ERR_INPUT,
			       "target %s is an active swap file: bench never writes it, not even with --destructive "
			       "(swapoff it first)", t);
	if (f->backs_loop)
		return err_set(err, ERR_INPUT,
			       "target %s is the backing file of %s, which is %s: writing it would corrupt that device; "
			       "bench never does, not even with --destructive or --overwrite-files (release it first: "
			       "umount the filesystem, then losetup -d %s)", t, f->backs_loop, f->loop_use, f->backs_loop);
	if (flags & (TARGET_DESTRUCTIVE | TARGET_OVERWRITE_FILES) || f->size == 0 || f->bench_made)
		return 0;
	return err_set(err, ERR_INPUT,
		       "target %s is an existing file that bench did not create (%llu bytes): it would be "
		       "overwritten (needs --overwrite-files)", t, (unsigned long long)f->size);
}

int target_judge(const struct target_facts *f, int flags, int writes, const char *host, struct errbuf *err)
{
	struct strbuf t;
	int ret = 0;

	strbuf_init(&t);
	strbuf_addf(&t, "'%s'", f->path);
	if (f->real && strcmp(f->real, f->path))
		strbuf_addf(&t, " (a link to '%s')", f->real);
	if (host)
		strbuf_addf(&t, " on host '%s'", host);
	switch (f->kind) {
	case TARGET_MISSING:
		if (!f->dir_exists)
			ret = err_set(err, ERR_INPUT, "target %s: its directory does not exist", t.buf);
		break;
	case TARGET_DANGLING:
		ret = err_set(err, ERR_INPUT, "target %s is a dangling symbolic link", t.buf);
		break;
	case TARGET_DIR:
		ret = err_set(err, ERR_INPUT, "target %s is a directory: give a file or a block device", t.buf);
		break;
	case TARGET_OTHER:
		ret = err_set(err, ERR_INPUT, "target %s is a character device or special file: give a block device "
			      "or a file", t.buf);
		break;
	case TARGET_CHAR_NULL:
		break;
	case TARGET_BLOCK:
		ret = writes ? judge_block(f, t.buf, flags, err) : 0;
		break;
	case TARGET_REGULAR:
		ret = writes ? judge_regular(f, t.buf, flags, err) : 0;
		break;
	}
	strbuf_release(&t);
	return ret;
}

/* The last value of an option over the workload's options and the engine options, or NULL. */
static const char *spec_opt(const struct workload *w, const struct kvlist *eng, const char *key, const char *alias)
{
	const struct kvlist *src[] = { &w->opts, eng };
	const char *v = NULL;

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < src[k]->n; i++)
			if (!strcmp(src[k]->v[i].key, key) || (alias && !strcmp(src[k]->v[i].key, alias)))
				v = src[k]->v[i].value ? src[k]->v[i].value : "";
	return v;
}

/* Whether one workload writes: rw= other than read/randread, a replayed log, a file-changing engine. */
static int workload_writes(const struct workload *w, const struct kvlist *eng)
{
	static const char *const writing_engines[] = { "filecreate", "filedelete", "ftruncate", NULL };
	const char *rw = spec_opt(w, eng, "rw", "readwrite"), *engine = spec_opt(w, eng, "ioengine", NULL);
	const char *ro = spec_opt(w, eng, "readonly", NULL);

	if (ro && strcmp(ro, "0"))
		return 0; /* fio refuses every write of the job */
	if (!rw)
		rw = w->rw ? w->rw : "read";
	if (spec_opt(w, eng, "read_iolog", NULL) || spec_opt(w, eng, "replay_redirect", NULL))
		return 1;
	for (size_t i = 0; engine && writing_engines[i]; i++)
		if (!strcmp(engine, writing_engines[i]))
			return 1;
	return strcmp(rw, "read") && strcmp(rw, "randread");
}

int target_spec_writes(const struct run_spec *spec)
{
	if (!spec->njobs)
		return workload_writes(&spec->wl, &spec->engine_opts);
	for (size_t j = 0; j < spec->njobs; j++)
		if (workload_writes(&spec->jobs[j].wl, &spec->engine_opts))
			return 1;
	return 0;
}

int target_check_blockdev(const char *path, struct errbuf *err)
{
	struct target_facts f;
	int ret = target_facts_local(path, &f, err);

	if (ret == 0)
		ret = target_judge(&f, 0, 1, NULL, err);
	target_facts_release(&f);
	return ret;
}

/* "the filesystem mounted on '/x' is full: N bytes free, M needed" for the directory of `path`. */
static int fs_full(const char *path, uint64_t need, enum err_kind kind, struct errbuf *err)
{
	char *dir = path_dir(path), *mnt;
	struct stat sb;
	struct statvfs vf;
	unsigned long long avail = 0;
	int ret;

	if (statvfs(dir, &vf) == 0)
		avail = (unsigned long long)vf.f_bavail * vf.f_frsize;
	mnt = stat(dir, &sb) == 0 ? mount_point(sb.st_dev) : NULL;
	ret = err_set(err, kind,
		      "target '%s' does not fit: the filesystem mounted on '%s' is full (%llu bytes free, %llu more "
		      "needed); give a smaller size= or another place", path, mnt ? mnt : dir, avail,
		      (unsigned long long)need);
	free(mnt);
	free(dir);
	return ret;
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
			if (errno == ENOSPC || errno == EDQUOT)
				return fs_full(path, to - off, ERR_HOST, err);
			return err_set(err, ERR_HOST, "cannot write target file '%s': %s", path, strerror(errno));
		}
		off += (uint64_t)n;
	}
	free(buf);
	if (fsync(fd) < 0)
		return err_set(err, ERR_HOST, "cannot sync target file '%s': %s", path, strerror(errno));
	return 0;
}

/* Whether the filesystem of `path` has `need` bytes free for an unprivileged writer (unknown: yes). */
static int fits(const char *path, uint64_t need)
{
	char *dir = path_dir(path);
	struct statvfs vf;
	int ok = statvfs(dir, &vf) < 0 || (uint64_t)vf.f_bavail * vf.f_frsize >= need;

	free(dir);
	return ok;
}

int target_prepare(const char *path, uint64_t size_bytes, int flags, struct errbuf *err)
{
	struct target_facts f;
	uint64_t have = 0;
	int fd, ret, created;

	if (target_facts_local(path, &f, err) < 0 || target_judge(&f, flags, 1, NULL, err) < 0) {
		target_facts_release(&f);
		return -1;
	}
	created = f.kind == TARGET_MISSING;
	have = f.kind == TARGET_REGULAR ? f.size : 0;
	ret = f.kind != TARGET_MISSING && f.kind != TARGET_REGULAR;
	target_facts_release(&f);
	if (ret)
		return 0; /* a block device (judged above), /dev/null */
	if (!created && (!size_bytes || have >= size_bytes))
		return 0;
	if (!size_bytes)
		size_bytes = DEFAULT_FILE_SIZE;
	if (!fits(path, size_bytes - have))
		return fs_full(path, size_bytes - have, ERR_INPUT, err);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(err, ERR_INPUT, "cannot create target file '%s': %s", path, strerror(errno));
	if (created)
		mark_bench_made(fd);
	ret = fill_file(fd, path, have, size_bytes, err);
	close(fd);
	if (ret < 0 && created)
		unlink(path); /* made in this call: leave nothing half-written behind */
	return ret;
}

int target_check(const char *path, int flags, struct errbuf *err)
{
	struct target_facts f;
	int ret = target_facts_local(path, &f, err);

	if (ret == 0)
		ret = target_judge(&f, flags, 1, NULL, err);
	target_facts_release(&f);
	return ret;
}

/* ---- the paths fio opens (computed in fio_jobfile.c, the one plan the job file is written from) ---- */

static int add_plan(const struct workload *wl, const struct kvlist *eng, char *const *targets, size_t ntargets,
		    const char *name, struct kvlist *out, struct errbuf *err)
{
	struct fio_files ff;
	char *job = fio_job_name(name);
	int ret = fio_files_plan(wl, eng, NULL, targets, ntargets, job, NULL, &ff, err);

	for (size_t i = 0; ret == 0 && i < ff.paths.n; i++)
		if (!kvlist_find(out, ff.paths.v[i].key))
			kvlist_add(out, ff.paths.v[i].key, ff.paths.v[i].value);
	fio_files_release(&ff);
	free(job);
	return ret;
}

int target_opened_paths_with(const struct run_spec *s, char *const *targets, size_t ntargets, int flags,
			     struct kvlist *out, struct errbuf *err)
{
	(void)flags; /* opendir= is refused whatever the flags: bench does not list what fio would find there */
	if (!s->njobs)
		return add_plan(&s->wl, &s->engine_opts, targets, ntargets, s->name, out, err);
	for (size_t j = 0; j < s->njobs; j++) {
		const struct job_spec *js = &s->jobs[j];
		if (add_plan(&js->wl, &s->engine_opts, js->targets, js->ntargets, js->name, out, err) < 0)
			return err_prefix(err, "run '%s', job '%s'", s->name ? s->name : "run", js->name);
	}
	return 0;
}

int target_opened_paths(const struct run_spec *s, int flags, struct kvlist *out, struct errbuf *err)
{
	return target_opened_paths_with(s, s->targets, s->ntargets, flags, out, err);
}

/* Facts and judgement of every path of the run: 0, or -1 naming the option the refused path came from. */
static int judge_spec(const struct run_spec *s, const struct kvlist *paths, int flags, struct errbuf *err)
{
	int writes = target_spec_writes(s);

	for (size_t i = 0; i < paths->n; i++) {
		struct target_facts f;
		int ret = target_facts_local(paths->v[i].key, &f, err);
		if (ret == 0)
			ret = target_judge(&f, flags, writes, NULL, err);
		target_facts_release(&f);
		if (ret < 0) {
			if (strcmp(paths->v[i].value, "target"))
				err_prefix(err, "run '%s' (%s)", s->name ? s->name : "run", paths->v[i].value);
			return -1;
		}
	}
	return 0;
}

int target_check_spec(const struct run_spec *s, int flags, struct errbuf *err)
{
	struct kvlist paths;
	int ret;

	kvlist_init(&paths);
	ret = target_opened_paths(s, flags, &paths, err);
	if (ret == 0)
		ret = judge_spec(s, &paths, flags, err);
	kvlist_release(&paths);
	return ret;
}

int target_prepare_spec(const struct run_spec *s, uint64_t size_bytes, int flags, struct errbuf *err)
{
	struct kvlist paths;
	int ret;

	kvlist_init(&paths);
	ret = target_opened_paths(s, flags, &paths, err);
	if (ret == 0)
		ret = judge_spec(s, &paths, flags, err);
	for (size_t i = 0; !ret && i < paths.n; i++) {
		const char *p = paths.v[i].key;
		struct stat sb;

		if (!strncmp(paths.v[i].value, "target", 6)) {
			ret = target_prepare(p, size_bytes, flags, err);
		} else if (stat(p, &sb) < 0 && errno == ENOENT) {
			/* fio lays it out; marked so that a later run knows it as bench's */
			int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd >= 0) {
				mark_bench_made(fd);
				close(fd);
			}
		}
	}
	kvlist_release(&paths);
	return ret;
}

int target_purge(const char *path, int flags, uint64_t small_ok_bytes, struct strbuf *log, struct errbuf *err)
{
	struct stat st;
	int fd;

	if (stat(path, &st) != 0) {
		strbuf_addf(log, "%s: does not exist yet (nothing to purge)\n", path);
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		char *argv[] = { "blkdiscard", (char *)path, NULL }, *out = NULL;
		int code = -1;

		if (!(flags & TARGET_DESTRUCTIVE))
			return err_set(err, ERR_USAGE, "precondition: purging block device '%s' discards its data: give "
				       "--destructive, or precondition.purge = off", path);
		if (proc_run_capture(argv, 600000, &out, &code, err) < 0 || code != 0) {
			if (code != 0)
				err_set(err, ERR_HOST, "blkdiscard %s: exit %d: %.200s", path, code, out ? out : "");
			free(out);
			return -1;
		}
		free(out);
		strbuf_addf(log, "blkdiscard %s: done\n", path);
		return 0;
	}
	if (!bench_made(path) && !(flags & (TARGET_OVERWRITE_FILES | TARGET_DESTRUCTIVE)) &&
	    !(small_ok_bytes && (uint64_t)st.st_size <= small_ok_bytes))
		return err_set(err, ERR_USAGE, "precondition: '%s' is not a file bench created: give "
			       "--overwrite-files to recreate it", path);
	if ((fd = open(path, O_WRONLY | O_TRUNC)) < 0)
		return err_set(err, ERR_HOST, "precondition: cannot recreate '%s': %s", path, strerror(errno));
	close(fd);
	strbuf_addf(log, "%s: recreated empty\n", path);
	return 0;
}
