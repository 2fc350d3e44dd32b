/*
 * config_record: the configuration record (see config_record.h).
 */
#include "bench/config_record.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/units.h"

/* Runs argv on `host` (NULL: here) and returns its stdout, or NULL. */
static char *capture(const struct suite_config *c, const char *host, char *const *argv, const struct host_list *hosts)
{
	struct config_step s;
	struct errbuf err;
	char **av, *out = NULL;
	int code = -1;

	memset(&s, 0, sizeof(s));
	s.argv = (char **)argv;
	for (s.argc = 0; argv[s.argc]; s.argc++)
		;
	s.host = (char *)host;
	s.origin = (char *)"config record";
	errbuf_init(&err);
	(void)c;
	if (!(av = steps_argv(NULL, &s, hosts, &err)))
		return NULL;
	if (proc_run_capture(av, 20000, &out, &code, &err) < 0 || code != 0) {
		free(out);
		out = NULL;
	}
	steps_argv_free(av);
	return out;
}

static void chomp(char *s)
{
	size_t n = s ? strlen(s) : 0;
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

static void label(struct kvlist *labels, struct strbuf *text, const char *prefix, const char *key, const char *v)
{
	char *k = xasprintf("cfg.%s%s", prefix, key);
	kvlist_set(labels, k, v);
	strbuf_addf(text, "%s = %s\n", k, v);
	free(k);
}

/* Value of "key : value" in /proc/cpuinfo-like text. */
static char *field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t' || p[kl] == ':')) {
			const char *c = strchr(p, ':'), *e;
			if (!c)
				return NULL;
			c++;
			while (*c == ' ' || *c == '\t')
				c++;
			e = strchr(c, '\n');
			return xstrndup(c, e ? (size_t)(e - c) : strlen(c));
		}
	}
	return NULL;
}

/*
 * The facts of a host: a command's output, chomped (no field), or the value of a "field : value" line of it
 * (the first of two field names that is there), cut at its first blank when first_word.
 */
static const struct host_fact {
	const char *key;
	char *const argv[3];
	const char *field, *alt_field;
	int first_word;
} host_fact_table[] = {
	{ "hostname", { "uname", "-n", NULL }, NULL, NULL, 0 },
	{ "kernel", { "uname", "-r", NULL }, NULL, NULL, 0 },
	{ "fio", { "fio", "--version", NULL }, NULL, NULL, 0 },
	{ "cpu", { "cat", "/proc/cpuinfo", NULL }, "model name", "Processor", 0 },
	{ "cpus", { "nproc", "--all", NULL }, NULL, NULL, 0 },
	{ "mem_kib", { "cat", "/proc/meminfo", NULL }, "MemTotal", NULL, 1 },
	/* the host tuning storage articles list: hugepages, C-states, the kernel command line */
	{ "hugepages", { "cat", "/proc/meminfo", NULL }, "HugePages_Total", NULL, 1 },
	{ "hugepage_kib", { "cat", "/proc/meminfo", NULL }, "Hugepagesize", NULL, 1 },
	{ "cpuidle_driver", { "cat", "/sys/devices/system/cpu/cpuidle/current_driver", NULL }, NULL, NULL, 0 },
	{ "intel_idle.max_cstate", { "cat", "/sys/module/intel_idle/parameters/max_cstate", NULL }, NULL, NULL, 0 },
	{ "cmdline", { "cat", "/proc/cmdline", NULL }, NULL, NULL, 0 },
};

/* The network sysctls of the host tuning (one `sysctl` call; a key the kernel lacks is left out). */
static char *const sysctl_argv[] = {
	"sysctl", "-e", "net.core.rmem_max", "net.core.wmem_max", "net.core.rmem_default", "net.core.wmem_default",
	"net.core.netdev_max_backlog", "net.core.somaxconn", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem",
	"net.ipv4.tcp_timestamps", "net.ipv4.tcp_sack", "net.ipv4.tcp_low_latency", "net.ipv4.tcp_congestion_control",
	NULL
};

/* cfg.sysctl.KEY for every "KEY = VALUE" line of `sysctl` (tabs in tcp_rmem's value become blanks). */
static void sysctl_facts(const struct suite_config *c, const char *host, const struct host_list *hosts,
			 const char *prefix, struct kvlist *labels, struct strbuf *text)
{
	char *out = capture(c, host, sysctl_argv, hosts);

	for (char *p = out, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		char *eq;
		if ((nl = strchr(p, '\n')))
			*nl = '\0';
		if ((eq = strstr(p, " = "))) {
			char *k;
			*eq = '\0';
			for (char *t = eq + 3; *t; t++)
				if (*t == '\t')
					*t = ' ';
			k = xasprintf("sysctl.%s", p);
			label(labels, text, prefix, k, eq + 3);
			free(k);
		}
		if (!nl)
			break;
	}
	free(out);
}

/* cfg.nic.IFACE.rx_ring / tx_ring: the current ring sizes `ethtool -g` gives for each interface but lo. */
static void nic_facts(const struct suite_config *c, const char *host, const struct host_list *hosts,
		      const char *prefix, struct kvlist *labels, struct strbuf *text)
{
	char *const ls_argv[] = { "ls", "/sys/class/net", NULL };
	char *list = capture(c, host, ls_argv, hosts);

	for (char *p = list, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		char *out, *cur;
		if ((nl = strchr(p, '\n')))
			*nl = '\0';
		if (*p && strcmp(p, "lo")) {
			char *const eg[] = { "ethtool", "-g", p, NULL };
			out = capture(c, host, eg, hosts);
			cur = out ? strstr(out, "Current hardware settings:") : NULL;
			for (int d = 0; cur && d < 2; d++) {
				char *v = field(cur, d ? "TX" : "RX"), *k = xasprintf("nic.%s.%s", p, d ? "tx_ring" : "rx_ring");
				if (v)
					label(labels, text, prefix, k, v);
				free(v);
				free(k);
			}
			free(out);
		}
		if (!nl)
			break;
	}
	free(list);
}

/* A rate as tc prints it ("1Gbit", "500Mbit", "100Kbit", "8bit"): bits per second, 0 if it is not one. */
static double tc_rate_bps(const char *w)
{
	const char *end;
	double v;

	return parse_bit_rate(w, &v, &end) == 0 && !isalnum((unsigned char)*end) ? v : 0;
}

/* The lowest "rate R" of a tbf qdisc or htb class in tc's output (`tc qdisc show`, `tc class show`), 0: none. */
static double tc_lowest_rate(const char *out, const char *kind)
{
	double low = 0;

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *nl = strchr(p, '\n'), *r = strstr(p, " rate ");
		double v;
		if (strncmp(p, kind, strlen(kind)) || !r || (nl && r > nl))
			continue;
		if ((v = tc_rate_bps(r + 6)) > 0 && (low == 0 || v < low))
			low = v;
	}
	return low;
}

/*
 * cfg.[HOST.]net.rate_bps: the link shaping in place on the host (the lowest tbf rate of `tc qdisc show`, or
 * htb class rate of `tc class show dev IFACE` where an htb qdisc is), bits per second; nothing when no
 * interface is shaped. Returns the rate (0: none).
 */
static double net_facts(const struct suite_config *c, const char *host, const struct host_list *hosts,
			const char *prefix, struct kvlist *labels, struct strbuf *text)
{
	char *const qd[] = { "tc", "qdisc", "show", NULL };
	char *out = capture(c, host, qd, hosts), buf[64];
	double low = tc_lowest_rate(out, "qdisc tbf ");

	for (const char *p = out; p && (p = strstr(p, "qdisc htb ")); p++) {
		const char *d = strstr(p, " dev ");
		char dev[64], *cl;
		if (!d || sscanf(d, " dev %63s", dev) != 1)
			continue;
		char *const ca[] = { "tc", "class", "show", "dev", dev, NULL };
		cl = capture(c, host, ca, hosts);
		double v = tc_lowest_rate(cl, "class htb ");
		if (v > 0 && (low == 0 || v < low))
			low = v;
		free(cl);
	}
	free(out);
	if (low > 0) {
		snprintf(buf, sizeof(buf), "%.0f", low);
		label(labels, text, prefix, "net.rate_bps", buf);
	}
	return low;
}

/* The facts of one host (NULL: this one) under cfg.[HOST.]; returns its link's shaped rate (0: none). */
static double host_facts(const struct suite_config *c, const char *host, const struct host_list *hosts,
			 struct kvlist *labels, struct strbuf *text)
{
	double rate;

	char *prefix = host ? xasprintf("%s.", host) : xstrdup("");

	strbuf_addf(text, "## host %s\n", host ? host : "(this host)");
	for (size_t i = 0; i < sizeof(host_fact_table) / sizeof(host_fact_table[0]); i++) {
		const struct host_fact *f = &host_fact_table[i];
		char *out = capture(c, host, f->argv, hosts), *v = out;

		if (!out)
			continue;
		if (!f->field)
			chomp(v);
		else if (!(v = field(out, f->field)) && f->alt_field)
			v = field(out, f->alt_field);
		if (v && f->first_word && strchr(v, ' '))
			*strchr(v, ' ') = '\0';
		if (v)
			label(labels, text, prefix, f->key, v);
		if (v != out)
			free(v);
		free(out);
	}
	sysctl_facts(c, host, hosts, prefix, labels, text);
	nic_facts(c, host, hosts, prefix, labels, text);
	rate = net_facts(c, host, hosts, prefix, labels, text);
	free(prefix);
	return rate;
}

/*
 * The initiators' links (cfg.HOST.net.rate_bps over ssh, for hosts of the hosts file with ssh) and the lowest
 * shaped rate of every host recorded as cfg.net.rate_bps: what the network lets through at most.
 */
static void link_facts(const struct suite_config *c, const struct host_list *hosts, double low,
		       struct kvlist *labels, struct strbuf *text)
{
	char buf[64];

	for (size_t i = 0; hosts && i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];
		char *prefix;
		double v;
		if (h->role != ROLE_INITIATOR || !h->ssh_user || (c->host && !strcmp(c->host, h->name)))
			continue;
		prefix = xasprintf("%s.", h->name);
		if ((v = net_facts(c, h->name, hosts, prefix, labels, text)) > 0 && (low == 0 || v < low))
			low = v;
		free(prefix);
	}
	if (low > 0) {
		snprintf(buf, sizeof(buf), "%.0f", low);
		label(labels, text, "", "net.rate_bps", buf);
	}
}

char *config_sys_attr(const char *path, const char *attr)
{
	struct stat st;
	struct strbuf sb;
	char *sys, *v = NULL;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return NULL;
	/* by the device number, so a symlink (the lab's /run/bench-lab/diskK) is the device it names */
	sys = xasprintf("/sys/dev/block/%u:%u/%s", major(st.st_rdev), minor(st.st_rdev), attr);
	strbuf_init(&sb);
	if (strbuf_read_file(&sb, sys) == 0) {
		v = strbuf_detach(&sb, NULL);
		chomp(v);
	}
	strbuf_release(&sb);
	free(sys);
	return v;
}

/* The /sys facts of one local block device. */
static void device_facts(const char *path, struct kvlist *labels, struct strbuf *text)
{
	static const struct { const char *file, *key; } files[] = {
		{ "device/model", "model" }, { "device/firmware_rev", "firmware" }, { "device/rev", "firmware" },
		{ "queue/scheduler", "scheduler" }, { "queue/nr_requests", "queue_depth" },
	};
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;
	char *v, *prefix;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	prefix = xasprintf("dev.%s.", name);
	strbuf_addf(text, "## device %s\n", path);
	if ((v = config_sys_attr(path, "size"))) {
		char *bytes = xasprintf("%llu", strtoull(v, NULL, 10) * 512ull);
		label(labels, text, prefix, "size_bytes", bytes);
		free(bytes);
		free(v);
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *k = xasprintf("cfg.%s%s", prefix, files[i].key);
		if (!kvlist_find(labels, k) && (v = config_sys_attr(path, files[i].file))) {
			char *lb = strchr(v, '['), *rb = lb ? strchr(lb, ']') : NULL;
			if (lb && rb) { /* queue/scheduler: "[none] mq-deadline": the one in use */
				memmove(v, lb + 1, (size_t)(rb - lb - 1));
				v[rb - lb - 1] = '\0';
			}
			label(labels, text, prefix, files[i].key, v);
			free(v);
		}
		free(k);
	}
	if ((v = config_sys_attr(path, "loop/backing_file"))) { /* text only: it names a path that differs between runs */
		strbuf_addf(text, "backing file = %s\n", v);
		free(v);
	}
	free(prefix);
}

/* cfg.members.names: the members' kernel names (a symlink such as /run/bench-lab/disk1 resolved), as the disk
 * rows name them: the devices a report counts for the IO amplification (report/cpuview.c). */
static void members_names(const struct suite_config *c, struct kvlist *labels)
{
	struct strbuf names;

	strbuf_init(&names);
	for (size_t i = 0; i < c->nmembers; i++) {
		char *real = realpath(c->members[i], NULL);
		const char *p = real ? real : c->members[i], *slash = strrchr(p, '/');

		strbuf_addf(&names, "%s%s", i ? "," : "", slash ? slash + 1 : p);
		free(real);
	}
	kvlist_set(labels, "cfg.members.names", names.buf);
	strbuf_release(&names);
}

/*
 * The member devices' facts: one label cfg.members.KEY when every member says the same (eight identical drives
 * are one fact), else cfg.dev.NAME.KEY per member; cfg.members = their count, cfg.members.names their kernel names.
 */
static void members_facts(const struct suite_config *c, struct kvlist *labels, struct strbuf *text)
{
	static const char *const keys[] = { "model", "firmware", "size_bytes", "scheduler", "queue_depth" };
	struct kvlist dev;
	char count[32];

	if (!c->nmembers)
		return;
	kvlist_init(&dev);
	for (size_t i = 0; i < c->nmembers; i++)
		device_facts(c->members[i], &dev, text);
	snprintf(count, sizeof(count), "%zu", c->nmembers);
	kvlist_set(labels, "cfg.members", count);
	members_names(c, labels);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *first = NULL;
		int same = 1, any = 0;
		for (size_t i = 0; i < c->nmembers; i++) {
			const char *name = strrchr(c->members[i], '/') ? strrchr(c->members[i], '/') + 1 : c->members[i];
			char *key = xasprintf("cfg.dev.%s.%s", name, keys[k]);
			const char *v = kvlist_get(&dev, key, NULL);
			free(key);
			any |= v != NULL;
			if (!i)
				first = v;
			else if (!v != !first || (v && strcmp(v, first)))
				same = 0;
		}
		if (!any)
			continue;
		if (same) {
			char *key = xasprintf("cfg.members.%s", keys[k]);
			kvlist_set(labels, key, first);
			free(key);
			continue;
		}
		for (size_t i = 0; i < c->nmembers; i++) {
			const char *name = strrchr(c->members[i], '/') ? strrchr(c->members[i], '/') + 1 : c->members[i];
			char *key = xasprintf("cfg.dev.%s.%s", name, keys[k]);
			const char *v = kvlist_get(&dev, key, NULL);
			if (v)
				kvlist_set(labels, key, v);
			free(key);
		}
	}
	kvlist_release(&dev);
}

void config_record_collect(const struct suite_config *c, const struct host_list *hosts, const char *workdir,
			   struct kvlist *labels, struct strbuf *text, struct step_log *log)
{
	const struct step_record *failed;
	size_t from = log->n;

	double low = host_facts(c, NULL, hosts, labels, text), v;

	if (c->host && strcmp(c->host, "local") && (v = host_facts(c, c->host, hosts, labels, text)) > 0 &&
	    (low == 0 || v < low))
		low = v;
	link_facts(c, hosts, low, labels, text);
	members_facts(c, labels, text);
	for (size_t i = 0; i < c->ntargets; i++)
		device_facts(c->targets[i], labels, text);
	if (c->precondition.n) /* the measurement method's settings, as the suite gave them */
		strbuf_adds(text, "## precondition\n");
	for (size_t i = 0; i < c->precondition.n; i++)
		strbuf_addf(text, "precondition.%s = %s\n", c->precondition.v[i].key, c->precondition.v[i].value);
	if (c->nsteps[CONFIG_RECORD]) {
		steps_run_phase(c, CONFIG_RECORD, hosts, workdir, NULL, log, &failed);
		/* without times, so that two records differ only where the configurations do */
		for (size_t i = from; i < log->n; i++) {
			const struct step_record *r = &log->v[i];
			strbuf_addf(text, "## %s%s$ %s (exit %d)\n", r->host ? r->host : "", r->host ? " " : "",
				    r->argv_text, r->exit_code);
			strbuf_adds(text, r->output ? r->output : "");
			if (r->output && *r->output && r->output[strlen(r->output) - 1] != '\n')
				strbuf_addc(text, '\n');
		}
	}
}
