/*
 * hostsfile: reading and writing the hosts file that names the machines of a multi-host suite
 * (docs/hosts.md): per host a name, the address[:port] of its fio server, its role (initiator or target),
 * its targets (devices or files on that host), an optional node_exporter URL, how ssh reaches it (user, port,
 * identity file, known_hosts file) and the directory declared for bench's files there (workdir=).
 *
 * One host per line, continued on following lines that start with white space:
 *
 *     # name   address[:port]     options
 *     vm01     10.0.0.11          target=/dev/sdb target=/dev/sdc ssh=root ssh_port=2222
 *              ssh_key=/root/.ssh/lab ssh_known_hosts=/root/lab/known_hosts workdir=/srv/bench
 *              exporter=http://10.0.0.11:9100/metrics
 *     array1   10.0.0.50          role=target exporter=http://10.0.0.50:9100/metrics
 *
 * Errors carry "file:line: ". Knows nothing of fio beyond its default port.
 */
#ifndef BENCH_CORE_HOSTSFILE_H
#define BENCH_CORE_HOSTSFILE_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/model.h"
#include "core/strbuf.h"

#define HOSTS_DEFAULT_PORT 8765u

/* Reads the hosts file at `path` into `out` (initialised, empty). -1 with ERR_INPUT "path:line: ..." on error;
 * `out` is then left empty. An empty file (no hosts) is an error. */
int hostsfile_read(const char *path, struct host_list *out, struct errbuf *err);

/* Same from text in memory; `name` prefixes messages. */
int hostsfile_parse(const char *text, size_t len, const char *name, struct host_list *out, struct errbuf *err);

/* Appends the hosts in the file format above to `out` (what `bench lab up` writes). */
void hostsfile_write(const struct host_list *hosts, struct strbuf *out);

/* Whether `path` is absolute and canonical: no '.', '..' or empty component, no trailing '/', not "/". */
int host_path_canonical(const char *path);

/* Whether `path` is canonical and strictly below h's workdir= (never true without one). */
int host_path_in_workdir(const struct host *h, const char *path);

/* Appends a copy of `h` to `l`. */
void host_list_add_copy(struct host_list *l, const struct host *h);

/* Number of hosts with this role. */
size_t host_list_count_role(const struct host_list *l, enum host_role role);

/* "addr,port" as fio's --client= wants it ("ip6:addr,port" for an IPv6 literal): malloc'd. */
char *host_fio_client_arg(const struct host *h);

/* "addr:port" for messages ("[addr]:port" for IPv6): malloc'd. */
char *host_endpoint(const struct host *h);

#endif
