/*
 * remote: the one ssh command line bench uses to run something on a host of the hosts file (starting and
 * stopping fio servers, configuration steps): ssh -o BatchMode=yes -o ConnectTimeout=10 [-l USER] -- ADDR,
 * then the remote words. ssh runs non-interactively (key-based login) and gives up on an unreachable host
 * after 10 s (docs/multihost.md).
 */
#ifndef BENCH_ENGINES_REMOTE_H
#define BENCH_ENGINES_REMOTE_H

#include <stddef.h>

#include "core/model.h"

#define REMOTE_SSH_WORDS 8 /* the most words remote_ssh_prefix writes */

/* Writes the ssh words that reach h into v (room for REMOTE_SSH_WORDS, each malloc'd); returns how many. */
size_t remote_ssh_prefix(const struct host *h, char **v);

#endif
