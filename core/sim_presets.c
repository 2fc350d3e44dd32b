/*
 * sim_presets: the preset table of the sim engine and the sim_* value parsers (sim_presets.h). The engine
 * compiles this file into its .so (engines/sim/CMakeLists.txt), so it uses the C library only.
 */
#include "core/sim_presets.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Illustrative models, not measurements (docs/sim.md "Presets"): a local NVMe SSD, and the same SSD reached
 * over NVMe-oF/RDMA (100 Gb/s), iSER (100 Gb/s) and iSCSI over TCP (25 GbE).
 */
static const struct sim_preset presets[] = {
	{ "local", 2e3, 0, 0, 80e3, 0.25, 64, 700e3, 3.2e9 },
	{ "nvmeof-rdma", 10e3, 12.5e9, 0, 80e3, 0.25, 64, 700e3, 3.2e9 },
	{ "iser", 30e3, 12.5e9, 400e3, 80e3, 0.25, 64, 700e3, 3.2e9 },
	{ "iscsi-tcp", 70e3, 3.125e9, 200e3, 80e3, 0.25, 64, 700e3, 3.2e9 },
};

const char *const sim_preset_names[] = { "local", "nvmeof-rdma", "iser", "iscsi-tcp", NULL };

const struct sim_preset *sim_preset_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

int sim_parse_number(const char *s, double *out, const char **rest)
{
	char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	*rest = end;
	return 0;
}

int sim_parse_duration_ns(const char *s, double *out)
{
	static const struct { const char *suffix; double ns; } units[] = {
		{ "", 1e3 }, { "ns", 1 }, { "us", 1e3 }, { "usec", 1e3 }, { "ms", 1e6 }, { "msec", 1e6 },
		{ "s", 1e9 }, { "sec", 1e9 },
	};
	const char *rest;
	double v;

	if (!s || sim_parse_number(s, &v, &rest) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(rest, units[i].suffix)) {
			*out = v * units[i].ns;
			return 0;
		}
	return -1;
}

int sim_parse_bytes(const char *s, double *out)
{
	const char *rest;
	double v, mult = 1;
	size_t n;

	if (!s || sim_parse_number(s, &v, &rest) < 0)
		return -1;
	switch (tolower((unsigned char)*rest)) {
	case 'k': mult = 1024.0; rest++; break;
	case 'm': mult = 1024.0 * 1024; rest++; break;
	case 'g': mult = 1024.0 * 1024 * 1024; rest++; break;
	case 't': mult = 1024.0 * 1024 * 1024 * 1024; rest++; break;
	default: break;
	}
	if (mult > 1 && tolower((unsigned char)rest[0]) == 'i' && tolower((unsigned char)rest[1]) == 'b')
		rest += 2;
	else if (tolower((unsigned char)rest[0]) == 'b')
		rest++;
	n = strlen(rest);
	if (n && strcmp(rest, "/s"))
		return -1;
	*out = v * mult;
	return 0;
}
