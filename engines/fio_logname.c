/*
 * fio_logname: what a fio log file's name says, shared by the readers of averaged logs (fio_log.c) and of
 * histogram logs (fio_histlog.c) so that neither includes the other's header for it, and by the importer
 * (import/fio_log_import.c): the job a log belongs to and the server fio's client wrote it for.
 */
#include "engines/fio_logname.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

/* Where the kind of a log starts in its base name ("_iops." of "x_iops.1.log"): the last one; NULL if none. */
static const char *kind_at(const char *base)
{
	static const char *const suffixes[] = { "_lat.", "_clat.", "_slat.", "_bw.", "_iops." };
	const char *at = NULL, *p;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		for (p = base; (p = strstr(p, suffixes[i])) != NULL; p++)
			if (!at || p > at)
				at = p;
	if (!at && (p = strstr(base, "_clat_hist.")) != NULL)
		at = p;
	return at;
}

const char *fio_log_client_host(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *at, *p;

	base = base ? base + 1 : path;
	at = kind_at(base);
	if (!at)
		return NULL;
	p = strchr(at + 1, '.') + 1; /* after "_iops." */
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.')
		p++;
	return !strncmp(p, "log.", 4) && p[4] ? p + 4 : NULL;
}

void fio_log_job_from_name(const char *path, char *job, size_t len)
{
	const char *base = strrchr(path, '/');
	const char *at, *p;
	size_t k = 0;

	base = base ? base + 1 : path;
	if (len)
		job[0] = '\0';
	at = kind_at(base);
	if (!at || !len)
		return;
	p = strchr(at + 1, '.') + 1; /* after "_iops." */
	while (k + 1 < len && base + k < at) {
		job[k] = base[k];
		k++;
	}
	if (*p >= '0' && *p <= '9' && k + 1 < len)
		job[k++] = '.';
	while (*p >= '0' && *p <= '9' && k + 1 < len)
		job[k++] = *p++;
	job[k] = '\0';
}
