/*
 * target: making a run's targets safe and ready (design.md "Safety", docs/safety.md). A file target is created
 * and sized by bench (filled with data, so reads hit real blocks) and marked as bench's with the extended
 * attribute TARGET_XATTR. Before any load, every path fio will actually open (targets, filename=, directory=,
 * filename_format=, engine options) is resolved and checked: a block device that libblkid finds any signature
 * on (filesystem, RAID/LVM member, crypto header, partition table), or that is mounted, swap or held by another
 * device, is refused unless TARGET_DESTRUCTIVE; an existing non-empty regular file bench did not create is
 * refused unless TARGET_OVERWRITE_FILES (or TARGET_DESTRUCTIVE).
 */
#ifndef BENCH_ENGINES_TARGET_H
#define BENCH_ENGINES_TARGET_H

#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/model.h"

/* Flags of the checks; 1 is TARGET_DESTRUCTIVE so that callers passing a 0/1 "destructive" keep working. */
enum target_flags {
	TARGET_DESTRUCTIVE = 1 << 0,     /* --destructive: block devices with data and any file may be written */
	TARGET_OVERWRITE_FILES = 1 << 1, /* --overwrite-files: existing regular files may be written */
};

/* The extended attribute bench sets on the files it creates (value "target"). */
#define TARGET_XATTR "user.bench"

/*
 * Prepares one local target: a block device is checked; a regular file (or a path that does not exist) is
 * created (and marked) or grown to at least `size_bytes` (0: leave an existing file as it is, create 1 GiB
 * otherwise). `flags` is enum target_flags.
 */
int target_prepare(const char *path, uint64_t size_bytes, int flags, struct errbuf *err);

/*
 * Checks one path without changing anything (the preflight before any load). Symlinks are resolved first.
 * A directory, a character device (other than /dev/null and /dev/zero) or other special file is refused; so is
 * a block device with signs of data and an existing regular file that bench did not create, unless `flags`
 * allows it (enum target_flags); a file that does not exist must be creatable (its directory exists).
 */
int target_check(const char *path, int flags, struct errbuf *err);

/* Checks a block device for signs of data (libblkid, mounts, swap, holders, partitions): 0 when unused. */
int target_check_blockdev(const char *path, struct errbuf *err);

/*
 * The paths fio will open for a local run of `spec`, as fio computes them: its targets (or the job's
 * filename= list, ':'-separated with "\:" escapes), each relative one under every entry of directory=, or,
 * without any filename, filename_format= (default "$jobname.$jobnum.$filenum") expanded over numjobs and
 * nrfiles. Job options are the workload's, then the engine options (a later value wins, as in fio's [global]).
 * Appends to `out` one item per path: key = the path as fio opens it, value = where it came from. Returns -1
 * (ERR_INPUT) for opendir= (fio would open every file below a directory) unless TARGET_DESTRUCTIVE.
 */
int target_opened_paths(const struct run_spec *spec, int flags, struct kvlist *out, struct errbuf *err);

/* target_check on every path of target_opened_paths; the message names the option it came from. */
int target_check_spec(const struct run_spec *spec, int flags, struct errbuf *err);

/*
 * Prepares a local run of `spec`: target_prepare on each of its targets; every other path fio will open that
 * does not exist yet is created empty and marked, so that fio lays it out and a later run knows it as bench's.
 */
int target_prepare_spec(const struct run_spec *spec, uint64_t size_bytes, int flags, struct errbuf *err);

#endif
