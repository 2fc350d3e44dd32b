/*
 * identity: see identity.h. First version: tool, block size (or split), read % and random %.
 */
#include "core/identity.h"

#include <stdio.h>

#include "core/strbuf.h"
#include "core/units.h"

char *workload_identity(const struct workload *w)
{
	char bs[32];

	if (w->bs_bytes)
		format_size_short(w->bs_bytes, bs, sizeof(bs));
	else
		snprintf(bs, sizeof(bs), "%s", w->bssplit ? w->bssplit : "?");
	return xasprintf("%s|%s|%d|%d", w->tool ? w->tool : "?", bs, w->read_pct, w->random_pct);
}
