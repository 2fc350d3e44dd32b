/*
 * names: HCIbench-style run names, generated and parsed:
 *   fio-<disks>vmdk-<ws>ws-<bs>-<rd>rdpct-<rand>randompct-<threads>threads[-<c>compress-<d>dedupe]
 * and the same with "vdb-" for vdbench-defined workloads. A run's name is generated where the workload fits the
 * pattern (one job per disk, block size not a split, working set as a percentage); otherwise it is the job's
 * own name. A name alone is also a profile (see build.c).
 */
#include "profiles/profile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/fio_job.h"

/* The working set percentage of a size text ("100%" -> 100; NULL -> 100, fio's whole file/device), or -1. */
int profile_ws_pct(const char *size)
{
	long v;
	size_t l;
	char *num;
	int rc;

	if (!size)
		return 100;
	l = strlen(size);
	if (l < 2 || size[l - 1] != '%')
		return -1;
	num = xstrndup(size, l - 1);
	rc = parse_long(num, 1, 100, &v);
	free(num);
	return rc < 0 ? -1 : (int)v;
}

int profile_name_format(const struct profile_name *n, char *buf, size_t len)
{
	char bs[32];
	int w;

	format_size_short(n->bs_bytes, bs, sizeof(bs));
	w = snprintf(buf, len, "%s-%uvmdk-%uws-%s-%urdpct-%urandompct-%uthreads", n->vdbench ? "vdb" : "fio", n->disks,
		     n->ws_pct, bs, n->read_pct, n->random_pct, n->threads);
	if (w >= 0 && (size_t)w < len && (n->compress_pct || n->dedupe_pct))
		w += snprintf(buf + w, len - (size_t)w, "-%ucompress-%udedupe", n->compress_pct, n->dedupe_pct);
	return w >= 0 && (size_t)w < len ? 0 : -1;
}

int profile_name_of_spec(const struct run_spec *s, struct profile_name *n)
{
	const struct workload *w = &s->wl;
	int ws = profile_ws_pct(w->size);

	memset(n, 0, sizeof(*n));
	if (ws < 0 || w->bs_bytes == 0 || w->bssplit || w->read_pct < 0 || w->random_pct < 0 || w->numjobs > 1 ||
	    w->iodepth == 0)
		return -1;
	n->vdbench = w->tool && !strcmp(w->tool, "vdbench");
	n->disks = s->ntargets ? (unsigned)s->ntargets : 1;
	n->ws_pct = (unsigned)ws;
	n->bs_bytes = w->bs_bytes;
	n->read_pct = (unsigned)w->read_pct;
	n->random_pct = (unsigned)w->random_pct;
	n->threads = w->iodepth;
	n->compress_pct = (unsigned)w->compress_pct;
	n->dedupe_pct = (unsigned)w->dedupe_pct;
	return 0;
}

char *profile_run_name(const struct run_spec *s)
{
	struct profile_name n;
	char buf[256];
	const char *job;

	if (profile_name_of_spec(s, &n) == 0 && profile_name_format(&n, buf, sizeof(buf)) == 0)
		return xstrdup(buf);
	/* fio names a job after its section; a name= option only counts where there is no section name */
	if (s->name && *s->name)
		return xstrdup(s->name);
	job = kvlist_get(&s->wl.opts, "name", NULL);
	return xstrdup(job && *job ? job : "job");
}

/* Reads "<digits><suffix>" at *p; advances. */
static int take_num(const char **p, const char *suffix, unsigned max, unsigned *out)
{
	const char *s = *p;
	unsigned long v = 0;
	size_t sl = strlen(suffix);

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s++ - '0');
		if (v > max)
			return -1;
	}
	if (strncmp(s, suffix, sl))
		return -1;
	s += sl;
	if (*s != '-' && *s != '\0')
		return -1;
	*p = *s ? s + 1 : s;
	*out = (unsigned)v;
	return 0;
}

int profile_name_parse(const char *name, struct profile_name *n)
{
	const char *p = name;
	const char *dash;
	char *bs;
	uint64_t b;

	memset(n, 0, sizeof(*n));
	if (!strncmp(p, "fio-", 4))
		n->vdbench = 0;
	else if (!strncmp(p, "vdb-", 4))
		n->vdbench = 1;
	else
		return -1;
	p += 4;
	if (take_num(&p, "vmdk", 100000, &n->disks) < 0 || n->disks == 0)
		return -1;
	if (take_num(&p, "ws", 100, &n->ws_pct) < 0 || n->ws_pct == 0)
		return -1;
	dash = strchr(p, '-');
	if (!dash)
		return -1;
	bs = xstrndup(p, (size_t)(dash - p));
	if (fio_parse_size(bs, &b) < 0 || b == 0 || !isalpha((unsigned char)bs[strlen(bs) - 1]) ||
	    strlen(bs) > 1 + strspn(bs, "0123456789")) {
		/* the name form is <digits><k|m|g>, or plain bytes */
		if (fio_parse_size(bs, &b) < 0 || b == 0 || bs[strspn(bs, "0123456789")]) {
			free(bs);
			return -1;
		}
	}
	free(bs);
	n->bs_bytes = b;
	p = dash + 1;
	if (take_num(&p, "rdpct", 100, &n->read_pct) < 0)
		return -1;
	if (take_num(&p, "randompct", 100, &n->random_pct) < 0)
		return -1;
	if (take_num(&p, "threads", 1000000, &n->threads) < 0 || n->threads == 0)
		return -1;
	if (*p) {
		if (take_num(&p, "compress", 100, &n->compress_pct) < 0)
			return -1;
		if (take_num(&p, "dedupe", 100, &n->dedupe_pct) < 0)
			return -1;
		if (*p)
			return -1;
	}
	/* the last token must not have ended in a dash ("...-4threads-") */
	if (name[strlen(name) - 1] == '-')
		return -1;
	return 0;
}
