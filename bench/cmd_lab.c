/*
 * cmd_lab: `bench lab up N | down | status`: N fio servers on this machine, for rehearsing and testing
 * multi-host suites (docs/multihost.md "The loopback lab"). Server i listens on the (i-1)-th address after
 * --base (default 127.0.0.11, so 127.0.0.(10+i); the whole 127.0.0.0/8 is this machine, so lab traffic never
 * leaves it), has its own working directory DIR/host<i>/
 * with a target file, and runs as a daemon (`fio --server=ADDR,PORT --daemonize=DIR/host<i>/fio.pid`).
 * `up` writes DIR/hosts for `bench run --hosts`. Everything the lab has is on disk, so `down` finds it again
 * after bench itself was killed: the pid files, and as a fallback every fio process whose command line holds
 * --daemonize=DIR/host (a server whose pid file was never written). `down` stops them (SIGTERM to the
 * process group, SIGKILL after 3 s) and removes DIR/host*, DIR/hosts and DIR.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <arpa/inet.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/units.h"
#include "engines/fio_hosts.h"
#include "engines/lab_netns.h"
#include "engines/target.h"

#define LAB_MAX 200
#define LAB_DEFAULT_DIR "bench-lab"
#define LAB_DEFAULT_BASE "127.0.0.11"

struct lab {
	char dir[PATH_MAX];  /* absolute */
	unsigned port;
	uint32_t base;       /* first server's IPv4 address, host byte order, inside 127.0.0.0/8 */
	int netns;           /* --netns: the namespace lab (engines/lab_netns.h) */
	const char *link;    /* --link RATE, or NULL */
	uint64_t link_bps;
};

static int usage(void)
{
	printf("usage: bench lab up N [--dir DIR] [--port PORT] [--size SIZE] [--base ADDR]\n"
	       "       bench lab up N --netns [--link RATE] [--dir DIR] [--port PORT] [--size SIZE]\n"
	       "       bench lab down [--dir DIR]\n"
	       "       bench lab status [--dir DIR] [--port PORT]\n\n"
	       "A loopback lab: N fio servers on this machine, to rehearse and test multi-host suites without\n"
	       "other machines. Server i listens on the i-th address from --base (127.0.0.11, 127.0.0.12, ...: the whole\n"
	       "127.0.0.0/8 range is this machine, nothing leaves it), runs as a daemon with a pid file, and has\n"
	       "its own working directory DIR/host<i>/ with a target file. 'up' writes the hosts file DIR/hosts\n"
	       "for 'bench run --hosts DIR/hosts' and 'bench hosts check --hosts DIR/hosts'.\n\n"
	       "  up N          start N fio servers (1..%d) and write DIR/hosts\n"
	       "  down          stop every lab server (found from the pid files, also after bench was killed)\n"
	       "                and remove everything the lab made\n"
	       "  status        one line per server: address, pid, running, fio version\n\n"
	       "With --netns (docs/lab.md \"The namespace lab\"): N initiator hosts lab1..labN and a host 'target',\n"
	       "each in its own network and UTS namespace on 198.18.0.0/24 (bridge %s, no route out), each with\n"
	       "sshd (root by the lab's key only), a fio server and node_exporter; the target has 4 loop devices\n"
	       "of --size (default 256m) over sparse files in DIR/target. 'down' stops and removes all of it, also\n"
	       "what a killed 'lab up' left.\n\n"
	       "", LAB_MAX, LAB_NETNS_BRIDGE);
	opt_help(stdout, OPT_LAB);
	printf("\n"
	       "exit codes: 0 ok, 2 usage, 4 a server did not start or is not running.\n");
	return EXIT_OK;
}

/* The address of server i (1-based): --base + i - 1, as dotted quad. */
static void lab_addr(const struct lab *l, unsigned i, char *out, size_t outsz)
{
	uint32_t a = l->base + (i - 1);

	snprintf(out, outsz, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255u, (a >> 8) & 255u, a & 255u);
}

/* --base: a dotted IPv4 address in 127.0.0.0/8 that leaves room for count servers inside it. */
static int parse_base(const char *s, uint32_t *out)
{
	struct in_addr in;
	uint32_t a;

	if (inet_pton(AF_INET, s, &in) != 1)
		return -1;
	a = ntohl(in.s_addr);
	if ((a >> 24) != 127 || (a & 0xffffffu) == 0)
		return -1;
	*out = a;
	return 0;
}

static char *host_dir(const struct lab *l, unsigned i)
{
	return xasprintf("%s/host%u", l->dir, i);
}

static int read_pid(const char *path, pid_t *pid)
{
	struct strbuf sb;
	long v;
	int ret = -1;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) == 0) {
		while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == ' '))
			sb.buf[--sb.len] = '\0';
		if (parse_long(sb.buf, 2, INT_MAX, &v) == 0) {
			*pid = (pid_t)v;
			ret = 0;
		}
	}
	strbuf_release(&sb);
	return ret;
}

/* Reads at most size - 1 bytes of /proc/PID/WHAT into buf, NUL-terminated (*n bytes read); -1 when it cannot be
 * opened. */
static int read_proc(pid_t pid, const char *what, char *buf, size_t size, size_t *n)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	f = fopen(path, "r");
	if (!f)
		return -1;
	*n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[*n] = '\0';
	return 0;
}

/* Whether pid is a live (not zombie) fio process started by this lab (its argv holds --daemonize=DIR/host). */
static int is_lab_process(const struct lab *l, pid_t pid)
{
	char buf[8192], *marker, *rp;
	size_t n;
	int ok = 0;

	if (read_proc(pid, "stat", buf, sizeof(buf), &n) < 0)
		return 0;
	rp = strrchr(buf, ')');
	if (!rp || rp[1] != ' ' || rp[2] == 'Z' || rp[2] == 'X')
		return 0;
	if (read_proc(pid, "cmdline", buf, sizeof(buf), &n) < 0)
		return 0;
	marker = xasprintf("--daemonize=%s/host", l->dir);
	for (size_t off = 0; off < n; off += strlen(buf + off) + 1) {
		if (!strncmp(buf + off, marker, strlen(marker)))
			ok = 1;
	}
	free(marker);
	return ok;
}

/* Every live lab process: from the pid files and from a scan of /proc. */
static size_t lab_pids(const struct lab *l, pid_t **out)
{
	size_t n = 0, cap = 0;
	pid_t *v = NULL;
	DIR *d = opendir("/proc");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		long pid;
		if (parse_long(de->d_name, 2, INT_MAX, &pid) < 0)
			continue;
		if (is_lab_process(l, (pid_t)pid)) {
			ARRAY_GROW(v, cap, n + 1);
			v[n++] = (pid_t)pid;
		}
	}
	if (d)
		closedir(d);
	*out = v;
	return n;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 ? -1 : 0;
	return unlink(path) < 0 ? -1 : 0;
}

static int lab_down(const struct lab *l, int quiet)
{
	pid_t *pids = NULL;
	size_t n, killed = 0, servers = 0, hosts = 0;
	long long deadline;
	DIR *d;
	struct dirent *de;
	int code = EXIT_OK;

	/* every live lab process, counted before any is signalled (a daemon's children go with it) */
	killed = lab_pids(l, &pids);
	free(pids);
	pids = NULL;
	/* pid files first (the daemons), then whatever else carries the lab's marker (their children) */
	d = opendir(l->dir);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "host", 4))
			continue;
		char *pf = xasprintf("%s/%s/fio.pid", l->dir, de->d_name);
		pid_t pid;
		if (read_pid(pf, &pid) == 0 && is_lab_process(l, pid)) {
			servers++;
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
		}
		free(pf);
	}
	if (d)
		closedir(d);
	n = lab_pids(l, &pids);
	for (size_t i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	free(pids);
	deadline = mono_ms() + 3000;
	while ((n = lab_pids(l, &pids)) > 0) {
		if (mono_ms() > deadline) {
			for (size_t i = 0; i < n; i++) {
				kill(-pids[i], SIGKILL);
				kill(pids[i], SIGKILL);
			}
		}
		free(pids);
		pids = NULL;
		if (mono_ms() > deadline + 3000)
			break;
		usleep(50 * 1000);
	}
	free(pids);
	pids = NULL;
	if (lab_pids(l, &pids) > 0)
		code = cli_error(EXIT_HOST, "lab servers in '%s' did not stop (pid %d)", l->dir, (int)pids[0]);
	free(pids);
	/* remove what up made */
	d = opendir(l->dir);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "host", 4))
			continue;
		char *hd = xasprintf("%s/%s", l->dir, de->d_name);
		struct stat st;
		if (lstat(hd, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				if (nftw(hd, rm_entry, 16, FTW_DEPTH | FTW_PHYS) == 0)
					hosts += strcmp(de->d_name, "hosts") != 0;
			} else {
				unlink(hd);
			}
		}
		free(hd);
	}
	if (d)
		closedir(d);
	if (rmdir(l->dir) < 0 && errno != ENOENT && code == EXIT_OK)
		cli_warn("'%s' not removed: %s (it holds files the lab did not make)", l->dir, strerror(errno));
	if (!quiet && code == EXIT_OK)
		printf("lab down: %zu host directories removed, %zu fio servers stopped, %zu other lab processes (%s)\n",
		       hosts, servers, killed > servers ? killed - servers : 0, l->dir);
	return code;
}

static int write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(text, 1, len, f) == len;
	if (fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

static int lab_up(const struct lab *l, unsigned count, uint64_t size)
{
	struct host_list hl;
	struct strbuf sb;
	struct errbuf err;
	char *hosts_path = xasprintf("%s/hosts", l->dir);
	int code = EXIT_OK;
	struct stat st;

	host_list_init(&hl);
	strbuf_init(&sb);
	errbuf_init(&err);
	if (stat(hosts_path, &st) == 0) {
		code = cli_error(EXIT_HOST, "a lab is already up in '%s' (run 'bench lab down --dir %s' first)", l->dir,
				 l->dir);
		free(hosts_path);
		return code;
	}
	{
		pid_t *pids = NULL;
		size_t n = lab_pids(l, &pids);
		free(pids);
		if (n) {
			code = cli_error(EXIT_HOST,
					 "fio servers of an earlier 'lab up' still run in '%s' (run 'bench lab down --dir %s' "
					 "first)",
					 l->dir, l->dir);
			free(hosts_path);
			return code;
		}
	}
	if (mkdir(l->dir, 0755) < 0 && errno != EEXIST) {
		code = cli_error(EXIT_HOST, "cannot create '%s': %s", l->dir, strerror(errno));
		free(hosts_path);
		return code;
	}
	for (unsigned i = 1; i <= count; i++) {
		struct host h;
		struct fio_server_info info;
		struct proc pr = { 0, 0, 0 };
		char *hd = host_dir(l, i), *target, *pidfile, *log, *srv, *dz;
		char addr[32];
		long long deadline;
		pid_t pid = 0;
		int up = 0;

		lab_addr(l, i, addr, sizeof(addr));
		if (fio_server_probe(addr, l->port, 500, &info, &err) == 0) {
			code = cli_error(EXIT_HOST, "%s:%u already has a fio server that is not this lab's (another lab? "
					 "use --port)", addr, l->port);
			free(hd);
			goto fail;
		}
		target = xasprintf("%s/target.dat", hd);
		pidfile = xasprintf("%s/fio.pid", hd);
		log = xasprintf("%s/server.log", hd);
		srv = xasprintf("--server=%s,%u", addr, l->port);
		dz = xasprintf("--daemonize=%s", pidfile);
		if (mkdir(hd, 0755) < 0 && errno != EEXIST) {
			code = cli_error(EXIT_HOST, "cannot create '%s': %s", hd, strerror(errno));
		} else if (target_prepare(target, size, 0, &err) < 0) {
			code = cli_fail(&err);
		} else {
			char *const argv[] = { "fio", srv, dz, NULL };
			if (proc_start(&pr, argv, hd, log, log, &err) < 0) {
				code = cli_fail(&err);
			} else {
				if (!proc_wait(&pr, 10000))
					proc_stop(&pr, 500);
				deadline = mono_ms() + 5000;
				while (mono_ms() < deadline) {
					if (read_pid(pidfile, &pid) == 0 && is_lab_process(l, pid) &&
					    fio_server_probe(addr, l->port, 1000, &info, &err) == 0) {
						up = 1;
						break;
					}
					usleep(50 * 1000);
				}
				if (!up)
					code = cli_error(EXIT_HOST, "fio server on %s:%u did not start (see %s): %s", addr,
							 l->port, log, err.msg[0] ? err.msg : "no pid file");
			}
		}
		if (up) {
			memset(&h, 0, sizeof(h));
			h.name = xasprintf("lab%u", i);
			h.addr = xstrdup(addr);
			h.port = l->port;
			h.role = ROLE_INITIATOR;
			h.targets = xcalloc(1, sizeof(*h.targets));
			/* the host's directory, canonical, is its declared workdir: its target is accepted without
			 * ssh (docs/hosts.md "Which targets bench accepts") */
			{
				char *abs = realpath(hd, NULL);
				snprintf(h.workdir, sizeof(h.workdir), "%s", abs ? abs : hd);
				h.targets[0] = abs ? xasprintf("%s/target.dat", abs) : xstrdup(target);
				free(abs);
			}
			h.ntargets = 1;
			ARRAY_GROW(hl.v, hl.cap, hl.n + 1);
			hl.v[hl.n++] = h;
			printf("%-6s %s:%u  pid %-7d target %s\n", h.name, addr, l->port, (int)pid, target);
		}
		free(hd);
		free(target);
		free(pidfile);
		free(log);
		free(srv);
		free(dz);
		if (!up)
			goto fail;
	}
	hostsfile_write(&hl, &sb);
	if (write_text(hosts_path, sb.buf, sb.len) < 0) {
		code = cli_error(EXIT_HOST, "cannot write '%s': %s", hosts_path, strerror(errno));
		goto fail;
	}
	printf("lab up: %u fio servers; hosts file %s\n", count, hosts_path);
	goto out;
fail:
	lab_down(l, 1);
out:
	host_list_release(&hl);
	strbuf_release(&sb);
	free(hosts_path);
	return code;
}

static int lab_status(const struct lab *l)
{
	char *hosts_path = xasprintf("%s/hosts", l->dir);
	struct host_list hl;
	struct errbuf err;
	unsigned down = 0;
	pid_t *pids = NULL;
	size_t nproc;
	int code = EXIT_OK, netns = lab_netns_present(l->dir);

	host_list_init(&hl);
	errbuf_init(&err);
	nproc = lab_pids(l, &pids);
	free(pids);
	if (hostsfile_read(hosts_path, &hl, &err) < 0) {
		printf("no lab in '%s' (%zu lab processes running)\n", l->dir, nproc);
		free(hosts_path);
		return nproc ? cli_error(EXIT_HOST, "lab processes run without a hosts file: 'bench lab down' stops them")
			     : EXIT_OK;
	}
	printf("%-6s %-18s %-8s %-8s %s\n", "HOST", "ADDRESS", "PID", "STATE", "FIO");
	for (size_t i = 0; i < hl.n; i++) {
		const struct host *h = &hl.v[i];
		struct fio_server_info info;
		char *pf = xasprintf("%s/host%zu/fio.pid", l->dir, i + 1), *ep = host_endpoint(h);
		pid_t pid = 0;
		/* the namespace lab's servers are found by their address (lab_netns: `ip netns pids`) */
		int alive = netns || (read_pid(pf, &pid) == 0 && is_lab_process(l, pid));
		int answers;

		errbuf_init(&err);
		answers = alive && fio_server_probe(h->addr, h->port, 3000, &info, &err) == 0;
		printf("%-6s %-18s %-8d %-8s %s", h->name, ep, (int)pid, answers ? "up" : alive ? "silent" : "down",
		       answers ? info.fio_version : alive ? err.msg : "-");
		if (answers && netns)
			printf("  %s %s", h->role == ROLE_TARGET ? "target" : "initiator", info.hostname);
		printf("\n");
		if (!answers)
			down++;
		free(pf);
		free(ep);
	}
	printf("%zu servers, %u not answering; %zu lab processes; hosts file %s\n", hl.n, down, nproc, hosts_path);
	if (down)
		code = cli_error(EXIT_HOST, "%u of %zu lab servers are not answering", down, hl.n);
	host_list_release(&hl);
	free(hosts_path);
	return code;
}

static void print_counts(const struct lab_netns_counts *n, const char *dir)
{
	printf("lab down: %zu namespaces, %zu links, %zu loop devices, %zu mounts removed; %zu fio servers, %zu sshd, "
	       "%zu node_exporters, %zu holders, %zu other processes stopped (%s)\n",
	       n->netns, n->links, n->loops, n->mounts, n->fio, n->sshd, n->exporters, n->holders, n->other, dir);
}

static int netns_down(const struct lab *l, int quiet)
{
	struct lab_netns_counts n;
	struct errbuf err;

	errbuf_init(&err);
	if (lab_netns_down(l->dir, &n, &err) < 0)
		return cli_fail(&err);
	if (!quiet)
		print_counts(&n, l->dir);
	return EXIT_OK;
}

static void print_netns_host(const struct host *h)
{
	printf("%-7s %-14s %s  ssh root@%s  exporter %s", h->name, h->role == ROLE_TARGET ? "target" : "initiator",
	       h->addr, h->addr, h->exporter_url);
	for (size_t k = 0; k < h->ntargets; k++)
		printf("%s%s", k ? "," : "  targets ", h->targets[k]);
	printf("\n");
}

static int netns_up(const struct lab *l, unsigned count, uint64_t size)
{
	struct lab_netns_conf c = { l->dir, count, l->port, 4, size, 64ull << 20, l->link_bps, l->link };
	char *hosts_path = xasprintf("%s/hosts", l->dir);
	struct host_list hl;
	struct strbuf sb;
	struct errbuf err;
	int code = EXIT_OK;

	host_list_init(&hl);
	strbuf_init(&sb);
	errbuf_init(&err);
	if (geteuid() != 0) {
		free(hosts_path);
		return cli_error(EXIT_HOST, "the namespace lab needs root (network namespaces, veth links, loop devices)");
	}
	if (access(hosts_path, F_OK) == 0) {
		free(hosts_path);
		return cli_error(EXIT_HOST, "a lab is already up in '%s' (run 'bench lab down --dir %s' first)", l->dir,
				 l->dir);
	}
	if (lab_netns_present(l->dir)) {
		printf("lab up: removing what an earlier 'lab up' left in %s\n", l->dir);
		if ((code = netns_down(l, 0)) != EXIT_OK)
			goto out;
	}
	if (lab_netns_up(&c, &hl, &err) < 0) {
		code = cli_fail(&err);
		netns_down(l, 1);
		goto out;
	}
	for (size_t i = 0; i < hl.n; i++) {
		if (i && hl.v[i].ntargets && target_prepare(hl.v[i].targets[0], c.file_bytes, 0, &err) < 0) {
			code = cli_fail(&err);
			netns_down(l, 1);
			goto out;
		}
		print_netns_host(&hl.v[i]);
	}
	hostsfile_write(&hl, &sb);
	if (write_text(hosts_path, sb.buf, sb.len) < 0) {
		code = cli_error(EXIT_HOST, "cannot write '%s': %s", hosts_path, strerror(errno));
		netns_down(l, 1);
		goto out;
	}
	printf("lab up: %u initiators and a target in network namespaces%s%s; hosts file %s\n", count,
	       l->link ? ", links shaped to " : "", l->link ? l->link : "", hosts_path);
out:
	host_list_release(&hl);
	strbuf_release(&sb);
	free(hosts_path);
	return code;
}

int cmd_lab(int argc, char **argv)
{
	int argi = 0;
	const char *dir = LAB_DEFAULT_DIR, *verb;
	struct lab l;
	uint64_t size = 0;
	long v;
	int c;

	memset(&l, 0, sizeof(l));
	l.port = HOSTS_DEFAULT_PORT;
	(void)parse_base(LAB_DEFAULT_BASE, &l.base);
	argi = 0;
	while ((c = opt_getopt("lab", OPT_LAB, argc, argv, &argi)) != -1) {
		switch (c) {
		case 'h':
			return usage();
		case OK_DIR:
			dir = optarg;
			break;
		case OK_PORT:
			if (parse_long(optarg, 1, 65535, &v) < 0)
				return cli_usage("lab", "--port wants 1..65535, got '%s'", optarg);
			l.port = (unsigned)v;
			break;
		case OK_BASE:
			if (parse_base(optarg, &l.base) < 0)
				return cli_usage("lab", "--base wants an IPv4 address in 127.0.0.0/8 (e.g. 127.0.30.1), "
						 "got '%s'", optarg);
			break;
		case OK_SIZE:
			if (parse_size(optarg, &size) < 0 || size < 4096)
				return cli_usage("lab", "--size wants a size of at least 4k (e.g. 64m), got '%s'", optarg);
			break;
		case OK_NETNS:
			l.netns = 1;
			break;
		case OK_LINK:
			if (lab_netns_parse_rate(optarg, &l.link_bps) < 0)
				return cli_usage("lab", "--link wants a rate of at least 1mbit in kbit, mbit, gbit or tbit "
						 "(e.g. 1gbit, 10gbit), got '%s'", optarg);
			l.link = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (!(verb = cli_verb("lab", argc, argv, "up N, down or status")))
		return EXIT_USAGE;
	if (!*dir)
		return cli_usage("lab", "--dir must not be empty");
	if (dir[0] == '/') {
		if (strlen(dir) >= sizeof(l.dir))
			return cli_usage("lab", "--dir too long");
		snprintf(l.dir, sizeof(l.dir), "%s", dir);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return cli_error(EXIT_HOST, "cannot get the current directory: %s", strerror(errno));
		if (strlen(cwd) + strlen(dir) + 2 > sizeof(l.dir))
			return cli_usage("lab", "--dir too long");
		char *joined = xasprintf("%s/%s", cwd, dir);
		memcpy(l.dir, joined, strlen(joined) + 1);
		free(joined);
	}
	while (strlen(l.dir) > 1 && l.dir[strlen(l.dir) - 1] == '/')
		l.dir[strlen(l.dir) - 1] = '\0';
	if (l.link && !l.netns)
		return cli_usage("lab", "--link shapes the links of the namespace lab: it needs --netns");
	if (!strcmp(verb, "up")) {
		if (optind + 2 != argc)
			return cli_usage("lab", "'lab up' wants the number of servers: bench lab up N");
		if (parse_long(argv[optind + 1], 1, LAB_MAX, &v) < 0)
			return cli_usage("lab", "the number of servers must be 1..%d, got '%s'", LAB_MAX, argv[optind + 1]);
		if ((uint64_t)l.base + (uint64_t)v - 1 > 0x7ffffffeull)
			return cli_usage("lab", "%ld servers from --base run past 127.255.255.254", v);
		if (l.netns)
			return netns_up(&l, (unsigned)v, size ? size : 256ull << 20);
		return lab_up(&l, (unsigned)v, size ? size : 32ull << 20);
	}
	if (optind + 1 != argc)
		return cli_usage("lab", "unexpected argument '%s'", argv[optind + 1]);
	if (!strcmp(verb, "down"))
		return lab_netns_present(l.dir) ? netns_down(&l, 0) : lab_down(&l, 0);
	if (!strcmp(verb, "status"))
		return lab_status(&l);
	return cli_usage("lab", "unknown action '%s' (up N, down or status)", verb);
}
