/*
 * fio_values: checks of fio option values fio only fails on when a job starts (fio_values.h).
 */
#include "profiles/fio_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/fio_job.h"

/* size=N%: fio takes 1..100 percent of the file or device. */
static int check_size(const char *v, const char *where, struct errbuf *err)
{
	size_t l = strlen(v);
	char *num;
	long pct;
	int bad;

	if (l < 2 || v[l - 1] != '%')
		return 0; /* a plain size: fio_workload.c reads it */
	num = xstrndup(v, l - 1);
	bad = parse_long(num, 1, 100, &pct) < 0;
	free(num);
	if (bad)
		return err_set(err, ERR_INPUT, "%s: 'size' as a percentage must be 1%%..100%% of the target, got '%s'",
			       where, v);
	return 0;
}

/* One direction of bssplit: size/pct:size/pct:... (pct may be left out: fio shares what is left). */
static int check_bssplit_ddir(const char *v, size_t len, const char *all, const char *where, struct errbuf *err)
{
	char *d = xstrndup(v, len), *save = NULL, *item;
	long sum = 0;
	int rc = 0;

	if (!*d) {
		free(d);
		return 0; /* fio: an empty direction keeps the previous one's split */
	}
	for (item = strtok_r(d, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(item, '/');
		uint64_t b;
		long pct = 0;

		if (slash)
			*slash = '\0';
		if (fio_parse_size(item, &b) < 0 || !b) {
			rc = err_set(err, ERR_INPUT, "%s: 'bssplit' item '%s' is not a block size fio reads, in '%s'",
				     where, item, all);
			break;
		}
		if (slash && slash[1] && parse_long(slash + 1, 0, 100, &pct) < 0) {
			rc = err_set(err, ERR_INPUT, "%s: 'bssplit' percentage '%s' of '%s' must be a whole number "
				     "0..100, in '%s'", where, slash + 1, item, all);
			break;
		}
		sum += pct;
	}
	if (!rc && sum > 100)
		rc = err_set(err, ERR_INPUT, "%s: 'bssplit' percentages add up to %ld (more than 100), in '%s'", where, sum, all);
	free(d);
	return rc;
}

static int check_bssplit(const char *v, const char *where, struct errbuf *err)
{
	const char *p = v;

	if (!*v)
		return err_set(err, ERR_INPUT, "%s: 'bssplit' needs size/percent items, e.g. 4k/60:64k/40", where);
	for (;;) {
		size_t n = strcspn(p, ",");
		if (check_bssplit_ddir(p, n, v, where, err) < 0)
			return -1;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int fio_value_check(const char *key, const char *value, const char *where, struct errbuf *err)
{
	if (!value)
		return 0;
	if (!strcmp(key, "size"))
		return check_size(value, where, err);
	if (!strcmp(key, "bssplit"))
		return check_bssplit(value, where, err);
	return 0;
}

int fio_values_check(const struct kvlist *opts, const char *const *files, const int *lines, const char *file,
		     int line, struct errbuf *err)
{
	for (size_t i = 0; i < opts->n; i++) {
		char where[512];

		snprintf(where, sizeof(where), "%s:%d", files && files[i] ? files[i] : file,
			 files && files[i] ? lines[i] : line);
		if (fio_value_check(opts->v[i].key, opts->v[i].value, where, err) < 0)
			return -1;
	}
	return 0;
}
