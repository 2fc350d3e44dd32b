/*
 * fuzz_fio_json: fuzz target for fio's JSON/JSON+ output reader (engines/fio_json.c, fio_json_parse). The input is
 * the whole output text (noise, several documents, client_stats[] and all). When it parses, the same bytes are
 * also imported from a file with fio_json_import (import/fio_json_import.c: runs, hosts, aggregates, artifacts), since
 * that is the path `bench import` takes. Checked: 0 or -1, and a one-line message on -1.
 * Corpus: tests/fixtures/fio/json and tests/fuzz/corpus/fio_json.
 */
#include <stdint.h>
#include <stdlib.h>

#include "import/import.h"
#include "import/fio_json_import.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The same bytes imported from a file, as `bench import` reads them. */
static void check_import(const uint8_t *data, size_t size)
{
	char *path = fuzz_tmp_write("fio.json", data, size);
	struct import_batch b;
	struct errbuf err;

	import_batch_init(&b);
	errbuf_init(&err);
	fuzz_check_err(fio_json_import(path, &b, &err), &err);
	import_batch_release(&b);
	free(path);
}

/* The bytes as fio's output: 0 when they parse. */
static int check_parse(const uint8_t *data, size_t size)
{
	struct fio_output o;
	struct errbuf err;
	int rc;

	fio_output_init(&o);
	errbuf_init(&err);
	rc = fuzz_check_err(fio_json_parse((const char *)data, size, "fuzz.json", &o, &err), &err);
	fio_output_release(&o);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size <= 1 << 20 && check_parse(data, size) == 0)
		check_import(data, size);
	return 0;
}
