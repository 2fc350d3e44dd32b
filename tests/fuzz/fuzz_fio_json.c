/*
 * fuzz_fio_json: fuzz target for fio's JSON/JSON+ output reader (engines/fio_json.c, fio_json_parse). The input is
 * the whole output text (noise, several documents, client_stats[] and all). When it parses, the same bytes are
 * also imported from a file with fio_json_import (engines/fio_import.c: runs, hosts, aggregates, artifacts), since
 * that is the path `bench import` takes. Checked: 0 or -1, and a one-line message on -1.
 * Corpus: tests/fixtures/fio/json and tests/fuzz/corpus/fio_json.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/import.h"
#include "engines/fio_json.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_output o;
	struct errbuf err;
	int rc;

	if (size > 1 << 20)
		return 0;
	errbuf_init(&err);
	fio_output_init(&o);
	rc = fio_json_parse((const char *)data, size, "fuzz.json", &o, &err);
	fuzz_check_err(rc, &err);
	fio_output_release(&o);
	if (rc == 0) {
		struct import_batch b;
		char *path = fuzz_tmp_write("fio.json", data, size);
		import_batch_init(&b);
		errbuf_init(&err);
		fuzz_check_err(fio_json_import(path, &b, &err), &err);
		import_batch_release(&b);
		free(path);
	}
	return 0;
}
