/*
 * fio_hosts: is every fio server of a hosts file there, the right version, and are its targets present and
 * safe? (design.md "How one suite runs": preflight). Two probes:
 *
 *  - fio_server_probe(): connects over TCP and speaks fio's own client/server protocol: it sends the PROBE
 *    command (the one `fio --client` sends first) and reads the server's PROBE reply, which carries the
 *    server's host name, fio version string, OS, architecture and CPU count. A listener that is not a fio
 *    server, or one that speaks another protocol version, gives no valid reply within the timeout. The probe
 *    is sent with the connection (TCP Fast Open's send, see fio_hosts.c), so that the server's 1 s idle timer
 *    is not in the exchange it times (probe_ms); rtt_ms is the connection's network round trip, as the kernel
 *    timed its handshake. A failure names its cause (refused, reset, timed out, closed).
 *  - the target check: one fio client process runs, on every reachable server, a read of 4 KiB from each of
 *    the host's targets with allow_file_create=0 (nothing is written or created); a target that is missing or
 *    unreadable gives a job error on that host. When that client does not finish in time (a silent server
 *    holds it), one client per host runs, so that only the silent host fails.
 *
 * Before that, the consent check of every path fio will open on each host (engines/target_remote.h): probed
 * over ssh and judged by target_judge like a local path when the hosts file gives ssh access, else accepted
 * only below the host's workdir= (or with --destructive). See docs/hosts.md.
 */
#ifndef BENCH_ENGINES_FIO_HOSTS_H
#define BENCH_ENGINES_FIO_HOSTS_H

#include "core/errbuf.h"
#include "core/model.h"
#include "core/strbuf.h"

/* fio's client/server protocol version that this probe speaks (fio 3.33: 97). */
#define FIO_PROTO_VERSION 97

/*
 * Time bounds of every network wait, per host (docs/safety.md): a probe (connect + PROBE reply) gets the
 * caller's timeout, FIO_PROBE_TIMEOUT_MS by default; the target check (a fio client reading 4 KiB of each
 * target) FIO_TARGET_CHECK_TIMEOUT_MS. Hosts are probed and checked at once, so a silent or stopped server
 * costs one bound, not one per host, and fails only its own host.
 */
#define FIO_PROBE_TIMEOUT_MS 3000
/*
 * A probe is repeated, on a new connection each time, up to this many times while its exchange (probe_ms) takes
 * FIO_PROBE_GOOD_MS or more.
 */
#define FIO_PROBE_ROUNDS 3
#define FIO_PROBE_GOOD_MS 1.0
#define FIO_TARGET_CHECK_TIMEOUT_MS 10000
/*
 * The target check first runs as ONE fio client for all n hosts, bounded by this; only when that does not
 * finish (a server went silent) does it run one client per host, bounded by FIO_TARGET_CHECK_TIMEOUT_MS.
 */
#define FIO_TARGET_CHECK_ONE_MS(n) (5000 + 80 * (int)(n))

/* What a fio server said about itself. */
struct fio_server_info {
	char hostname[65];       /* the server machine's host name */
	char fio_version[33];    /* "fio-3.33" */
	unsigned proto_version;  /* the protocol version in its reply header */
	unsigned cpus;
	int big_endian;
	unsigned bits;           /* pointer size of the server's fio, in bits */
	double rtt_ms;           /* the network round trip to the fio server, milliseconds: the kernel's measure
	                            (TCP_INFO tcpi_rtt) of the probe connection's handshake, best of the
	                            connections probed. What each message of fio's protocol travels; a fio 3.33
	                            server adds its own wait to each exchange (probe_ms) */
	double probe_ms;         /* fio's PROBE exchange, milliseconds: from the start of the connection (the
	                            probe goes with it) to the end of the reply, best of up to FIO_PROBE_ROUNDS
	                            connections: the handshake, the probe and reply, and the server's fork of its
	                            connection process (each probe travels with its connection, so fio's 1 s idle
	                            timer is never in it) */
};

/*
 * Probes the fio server at addr:port within timeout_ms. 0 and *info filled; -1 with ERR_HOST and a message
 * like "127.0.0.13:8765: cannot reach the fio server: connection refused (no fio server listens there)" /
 * "... no fio probe reply within 2000 ms (...)" / "...: connection reset by the server before its fio probe reply (...)".
 */
int fio_server_probe(const char *addr, unsigned port, int timeout_ms, struct fio_server_info *info,
		     struct errbuf *err);

/*
 * Probes every initiator of `hosts` (with all_roles, every host: role=target too) at once (one thread each), so
 * a suite of 64 hosts does not wait for them one after another. ok[i] = 1 and info[i] filled, or ok[i] = 0 and
 * problem[i] the message (malloc'd); hosts not probed get ok 0 and no problem. Arrays have hosts->n entries.
 */
void fio_servers_probe_all(const struct host_list *hosts, int all_roles, int timeout_ms, int *ok,
			   struct fio_server_info *info, char **problem);

/* The local fio's version string ("fio-3.33", from `fio --version`) into buf. */
int fio_local_version(char *buf, size_t len, struct errbuf *err);

/* Per host outcome of a check. */
enum fio_host_state { FIO_HOST_OK = 0, FIO_HOST_UNREACHABLE, FIO_HOST_VERSION, FIO_HOST_TARGET, FIO_HOST_SKIPPED };

struct fio_host_status {
	const struct host *host;        /* in the checked list */
	enum fio_host_state state;
	struct fio_server_info info;    /* valid unless UNREACHABLE/SKIPPED */
	char *problem;                  /* malloc'd: what failed, NULL when OK */
	int refused;                    /* a target was refused by the consent check (bad input, exit 3) */
	int probed;                     /* a role=target host (SKIPPED) whose fio server answered: info valid */
};

struct fio_hosts_check_opts {
	int allow_partial;   /* succeed while at least one initiator is fine */
	int destructive;     /* remote block devices may be written */
	int check_targets;   /* run the 4 KiB read of every target */
	int timeout_ms;      /* per probe; 0: 3000 */
	const char *workdir; /* for the check's job files; NULL: a temporary directory */
	int probe_targets;   /* also probe role=target hosts' fio servers: shown (name, version, RTT), never a
	                        failure of the check (a target host needs no fio server) */
};

/* More of `bench hosts check`: what the consent check of hosts' paths also needs. */
struct fio_hosts_consent_opts {
	int overwrite_files;  /* existing files bench did not make may be written (TARGET_OVERWRITE_FILES) */
	char *const *targets; /* the paths of initiators without target= (--target), or NULL */
	size_t ntargets;
};

/*
 * Checks every initiator of `hosts` (role=target hosts are listed, and probed with o->probe_targets): reachable, same fio version
 * as the local fio, targets present and safe. Fills `st` (array of hosts->n, caller frees each problem with
 * fio_host_status_release) and appends a table to `report` (may be NULL). Returns 0 when every initiator is
 * fine (or, with allow_partial, at least one is), -1 with ERR_HOST naming the failed hosts otherwise.
 */
int fio_hosts_check_ex(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
		       struct fio_host_status *st, struct strbuf *report, struct errbuf *err);
void fio_host_status_release(struct fio_host_status *st, size_t n);

/*
 * fio_hosts_check_ex with more of the consent check (c may be NULL): a refused target fails with ERR_INPUT
 * and that refusal's message, --allow-partial or not; `report` also gets the decision per host and path.
 */
int fio_hosts_check_consent(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
			    const struct fio_hosts_consent_opts *c, struct fio_host_status *st, struct strbuf *report,
			    struct errbuf *err);

/*
 * The same before each run of a suite: hosts whose targets passed the check earlier in this process (the
 * suite's preflight) are only probed, not read again; hosts that failed are checked in full again.
 */
int fio_hosts_check_again(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
			  struct fio_host_status *st, struct errbuf *err);

/*
 * The consent check of a plan on its hosts: for each initiator, every path fio will open for any of
 * specs[0..n) (target_opened_paths_with: its target= list, or the run's targets), one probe per host over
 * ssh (hosts at once) and target_judge, or the no-ssh rule (target_remote_check). `flags`: enum target_flags.
 * Appends the decision per host and path to `decisions` (may be NULL). 0, or -1 with the first refusal
 * (ERR_INPUT) or a host whose probe failed (ERR_HOST).
 */
int fio_hosts_consent(const struct host_list *hosts, const struct run_spec *const *specs, size_t n, int flags,
		      struct strbuf *decisions, struct errbuf *err);

/* The run loop's preflight: fio_hosts_check_ex with targets checked, not destructive, default timeout. */
int fio_hosts_check(const struct host_list *hosts, int allow_partial, struct strbuf *report, struct errbuf *err);

/* Same, with the destructive flag of `bench run`. */
int fio_hosts_preflight(const struct host_list *hosts, int allow_partial, int destructive, struct strbuf *report,
			struct errbuf *err);

/*
 * The ssh command (argv, NULL-terminated, every string malloc'd: free with fio_argv_free) that starts
 * (start=1) or stops (start=0) the fio server of `h` on that host:
 *   ssh -o BatchMode=yes -o ConnectTimeout=10 [-l USER] -- ADDR 'fio' '--server=ADDR,PORT'
 *       '--daemonize=/tmp/bench-fio-server-PORT.pid'
 * ssh hands the remote words to the remote shell, so each one is single-quoted here; nothing from the hosts
 * file reaches a shell unquoted. Stopping kills the pid in that pid file and removes it.
 */
char **fio_server_ssh_argv(const struct host *h, int start);
void fio_argv_free(char **argv);

#endif
