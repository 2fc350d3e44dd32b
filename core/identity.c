/*
 * identity: see identity.h. First version: tool, block size (or split), read % and random %.
 */
#include "core/identity.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/strbuf.h"

void workload_identity_kv(const struct workload *w, struct kvlist *out)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%" PRIu64, w->bs_bytes);
	kvlist_add(out, "bs", w->bs_bytes ? buf : (w->bssplit ? w->bssplit : "?"));
	snprintf(buf, sizeof(buf), "%d", w->random_pct);
	kvlist_add(out, "random_pct", buf);
	snprintf(buf, sizeof(buf), "%d", w->read_pct);
	kvlist_add(out, "read_pct", buf);
	kvlist_add(out, "tool", w->tool ? w->tool : "?");
}

char *workload_identity(const struct workload *w)
{
	struct kvlist kv;
	struct strbuf sb;

	kvlist_init(&kv);
	strbuf_init(&sb);
	workload_identity_kv(w, &kv);
	for (size_t i = 0; i < kv.n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? "|" : "", kv.v[i].key, kv.v[i].value);
	kvlist_release(&kv);
	return strbuf_detach(&sb, NULL);
}
