/*
 * cpuview_json: the CPU and disk figures of one run as a JSON object (cpuview_json.h).
 */
#include "report/format/cpuview_json.h"

#include <math.h>

#include "report/text/escape.h"
#include "report/text/numfmt.h"

/* `"key":` after sep, then the string as JSON (NULL: null). */
static void key_str(struct strbuf *out, const char *sep, const char *key, const char *v)
{
	strbuf_addf(out, "%s\"%s\":", sep, key);
	if (v)
		esc_json(out, v);
	else
		strbuf_adds(out, "null");
}

/* `,"key":` then the number at full precision (NaN: null). */
static void key_num(struct strbuf *out, const char *key, double v)
{
	strbuf_addf(out, ",\"%s\":", key);
	render_exact(out, v, "null");
}

static void cpu_json(struct strbuf *out, const struct store_cpu *x)
{
	key_str(out, "{", "host", x->host);
	key_str(out, ",", "role", x->role);
	key_str(out, ",", "source", x->source);
	key_num(out, "cores", x->cores > 0 ? x->cores : NAN);
	key_num(out, "util_pct", x->util_pct);
	key_num(out, "cpu_us_per_io", x->cpu_us_per_io);
	for (int k = 0; k < CPU_SHARE_NR; k++)
		key_num(out, cpuview_share_keys[k], x->share_pct[k]);
	strbuf_addc(out, '}');
}

static void disk_json(struct strbuf *out, const struct cpuview_disk *d)
{
	key_str(out, "{", "host", d->host);
	key_str(out, ",", "device", d->device);
	key_str(out, ",", "role", d->role);
	strbuf_addf(out, ",\"reads\":%llu,\"writes\":%llu,\"read_sectors\":%llu,\"write_sectors\":%llu,"
			 "\"io_ticks_ms\":%llu,\"counted\":%s}",
		    (unsigned long long)d->reads, (unsigned long long)d->writes, (unsigned long long)d->read_sectors,
		    (unsigned long long)d->write_sectors, (unsigned long long)d->io_ticks_ms,
		    d->counted ? "true" : "false");
}

void cpuview_json(struct strbuf *out, const struct cpuview_run *v)
{
	if (!v) {
		strbuf_adds(out, "null");
		return;
	}
	strbuf_adds(out, "{\"cpu\":[");
	for (size_t i = 0; i < v->ncpu; i++) {
		if (i)
			strbuf_addc(out, ',');
		cpu_json(out, &v->cpu[i]);
	}
	strbuf_adds(out, "],\"disks\":[");
	for (size_t i = 0; i < v->ndisks; i++) {
		if (i)
			strbuf_addc(out, ',');
		disk_json(out, &v->disks[i]);
	}
	strbuf_adds(out, "]");
	key_num(out, "front_end_ios", v->front_end_ios);
	strbuf_addf(out, ",\"device_ios\":%llu", (unsigned long long)v->device_ios);
	key_str(out, ",", "devices_of", v->scope == CPUVIEW_SCOPE_TARGET ? "target" :
					  v->scope == CPUVIEW_SCOPE_ALL ? "all" :
					  v->scope == CPUVIEW_SCOPE_DEVICES ? "named" : NULL);
	key_num(out, "io_amplification", v->amplification);
	strbuf_addc(out, '}');
}
