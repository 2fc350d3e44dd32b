/*
 * target_remote: the facts (engines/target.h struct target_facts) of paths on another host, gathered with ONE
 * ssh command per host (engines/remote.h) bounded by TARGET_REMOTE_TIMEOUT_MS: a small POSIX sh script sent
 * as the remote command resolves each path (realpath, stat), and for a block device reads libblkid's view
 * (blkid -p), /proc/self/mountinfo, /proc/swaps, the holders and partitions in sysfs; for a regular file
 * bench's mark (the user.bench xattr through getfattr), /proc/swaps and the loop devices it backs. Its answer
 * is parsed here into the same struct target_facts as a local path's, so that target_judge decides for
 * every host alike. Nothing is changed on the host.
 *
 * bench's mark has a substitute on hosts: a regular file whose resolved path is below the host's workdir=
 * counts as bench's (the directory is declared for bench's files), as does one with the xattr.
 */
#ifndef BENCH_ENGINES_TARGET_REMOTE_H
#define BENCH_ENGINES_TARGET_REMOTE_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/model.h"
#include "core/strbuf.h"
#include "engines/target.h"

#define TARGET_REMOTE_TIMEOUT_MS 20000 /* the whole ssh command: connect (10 s) and probe */

/* The probe script (the remote command's "sh -c" text): prints the answer target_remote_parse reads. */
extern const char target_remote_script[];

/* The argv (NULL-terminated, each word malloc'd; free with argv_free) of the probe of `paths` on host h. */
char **target_remote_argv(const struct host *h, char *const *paths, size_t n);

/*
 * Parses the probe's answer for paths[0..n) into out[0..n) (zeroed by the caller; release each with
 * target_facts_release, also after an error). h gives the workdir= of the mark's substitute. -1 with ERR_HOST
 * and a message naming the host and the line when the answer is not a whole probe answer.
 */
int target_remote_parse(const struct host *h, const char *text, char *const *paths, size_t n,
			struct target_facts *out, struct errbuf *err);

/* Runs the probe of paths[0..n) on h over ssh and parses its answer (-1 with ERR_HOST when ssh fails). */
int target_facts_remote(const struct host *h, char *const *paths, size_t n, struct target_facts *out,
			struct errbuf *err);

/*
 * The consent decision for paths[0..n) on host h, the same as for a local path (docs/hosts.md): with ssh access
 * (remote_has_ssh) one probe over ssh and target_judge on each path's facts (writes[i]: a run that writes
 * opens path i; NULL: all do); without it a path is accepted only when canonical and below the host's
 * workdir=, anything else only with TARGET_DESTRUCTIVE. Appends one line per path to `decisions` (may be
 * NULL): "HOST PATH ok|refused: why". 0, or -1 with the first refusal (ERR_INPUT) or ssh's failure (ERR_HOST).
 */
int target_remote_check(const struct host *h, char *const *paths, const int *writes, size_t n, int flags,
			struct strbuf *decisions, struct errbuf *err);

#endif
