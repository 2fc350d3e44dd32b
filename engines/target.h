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
#include "core/strbuf.h"

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

/*
 * What is known of one path on one host: gathered here (target_facts_local) or on a remote host over ssh
 * (engines/target_remote.c runs one probe per host and parses its answer into the same struct), so that one
 * rule (target_judge) decides for every host alike.
 */
enum target_kind {
	TARGET_MISSING = 0, /* nothing there: fio would create a file */
	TARGET_REGULAR,
	TARGET_BLOCK,
	TARGET_DIR,
	TARGET_CHAR_NULL, /* /dev/null or /dev/zero */
	TARGET_OTHER,     /* another character device, a fifo, a socket */
	TARGET_DANGLING,  /* a symbolic link to nothing */
};

struct target_facts {
	char *path;        /* as fio will open it */
	char *real;        /* the path with every link resolved (realpath), or NULL */
	enum target_kind kind;
	uint64_t size;     /* bytes (regular file or block device) */
	int dir_exists;    /* TARGET_MISSING: its directory exists, so fio can create it */
	int bench_made;    /* a regular file that carries TARGET_XATTR */
	char *mounted_at;  /* a block device mounted there (or one of its partitions), else NULL */
	int swap;          /* active swap (device or file) */
	char *holders;     /* block device: the devices that hold it or its partitions, else NULL */
	char *signatures;  /* block device: what libblkid found ("xfs", "dos partition table"), else NULL */
	char *backs_loop;  /* regular file: the loop device it backs, when that device is mounted/held, else NULL */
	char *loop_use;    /* with backs_loop: how that device is used ("mounted on '/mnt/x'", "held by dm-0") */
	int partitions;    /* block device: it has partitions (sysfs) */
};

/* Gathers the facts of a local path (nothing is changed). -1 only when the path cannot be looked at. */
int target_facts_local(const char *path, struct target_facts *f, struct errbuf *err);

void target_facts_release(struct target_facts *f);

/*
 * The one rule: may fio open f->path, on host `host` (NULL: this host), for a workload that writes (`writes`)
 * or only reads, with `flags` (enum target_flags)? 0, or -1 with ERR_INPUT and a message that says what was
 * found and what would allow it. Mounted, swap and held devices and files behind a mounted loop device are
 * refused for writing whatever the flags.
 */
int target_judge(const struct target_facts *f, int flags, int writes, const char *host, struct errbuf *err);

/* Whether a run of `spec` writes (rw/readwrite, trim, verify, ...): a read-only run may read a busy device. */
int target_spec_writes(const struct run_spec *spec);

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

/* The same for one host of a hosts file: `targets` (its target= list, or --target) stand for spec->targets. */
int target_opened_paths_with(const struct run_spec *spec, char *const *targets, size_t ntargets, int flags,
			     struct kvlist *out, struct errbuf *err);

/* target_check on every path of target_opened_paths; the message names the option it came from. */
int target_check_spec(const struct run_spec *spec, int flags, struct errbuf *err);

/*
 * Prepares a local run of `spec`: target_prepare on each of its targets; every other path fio will open that
 * does not exist yet is created empty and marked, so that fio lays it out and a later run knows it as bench's.
 */
int target_prepare_spec(const struct run_spec *spec, uint64_t size_bytes, int flags, struct errbuf *err);

/*
 * The precondition purge of one local target (docs/method.md): a block device discarded (blkdiscard; only with
 * TARGET_DESTRUCTIVE), a regular file truncated to empty (only when bench created it, TARGET_OVERWRITE_FILES
 * or TARGET_DESTRUCTIVE was given, or it is at most small_ok_bytes long (0: no such allowance): the sim engine's state file), a path
 * that does not exist left alone. What was done is appended to *log as one line. ERR_USAGE: not allowed;
 * ERR_HOST: the discard or truncation failed.
 */
int target_purge(const char *path, int flags, uint64_t small_ok_bytes, struct strbuf *log, struct errbuf *err);

#endif
