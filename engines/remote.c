/*
 * remote: the ssh words that reach a host (see remote.h).
 */
#include "engines/remote.h"

#include "core/strbuf.h"

size_t remote_ssh_prefix(const struct host *h, char **v)
{
	static const char *const opts[] = { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10" };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		v[n++] = xstrdup(opts[i]);
	if (h->ssh_user) {
		v[n++] = xstrdup("-l");
		v[n++] = xstrdup(h->ssh_user);
	}
	v[n++] = xstrdup("--");
	v[n++] = xstrdup(h->addr);
	return n;
}
