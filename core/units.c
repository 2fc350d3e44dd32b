/*
 * units: sizes, durations and numbers (see units.h).
 */
#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v, mult = 1;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (*end) {
		switch (tolower((unsigned char)*end)) {
		case 'k': mult = 1024.0; break;
		case 'm': mult = 1024.0 * 1024; break;
		case 'g': mult = 1024.0 * 1024 * 1024; break;
		case 't': mult = 1024.0 * 1024 * 1024 * 1024; break;
		case 'p': mult = 1024.0 * 1024 * 1024 * 1024 * 1024; break;
		case 'b': mult = 1; end--; break;
		default: return -1;
		}
		end++;
		if (!strcasecmp(end, "ib") || !strcasecmp(end, "b") || !*end)
			;
		else
			return -1;
	}
	v *= mult;
	if (v > 1.8e19)
		return -1;
	*out = (uint64_t)llround(v);
	return 0;
}

int parse_duration_s(const char *s, double *out)
{
	char *end;
	double v, mult = 1;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (!*end)
		mult = 1;
	else if (!strcasecmp(end, "s") || !strcasecmp(end, "sec"))
		mult = 1;
	else if (!strcasecmp(end, "ms") || !strcasecmp(end, "msec"))
		mult = 0.001;
	else if (!strcasecmp(end, "us") || !strcasecmp(end, "usec"))
		mult = 1e-6;
	else if (!strcasecmp(end, "m") || !strcasecmp(end, "min"))
		mult = 60;
	else if (!strcasecmp(end, "h"))
		mult = 3600;
	else if (!strcasecmp(end, "d"))
		mult = 86400;
	else
		return -1;
	*out = v * mult;
	return 0;
}

const char *format_utc_ms(int64_t epoch_ms, char *buf, unsigned long len)
{
	time_t sec = (time_t)(epoch_ms / 1000);
	struct tm tm;
	size_t n;

	gmtime_r(&sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ", (unsigned)(epoch_ms % 1000));
	return buf;
}

const char *format_size_short(uint64_t bytes, char *buf, unsigned long len)
{
	static const char sfx[] = "kmgtp";
	int i = -1;
	uint64_t v = bytes;

	while (v && v % 1024 == 0 && i < 4) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, sfx[i]);
	return buf;
}

int parse_percent_fraction(const char *s, double lo, double hi, double *out)
{
	char buf[64];
	size_t n = strlen(s);
	double v;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == '%')
		buf[n - 1] = '\0';
	if (parse_double(buf, &v) < 0 || !(v > lo && v < hi))
		return -1;
	*out = v / 100;
	return 0;
}
