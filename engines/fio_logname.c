/*
 * fio_logname: what a fio log file's name says, shared by the readers of averaged logs (fio_log.c) and of
 * histogram logs (fio_histlog.c) so that neither includes the other's header for it: the job a log belongs
 * to.
 */
#include "engines/fio_logname.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

void fio_log_job_from_name(const char *path, char *job, size_t len)
{
	const char *base = strrchr(path, '/');
	static const char *const suffixes[] = { "_lat.", "_clat.", "_slat.", "_bw.", "_iops." };
	const char *at = NULL, *p;
	size_t k = 0;

	base = base ? base + 1 : path;
	if (len)
		job[0] = '\0';
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		for (p = base; (p = strstr(p, suffixes[i])) != NULL; p++)
			if (!at || p > at)
				at = p;
	if (!at && (p = strstr(base, "_clat_hist.")) != NULL)
		at = p;
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
