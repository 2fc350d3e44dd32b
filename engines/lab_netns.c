/*
 * lab_netns: the namespace lab's mechanics (see lab_netns.h and docs/lab.md "The namespace lab"). Every
 * command runs from an argv array: `ip` for namespaces, links and addresses, `tc` for shaping, `losetup` for
 * the target's loop devices, ssh-keygen for the keys, and `setsid -f` to leave the hosts' daemons running
 * after bench exits (they live in the namespaces; `down` finds them with `ip netns pids`). The state file
 * names each namespace, link and image file before it is made: that is how `down` finds a half-made lab.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/fio_hosts.h"
#include "engines/lab_netns.h"

#define NET_PREFIX "198.18.0."  /* the lab's /24; the bridge is .1, the target .10, labI .(10+I) */
#define CMD_TIMEOUT_MS 30000

/* ---- small helpers ------------------------------------------------------------------------------------------- */

/* Host i: 0 is the target, 1..N the initiators. */
static char *host_name(unsigned i)
{
	return i ? xasprintf("lab%u", i) : xstrdup("target");
}

static char *host_addr(unsigned i)
{
	return xasprintf(NET_PREFIX "%u", 10 + i);
}

/* Runs argv to its end with stdout and stderr into DIR/.cmd.log; 0 when it exits 0, else -1 with ERR_HOST and
 * the first line of what it wrote. `quiet_fail`: a failure is no error (returns 1). */
static int run(const char *dir, char *const argv[], int quiet_fail, struct errbuf *err)
{
	char *log = xasprintf("%s/.cmd.log", dir);
	struct proc p;
	struct strbuf sb;
	int ret = 0;

	if (proc_start(&p, argv, NULL, log, log, err) < 0) {
		free(log);
		return -1;
	}
	if (!proc_wait(&p, CMD_TIMEOUT_MS)) {
		proc_stop(&p, 1000);
		ret = err_set(err, ERR_HOST, "'%s %s' did not finish within %d s", argv[0], argv[1] ? argv[1] : "",
			      CMD_TIMEOUT_MS / 1000);
	} else if (proc_exit_code(&p) != 0) {
		ret = quiet_fail ? 1 : -1;
		if (!quiet_fail) {
			strbuf_init(&sb);
			strbuf_read_file(&sb, log);
			if (strchr(sb.buf, '\n'))
				*strchr(sb.buf, '\n') = '\0';
			err_set(err, ERR_HOST, "'%s %s %s' failed (exit %d): %s", argv[0], argv[1] ? argv[1] : "",
				argv[1] && argv[2] ? argv[2] : "", proc_exit_code(&p), sb.len ? sb.buf : "no output");
			strbuf_release(&sb);
		}
	}
	unlink(log);
	free(log);
	return ret;
}

/* Like run, capturing stdout (malloc'd into *out); the exit code in *code. */
static int capture(char *const argv[], char **out, int *code, struct errbuf *err)
{
	return proc_run_capture(argv, CMD_TIMEOUT_MS, out, code, err);
}

static int state_add(const char *dir, const char *kind, const char *what, struct errbuf *err)
{
	char *path = xasprintf("%s/" LAB_NETNS_STATE, dir);
	FILE *f = fopen(path, "a");
	int ok = f && fprintf(f, "%s %s\n", kind, what) > 0;

	if (f && fclose(f) != 0)
		ok = 0;
	free(path);
	return ok ? 0 : err_set(err, ERR_HOST, "cannot write the lab's state file in '%s': %s", dir, strerror(errno));
}

static int write_file(const char *path, const char *text, mode_t mode, struct errbuf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen(text);
	int ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;

	if (fd >= 0 && close(fd) != 0)
		ok = 0;
	return ok ? 0 : err_set(err, ERR_HOST, "cannot write '%s': %s", path, strerror(errno));
}

int lab_netns_parse_rate(const char *s, uint64_t *bps)
{
	const char *end;
	char *num_end;
	double v;

	/* a whole number of 1..100000 and a unit (core/units.h parse_bit_rate, tc's rates), nothing after it */
	if (!s || *s < '1' || *s > '9' || strtoull(s, &num_end, 10) > 100000 || *num_end == '.' ||
	    parse_bit_rate(s, &v, &end) < 0 || *end)
		return -1;
	*bps = (uint64_t)v;
	return *bps >= 1000000ull ? 0 : -1; /* below 1 mbit nothing of a benchmark gets through */
}

int lab_netns_present(const char *dir)
{
	char *path = xasprintf("%s/" LAB_NETNS_STATE, dir);
	int ok = access(path, F_OK) == 0;

	free(path);
	return ok;
}

/* ---- up ------------------------------------------------------------------------------------------------------ */

static int make_keys(const struct lab_netns_conf *c, struct errbuf *err)
{
	char *key = xasprintf("%s/id_ed25519", c->dir), *pub = xasprintf("%s/id_ed25519.pub", c->dir);
	char *ak = xasprintf("%s/authorized_keys", c->dir), *psk = xasprintf("%s/nbd.psk", c->dir);
	char *const kg[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "bench-lab", "-f", key, NULL };
	struct strbuf sb;
	unsigned char rnd[32];
	int fd, ret = run(c->dir, kg, 0, err);

	strbuf_init(&sb);
	if (ret == 0 && strbuf_read_file(&sb, pub) == 0)
		ret = write_file(ak, sb.buf, 0600, err);
	else if (ret == 0)
		ret = err_set(err, ERR_HOST, "ssh-keygen wrote no '%s'", pub);
	/* the PSK of the nbd-tls transport (nbdkit --tls-psk, libnbd tls-psk-file): "bench:" and 64 hex digits */
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (ret == 0 && (fd < 0 || read(fd, rnd, sizeof(rnd)) != (ssize_t)sizeof(rnd)))
		ret = err_set(err, ERR_HOST, "cannot read /dev/urandom");
	if (fd >= 0)
		close(fd);
	if (ret == 0) {
		strbuf_reset(&sb);
		strbuf_adds(&sb, "bench:");
		for (size_t i = 0; i < sizeof(rnd); i++)
			strbuf_addf(&sb, "%02x", rnd[i]);
		strbuf_addc(&sb, '\n');
		ret = write_file(psk, sb.buf, 0600, err);
	}
	strbuf_release(&sb);
	free(key);
	free(pub);
	free(ak);
	free(psk);
	return ret;
}

/* The nbd-tls transport's X.509 files (nbdkit --tls-certificates=DIR/pki): a CA of the lab's and the target's
 * certificate for its lab address; libnbd on the initiators finds the CA as $HOME/.pki/libnbd/ca-cert.pem (each
 * fio server's HOME is its host directory). libnbd cannot take a PSK file through a URI (fio 3.33 does not allow
 * local files in URIs), so the lab's TLS uses certificates; the PSK is for other clients. */
static int make_pki(const struct lab_netns_conf *c, struct errbuf *err)
{
	char *pki = xasprintf("%s/pki", c->dir), *cakey = xasprintf("%s/ca-key.pem", pki);
	char *ca = xasprintf("%s/ca-cert.pem", pki), *key = xasprintf("%s/server-key.pem", pki);
	char *csr = xasprintf("%s/server.csr", pki), *cert = xasprintf("%s/server-cert.pem", pki);
	char *ext = xasprintf("%s/server.ext", pki);
	char *const careq[] = { "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
				"-nodes", "-keyout", cakey, "-out", ca, "-days", "30", "-subj", "/CN=bench-lab-ca", NULL };
	char *const req[] = { "openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
			      "-keyout", key, "-out", csr, "-subj", "/CN=target", NULL };
	char *const sign[] = { "openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", cakey, "-CAcreateserial",
			       "-out", cert, "-days", "30", "-extfile", ext, NULL };
	int ret = -1;

	if (mkdir(pki, 0700) < 0)
		err_set(err, ERR_HOST, "cannot create '%s': %s", pki, strerror(errno));
	else if (write_file(ext, "subjectAltName=IP:" NET_PREFIX "10,DNS:target\n", 0644, err) == 0 &&
		 run(c->dir, careq, 0, err) == 0 && run(c->dir, req, 0, err) == 0 && run(c->dir, sign, 0, err) == 0)
		ret = 0;
	free(pki);
	free(cakey);
	free(ca);
	free(key);
	free(csr);
	free(cert);
	free(ext);
	return ret;
}

/* HD/.pki/libnbd/ca-cert.pem: the lab's CA where libnbd looks for it ($HOME/.pki/libnbd). */
static int install_ca(const struct lab_netns_conf *c, const char *hd, struct errbuf *err)
{
	char *d1 = xasprintf("%s/.pki", hd), *d2 = xasprintf("%s/.pki/libnbd", hd);
	char *src = xasprintf("%s/pki/ca-cert.pem", c->dir), *dst = xasprintf("%s/ca-cert.pem", d2);
	struct strbuf sb;
	int ret = -1;

	strbuf_init(&sb);
	if (mkdir(d1, 0700) < 0 || mkdir(d2, 0700) < 0)
		err_set(err, ERR_HOST, "cannot create '%s': %s", d2, strerror(errno));
	else if (strbuf_read_file(&sb, src) < 0)
		err_set(err, ERR_HOST, "cannot read '%s'", src);
	else
		ret = write_file(dst, sb.buf, 0644, err);
	strbuf_release(&sb);
	free(d1);
	free(d2);
	free(src);
	free(dst);
	return ret;
}

static int make_bridge(const struct lab_netns_conf *c, struct errbuf *err)
{
	char *const show[] = { "ip", "link", "show", LAB_NETNS_BRIDGE, NULL };
	char *const add[] = { "ip", "link", "add", LAB_NETNS_BRIDGE, "type", "bridge", NULL };
	char *const addr[] = { "ip", "addr", "add", NET_PREFIX "1/24", "dev", LAB_NETNS_BRIDGE, NULL };
	char *const up[] = { "ip", "link", "set", LAB_NETNS_BRIDGE, "up", NULL };

	if (run(c->dir, show, 1, err) == 0)
		return err_set(err, ERR_HOST, "the bridge %s exists: another namespace lab is up on this machine "
			       "(bench lab down --dir ITS_DIR)", LAB_NETNS_BRIDGE);
	if (state_add(c->dir, "link", LAB_NETNS_BRIDGE, err) < 0 || run(c->dir, add, 0, err) < 0 ||
	    run(c->dir, addr, 0, err) < 0 || run(c->dir, up, 0, err) < 0)
		return -1;
	return 0;
}

/* tc tbf on one end of a veth: the rate, a burst of 1/250 s of it (at least 256 KiB: veth hands over GSO packets
 * of 64 KiB), 50 ms of queue. */
static int shape(const struct lab_netns_conf *c, const char *ns, const char *dev, struct errbuf *err)
{
	uint64_t burst = c->link_bps / 8 / 250;
	char *b, *v[20];
	size_t n = 0;
	int ret;

	if (burst < 256 * 1024)
		burst = 256 * 1024;
	b = xasprintf("%llu", (unsigned long long)burst);
	v[n++] = "tc";
	if (ns) {
		v[n++] = "-n";
		v[n++] = (char *)ns;
	}
	{
		char *const rest[] = { "qdisc", "add", "dev", (char *)dev, "root", "tbf", "rate", (char *)c->link,
				       "burst", b, "latency", "50ms", NULL };
		for (size_t i = 0; rest[i]; i++)
			v[n++] = rest[i];
	}
	v[n] = NULL;
	ret = run(c->dir, v, 0, err);
	free(b);
	return ret;
}

/* The namespace, its veth (root end bl-NAME on the bridge, host end eth0), addresses, loopback, shaping. */
static int make_netns(const struct lab_netns_conf *c, const char *ns, const char *name, const char *addr,
		      struct errbuf *err)
{
	char *veth = xasprintf("bl-%s", name), *cidr = xasprintf("%s/24", addr);
	char *const add[] = { "ip", "netns", "add", (char *)ns, NULL };
	char *const link[] = { "ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", (char *)ns,
			       NULL };
	char *const master[] = { "ip", "link", "set", veth, "master", LAB_NETNS_BRIDGE, "up", NULL };
	char *const a[] = { "ip", "-n", (char *)ns, "addr", "add", cidr, "dev", "eth0", NULL };
	char *const up[] = { "ip", "-n", (char *)ns, "link", "set", "eth0", "up", NULL };
	char *const lo[] = { "ip", "-n", (char *)ns, "link", "set", "lo", "up", NULL };
	int ret = -1;

	if (state_add(c->dir, "netns", ns, err) == 0 && run(c->dir, add, 0, err) == 0 && run(c->dir, link, 0, err) == 0 &&
	    run(c->dir, master, 0, err) == 0 && run(c->dir, a, 0, err) == 0 && run(c->dir, up, 0, err) == 0 &&
	    run(c->dir, lo, 0, err) == 0)
		ret = 0;
	if (ret == 0 && c->link_bps && (shape(c, NULL, veth, err) < 0 || shape(c, ns, "eth0", err) < 0))
		ret = -1;
	free(veth);
	free(cidr);
	return ret;
}

static int read_pid_file(const char *path, pid_t *pid)
{
	struct strbuf sb;
	long v = 0;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) == 0)
		v = strtol(sb.buf, NULL, 10);
	strbuf_release(&sb);
	*pid = (pid_t)v;
	return v > 0 ? 0 : -1;
}

/* The holder: `sleep infinity` in the namespace with a UTS namespace of its own named NAME; its pid in
 * HD/holder.pid. Started by setsid -f, so it outlives bench. */
static int start_holder(const struct lab_netns_conf *c, const char *ns, const char *name, const char *hd,
			pid_t *pid, struct errbuf *err)
{
	char *pf = xasprintf("%s/holder.pid", hd);
	char *const argv[] = { "setsid", "-f", "ip", "netns", "exec", (char *)ns, "unshare", "--uts", "sh", "-c",
			       "echo $$ > \"$1\" && hostname \"$0\" && exec sleep infinity", (char *)name, pf, NULL };
	long long deadline;
	char comm[32];
	int ret = run(c->dir, argv, 0, err);

	deadline = mono_ms() + 5000;
	while (ret == 0) {
		char *cp;
		FILE *f;
		comm[0] = '\0';
		if (read_pid_file(pf, pid) == 0) {
			cp = xasprintf("/proc/%d/comm", (int)*pid);
			f = fopen(cp, "r");
			if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, "sleep\n")) {
				fclose(f);
				free(cp);
				break;
			}
			if (f)
				fclose(f);
			free(cp);
		}
		if (mono_ms() > deadline)
			ret = err_set(err, ERR_HOST, "the holder of namespace %s did not start", ns);
		usleep(20 * 1000);
	}
	free(pf);
	return ret;
}

/* Starts argv (after `setsid -f nsenter -t HOLDER -u -n -m --`) in the host's namespaces, output to LOG. */
static int start_in_host(pid_t holder, const char *hd, const char *log,
			 char *const *argv, struct errbuf *err)
{
	char *t = xasprintf("%d", (int)holder);
	char *v[24] = { "setsid", "-f", "nsenter", "-t", t, "-u", "-n", "-m", "--" };
	size_t n = 9;
	struct proc p;
	int ret = 0;

	for (size_t i = 0; argv[i] && n < 23; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	if (proc_start(&p, v, hd, log, log, err) < 0)
		ret = -1;
	else if (!proc_wait(&p, 10000) || proc_exit_code(&p) != 0) {
		proc_stop(&p, 500);
		ret = err_set(err, ERR_HOST, "'%s' did not start in the lab (see %s)", argv[0], log);
	}
	free(t);
	return ret;
}

static int start_sshd(const struct lab_netns_conf *c, pid_t holder, const char *hd, const char *addr,
		      struct errbuf *err)
{
	char *key = xasprintf("%s/ssh_host_ed25519_key", hd), *cfg = xasprintf("%s/sshd_config", hd);
	char *log = xasprintf("%s/sshd.log", hd), *text;
	char *const kg[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", (char *)addr, "-f", key, NULL };
	char *const sshd[] = { "/usr/sbin/sshd", "-D", "-e", "-f", cfg, NULL };
	int ret;

	text = xasprintf("# written by bench lab up --netns: root login by the lab's key only, on %s only\n"
			 "ListenAddress %s\nPort 22\nHostKey %s\nPidFile %s/sshd.pid\n"
			 "AuthorizedKeysFile %s/authorized_keys\nPermitRootLogin prohibit-password\nAllowUsers root\n"
			 "PubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
			 "UsePAM no\nStrictModes no\nX11Forwarding no\nAllowTcpForwarding no\nMaxStartups 64\n"
			 "MaxSessions 64\n", addr, addr, key, hd, c->dir);
	mkdir("/run/sshd", 0755); /* sshd's privilege separation directory (Debian makes it at boot of ssh.service) */
	ret = run(c->dir, kg, 0, err);
	if (ret == 0)
		ret = write_file(cfg, text, 0644, err);
	if (ret == 0)
		ret = start_in_host(holder, hd, log, sshd, err);
	free(key);
	free(cfg);
	free(log);
	free(text);
	return ret;
}

static int start_fio_exporter(const struct lab_netns_conf *c, pid_t holder, const char *hd, const char *addr,
			      struct errbuf *err)
{
	char *srv = xasprintf("--server=%s,%u", addr, c->port), *flog = xasprintf("%s/server.log", hd);
	char *listen = xasprintf("--web.listen-address=%s:%u", addr, LAB_NETNS_EXPORTER_PORT);
	char *elog = xasprintf("%s/node_exporter.log", hd);
	char *home = xasprintf("HOME=%s", hd);
	char *const fio[] = { "env", home, "fio", srv, NULL };
	char *const ne[] = { "prometheus-node-exporter", listen, NULL };
	int ret = install_ca(c, hd, err);

	if (ret == 0)
		ret = start_in_host(holder, hd, flog, fio, err);
	if (ret == 0)
		ret = start_in_host(holder, hd, elog, ne, err);
	free(home);
	free(srv);
	free(flog);
	free(listen);
	free(elog);
	return ret;
}

/* LAB_NETNS_DISKS/NAME -> to: a stable name (an older link of this name is replaced). */
static int link_name(const char *name, const char *to, struct errbuf *err)
{
	char *l = xasprintf("%s/%s", LAB_NETNS_DISKS, name);
	struct stat sb;
	int ret = 0;

	if (lstat(l, &sb) == 0 && S_ISLNK(sb.st_mode))
		unlink(l);
	if (symlink(to, l) < 0)
		ret = err_set(err, ERR_HOST, "cannot make the link '%s' -> '%s': %s", l, to, strerror(errno));
	free(l);
	return ret;
}

/* LAB_NETNS_DISKS, for the stable names of the target's disks (diskK) and of DIR/pki (pki): a suite names them. */
static int make_names(const struct lab_netns_conf *c, struct errbuf *err)
{
	char *pki = xasprintf("%s/pki", c->dir);
	int ret = state_add(c->dir, "disks", LAB_NETNS_DISKS, err);

	if (ret == 0 && mkdir(LAB_NETNS_DISKS, 0755) < 0 && errno != EEXIST)
		ret = err_set(err, ERR_HOST, "cannot make '%s': %s", LAB_NETNS_DISKS, strerror(errno));
	if (ret == 0)
		ret = link_name("pki", pki, err);
	free(pki);
	return ret;
}

/* The target's loop devices: DIR/target/diskK.img, sparse, attached with losetup -f --show, named LAB_NETNS_DISKS/diskK. */
static int make_disks(const struct lab_netns_conf *c, const char *hd, struct host *h, struct errbuf *err)
{
	for (unsigned k = 1; k <= c->disks; k++) {
		char *img = xasprintf("%s/disk%u.img", hd, k), *out = NULL;
		char *const lo[] = { "losetup", "-f", "--show", img, NULL };
		int fd, code = 1, ret = state_add(c->dir, "image", img, err);

		fd = ret == 0 ? open(img, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
		if (ret == 0 && (fd < 0 || ftruncate(fd, (off_t)c->disk_bytes) < 0))
			ret = err_set(err, ERR_HOST, "cannot make '%s': %s", img, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (ret == 0 && (capture(lo, &out, &code, err) < 0 || code != 0 || !out || strncmp(out, "/dev/", 5)))
			ret = err_set(err, ERR_HOST, "losetup -f --show %s failed (exit %d)", img, code);
		if (ret == 0) {
			out[strcspn(out, "\n")] = '\0';
			h->targets = xrealloc(h->targets, (h->ntargets + 1) * sizeof(*h->targets));
			h->targets[h->ntargets++] = xstrdup(out);
			char *name = xasprintf("disk%u", k);
			ret = link_name(name, out, err);
			free(name);
		}
		free(out);
		free(img);
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* Appends "ADDR KEYTYPE KEY" of host hd's host key to DIR/known_hosts. */
static int add_known_host(const struct lab_netns_conf *c, const char *hd, const char *addr, struct errbuf *err)
{
	char *pub = xasprintf("%s/ssh_host_ed25519_key.pub", hd), *kh = xasprintf("%s/known_hosts", c->dir);
	struct strbuf sb;
	FILE *f;
	int ret = 0;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, pub) < 0) {
		ret = err_set(err, ERR_HOST, "no host key '%s'", pub);
	} else {
		char *sp = strchr(sb.buf, ' ');
		sp = sp ? strchr(sp + 1, ' ') : NULL;
		if (sp)
			*sp = '\0';
		f = fopen(kh, "a");
		if (!f || fprintf(f, "%s %s\n", addr, sb.buf) < 0)
			ret = err_set(err, ERR_HOST, "cannot write '%s'", kh);
		if (f && fclose(f) != 0 && ret == 0)
			ret = err_set(err, ERR_HOST, "cannot write '%s'", kh);
	}
	strbuf_release(&sb);
	free(pub);
	free(kh);
	return ret;
}

/* The host's line of the hosts file. */
static void fill_host(const struct lab_netns_conf *c, unsigned i, const char *hd, const char *addr, struct host *h)
{
	h->name = host_name(i);
	h->addr = xstrdup(addr);
	h->port = c->port;
	h->role = i ? ROLE_INITIATOR : ROLE_TARGET;
	h->exporter_url = xasprintf("http://%s:%u/metrics", addr, LAB_NETNS_EXPORTER_PORT);
	h->ssh_user = xstrdup("root");
	snprintf(h->ssh_key, sizeof(h->ssh_key), "%s/id_ed25519", c->dir);
	snprintf(h->ssh_known_hosts, sizeof(h->ssh_known_hosts), "%s/known_hosts", c->dir);
	snprintf(h->workdir, sizeof(h->workdir), "%s", hd);
}

static int wait_up(const char *addr, unsigned port, struct errbuf *err)
{
	long long deadline = mono_ms() + 10000;
	struct fio_server_info info;

	while (fio_server_probe(addr, port, 1000, &info, err) < 0) {
		if (mono_ms() > deadline)
			return -1;
		usleep(50 * 1000);
	}
	return 0;
}

static int host_up(const struct lab_netns_conf *c, unsigned i, struct host *h, struct errbuf *err)
{
	char *name = host_name(i), *addr = host_addr(i), *ns = xasprintf("bench-%s", name);
	char *hd = xasprintf("%s/%s", c->dir, name);
	pid_t holder = 0;
	int ret = -1;

	memset(h, 0, sizeof(*h));
	if (mkdir(hd, 0755) < 0)
		err_set(err, ERR_HOST, "cannot create '%s': %s", hd, strerror(errno));
	else if (make_netns(c, ns, name, addr, err) == 0 && start_holder(c, ns, name, hd, &holder, err) == 0 &&
		 start_sshd(c, holder, hd, addr, err) == 0 && start_fio_exporter(c, holder, hd, addr, err) == 0 &&
		 add_known_host(c, hd, addr, err) == 0)
		ret = 0;
	if (ret == 0) {
		fill_host(c, i, hd, addr, h);
		if (i == 0) {
			ret = make_disks(c, hd, h, err);
		} else {
			h->targets = xcalloc(1, sizeof(*h->targets));
			h->targets[h->ntargets++] = xasprintf("%s/target.dat", hd);
		}
	}
	free(name);
	free(addr);
	free(ns);
	free(hd);
	return ret;
}

/* Whether /run/netns is a mount point (`ip netns add` makes it one, once, and leaves it). */
static int run_netns_mounted(void)
{
	struct strbuf sb;
	int yes = 0;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, "/proc/self/mountinfo") == 0)
		yes = strstr(sb.buf, " /run/netns ") != NULL;
	strbuf_release(&sb);
	return yes;
}

int lab_netns_up(const struct lab_netns_conf *c, struct host_list *out, struct errbuf *err)
{
	if (mkdir(c->dir, 0755) < 0 && errno != EEXIST)
		return err_set(err, ERR_HOST, "cannot create '%s': %s", c->dir, strerror(errno));
	if (state_add(c->dir, "lab", c->dir, err) < 0)
		return -1;
	if (!run_netns_mounted() && state_add(c->dir, "mount", "/run/netns", err) < 0)
		return -1;
	if (make_bridge(c, err) < 0 || make_keys(c, err) < 0 || make_pki(c, err) < 0 || make_names(c, err) < 0)
		return -1;
	for (unsigned i = 0; i <= c->count; i++) {
		struct host h;
		if (host_up(c, i, &h, err) < 0)
			return -1;
		ARRAY_GROW(out->v, out->cap, out->n + 1);
		out->v[out->n++] = h;
	}
	for (size_t i = 0; i < out->n; i++) {
		if (wait_up(out->v[i].addr, c->port, err) < 0)
			return err_prefix(err, "host %s: ", out->v[i].name);
	}
	return 0;
}

/* ---- down ---------------------------------------------------------------------------------------------------- */

struct lab_state {
	char **netns, **links, **images;
	size_t nnetns, nlinks, nimages;
	int run_netns;  /* /run/netns became a mount point with this lab */
	int disks;      /* LAB_NETNS_DISKS was made by this lab */
};

static void state_push(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void state_read(const char *dir, struct lab_state *st)
{
	char *path = xasprintf("%s/" LAB_NETNS_STATE, dir);
	struct strbuf sb;

	memset(st, 0, sizeof(*st));
	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) == 0) {
		for (char *line = strtok(sb.buf, "\n"); line; line = strtok(NULL, "\n")) {
			char *sp = strchr(line, ' ');
			if (!sp)
				continue;
			*sp++ = '\0';
			if (!strcmp(line, "netns") && !strncmp(sp, "bench-", 6))
				state_push(&st->netns, &st->nnetns, sp);
			else if (!strcmp(line, "link") && !strcmp(sp, LAB_NETNS_BRIDGE))
				state_push(&st->links, &st->nlinks, sp);
			else if (!strcmp(line, "mount") && !strcmp(sp, "/run/netns"))
				st->run_netns = 1;
			else if (!strcmp(line, "disks") && !strcmp(sp, LAB_NETNS_DISKS))
				st->disks = 1;
			else if (!strcmp(line, "image") && !strncmp(sp, dir, strlen(dir)))
				state_push(&st->images, &st->nimages, sp);
		}
	}
	strbuf_release(&sb);
	free(path);
}

static void state_release(struct lab_state *st)
{
	for (size_t i = 0; i < st->nnetns; i++)
		free(st->netns[i]);
	for (size_t i = 0; i < st->nlinks; i++)
		free(st->links[i]);
	for (size_t i = 0; i < st->nimages; i++)
		free(st->images[i]);
	free(st->netns);
	free(st->links);
	free(st->images);
}

/* The pids in namespace ns (`ip netns pids`); how many, into *pids (malloc'd). */
static size_t ns_pids(const char *ns, pid_t **pids)
{
	char *const argv[] = { "ip", "netns", "pids", (char *)ns, NULL };
	char *out = NULL;
	struct errbuf e;
	size_t n = 0;
	int code;

	errbuf_init(&e);
	*pids = NULL;
	if (capture(argv, &out, &code, &e) == 0 && code == 0 && out) {
		for (char *t = strtok(out, " \n"); t; t = strtok(NULL, " \n")) {
			long v = strtol(t, NULL, 10);
			if (v > 1) {
				*pids = xrealloc(*pids, (n + 1) * sizeof(**pids));
				(*pids)[n++] = (pid_t)v;
			}
		}
	}
	free(out);
	return n;
}

/* /proc/PID/comm into comm (size 32), "" when gone. */
static void proc_comm(pid_t pid, char *comm)
{
	char path[64];
	FILE *f;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(comm, 32, f))
			comm[0] = '\0';
		fclose(f);
	}
	comm[strcspn(comm, "\n")] = '\0';
}

static pid_t proc_ppid(pid_t pid)
{
	char path[64], buf[512], *rp;
	FILE *f;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) && sscanf(rp + 2, "%*c %d", &ppid) != 1)
			ppid = 0;
		fclose(f);
	}
	return (pid_t)ppid;
}

/* One process of a lab namespace, by kind; a fio server's own children (one per connection or job) and sshd's
 * sessions are not servers of their own: they count as other processes. */
static void count_kind(pid_t pid, struct lab_netns_counts *n)
{
	char comm[32], parent[32];

	proc_comm(pid, comm);
	proc_comm(proc_ppid(pid), parent);
	if (!strcmp(comm, parent) && (!strcmp(comm, "fio") || !strcmp(comm, "sshd")))
		n->other++;
	else if (!strcmp(comm, "fio"))
		n->fio++;
	else if (!strcmp(comm, "sshd"))
		n->sshd++;
	else if (!strncmp(comm, "prometheus-node", 15) || !strcmp(comm, "node_exporter"))
		n->exporters++;
	else if (!strcmp(comm, "sleep"))
		n->holders++;
	else
		n->other++;
}

/* Stops every process of every namespace of the lab: SIGTERM, SIGKILL after 3 s. */
static int stop_processes(const struct lab_state *st, struct lab_netns_counts *n, struct errbuf *err)
{
	long long deadline = mono_ms() + 3000;
	size_t left = 0;
	pid_t *pids;

	for (size_t i = 0; i < st->nnetns; i++) {
		size_t k = ns_pids(st->netns[i], &pids);
		for (size_t j = 0; j < k; j++) /* all counted before any is signalled: a child's parent is known */
			count_kind(pids[j], n);
		for (size_t j = 0; j < k; j++)
			kill(pids[j], SIGTERM);
		free(pids);
	}
	do {
		left = 0;
		for (size_t i = 0; i < st->nnetns; i++) {
			size_t k = ns_pids(st->netns[i], &pids);
			for (size_t j = 0; j < k; j++)
				if (mono_ms() > deadline)
					kill(pids[j], SIGKILL);
			left += k;
			free(pids);
		}
		if (left)
			usleep(50 * 1000);
	} while (left && mono_ms() < deadline + 3000);
	return left ? err_set(err, ERR_HOST, "%zu processes in the lab's namespaces did not stop", left) : 0;
}

/* Detaches every loop device over one of the lab's image files; waits until the kernel lets go of them (a
 * filesystem mounted in the target's mount namespace goes with that namespace's last process). */
static int detach_loops(const char *dir, const struct lab_state *st, struct lab_netns_counts *n, struct errbuf *err)
{
	long long deadline = mono_ms() + 10000;
	int busy;

	do {
		busy = 0;
		for (size_t i = 0; i < st->nimages; i++) {
			char *const j[] = { "losetup", "-n", "-O", "NAME", "-j", st->images[i], NULL };
			char *out = NULL;
			int code = 1;
			if (capture(j, &out, &code, err) == 0 && code == 0 && out) {
				for (char *t = strtok(out, " \n"); t; t = strtok(NULL, " \n")) {
					char *const d[] = { "losetup", "-d", t, NULL };
					if (run(dir, d, 1, err) == 0)
						n->loops++;
					busy = 1;
				}
			}
			free(out);
		}
		if (busy)
			usleep(100 * 1000);
	} while (busy && mono_ms() < deadline);
	return busy ? err_set(err, ERR_HOST, "loop devices over the lab's files in '%s' stay attached", dir) : 0;
}

static int remove_links(const char *dir, const struct lab_state *st, struct lab_netns_counts *n, struct errbuf *err)
{
	for (size_t i = 0; i < st->nnetns; i++) {
		char *const show[] = { "ip", "netns", "pids", st->netns[i], NULL };
		char *const del[] = { "ip", "netns", "del", st->netns[i], NULL };
		if (run(dir, show, 1, err) != 0)
			continue; /* not there (never made, or already gone) */
		if (run(dir, del, 0, err) < 0)
			return -1;
		n->netns++;
		n->links++; /* its veth pair goes with it */
	}
	for (size_t i = 0; i < st->nlinks; i++) {
		char *const show[] = { "ip", "link", "show", st->links[i], NULL };
		char *const del[] = { "ip", "link", "del", st->links[i], NULL };
		if (run(dir, show, 1, err) != 0)
			continue;
		if (run(dir, del, 0, err) < 0)
			return -1;
		n->links++;
	}
	return 0;
}

/* Unmounts /run/netns when this lab made it a mount point and no namespace is left in it (another lab's or the
 * user's would keep it). */
static void release_run_netns(const char *dir, const struct lab_state *st, struct lab_netns_counts *n)
{
	char *const um[] = { "umount", "/run/netns", NULL };
	struct errbuf e;
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if (!st->run_netns || !run_netns_mounted() || !(d = opendir("/run/netns")))
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	errbuf_init(&e);
	if (empty && run(dir, um, 1, &e) == 0)
		n->mounts++;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* The lab's files: the host directories, keys, known_hosts, PSK, hosts file, state file, and DIR if empty. */
static void remove_files(const char *dir)
{
	static const char *const names[] = { "id_ed25519", "id_ed25519.pub", "authorized_keys", "known_hosts", "pki",
					     "nbd.psk", "hosts", ".cmd.log", LAB_NETNS_STATE };
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, "target") || !strcmp(de->d_name, "pki") || (!strncmp(de->d_name, "lab", 3) && de->d_name[3] >= '1' &&
						       de->d_name[3] <= '9')) {
			char *p = xasprintf("%s/%s", dir, de->d_name);
			nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
			free(p);
		}
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

int lab_netns_down(const char *dir, struct lab_netns_counts *n, struct errbuf *err)
{
	struct lab_state st;
	int ret;

	memset(n, 0, sizeof(*n));
	state_read(dir, &st);
	ret = stop_processes(&st, n, err);
	if (ret == 0)
		ret = detach_loops(dir, &st, n, err);
	if (ret == 0)
		ret = remove_links(dir, &st, n, err);
	if (ret == 0) {
		release_run_netns(dir, &st, n);
		if (st.disks)
			nftw(LAB_NETNS_DISKS, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		remove_files(dir);
	}
	state_release(&st);
	return ret;
}
