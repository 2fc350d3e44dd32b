/*
 * fuzz_csv_import: fuzz target for the CSV reader of published results (import/csv_import.c, csv_import_parse),
 * once without and once with a --map (column renames, a label and an ignored column), as `bench import --csv`
 * calls it. Checked: 0 or -1, and a one-line message on -1.
 * Corpus: the CSV files of examples/ and tests/fuzz/corpus/csv_import.
 */
#include <stdint.h>
#include <stdlib.h>

#include "import/csv_import.h"
#include "import/import.h"
#include "core/kv.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvlist map;
	struct errbuf err;

	if (size > 1 << 20)
		return 0;
	kvlist_init(&map);
	errbuf_init(&err);
	if (csv_map_add(&map, "config=workload,stack=label:stack,notes=-", &err) < 0)
		abort();
	for (int pass = 0; pass < 2; pass++) {
		struct import_batch b;
		import_batch_init(&b);
		errbuf_init(&err);
		fuzz_check_err(csv_import_parse((const char *)data, size, "fuzz.csv", pass ? &map : NULL, &b, &err),
			       &err);
		import_batch_release(&b);
	}
	kvlist_release(&map);
	return 0;
}
