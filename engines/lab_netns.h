/*
 * lab_netns: the mechanics of `bench lab up N --netns` (docs/lab.md "The namespace lab"): N initiator hosts and
 * one target host, each in its own network namespace (bench-lab1..bench-labN, bench-target) with its own UTS
 * name (lab1..labN, target) held by a small holder process, joined by veth pairs to the bridge bench-br0 in
 * this machine's namespace, with addresses from 198.18.0.0/24 (inside 198.18.0.0/15, the range reserved for
 * network benchmark tests; no default route, no NAT: nothing is routed out of this machine). Each host runs
 * sshd (root login by the key the lab makes, on its lab address only), a fio server and node_exporter; the
 * target host gets loop devices over sparse files under the lab directory. Optional link shaping (tc tbf on
 * both ends of every host's veth).
 *
 * Everything the lab makes is named in DIR/netns.state before it is made, so `lab_netns_down` removes it
 * also after bench was killed half-way through `up`. One namespace lab per machine (the bridge's name is fixed).
 * Library code: never prints; errors through struct errbuf.
 */
#ifndef BENCH_ENGINES_LAB_NETNS_H
#define BENCH_ENGINES_LAB_NETNS_H
#include <stddef.h>
#include <stdint.h>
#include "core/errbuf.h"
#include "core/model.h"

#define LAB_NETNS_BRIDGE "bench-br0"
#define LAB_NETNS_STATE "netns.state"
/* Stable names a suite can use (one namespace lab per machine): LAB_NETNS_DISKS/disk1.. are symlinks to the
 * target's loop devices (the consent probe resolves them: realpath), LAB_NETNS_DISKS/pki to DIR/pki. */
#define LAB_NETNS_DISKS "/run/bench-lab"
#define LAB_NETNS_MAX 200          /* initiator hosts */
#define LAB_NETNS_EXPORTER_PORT 9100u

struct lab_netns_conf {
	const char *dir;        /* absolute lab directory */
	unsigned count;         /* initiator hosts lab1..labN, 1..LAB_NETNS_MAX */
	unsigned port;          /* fio server port on every host */
	unsigned disks;         /* loop devices of the target host */
	uint64_t disk_bytes;    /* size of each (sparse file), bytes */
	uint64_t file_bytes;    /* size of each initiator's target file, bytes */
	uint64_t link_bps;      /* tc rate of every host's link, bits per second; 0: not shaped */
	const char *link;       /* the same as the user wrote it (for tc), or NULL */
};

/* What lab_netns_down found and removed, per kind. */
struct lab_netns_counts {
	size_t netns;       /* network namespaces deleted */
	size_t links;       /* bridge and veth links removed */
	size_t fio;         /* fio server processes stopped */
	size_t sshd;        /* sshd listeners */
	size_t exporters;   /* node_exporter processes */
	size_t holders;     /* namespace holder processes */
	size_t other;       /* any other process in a lab namespace (a server's child, an ssh session, nbdkit of a
	                       recipe, ...) */
	size_t loops;       /* loop devices detached */
	size_t mounts;      /* mount points removed (/run/netns when the lab made it one) */
};

/* Parses a tc rate ("1gbit", "500mbit", "10gbit") into bits per second; -1 if it is not one. */
int lab_netns_parse_rate(const char *s, uint64_t *bps);

/* Whether DIR holds the state file of a namespace lab (a lab that is up, or one left by a killed bench). */
int lab_netns_present(const char *dir);

/* Brings the lab up and appends its hosts (target first, then lab1..labN) to *out. On failure -1 with ERR_HOST;
 * what was made is left named in the state file (the caller runs lab_netns_down). */
int lab_netns_up(const struct lab_netns_conf *c, struct host_list *out, struct errbuf *err);

/* Stops and removes everything named in DIR's state file, then the lab's files and DIR. -1 with ERR_HOST when
 * something would not go (counts hold what did). */
int lab_netns_down(const char *dir, struct lab_netns_counts *n, struct errbuf *err);

#endif
