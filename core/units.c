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

/* A unit suffix and what it multiplies by (matched without regard to case). */
struct unit {
	const char *suffix;
	double mult;
};

#define KI 1024.0
static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 }, { "k", KI }, { "kb", KI }, { "kib", KI }, { "m", KI * KI }, { "mb", KI * KI },
	{ "mib", KI * KI }, { "g", KI * KI * KI }, { "gb", KI * KI * KI }, { "gib", KI * KI * KI },
	{ "t", KI * KI * KI * KI }, { "tb", KI * KI * KI * KI }, { "tib", KI * KI * KI * KI },
	{ "p", KI * KI * KI * KI * KI }, { "pb", KI * KI * KI * KI * KI }, { "pib", KI * KI * KI * KI * KI },
};
#undef KI

static const struct unit duration_units[] = {
	{ "", 1 }, { "s", 1 }, { "sec", 1 }, { "ms", 0.001 }, { "msec", 0.001 }, { "us", 1e-6 }, { "usec", 1e-6 },
	{ "m", 60 }, { "min", 60 }, { "h", 3600 }, { "d", 86400 },
};

/*
 * The number at the start of s (no leading space; `nonneg`: no sign '-' and not below 0) into *v and what
 * follows into *rest; -1 when there is none or it is out of range. The whole string when rest is NULL.
 */
static int lead_number(const char *s, int nonneg, double *v, const char **rest)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || (nonneg && *s == '-'))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || !isfinite(*v) || (nonneg && *v < 0) || (!rest && *end))
		return -1;
	if (rest)
		*rest = end;
	return 0;
}

/* A non-negative number with one of the units of the table, multiplied out. */
static int number_with_unit(const char *s, const struct unit *u, size_t nu, double *out)
{
	const char *rest;
	double v;

	if (lead_number(s, 1, &v, &rest) < 0)
		return -1;
	for (size_t i = 0; i < nu; i++)
		if (!strcasecmp(rest, u[i].suffix)) {
			*out = v * u[i].mult;
			return 0;
		}
	return -1;
}

int parse_double(const char *s, double *out)
{
	return lead_number(s, 0, out, NULL);
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
	double v;

	if (number_with_unit(s, size_units, sizeof(size_units) / sizeof(size_units[0]), &v) < 0 || v > 1.8e19)
		return -1;
	*out = (uint64_t)llround(v);
	return 0;
}

int parse_duration_s(const char *s, double *out)
{
	return number_with_unit(s, duration_units, sizeof(duration_units) / sizeof(duration_units[0]), out);
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

int parse_bit_rate(const char *s, double *bps, const char **end)
{
	static const struct { const char *unit; double mul; } units[] = {
		{ "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 }, { "tbit", 1e12 }, { "bit", 1 },
	};
	char *num_end;
	double v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &num_end);
	if (errno || !(v > 0))
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].unit);

		if (!strncasecmp(num_end, units[i].unit, n)) {
			*bps = v * units[i].mul;
			if (end)
				*end = num_end + n;
			return 0;
		}
	}
	return -1;
}
