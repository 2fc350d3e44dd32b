/*
 * remote: the one ssh command line bench uses to run something on a host of the hosts file (starting and
 * stopping fio servers, configuration steps, the target probe of engines/target_remote.c):
 *
 *     ssh -o BatchMode=yes -o ConnectTimeout=10 [-p PORT] [-i KEY -o IdentitiesOnly=yes]
 *         [-o UserKnownHostsFile=FILE -o StrictHostKeyChecking=yes] [-l USER] -- ADDR
 *
 * then the remote words. ssh runs non-interactively (key-based login) and gives up on an unreachable host
 * after 10 s. With ssh_known_hosts= the host key must be in that file (a lab writes it); without it ssh's own
 * known_hosts and StrictHostKeyChecking apply, so an unknown host key fails in BatchMode (docs/multihost.md).
 */
#ifndef BENCH_ENGINES_REMOTE_H
#define BENCH_ENGINES_REMOTE_H

#include <stddef.h>

#include "core/model.h"

#define REMOTE_SSH_WORDS 20 /* the most words remote_ssh_prefix writes */

/* Writes the ssh words that reach h into v (room for REMOTE_SSH_WORDS, each malloc'd); returns how many. */
size_t remote_ssh_prefix(const struct host *h, char **v);

/* Whether the hosts file gives bench ssh access to h (ssh=, ssh_port= or ssh_key= on its line). */
int remote_has_ssh(const struct host *h);

#endif
