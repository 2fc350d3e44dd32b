/*
 * fio_hosts: the preflight of multi-host runs (see fio_hosts.h): a PROBE over fio's client/server protocol
 * to every fio server, the local fio's version for comparison, and a read-only target check run through one
 * fio client process per host, each bounded by FIO_TARGET_CHECK_TIMEOUT_MS.
 *
 * Wire format of a fio command (fio 3.33 server.h, little endian): u16 version, u16 opcode, u32 flags,
 * u64 tag, u32 pdu_len, u16 cmd_crc16 (CRC-16/ARC of the 20 bytes before it), u16 pdu_crc16 (of the
 * payload); then pdu_len payload bytes. PROBE (opcode 10) payload from the client: u64 flags, char
 * server[128]. The server's PROBE reply payload: char hostname[64], u8 bigendian, char fio_version[32],
 * u8 os, u8 arch, u8 bpp, u32 cpus (at offset 100), u64 flags (at 104): 112 bytes.
 */
#include "engines/fio_hosts.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/units.h"
#include "engines/fio_jobfile.h"
#include "engines/fio_json.h"
#include "engines/remote.h"
#include "engines/target.h"
#include "engines/target_remote.h"

#define CMD_HDR_LEN 24
#define CMD_CRC_LEN 20
#define OP_TEXT 5
#define OP_PROBE 10
#define PROBE_PDU_LEN 136
#define PROBE_REPLY_LEN 112
#define MAX_PDU 1024

static uint16_t crc16_arc(const unsigned char *p, size_t n)
{
	uint16_t crc = 0;

	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001) : (uint16_t)(crc >> 1);
	}
	return crc;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int remaining(long long deadline)
{
	long long r = deadline - mono_ms();
	return r > 0 ? (int)r : 0;
}

static int io_all(int fd, unsigned char *buf, size_t n, int writing, long long deadline)
{
	size_t done = 0;

	while (done < n) {
		struct pollfd pfd = { fd, (short)(writing ? POLLOUT : POLLIN), 0 };
		int r = poll(&pfd, 1, remaining(deadline));
		ssize_t k;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			errno = r == 0 ? ETIMEDOUT : errno;
			return -1;
		}
		k = writing ? send(fd, buf + done, n - done, MSG_NOSIGNAL) : recv(fd, buf + done, n - done, 0);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EPIPE; /* the peer closed the connection */
			return -1;
		}
		done += (size_t)k;
	}
	return 0;
}

/* Microseconds on the monotonic clock: a loopback round trip is well under a millisecond. */
static long long mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* What went wrong with the connection, in words (errno of connect, send or recv; EPIPE: closed, io_all). */
static const char *cause_text(int e)
{
	switch (e) {
	case ECONNREFUSED:
		return "connection refused (no fio server listens there)";
	case ECONNRESET:
		return "connection reset by the server";
	case ETIMEDOUT:
		return "connection timed out";
	case EHOSTUNREACH:
	case ENETUNREACH:
		return "no route to the host";
	case EPIPE:
		return "the server closed the connection";
	default:
		return strerror(e);
	}
}

/*
 * Connects and sends msg in one step on a blocking socket: sendto(MSG_FASTOPEN). A fio server gives no Fast
 * Open cookie, so Linux sends a plain SYN and, as a writer waits on the socket, holds the handshake's last ACK
 * back and sends it with msg: the server's kernel queues the connection for accept() with msg already in it.
 * That keeps fio's idle timer out of the probe: a fio 3.33 server forks one process per connection that looks
 * at its socket once and then sleeps up to 1 s (server.c handle_connection: poll(0), then
 * fio_sem_down_timeout(1000)), so a probe sent after that look is read a second later. SO_SNDTIMEO bounds the
 * wait for the handshake. The fd, or -1 with errno (EINPROGRESS/EAGAIN: the deadline passed; EOPNOTSUPP:
 * client Fast Open is switched off, sysctl net.ipv4.tcp_fastopen).
 */
static int connect_send_one(const struct addrinfo *ai, const unsigned char *msg, size_t len, long long deadline)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol), e;
	int left = remaining(deadline);
	struct timeval tv = { left / 1000, (left % 1000) * 1000 };
	ssize_t k;

	if (fd < 0)
		return -1;
	if (!left)
		tv.tv_usec = 1000;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		goto fail;
	k = sendto(fd, msg, len, MSG_FASTOPEN | MSG_NOSIGNAL, ai->ai_addr, ai->ai_addrlen);
	if (k < 0)
		goto fail;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
		goto fail;
	if ((size_t)k < len && io_all(fd, (unsigned char *)msg + k, len - (size_t)k, 1, deadline) < 0)
		goto fail;
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e == EAGAIN || e == EINPROGRESS ? ETIMEDOUT : e;
	return -1;
}

/* The same without Fast Open: a non-blocking connect, then msg (fio's idle timer may then be in the reply). */
static int connect_then_send(const struct addrinfo *ai, const unsigned char *msg, size_t len, long long deadline)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol), e;

	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		struct pollfd pfd = { fd, POLLOUT, 0 };
		int r, soerr = 0;
		socklen_t sl = sizeof(soerr);

		if (errno != EINPROGRESS)
			goto fail;
		do
			r = poll(&pfd, 1, remaining(deadline));
		while (r < 0 && errno == EINTR);
		if (r == 0)
			errno = ETIMEDOUT;
		if (r <= 0)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0 || soerr) {
			errno = soerr ? soerr : errno;
			goto fail;
		}
	}
	if (io_all(fd, (unsigned char *)msg, len, 1, deadline) < 0)
		goto fail;
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * Connects to addr:port and sends msg (connect_send_one; each address of the name in turn). The fd, and in
 * *sent_us when the connection was begun (after the name lookup); -1 with ERR_HOST naming the cause otherwise.
 */
static int connect_send(const char *addr, unsigned port, const unsigned char *msg, size_t len, long long deadline,
			long long *sent_us, struct errbuf *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	char portstr[16], where[300];
	int fd = -1, gai, last_errno = ECONNREFUSED;

	snprintf(portstr, sizeof(portstr), "%u", port);
	snprintf(where, sizeof(where), strchr(addr, ':') ? "[%s]:%u" : "%s:%u", addr, port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	gai = getaddrinfo(addr, portstr, &hints, &res);
	if (gai)
		return err_set(err, ERR_HOST, "%s: cannot resolve address: %s", where, gai_strerror(gai));
	*sent_us = mono_us();
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = connect_send_one(ai, msg, len, deadline);
		if (fd < 0 && errno == EOPNOTSUPP)
			fd = connect_then_send(ai, msg, len, deadline);
		if (fd < 0)
			last_errno = errno;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return err_set(err, ERR_HOST, "%s: cannot reach the fio server: %s", where, cause_text(last_errno));
	return fd;
}

/* fio's PROBE command as `fio --client` sends it: header, u64 flags 0 (no zlib), client name "bench". */
static void probe_message(unsigned char *msg)
{
	memset(msg, 0, CMD_HDR_LEN + PROBE_PDU_LEN);
	put16(msg + 0, FIO_PROTO_VERSION);
	put16(msg + 2, OP_PROBE);
	/* flags 0 and tag 0; no zlib asked for, so the reply is never compressed */
	put32(msg + 16, PROBE_PDU_LEN);
	memcpy(msg + CMD_HDR_LEN + 8, "bench", 5);
	put16(msg + 20, crc16_arc(msg, CMD_CRC_LEN));
	put16(msg + 22, crc16_arc(msg + CMD_HDR_LEN, PROBE_PDU_LEN));
}

/* The PROBE reply's payload (len >= PROBE_REPLY_LEN) into *info; printable characters only. */
static void probe_reply_info(const unsigned char *hdr, const unsigned char *pdu, struct fio_server_info *info)
{
	info->proto_version = get16(hdr);
	memcpy(info->hostname, pdu, 64);
	info->hostname[64] = '\0';
	info->big_endian = pdu[64];
	memcpy(info->fio_version, pdu + 65, 32);
	info->fio_version[32] = '\0';
	info->bits = pdu[99] * 8u;
	info->cpus = info->big_endian ? ((uint32_t)pdu[100] << 24 | (uint32_t)pdu[101] << 16 |
					 (uint32_t)pdu[102] << 8 | pdu[103])
				      : get32(pdu + 100);
	for (char *c = info->fio_version; *c; c++)
		if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
			*c = '?';
	for (char *c = info->hostname; *c; c++)
		if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
			*c = '?';
}

/*
 * The network round trip of a connection just made (fd), in ms: the kernel's measure of its handshake
 * (TCP_INFO tcpi_rtt, microseconds: from bench's SYN to the server's SYN-ACK, taken in the kernel, so a busy
 * bench thread is not in it). Read right after the handshake, before the server has answered anything, it
 * is that one sample. Without it (no TCP_INFO, or no sample: a SYN sent again is not timed), the time since
 * begun_us as bench saw it: the handshake and the send of the probe.
 */
static double connection_rtt_ms(int fd, long long begun_us)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 && len >= offsetof(struct tcp_info, tcpi_rttvar) &&
	    ti.tcpi_rtt > 0)
		return ti.tcpi_rtt / 1000.0;
	return (double)(mono_us() - begun_us) / 1000.0;
}

/*
 * One probe on a connection of its own. rtt_ms: the connection's network round trip (connection_rtt_ms).
 * probe_ms: from the start of the connection to the end of the reply: the handshake (one round trip), the
 * probe and its reply (another), the server's accept and fork. Taking the time after the send would
 * understate it: on one machine the server may run (and answer) before the sending thread is back from
 * sendto().
 */
static int probe_once(const char *addr, unsigned port, int timeout_ms, long long deadline,
		      struct fio_server_info *info, struct errbuf *err)
{
	unsigned char msg[CMD_HDR_LEN + PROBE_PDU_LEN], hdr[CMD_HDR_LEN], pdu[MAX_PDU];
	char where[300];
	long long sent_us = 0;
	int fd, ret = -1;

	snprintf(where, sizeof(where), strchr(addr, ':') ? "[%s]:%u" : "%s:%u", addr, port);
	probe_message(msg);
	fd = connect_send(addr, port, msg, sizeof(msg), deadline, &sent_us, err);
	if (fd < 0)
		return -1;
	info->rtt_ms = connection_rtt_ms(fd, sent_us);
	for (int tries = 0; tries < 16; tries++) {
		uint32_t len;
		uint16_t op;

		if (io_all(fd, hdr, sizeof(hdr), 0, deadline) < 0) {
			if (errno == ETIMEDOUT)
				err_set(err, ERR_HOST, "%s: no fio probe reply within %d ms (the server accepted the "
					"connection and said nothing: not a fio server, or a stopped one)", where, timeout_ms);
			else
				err_set(err, ERR_HOST,
					"%s: %s before its fio probe reply (a fio server being stopped does this; so does a "
					"fio of another client/server protocol than %d)", where, cause_text(errno),
					FIO_PROTO_VERSION);
			goto out;
		}
		if (crc16_arc(hdr, CMD_CRC_LEN) != get16(hdr + 20)) {
			err_set(err, ERR_HOST, "%s: the reply is not fio's protocol (bad header checksum)", where);
			goto out;
		}
		len = get32(hdr + 16);
		op = get16(hdr + 2);
		if (len > MAX_PDU) {
			err_set(err, ERR_HOST, "%s: fio reply too large (%u bytes)", where, (unsigned)len);
			goto out;
		}
		if (len && io_all(fd, pdu, len, 0, deadline) < 0) {
			err_set(err, ERR_HOST, "%s: fio reply cut short: %s", where, cause_text(errno));
			goto out;
		}
		if (crc16_arc(pdu, len) != get16(hdr + 22)) {
			err_set(err, ERR_HOST, "%s: fio reply with a bad payload checksum", where);
			goto out;
		}
		if (op != OP_PROBE)
			continue; /* e.g. a TEXT message: wait for the probe reply */
		if (len < PROBE_REPLY_LEN) {
			err_set(err, ERR_HOST, "%s: fio probe reply too short (%u bytes)", where, (unsigned)len);
			goto out;
		}
		probe_reply_info(hdr, pdu, info);
		info->probe_ms = (double)(mono_us() - sent_us) / 1000.0;
		ret = 0;
		goto out;
	}
	err_set(err, ERR_HOST, "%s: no fio probe reply among the server's first messages", where);
out:
	close(fd);
	return ret;
}

int fio_server_probe(const char *addr, unsigned port, int timeout_ms, struct fio_server_info *info,
		     struct errbuf *err)
{
	int bound = timeout_ms > 0 ? timeout_ms : FIO_PROBE_TIMEOUT_MS;
	long long deadline = mono_ms() + bound;

	memset(info, 0, sizeof(*info));
	if (probe_once(addr, port, bound, deadline, info, err) < 0)
		return -1;
	/* the best of FIO_PROBE_ROUNDS: on a busy machine one answer may wait for the server to be scheduled */
	for (int r = 1; r < FIO_PROBE_ROUNDS && info->probe_ms >= FIO_PROBE_GOOD_MS; r++) {
		struct fio_server_info again;
		struct errbuf e;

		memset(&again, 0, sizeof(again));
		errbuf_init(&e);
		if (probe_once(addr, port, bound, deadline, &again, &e) < 0)
			continue;
		info->probe_ms = fmin(info->probe_ms, again.probe_ms);
		info->rtt_ms = fmin(info->rtt_ms, again.rtt_ms);
	}
	return 0;
}

struct probe_job {
	const struct host *h;
	int timeout_ms;
	int probed;
	int ok;
	struct fio_server_info info;
	char msg[ERRBUF_SIZE];
};

static void *probe_thread(void *arg)
{
	struct probe_job *j = arg;
	struct errbuf e;

	errbuf_init(&e);
	j->ok = fio_server_probe(j->h->addr, j->h->port, j->timeout_ms, &j->info, &e) == 0;
	if (!j->ok)
		memcpy(j->msg, e.msg, sizeof(j->msg));
	return NULL;
}

void fio_servers_probe_all(const struct host_list *hosts, int all_roles, int timeout_ms, int *ok,
			   struct fio_server_info *info, char **problem)
{
	struct probe_job *jobs = xcalloc(hosts->n ? hosts->n : 1, sizeof(*jobs));
	pthread_t *tids = xcalloc(hosts->n ? hosts->n : 1, sizeof(*tids));
	char *started = xcalloc(hosts->n ? hosts->n : 1, 1);

	for (size_t i = 0; i < hosts->n; i++) {
		jobs[i].h = &hosts->v[i];
		jobs[i].timeout_ms = timeout_ms;
		jobs[i].probed = all_roles || hosts->v[i].role == ROLE_INITIATOR;
		if (!jobs[i].probed)
			continue;
		if (pthread_create(&tids[i], NULL, probe_thread, &jobs[i]) == 0)
			started[i] = 1;
		else
			probe_thread(&jobs[i]); /* out of threads: probe it here */
	}
	for (size_t i = 0; i < hosts->n; i++) {
		if (started[i])
			pthread_join(tids[i], NULL);
		ok[i] = jobs[i].ok;
		info[i] = jobs[i].info;
		problem[i] = jobs[i].probed && !jobs[i].ok ? xstrdup(jobs[i].msg) : NULL;
	}
	free(started);
	free(tids);
	free(jobs);
}

/*
 * The local fio's version, asked once per process: a suite asks before every run, and the fio binary does not
 * change under a running bench.
 */
int fio_local_version(char *buf, size_t len, struct errbuf *err)
{
	static char cached[64];
	char *const argv[] = { "fio", "--version", NULL };
	char *out = NULL;
	int code = 0;
	size_t n;

	if (!cached[0]) {
		if (proc_run_capture(argv, 10000, &out, &code, err) < 0)
			return err_prefix(err, "cannot run the local fio");
		if (code != 0 || !out || strncmp(out, "fio-", 4)) {
			free(out);
			return err_set(err, ERR_HOST, "'fio --version' failed (exit %d): is fio installed?", code);
		}
		n = strcspn(out, "\r\n");
		if (n >= sizeof(cached))
			n = sizeof(cached) - 1;
		memcpy(cached, out, n);
		cached[n] = '\0';
		free(out);
	}
	n = strlen(cached);
	if (n >= len)
		n = len - 1;
	memcpy(buf, cached, n);
	buf[n] = '\0';
	return 0;
}

void fio_host_status_release(struct fio_host_status *st, size_t n)
{
	for (size_t i = 0; st && i < n; i++) {
		free(st[i].problem);
		st[i].problem = NULL;
	}
}

static void set_problem(struct fio_host_status *s, enum fio_host_state state, char *msg)
{
	if (s->problem) {
		char *both = xasprintf("%s; %s", s->problem, msg);
		free(s->problem);
		free(msg);
		s->problem = both;
	} else {
		s->problem = msg;
	}
	if (s->state == FIO_HOST_OK)
		s->state = state;
}


/* One host's target check: its job file, its fio client process, its output. */
struct target_check {
	char *jobfile, *outpath, *errpath;
	struct proc pr;
	int started;
};

/* Writes host i's read-only check job (read 4 KiB of each target, create nothing) to WORKDIR/check-I.fio. */
static char *write_check_job(const struct host *h, const char *workdir, size_t i, struct errbuf *e)
{
	struct strbuf sb;
	char *path = xasprintf("%s/check-%zu.fio", workdir, i);
	FILE *f;

	strbuf_init(&sb);
	strbuf_adds(&sb, "; bench hosts check: read 4 KiB of each target, create nothing\n[global]\n"
			 "ioengine=psync\nrw=read\nbs=4k\nio_size=4k\nallow_file_create=0\n");
	for (size_t t = 0; t < h->ntargets; t++) {
		strbuf_addf(&sb, "[t%zu]\n", t);
		fio_jobfile_add_filename(&sb, h->targets[t]);
	}
	f = fopen(path, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f) != 0) {
		err_set(e, ERR_HOST, "cannot write %s: %s", path, strerror(errno));
		free(path);
		path = NULL;
	}
	strbuf_release(&sb);
	return path;
}

/* Starts `fio --client=HOST job` for host i alone (the fallback, one process per host). */
static int start_target_check(const struct host *h, const char *workdir, size_t i, struct target_check *tc,
			      struct errbuf *e)
{
	char *ca, *out_arg, *client;
	int ret;

	tc->jobfile = write_check_job(h, workdir, i, e);
	if (!tc->jobfile)
		return -1;
	tc->outpath = xasprintf("%s/check-%zu.json", workdir, i);
	tc->errpath = xasprintf("%s/check-%zu.err", workdir, i);
	ca = host_fio_client_arg(h);
	client = xasprintf("--client=%s", ca);
	out_arg = xasprintf("--output=%s", tc->outpath);
	{
		char *argv[] = { "fio", client, tc->jobfile, "--output-format=json", out_arg, NULL };
		ret = proc_start(&tc->pr, argv, workdir, tc->errpath, tc->errpath, e);
	}
	free(client);
	free(ca);
	free(out_arg);
	tc->started = ret == 0;
	return ret;
}

/* Records each target's outcome for host h from a parsed check output (host_only: entries of that server). */
static void record_targets(const struct host *h, struct fio_host_status *st, const struct fio_output *fo,
			   int host_only)
{
	for (size_t t = 0; t < h->ntargets; t++) {
		const struct fio_job *found = NULL;
		char jn[32];

		snprintf(jn, sizeof(jn), "t%zu", t);
		for (size_t k = 0; k < fo->njobs; k++) {
			const struct fio_job *j = &fo->jobs[k];
			if (strcmp(j->jobname, jn))
				continue;
			if (host_only && (!j->hostname || strcmp(j->hostname, h->addr) || (j->port && j->port != h->port)))
				continue;
			found = j;
		}
		if (!found)
			set_problem(st, FIO_HOST_TARGET, xasprintf("target '%s': the check gave no result", h->targets[t]));
		else if (found->res.error)
			set_problem(st, FIO_HOST_TARGET,
				    xasprintf("target '%s' missing or unreadable (fio error %d: %s)", h->targets[t],
					      found->res.error, strerror(found->res.error)));
	}
}

/* Reads the finished check of host i and records each target's outcome. */
static void finish_target_check(const struct host *h, struct fio_host_status *st, struct target_check *tc)
{
	struct strbuf sb;
	struct fio_output fo;
	struct errbuf e;

	strbuf_init(&sb);
	fio_output_init(&fo);
	errbuf_init(&e);
	if (strbuf_read_file(&sb, tc->outpath) < 0 || fio_json_parse(sb.buf, sb.len, tc->outpath, &fo, &e) < 0)
		set_problem(st, FIO_HOST_TARGET, xstrdup("target check gave no output (fio client failed)"));
	else
		record_targets(h, st, &fo, 0);
	fio_output_release(&fo);
	strbuf_release(&sb);
}

static int needs_check(const struct host *h, const struct fio_host_status *st)
{
	return st->state == FIO_HOST_OK && h->role == ROLE_INITIATOR && h->ntargets;
}

static void unlink_free(char **path)
{
	if (*path)
		unlink(*path);
	free(*path);
	*path = NULL;
}

/*
 * A target check's bound `normal`, or for tests only the environment's BENCH_TEST_CHECK_MS (100..600000 ms,
 * for the one client of all hosts and for each host's; anything else is ignored): tests/integration/
 * hosts_silent.sh would otherwise wait 5 + 10 s for each silent server it provokes, three times.
 */
static int check_ms(int normal)
{
	const char *v = getenv("BENCH_TEST_CHECK_MS");
	long ms;

	if (v && parse_long(v, 100, 600000, &ms) == 0)
		return (int)ms;
	return normal;
}

/*
 * The fallback: one fio client process per host, all at once, so that a server that answered the probe and
 * then went silent (or was stopped) fails only its own host, after FIO_TARGET_CHECK_TIMEOUT_MS, while the
 * others finish.
 */
static void check_targets_each(const struct host_list *hosts, struct fio_host_status *st, const char *workdir)
{
	struct target_check *tc = xcalloc(hosts->n ? hosts->n : 1, sizeof(*tc));
	int bound = check_ms(FIO_TARGET_CHECK_TIMEOUT_MS);
	long long deadline = mono_ms() + bound;

	for (size_t i = 0; i < hosts->n; i++) {
		struct errbuf e;

		if (!needs_check(&hosts->v[i], &st[i]))
			continue;
		errbuf_init(&e);
		if (start_target_check(&hosts->v[i], workdir, i, &tc[i], &e) < 0)
			set_problem(&st[i], FIO_HOST_TARGET, xasprintf("target check not run: %s", e.msg));
	}
	for (size_t i = 0; i < hosts->n; i++) {
		long long left;

		if (!tc[i].started)
			continue;
		left = deadline - mono_ms();
		if (!proc_wait(&tc[i].pr, left > 0 ? (int)left : 0)) {
			proc_stop(&tc[i].pr, 500);
			set_problem(&st[i], FIO_HOST_TARGET,
				    xasprintf("the fio server answered the probe but not the target check within %d ms",
					      bound));
			continue;
		}
		finish_target_check(&hosts->v[i], &st[i], &tc[i]);
	}
	for (size_t i = 0; i < hosts->n; i++) {
		if (tc[i].started)
			proc_stop(&tc[i].pr, 500);
		unlink_free(&tc[i].jobfile);
		unlink_free(&tc[i].outpath);
		unlink_free(&tc[i].errpath);
	}
	free(tc);
}

/*
 * The check of every host with ONE fio client (`fio --client=A check-0.fio --client=B check-1.fio ...`), as a
 * run drives them: one process instead of one per host, which is what lets a check of 128 hosts finish on a
 * small machine. Bounded by FIO_TARGET_CHECK_ONE_MS(n); 0 when it finished (every host's outcome recorded),
 * -1 when it did not (a silent server holds the client): the caller falls back to one client per host.
 */
static int check_targets_one_client(const struct host_list *hosts, struct fio_host_status *st, const char *workdir)
{
	char **argv = xcalloc(2 * hosts->n + 4, sizeof(*argv));
	char *outpath = xasprintf("%s/check-all.json", workdir), *errpath = xasprintf("%s/check-all.err", workdir);
	size_t argc = 0, nchecked = 0;
	struct proc pr = { 0, 0, 0 };
	struct errbuf e;
	int ret = -1;

	errbuf_init(&e);
	argv[argc++] = xstrdup("fio");
	for (size_t i = 0; i < hosts->n; i++) {
		char *job, *ca;

		if (!needs_check(&hosts->v[i], &st[i]))
			continue;
		if (!(job = write_check_job(&hosts->v[i], workdir, i, &e)))
			goto out;
		ca = host_fio_client_arg(&hosts->v[i]);
		argv[argc++] = xasprintf("--client=%s", ca);
		argv[argc++] = job;
		free(ca);
		nchecked++;
	}
	if (!nchecked) {
		ret = 0;
		goto out;
	}
	argv[argc++] = xstrdup("--output-format=json");
	argv[argc++] = xasprintf("--output=%s", outpath);
	if (proc_start(&pr, argv, workdir, errpath, errpath, &e) < 0)
		goto out;
	if (!proc_wait(&pr, check_ms(FIO_TARGET_CHECK_ONE_MS(nchecked)))) {
		proc_stop(&pr, 500);
		goto out;
	}
	{
		struct strbuf sb;
		struct fio_output fo;

		strbuf_init(&sb);
		fio_output_init(&fo);
		if (strbuf_read_file(&sb, outpath) == 0 && fio_json_parse(sb.buf, sb.len, outpath, &fo, &e) == 0) {
			for (size_t i = 0; i < hosts->n; i++)
				if (needs_check(&hosts->v[i], &st[i]))
					record_targets(&hosts->v[i], &st[i], &fo, 1);
			ret = 0;
		}
		fio_output_release(&fo);
		strbuf_release(&sb);
	}
out:
	for (size_t i = 2; i < argc; i += 2)
		if (argv[i][0] != '-')
			unlink(argv[i]);
	for (size_t i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	unlink_free(&outpath);
	unlink_free(&errpath);
	return ret;
}

/*
 * Hosts whose targets passed the check in this process ("addr:port\ttarget\t..."): a suite checks them in its
 * preflight, and each run then only probes them (fio_hosts_check_opts.reuse_checked) instead of reading the
 * targets of 128 hosts again before every run. A host that failed is checked again each time.
 */
static char **checked_keys;
static size_t nchecked_keys, checked_cap;

static char *check_key(const struct host *h)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addf(&sb, "%s:%u", h->addr, h->port);
	for (size_t t = 0; t < h->ntargets; t++)
		strbuf_addf(&sb, "\t%s", h->targets[t]);
	return strbuf_detach(&sb, NULL);
}

static int was_checked(const struct host *h)
{
	char *k = check_key(h);
	int found = 0;

	for (size_t i = 0; i < nchecked_keys && !found; i++)
		found = !strcmp(checked_keys[i], k);
	free(k);
	return found;
}

static void check_targets(const struct host_list *hosts, struct fio_host_status *st, const char *workdir,
			  int reuse_checked)
{
	/* already checked hosts are skipped for now: needs_check() is false while their state is SKIPPED */
	enum fio_host_state *saved = xcalloc(hosts->n ? hosts->n : 1, sizeof(*saved));

	for (size_t i = 0; i < hosts->n; i++) {
		saved[i] = st[i].state;
		if (reuse_checked && needs_check(&hosts->v[i], &st[i]) && was_checked(&hosts->v[i]))
			st[i].state = FIO_HOST_SKIPPED;
	}
	if (check_targets_one_client(hosts, st, workdir) < 0)
		check_targets_each(hosts, st, workdir);
	for (size_t i = 0; i < hosts->n; i++) {
		if (saved[i] == FIO_HOST_OK && st[i].state == FIO_HOST_SKIPPED) {
			st[i].state = FIO_HOST_OK;
		} else if (needs_check(&hosts->v[i], &st[i]) && !was_checked(&hosts->v[i])) {
			ARRAY_GROW(checked_keys, checked_cap, nchecked_keys + 1);
			checked_keys[nchecked_keys++] = check_key(&hosts->v[i]);
		}
	}
	free(saved);
}

/*
 * The consent check of one host's paths (target_remote_check), run for every host at once: each may cost an
 * ssh connection and a probe, bounded by TARGET_REMOTE_TIMEOUT_MS.
 */
struct consent_job {
	const struct host *h;
	char **paths;
	int *writes; /* per path: a run that writes opens it */
	size_t n, cap;
	int flags;
	int ret;
	struct strbuf decisions;
	struct errbuf err;
};

static void consent_add(struct consent_job *j, const char *path, int writes)
{
	for (size_t i = 0; i < j->n; i++)
		if (!strcmp(j->paths[i], path)) {
			j->writes[i] |= writes;
			return;
		}
	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 8;
		j->paths = xrealloc(j->paths, j->cap * sizeof(*j->paths));
		j->writes = xrealloc(j->writes, j->cap * sizeof(*j->writes));
	}
	j->paths[j->n] = xstrdup(path);
	j->writes[j->n++] = writes;
}

static void *consent_thread(void *arg)
{
	struct consent_job *j = arg;

	j->ret = target_remote_check(j->h, j->paths, j->writes, j->n, j->flags, &j->decisions, &j->err);
	return NULL;
}

/* Runs the jobs with paths, one thread each (in the caller's thread when a thread cannot be made). */
static void consent_run(struct consent_job *jobs, size_t n)
{
	pthread_t *tids = xcalloc(n ? n : 1, sizeof(*tids));
	char *started = xcalloc(n ? n : 1, 1);

	for (size_t i = 0; i < n; i++) {
		strbuf_init(&jobs[i].decisions);
		errbuf_init(&jobs[i].err);
		if (jobs[i].n && pthread_create(&tids[i], NULL, consent_thread, &jobs[i]) == 0)
			started[i] = 1;
		else if (jobs[i].n)
			consent_thread(&jobs[i]);
	}
	for (size_t i = 0; i < n; i++)
		if (started[i])
			pthread_join(tids[i], NULL);
	free(tids);
	free(started);
}

static void consent_release(struct consent_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < jobs[i].n; k++)
			free(jobs[i].paths[k]);
		free(jobs[i].paths);
		free(jobs[i].writes);
		strbuf_release(&jobs[i].decisions);
	}
	free(jobs);
}

/* The first refusal (ERR_INPUT) of the jobs, else the first failure, into err; 0 when none failed. */
static int consent_result(const struct consent_job *jobs, size_t n, struct strbuf *decisions, struct errbuf *err)
{
	const struct consent_job *first = NULL;

	for (size_t i = 0; i < n; i++) {
		if (decisions && jobs[i].decisions.len)
			strbuf_adds(decisions, jobs[i].decisions.buf);
		if (jobs[i].n && jobs[i].ret < 0 && (!first || (first->err.kind != ERR_INPUT && jobs[i].err.kind == ERR_INPUT)))
			first = &jobs[i];
	}
	if (!first)
		return 0;
	return err_set(err, first->err.kind, "%s", first->err.msg);
}

int fio_hosts_consent(const struct host_list *hosts, const struct run_spec *const *specs, size_t n, int flags,
		      struct strbuf *decisions, struct errbuf *err)
{
	struct consent_job *jobs = xcalloc(hosts->n ? hosts->n : 1, sizeof(*jobs));
	int ret = -1;

	for (size_t i = 0; i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];

		jobs[i].h = h;
		jobs[i].flags = flags;
		if (h->role != ROLE_INITIATOR)
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct run_spec *s = specs[k];
			struct kvlist out;

			kvlist_init(&out);
			if (target_opened_paths_with(s, h->ntargets ? h->targets : s->targets,
						     h->ntargets ? h->ntargets : s->ntargets, flags, &out, err) < 0) {
				kvlist_release(&out);
				err_prefix(err, "host '%s'", h->name);
				goto out;
			}
			for (size_t p = 0; p < out.n; p++)
				consent_add(&jobs[i], out.v[p].key, target_spec_writes(s));
			kvlist_release(&out);
		}
	}
	consent_run(jobs, hosts->n);
	ret = consent_result(jobs, hosts->n, decisions, err);
out:
	consent_release(jobs, hosts->n);
	return ret;
}

/* The consent check of each reachable initiator's target= paths (or o->targets) in `bench hosts check`. */
static void consent_targets(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
			    const struct fio_hosts_consent_opts *c, int reuse_checked, struct fio_host_status *st,
			    struct strbuf *decisions)
{
	struct consent_job *jobs = xcalloc(hosts->n ? hosts->n : 1, sizeof(*jobs));
	int flags = (o->destructive ? TARGET_DESTRUCTIVE : 0) | (c && c->overwrite_files ? TARGET_OVERWRITE_FILES : 0);

	for (size_t i = 0; i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];
		char *const *t = h->ntargets || !c ? h->targets : c->targets;
		size_t nt = h->ntargets || !c ? h->ntargets : c->ntargets;

		jobs[i].h = h;
		jobs[i].flags = flags;
		if (h->role != ROLE_INITIATOR || st[i].state != FIO_HOST_OK || (reuse_checked && was_checked(h)))
			continue;
		for (size_t k = 0; k < nt; k++)
			consent_add(&jobs[i], t[k], 1);
	}
	consent_run(jobs, hosts->n);
	for (size_t i = 0; i < hosts->n; i++) {
		if (decisions && jobs[i].decisions.len)
			strbuf_adds(decisions, jobs[i].decisions.buf);
		if (!jobs[i].n || jobs[i].ret == 0)
			continue;
		st[i].refused = jobs[i].err.kind == ERR_INPUT;
		set_problem(&st[i], FIO_HOST_TARGET, xstrdup(jobs[i].err.msg));
	}
	consent_release(jobs, hosts->n);
}

static const char *state_word(enum fio_host_state s)
{
	switch (s) {
	case FIO_HOST_OK:
		return "ok";
	case FIO_HOST_UNREACHABLE:
		return "UNREACHABLE";
	case FIO_HOST_VERSION:
		return "VERSION";
	case FIO_HOST_TARGET:
		return "TARGET";
	case FIO_HOST_SKIPPED:
		return "-";
	}
	return "?";
}

static int hosts_check(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
		       const struct fio_hosts_consent_opts *c, int reuse_checked, struct fio_host_status *st,
		       struct strbuf *report, struct errbuf *err)
{
	char local[64], tmpl[] = "/tmp/bench-check-XXXXXX";
	const char *workdir = o->workdir;
	size_t ninit = 0, nok = 0;
	struct strbuf failed, decisions;
	int ret = -1;

	if (fio_local_version(local, sizeof(local), err) < 0)
		return -1;
	if (!workdir) {
		if (!mkdtemp(tmpl))
			return err_set(err, ERR_HOST, "cannot create a temporary directory: %s", strerror(errno));
		workdir = tmpl;
	}
	strbuf_init(&failed);
	{
		int *ok = xcalloc(hosts->n ? hosts->n : 1, sizeof(*ok));
		struct fio_server_info *info = xcalloc(hosts->n ? hosts->n : 1, sizeof(*info));
		char **problem = xcalloc(hosts->n ? hosts->n : 1, sizeof(*problem));

		fio_servers_probe_all(hosts, o->probe_targets, o->timeout_ms, ok, info, problem);
		for (size_t i = 0; i < hosts->n; i++) {
			memset(&st[i], 0, sizeof(st[i]));
			st[i].host = &hosts->v[i];
			st[i].info = info[i];
			if (hosts->v[i].role != ROLE_INITIATOR) {
				/* shown, never failing: what it said, or why it said nothing */
				st[i].state = FIO_HOST_SKIPPED;
				st[i].probed = ok[i];
				st[i].problem = problem[i];
			} else if (!ok[i])
				set_problem(&st[i], FIO_HOST_UNREACHABLE, problem[i] ? problem[i] : xstrdup("no reply"));
			else
				free(problem[i]);
		}
		free(ok);
		free(info);
		free(problem);
	}
	for (size_t i = 0; i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];

		if (h->role != ROLE_INITIATOR)
			continue;
		ninit++;
		if (st[i].state != FIO_HOST_OK)
			continue;
		if (strcmp(st[i].info.fio_version, local))
			set_problem(&st[i], FIO_HOST_VERSION,
				    xasprintf("fio server runs '%s', this host runs '%s'", st[i].info.fio_version, local));
	}
	strbuf_init(&decisions);
	if (o->check_targets) {
		consent_targets(hosts, o, c, reuse_checked, st, &decisions);
		check_targets(hosts, st, workdir, reuse_checked);
	}
	for (size_t i = 0; i < hosts->n; i++) {
		if (st[i].state == FIO_HOST_SKIPPED)
			continue;
		if (st[i].state == FIO_HOST_OK) {
			nok++;
			continue;
		}
		strbuf_addf(&failed, "%s%s (%s)", failed.len ? "; " : "", hosts->v[i].name, st[i].problem);
	}
	if (report) {
		strbuf_addf(report, "%-12s %-22s %-9s %-10s %-10s %6s %4s %7s %8s  %s\n", "HOST", "ADDRESS", "ROLE", "FIO",
			    "SERVER", "CPUS", "BITS", "RTT_MS", "PROBE_MS", "STATUS");
		for (size_t i = 0; i < hosts->n; i++) {
			const struct host *h = &hosts->v[i];
			char *ep = host_endpoint(h);
			int have = st[i].state == FIO_HOST_SKIPPED ? st[i].probed : st[i].state != FIO_HOST_UNREACHABLE;
			strbuf_addf(report, "%-12s %-22s %-9s %-10s %-10s %6u %4u %7.3f %8.2f  %s%s%s\n", h->name, ep,
				    host_role_name(h->role), have ? st[i].info.fio_version : "-",
				    have ? st[i].info.hostname : "-", have ? st[i].info.cpus : 0,
				    have ? st[i].info.bits : 0, have ? st[i].info.rtt_ms : 0.0,
				    have ? st[i].info.probe_ms : 0.0,
				    st[i].probed ? "ok (not checked: role=target)" : state_word(st[i].state),
				    st[i].problem ? ": " : "", st[i].problem ? st[i].problem : "");
			free(ep);
		}
		strbuf_addf(report, "local fio: %s; %zu of %zu initiators ok\n", local, nok, ninit);
		strbuf_adds(report, "RTT_MS: the network's round trip (the kernel's time of the TCP handshake); PROBE_MS: "
				    "fio's PROBE on a new connection, the fio server's fork of its connection process "
				    "included\n");
		if (decisions.len)
			strbuf_addf(report, "\n%-12s %s %s\n%s", "HOST", "PATH", "DECISION", decisions.buf);
	}
	if (!ninit) {
		err_set(err, ERR_INPUT, "the hosts file has no initiator (role=initiator) hosts");
		goto out;
	}
	for (size_t i = 0; i < hosts->n; i++)
		if (st[i].refused) { /* a refused target is bad input, whatever --allow-partial says */
			err_set(err, ERR_INPUT, "%s", st[i].problem);
			goto out;
		}
	if (nok == ninit || (o->allow_partial && nok > 0)) {
		ret = 0;
		goto out;
	}
	err_set(err, ERR_HOST, "%zu of %zu hosts failed the check: %s", ninit - nok, ninit, failed.buf);
out:
	if (workdir == tmpl)
		rmdir(tmpl);
	strbuf_release(&failed);
	strbuf_release(&decisions);
	return ret;
}

int fio_hosts_check_ex(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
		       struct fio_host_status *st, struct strbuf *report, struct errbuf *err)
{
	return hosts_check(hosts, o, NULL, 0, st, report, err);
}

int fio_hosts_check_consent(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
			    const struct fio_hosts_consent_opts *c, struct fio_host_status *st, struct strbuf *report,
			    struct errbuf *err)
{
	return hosts_check(hosts, o, c, 0, st, report, err);
}

int fio_hosts_check_again(const struct host_list *hosts, const struct fio_hosts_check_opts *o,
			  struct fio_host_status *st, struct errbuf *err)
{
	return hosts_check(hosts, o, NULL, 1, st, NULL, err);
}

int fio_hosts_preflight(const struct host_list *hosts, int allow_partial, int destructive, struct strbuf *report,
			struct errbuf *err)
{
	struct fio_hosts_check_opts o = { allow_partial, destructive, 1, 0, NULL, 0 };
	struct fio_host_status *st = xcalloc(hosts->n ? hosts->n : 1, sizeof(*st));
	int ret = fio_hosts_check_ex(hosts, &o, st, report, err);

	fio_host_status_release(st, hosts->n);
	free(st);
	return ret;
}

int fio_hosts_check(const struct host_list *hosts, int allow_partial, struct strbuf *report, struct errbuf *err)
{
	return fio_hosts_preflight(hosts, allow_partial, 0, report, err);
}

/* One word for a POSIX shell: 'it'\''s' */
static char *shell_quote(const char *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_add_shell_word(&sb, s);
	return strbuf_detach(&sb, NULL);
}

char **fio_server_ssh_argv(const struct host *h, int start)
{
	char **v = xcalloc(REMOTE_SSH_WORDS + 8, sizeof(*v));
	size_t n;
	char *pidfile = xasprintf("/tmp/bench-fio-server-%u.pid", h->port);
	char *words[8];
	size_t nw = 0;

	n = remote_ssh_prefix(h, v);
	if (start) {
		words[nw++] = xstrdup("fio");
		words[nw++] = strchr(h->addr, ':') ? xasprintf("--server=ip6:%s,%u", h->addr, h->port)
						    : xasprintf("--server=%s,%u", h->addr, h->port);
		words[nw++] = xasprintf("--daemonize=%s", pidfile);
	} else {
		words[nw++] = xstrdup("sh");
		words[nw++] = xstrdup("-c");
		words[nw++] = xstrdup("kill \"$(cat \"$1\")\" && rm -f \"$1\"");
		words[nw++] = xstrdup("bench-fio-stop");
		words[nw++] = xstrdup(pidfile);
	}
	for (size_t i = 0; i < nw; i++) {
		v[n++] = shell_quote(words[i]);
		free(words[i]);
	}
	free(pidfile);
	return v;
}

void fio_argv_free(char **argv)
{
	argv_free(argv);
}
