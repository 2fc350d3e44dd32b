/*
 * remote: the ssh words that reach a host (see remote.h), built from the host's ssh=, ssh_port=, ssh_key= and
 * ssh_known_hosts= in one place, so that starting servers, configuration steps and the target probe reach a
 * host the same way.
 */
#include "engines/remote.h"

#include "core/strbuf.h"

size_t remote_ssh_prefix(const struct host *h, char **v)
{
	static const char *const opts[] = { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10" };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		v[n++] = xstrdup(opts[i]);
	if (h->ssh_port) {
		v[n++] = xstrdup("-p");
		v[n++] = xasprintf("%u", h->ssh_port);
	}
	if (h->ssh_key[0]) {
		v[n++] = xstrdup("-i");
		v[n++] = xstrdup(h->ssh_key);
		v[n++] = xstrdup("-o");
		v[n++] = xstrdup("IdentitiesOnly=yes");
	}
	if (h->ssh_known_hosts[0]) {
		v[n++] = xstrdup("-o");
		v[n++] = xasprintf("UserKnownHostsFile=%s", h->ssh_known_hosts);
		v[n++] = xstrdup("-o");
		v[n++] = xstrdup("StrictHostKeyChecking=yes");
	}
	if (h->ssh_user) {
		v[n++] = xstrdup("-l");
		v[n++] = xstrdup(h->ssh_user);
	}
	v[n++] = xstrdup("--");
	v[n++] = xstrdup(h->addr);
	return n;
}

int remote_has_ssh(const struct host *h)
{
	return h->ssh_user || h->ssh_port || h->ssh_key[0];
}
