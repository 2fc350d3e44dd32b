/*
 * fuzz_node_exporter: fuzz target for the Prometheus text exposition parser and node_exporter metric mapping
 * (collectors/node_exporter.c: prom_parse, node_exporter_parse), i.e. what a scrape answer goes through. A first
 * pass runs prom_parse alone with a callback that looks up labels; the second fills a snapshot.
 * Checked: 0 or -1, and a one-line message on -1.
 * Corpus: tests/data/procstat/node_exporter and tests/fuzz/corpus/node_exporter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/collector.h"
#include "collectors/node_exporter.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_sample(void *ctx, const struct prom_sample *s, struct errbuf *err)
{
	size_t *n = ctx;
	const char *v;

	(void)err;
	if (!s->name || s->nlabels > PROM_MAX_LABELS)
		abort();
	for (size_t i = 0; i < s->nlabels; i++)
		if (!s->label[i].name || !s->label[i].value)
			abort();
	v = prom_label_value(s, "cpu");
	if (v)
		*n += strlen(v);
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct collect_snapshot snap;
	struct errbuf err;
	size_t n = 0;

	if (size > NODE_EXPORTER_MAX_BYTES)
		return 0;
	errbuf_init(&err);
	fuzz_check_err(prom_parse((const char *)data, size, "fuzz.prom", on_sample, &n, &err), &err);
	collect_snapshot_init(&snap);
	errbuf_init(&err);
	fuzz_check_err(node_exporter_parse((const char *)data, size, "fuzz.prom", &snap, &err), &err);
	collect_snapshot_release(&snap);
	return 0;
}
