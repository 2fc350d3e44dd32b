/*
 * hostsfile: the hosts file reader and writer (see hostsfile.h and docs/hosts.md). A small line parser: a
 * host starts on a line whose first character is not white space, continuation lines (leading white space)
 * add options to it, '#' starts a comment anywhere outside a word.
 */
#include "core/hostsfile.h"

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
		return perr(p, "unknown key in '%s' (known: role, target, exporter, ssh)", word, NULL);
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
	} else {
		return perr(p, "unknown key '%s' (known: role, target, exporter, ssh)", key, NULL);
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
			 "[exporter=URL] [ssh=USER]\n");
	for (size_t i = 0; i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];
		char *ep = host_endpoint(h);
		strbuf_addf(out, "%s %s", h->name, ep);
		free(ep);
		if (h->role != ROLE_INITIATOR)
			strbuf_addf(out, " role=%s", host_role_name(h->role));
		if (h->ssh_user)
			strbuf_addf(out, " ssh=%s", h->ssh_user);
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
