/*
 * target: target safety checks and file target creation (see target.h).
 *
 * Signs of data on a block device, each documented by the on-disk format it belongs to: an MBR boot
 * signature (0x55 0xAA at byte 510), a GPT header ("EFI PART" at byte 512), LVM2 ("LABELONE" in one of the
 * first four sectors), ext2/3/4 (0xEF53 at byte 1080), XFS ("XFSB" at 0), btrfs ("_BHRfS_M" at 65600), swap
 * ("SWAPSPACE2" at 4086 with 4 KiB pages), Linux md RAID 1.1/1.2 (0xa92b4efc at 0 or 4096), and any
 * partitions, holders or mounts that sysfs and /proc/self/mounts show.
 */
#include "engines/target.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DEFAULT_FILE_SIZE (1024ull * 1024 * 1024)

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

static int mounted(dev_t rdev)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[4096], rest[4096];
	int found = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%4095s %4095[^\n]", dev, rest) == 2) {
		struct stat sb;
		if (dev[0] == '/' && stat(dev, &sb) == 0 && S_ISBLK(sb.st_mode) &&
		    major(sb.st_rdev) == major(rdev) && (minor(sb.st_rdev) == minor(rdev)))
			found = 1;
	}
	fclose(f);
	return found;
}

int target_check_blockdev(const char *path, struct errbuf *err)
{
	unsigned char buf[69632];
	char sys[256];
	struct stat sb;
	ssize_t n;
	int fd;

	if (stat(path, &sb) < 0)
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/holders", major(sb.st_rdev), minor(sb.st_rdev));
	if (dir_has_entries(sys))
		return err_set(err, ERR_INPUT, "target '%s' is in use by another device (%s is not empty)", path, sys);
	if (mounted(sb.st_rdev))
		return err_set(err, ERR_INPUT, "target '%s' is mounted", path);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(sb.st_rdev), minor(sb.st_rdev));
	{
		DIR *d = opendir(sys);
		struct dirent *e;
		if (d) {
			while ((e = readdir(d))) {
				char p[600];
				struct stat ps;
				snprintf(p, sizeof(p), "%s/%s/partition", sys, e->d_name);
				if (stat(p, &ps) == 0) {
					closedir(d);
					return err_set(err, ERR_INPUT, "target '%s' has partitions (%s)", path, e->d_name);
				}
			}
			closedir(d);
		}
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	memset(buf, 0, sizeof(buf));
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n < 0)
		return err_set(err, ERR_INPUT, "target '%s': cannot read: %s", path, strerror(errno));
	if (buf[510] == 0x55 && buf[511] == 0xAA)
		return err_set(err, ERR_INPUT, "target '%s' has a partition table or boot sector", path);
	if (!memcmp(buf + 512, "EFI PART", 8))
		return err_set(err, ERR_INPUT, "target '%s' has a GPT partition table", path);
	for (int s = 0; s < 4; s++)
		if (!memcmp(buf + s * 512, "LABELONE", 8))
			return err_set(err, ERR_INPUT, "target '%s' is an LVM physical volume", path);
	if (buf[1080] == 0x53 && buf[1081] == 0xEF)
		return err_set(err, ERR_INPUT, "target '%s' holds an ext2/3/4 filesystem", path);
	if (!memcmp(buf, "XFSB", 4))
		return err_set(err, ERR_INPUT, "target '%s' holds an XFS filesystem", path);
	if (!memcmp(buf + 65600, "_BHRfS_M", 8))
		return err_set(err, ERR_INPUT, "target '%s' holds a btrfs filesystem", path);
	if (!memcmp(buf + 4086, "SWAPSPACE2", 10))
		return err_set(err, ERR_INPUT, "target '%s' is a swap area", path);
	{
		static const unsigned char md[4] = { 0xfc, 0x4e, 0x2b, 0xa9 };
		if (!memcmp(buf, md, 4) || !memcmp(buf + 4096, md, 4))
			return err_set(err, ERR_INPUT, "target '%s' is a member of an md RAID array", path);
	}
	return 0;
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

int target_prepare(const char *path, uint64_t size_bytes, int destructive, struct errbuf *err)
{
	struct stat sb;
	int fd, ret;

	if (stat(path, &sb) == 0) {
		if (S_ISBLK(sb.st_mode))
			return destructive ? 0 : target_check_blockdev(path, err);
		if (S_ISCHR(sb.st_mode))
			return err_set(err, ERR_INPUT, "target '%s' is a character device: give a block device or a file",
				       path);
		if (S_ISDIR(sb.st_mode))
			return err_set(err, ERR_INPUT, "target '%s' is a directory: give a file or a block device", path);
		if (!S_ISREG(sb.st_mode))
			return err_set(err, ERR_INPUT, "target '%s' is not a regular file or block device", path);
		if (!size_bytes || (uint64_t)sb.st_size >= size_bytes)
			return 0;
	} else if (errno != ENOENT) {
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	} else {
		sb.st_size = 0;
	}
	if (!size_bytes)
		size_bytes = DEFAULT_FILE_SIZE;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(err, ERR_INPUT, "cannot create target file '%s': %s", path, strerror(errno));
	ret = fill_file(fd, path, (uint64_t)sb.st_size, size_bytes, err);
	close(fd);
	return ret;
}

int target_check(const char *path, int destructive, struct errbuf *err)
{
	struct stat sb;
	char *dir, *slash;
	int ok;

	if (!*path)
		return err_set(err, ERR_INPUT, "empty target path");
	if (stat(path, &sb) == 0) {
		if (S_ISBLK(sb.st_mode))
			return destructive ? 0 : target_check_blockdev(path, err);
		if (S_ISDIR(sb.st_mode))
			return err_set(err, ERR_INPUT, "target '%s' is a directory: give a file or a block device", path);
		if (!S_ISREG(sb.st_mode))
			return err_set(err, ERR_INPUT, "target '%s' is not a regular file or block device", path);
		return 0;
	}
	if (errno != ENOENT)
		return err_set(err, ERR_INPUT, "target '%s': %s", path, strerror(errno));
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else {
		free(dir);
		dir = xstrdup(".");
	}
	ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
	if (!ok)
		err_set(err, ERR_INPUT, "target '%s': directory '%s' does not exist", path, dir);
	free(dir);
	return ok ? 0 : -1;
}
