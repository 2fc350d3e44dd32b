/*
 * cpuview_json: the CPU and disk figures of one run as a JSON object (cpuview_json.h).
 */
#include "report/cpuview_json.h"

#include "report/escape.h"
#include "report/numfmt.h"

void cpuview_json(struct strbuf *out, const struct cpuview_run *v)
{
	if (!v) {
		strbuf_adds(out, "null");
		return;
	}
	strbuf_adds(out, "{\"cpu\":[");
	for (size_t i = 0; i < v->ncpu; i++) {
		const struct store_cpu *x = &v->cpu[i];

		strbuf_adds(out, i ? ",{\"host\":" : "{\"host\":");
		esc_json(out, x->host);
		strbuf_adds(out, ",\"role\":");
		esc_json(out, x->role);
		strbuf_adds(out, ",\"source\":");
		esc_json(out, x->source);
		strbuf_adds(out, ",\"cores\":");
		if (x->cores > 0)
			strbuf_addf(out, "%d", x->cores);
		else
			strbuf_adds(out, "null");
		strbuf_adds(out, ",\"util_pct\":");
		render_exact(out, x->util_pct, "null");
		strbuf_adds(out, ",\"cpu_us_per_io\":");
		render_exact(out, x->cpu_us_per_io, "null");
		for (int k = 0; k < CPU_SHARE_NR; k++) {
			strbuf_addf(out, ",\"%s\":", cpuview_share_keys[k]);
			render_exact(out, x->share_pct[k], "null");
		}
		strbuf_addc(out, '}');
	}
	strbuf_adds(out, "],\"disks\":[");
	for (size_t i = 0; i < v->ndisks; i++) {
		const struct cpuview_disk *d = &v->disks[i];

		strbuf_adds(out, i ? ",{\"host\":" : "{\"host\":");
		esc_json(out, d->host);
		strbuf_adds(out, ",\"device\":");
		esc_json(out, d->device);
		strbuf_adds(out, ",\"role\":");
		if (d->role)
			esc_json(out, d->role);
		else
			strbuf_adds(out, "null");
		strbuf_addf(out, ",\"reads\":%llu,\"writes\":%llu,\"read_sectors\":%llu,\"write_sectors\":%llu,"
				 "\"io_ticks_ms\":%llu,\"counted\":%s}",
			    (unsigned long long)d->reads, (unsigned long long)d->writes,
			    (unsigned long long)d->read_sectors, (unsigned long long)d->write_sectors,
			    (unsigned long long)d->io_ticks_ms, d->counted ? "true" : "false");
	}
	strbuf_adds(out, "],\"front_end_ios\":");
	render_exact(out, v->front_end_ios, "null");
	strbuf_addf(out, ",\"device_ios\":%llu,\"devices_of\":", (unsigned long long)v->device_ios);
	strbuf_adds(out, v->scope == CPUVIEW_SCOPE_TARGET ? "\"target\"" :
			 v->scope == CPUVIEW_SCOPE_ALL ? "\"all\"" : "null");
	strbuf_adds(out, ",\"io_amplification\":");
	render_exact(out, v->amplification, "null");
	strbuf_addc(out, '}');
}
