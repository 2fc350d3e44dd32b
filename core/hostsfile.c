/*
 * hostsfile: the hosts file reader and writer (see hostsfile.h and docs/hosts.md). A small line parser: a
 * host starts on a line whose first character is not white space, continuation lines (leading white space)
 * add options to it, '#' starts a comment anywhere outside a word.
 */
#include "core/hostsfile.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parse {
	const char *name;
	int line;
	struct errbuf *err;
};

static int perr(struct parse *p, const char *fmt, const char *a, const char *b)
{
	char msg[ERRBUF_SIZE];

	snprintf(msg, sizeof(msg), fmt, a ? a : "", b ? b : "");
	return err_set(p->err, ERR_INPUT, "%s:%d: %s", p->name, p->line, msg);
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return 0;
	return 1;
}

/*
 * An address that looks like an IP literal must be one: digits and dots only is IPv4 (inet_pton: four decimal
 * parts 0..255, no leading zeros), a bracketed or colon form is IPv6 (an optional %zone after it). Anything
 * else is a host name, looked up when it is used; a string like 999.1.1.1 never reaches DNS.
 */
static int check_literal(struct parse *p, const char *word, const char *addr, int bracketed)
{
	unsigned char buf[sizeof(struct in6_addr)];

	if (bracketed || strchr(addr, ':')) {
		const char *pct = strchr(addr, '%');
		char *ip = xstrndup(addr, pct ? (size_t)(pct - addr) : strlen(addr));
		int ok = inet_pton(AF_INET6, ip, buf) == 1 && (!pct || pct[1]);

		free(ip);
		if (!ok)
			return perr(p, "bad address '%s': not a valid IPv6 address", word, NULL);
		return 0;
	}
	if (strspn(addr, "0123456789.") == strlen(addr) && inet_pton(AF_INET, addr, buf) != 1)
		return perr(p, "bad address '%s': not a valid IPv4 address", word, NULL);
	return 0;
}

/* Parses "addr", "addr:port", "[v6]" or "[v6]:port". */
static int parse_address(struct parse *p, const char *word, struct host *h)
{
	const char *colon = NULL, *end;
	char *addr;

	if (word[0] == '[') {
		end = strchr(word, ']');
		if (!end || end == word + 1)
			return perr(p, "bad address '%s': expected [IPv6] or [IPv6]:port", word, NULL);
		addr = xstrndup(word + 1, (size_t)(end - word - 1));
		if (end[1] == ':') {
			colon = end + 1;
		} else if (end[1]) {
			free(addr);
			goto bad;
		}
	} else {
		colon = strchr(word, ':');
		if (colon && strchr(colon + 1, ':')) {
			return perr(p, "bad address '%s': write an IPv6 address as [addr] or [addr]:port", word, NULL);
		}
		addr = colon ? xstrndup(word, (size_t)(colon - word)) : xstrdup(word);
	}
	if (!*addr) {
		free(addr);
		goto bad;
	}
	for (const char *c = addr; *c; c++) {
		if (!isalnum((unsigned char)*c) && !strchr(".-_:%", *c)) {
			free(addr);
			goto bad;
		}
	}
	if (check_literal(p, word, addr, word[0] == '[') < 0) {
		free(addr);
		return -1;
	}
	h->port = HOSTS_DEFAULT_PORT;
	if (colon) {
		char *e;
		unsigned long v;
		errno = 0;
		v = strtoul(colon + 1, &e, 10);
		if (errno || e == colon + 1 || *e || v == 0 || v > 65535 || !isdigit((unsigned char)colon[1])) {
			free(addr);
			return perr(p, "bad port in '%s': must be 1..65535", word, NULL);
		}
		h->port = (unsigned)v;
	}
	h->addr = addr;
	return 0;
bad:
	return perr(p, "bad address '%s': expected host, host:port or [IPv6]:port", word, NULL);
}

#define HOSTS_KEYS "role, target, exporter, ssh, ssh_port, ssh_key, ssh_known_hosts, workdir"

int host_path_canonical(const char *path)
{
	const char *s = path;

	if (s[0] != '/' || !s[1])
		return 0;
	while (*s == '/') {
		const char *e = strchr(s + 1, '/');
		size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);

		if (n == 0 || (n == 1 && s[1] == '.') || (n == 2 && s[1] == '.' && s[2] == '.'))
			return 0;
		if (!e)
			return 1;
		s = e;
	}
	return 0;
}

int host_path_in_workdir(const struct host *h, const char *path)
{
	size_t n = strlen(h->workdir);

	return n && host_path_canonical(path) && !strncmp(path, h->workdir, n) && path[n] == '/';
}

/* Trees that hold devices and kernel files: a workdir= there would let a device pass as one of bench's files. */
static int system_tree(const char *dir)
{
	static const char *const trees[] = { "/dev", "/proc", "/sys", "/run/udev" };

	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		size_t n = strlen(trees[i]);
		if (!strncmp(dir, trees[i], n) && (dir[n] == '\0' || dir[n] == '/'))
			return 1;
	}
	return 0;
}

static int set_ssh_port(struct parse *p, struct host *h, const char *val)
{
	char *e;
	unsigned long v;

	if (h->ssh_port)
		return perr(p, "ssh_port given twice for host '%s'", h->name, NULL);
	errno = 0;
	v = strtoul(val, &e, 10);
	if (errno || *e || !isdigit((unsigned char)val[0]) || v == 0 || v > 65535)
		return perr(p, "bad ssh_port '%s': must be 1..65535", val, NULL);
	h->ssh_port = (unsigned)v;
	return 0;
}

/* ssh_key=, ssh_known_hosts= (files on this machine) and workdir= (a canonical directory on that host). */
static int set_path(struct parse *p, struct host *h, const char *key, const char *val)
{
	char *dst = !strcmp(key, "ssh_key") ? h->ssh_key : !strcmp(key, "workdir") ? h->workdir : h->ssh_known_hosts;

	if (*dst)
		return perr(p, "%s given twice for host '%s'", key, h->name);
	if (strlen(val) >= HOST_PATH_MAX) {
		char max[16];
		snprintf(max, sizeof(max), "%d", HOST_PATH_MAX - 1);
		return perr(p, "'%s' is too long (at most %s bytes)", key, max);
	}
	if (dst == h->workdir && !host_path_canonical(val))
		return perr(p, "bad workdir '%s': must be an absolute path without '.', '..', '//' or a trailing '/'",
			    val, NULL);
	if (dst == h->workdir && system_tree(val))
		return perr(p, "bad workdir '%s': /dev, /proc, /sys and /run/udev hold devices, not bench's files", val,
			    NULL);
	if (val[0] == '-')
		return perr(p, "bad %s '%s': must not start with '-'", key, val);
	snprintf(dst, HOST_PATH_MAX, "%s", val);
	return 0;
}

static int add_option(struct parse *p, struct host *h, const char *word, int *seen_role)
{
	const char *eq = strchr(word, '=');
	char key[32];
	const char *val;
	size_t klen;

	if (!eq || eq == word)
		return perr(p, "expected key=value, got '%s'", word, NULL);
	klen = (size_t)(eq - word);
	if (klen >= sizeof(key))
		return perr(p, "unknown key in '%s' (known: " HOSTS_KEYS ")", word, NULL);
	memcpy(key, word, klen);
	key[klen] = '\0';
	val = eq + 1;
	if (!*val)
		return perr(p, "'%s' needs a value", key, NULL);
	if (!strcmp(key, "role")) {
		if (*seen_role)
			return perr(p, "role given twice for host '%s'", h->name, NULL);
		*seen_role = 1;
		if (!strcmp(val, "initiator"))
			h->role = ROLE_INITIATOR;
		else if (!strcmp(val, "target"))
			h->role = ROLE_TARGET;
		else
			return perr(p, "role must be 'initiator' or 'target', got '%s'", val, NULL);
	} else if (!strcmp(key, "target")) {
		for (size_t i = 0; i < h->ntargets; i++)
			if (!strcmp(h->targets[i], val))
				return perr(p, "target '%s' given twice for host '%s'", val, h->name);
		h->targets = xrealloc(h->targets, (h->ntargets + 1) * sizeof(*h->targets));
		h->targets[h->ntargets++] = xstrdup(val);
	} else if (!strcmp(key, "exporter") || !strcmp(key, "node_exporter")) {
		if (h->exporter_url)
			return perr(p, "exporter given twice for host '%s'", h->name, NULL);
		if (strncmp(val, "http://", 7) && strncmp(val, "https://", 8))
			return perr(p, "exporter must be an http:// or https:// URL, got '%s'", val, NULL);
		h->exporter_url = xstrdup(val);
	} else if (!strcmp(key, "ssh") || !strcmp(key, "ssh_user")) {
		if (h->ssh_user)
			return perr(p, "ssh user given twice for host '%s'", h->name, NULL);
		for (const char *c = val; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
				return perr(p, "bad ssh user '%s': letters, digits, '.', '_' and '-' only", val, NULL);
		if (val[0] == '-')
			return perr(p, "bad ssh user '%s': must not start with '-'", val, NULL);
		h->ssh_user = xstrdup(val);
	} else if (!strcmp(key, "ssh_port")) {
		return set_ssh_port(p, h, val);
	} else if (!strcmp(key, "ssh_key") || !strcmp(key, "ssh_known_hosts") || !strcmp(key, "workdir")) {
		return set_path(p, h, key, val);
	} else {
		return perr(p, "unknown key '%s' (known: " HOSTS_KEYS ")", key, NULL);
	}
	return 0;
}

/* Splits a line into words at white space; '#' at the start of a word starts a comment. */
static size_t split_words(char *line, char **words, size_t max)
{
	size_t n = 0;
	char *s = line;

	while (*s) {
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			break;
		if (n == max)
			return max + 1;
		words[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

int hostsfile_parse(const char *text, size_t len, const char *name, struct host_list *out, struct errbuf *err)
{
	struct parse p = { name, 0, err };
	const char *s = text, *end = text + len;
	int seen_role = 0, ret = -1;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t llen = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char *line, *words[256];
		size_t nw, first = 0;

		p.line++;
		if (memchr(s, '\0', llen)) {
			perr(&p, "NUL byte in hosts file", NULL, NULL);
			goto out;
		}
		line = xstrndup(s, llen);
		s += llen + (nl ? 1 : 0);
		if (llen && line[llen - 1] == '\r')
			line[llen - 1] = '\0';
		nw = split_words(line, words, 256);
		if (nw > 256) {
			free(line);
			perr(&p, "too many words on one line (continue on the next line)", NULL, NULL);
			goto out;
		}
		if (!nw) {
			free(line);
			continue;
		}
		if (!isspace((unsigned char)line[0])) {
			struct host h;

			memset(&h, 0, sizeof(h));
			if (!valid_name(words[0])) {
				perr(&p, "bad host name '%s': letters, digits, '.', '_' and '-' only", words[0], NULL);
				free(line);
				goto out;
			}
			for (size_t i = 0; i < out->n; i++) {
				if (!strcmp(out->v[i].name, words[0])) {
					char where[32];
					snprintf(where, sizeof(where), "%d", out->v[i].src_line);
					perr(&p, "host '%s' already defined on line %s", words[0], where);
					free(line);
					goto out;
				}
			}
			if (nw < 2 || strchr(words[1], '=')) {
				perr(&p, "host '%s' needs an address (name address[:port] [key=value...])", words[0], NULL);
				free(line);
				goto out;
			}
			h.name = xstrdup(words[0]);
			h.src_file = xstrdup(name);
			h.src_line = p.line;
			if (parse_address(&p, words[1], &h) < 0) {
				host_release(&h);
				free(line);
				goto out;
			}
			for (size_t i = 0; i < out->n; i++) {
				if (out->v[i].port == h.port && !strcmp(out->v[i].addr, h.addr)) {
					char *ep = host_endpoint(&h);
					perr(&p, "address '%s' already used by host '%s'", ep, out->v[i].name);
					free(ep);
					host_release(&h);
					free(line);
					goto out;
				}
			}
			ARRAY_GROW(out->v, out->cap, out->n + 1);
			out->v[out->n++] = h;
			seen_role = 0;
			first = 2;
		} else if (!out->n) {
			perr(&p, "continuation line before the first host", NULL, NULL);
			free(line);
			goto out;
		}
		for (size_t i = first; i < nw; i++) {
			if (add_option(&p, &out->v[out->n - 1], words[i], &seen_role) < 0) {
				free(line);
				goto out;
			}
		}
		free(line);
	}
	if (!out->n) {
		err_set(err, ERR_INPUT, "%s: no hosts in the hosts file", name);
		goto out;
	}
	ret = 0;
out:
	if (ret < 0)
		host_list_release(out);
	return ret;
}

int hostsfile_read(const char *path, struct host_list *out, struct errbuf *err)
{
	struct strbuf sb;
	int ret;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) < 0) {
		ret = err_set(err, ERR_INPUT, "%s: cannot read hosts file: %s", path, strerror(errno));
		goto out;
	}
	ret = hostsfile_parse(sb.buf, sb.len, path, out, err);
out:
	strbuf_release(&sb);
	return ret;
}

void hostsfile_write(const struct host_list *hosts, struct strbuf *out)
{
	strbuf_adds(out, "# bench hosts file: name address[:port] [role=initiator|target] [target=PATH]... "
			 "[exporter=URL] [ssh=USER] [ssh_port=N] [ssh_key=FILE] [ssh_known_hosts=FILE] [workdir=DIR]\n");
	for (size_t i = 0; i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];
		char *ep = host_endpoint(h);
		strbuf_addf(out, "%s %s", h->name, ep);
		free(ep);
		if (h->role != ROLE_INITIATOR)
			strbuf_addf(out, " role=%s", host_role_name(h->role));
		if (h->ssh_user)
			strbuf_addf(out, " ssh=%s", h->ssh_user);
		if (h->ssh_port)
			strbuf_addf(out, " ssh_port=%u", h->ssh_port);
		if (h->ssh_key[0])
			strbuf_addf(out, " ssh_key=%s", h->ssh_key);
		if (h->ssh_known_hosts[0])
			strbuf_addf(out, " ssh_known_hosts=%s", h->ssh_known_hosts);
		if (h->workdir[0])
			strbuf_addf(out, " workdir=%s", h->workdir);
		if (h->exporter_url)
			strbuf_addf(out, " exporter=%s", h->exporter_url);
		strbuf_addc(out, '\n');
		for (size_t t = 0; t < h->ntargets; t++)
			strbuf_addf(out, "    target=%s\n", h->targets[t]);
	}
}

void host_list_add_copy(struct host_list *l, const struct host *h)
{
	struct host c;

	memset(&c, 0, sizeof(c));
	c.name = xstrdup(h->name);
	c.addr = xstrdup(h->addr);
	c.port = h->port;
	c.role = h->role;
	if (h->ntargets) {
		c.targets = xcalloc(h->ntargets, sizeof(*c.targets));
		for (size_t i = 0; i < h->ntargets; i++)
			c.targets[i] = xstrdup(h->targets[i]);
		c.ntargets = h->ntargets;
	}
	c.exporter_url = xstrdup(h->exporter_url);
	c.ssh_user = xstrdup(h->ssh_user);
	c.ssh_port = h->ssh_port;
	memcpy(c.ssh_key, h->ssh_key, sizeof(c.ssh_key));
	memcpy(c.ssh_known_hosts, h->ssh_known_hosts, sizeof(c.ssh_known_hosts));
	memcpy(c.workdir, h->workdir, sizeof(c.workdir));
	c.src_file = xstrdup(h->src_file);
	c.src_line = h->src_line;
	ARRAY_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = c;
}

size_t host_list_count_role(const struct host_list *l, enum host_role role)
{
	size_t n = 0;

	for (size_t i = 0; l && i < l->n; i++)
		if (l->v[i].role == role)
			n++;
	return n;
}

char *host_fio_client_arg(const struct host *h)
{
	if (strchr(h->addr, ':'))
		return xasprintf("ip6:%s,%u", h->addr, h->port);
	return xasprintf("%s,%u", h->addr, h->port);
}

char *host_endpoint(const struct host *h)
{
	if (strchr(h->addr, ':'))
		return xasprintf("[%s]:%u", h->addr, h->port);
	return xasprintf("%s:%u", h->addr, h->port);
}
