/*
 * target: making a run's targets safe and ready (design.md "Safety"). A file target is created and sized by
 * bench (filled with data, so reads hit real blocks); a block device that holds a filesystem, a partition
 * table, an LVM/RAID/swap signature, holders or a mount is refused unless the user passed the destructive flag.
 */
#ifndef BENCH_ENGINES_TARGET_H
#define BENCH_ENGINES_TARGET_H

#include <stdint.h>

#include "core/errbuf.h"

/*
 * Prepares one local target: a block device is checked; a regular file (or a path that does not exist) is
 * created or grown to at least `size_bytes` (0: leave an existing file as it is, create 1 GiB otherwise).
 */
int target_prepare(const char *path, uint64_t size_bytes, int destructive, struct errbuf *err);

/*
 * Checks a target without changing anything (the preflight before any load): a directory, character device
 * or other special file is refused; so is a block device with signs of data unless `destructive`; a file
 * that does not exist must be creatable (its directory exists).
 */
int target_check(const char *path, int destructive, struct errbuf *err);

/* Checks a block device for signs of data; 0 when it looks unused, -1 with the reason otherwise. */
int target_check_blockdev(const char *path, struct errbuf *err);

#endif
