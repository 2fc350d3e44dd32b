/*
 * fuzz_vdbench_output: fuzz target for the vdbench output directory reader (import/vdbench_output.c,
 * vdbench_output_import), which only reads files. The input is split at lines holding only a form feed ("\n\f\n")
 * into up to four files of a scratch output directory, in this order: flatfile.html, parmfile.html, totals.html,
 * logfile.html (a part that is not there is not written). A plain flatfile is thus a valid input; the seeds in
 * tests/fuzz/corpus/vdbench_output join the four files of a real output directory.
 * Checked: 0 or -1, and a one-line message on -1.
 * Corpus: tests/fixtures/vdbench/outputs/<dir>/flatfile.html and tests/fuzz/corpus/vdbench_output.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/vdbench_output.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "flatfile.html", "parmfile.html", "totals.html", "logfile.html" };
	const size_t nnames = sizeof(names) / sizeof(names[0]);
	struct import_batch b;
	struct errbuf err;
	size_t off = 0, part = 0;

	if (size > 1 << 20)
		return 0;
	for (; part < nnames; part++) {
		const uint8_t *sep = NULL;
		size_t len;
		for (size_t i = off; i + 3 <= size; i++) {
			if (data[i] == '\n' && data[i + 1] == '\f' && data[i + 2] == '\n') {
				sep = data + i;
				break;
			}
		}
		len = sep && part + 1 < nnames ? (size_t)(sep - (data + off)) : size - off;
		free(fuzz_tmp_write(names[part], data + off, len));
		off += len;
		if (off >= size || part + 1 == nnames)
			break;
		off += 3; /* the separator */
	}
	for (size_t i = part + 1; i < nnames; i++)
		fuzz_tmp_remove(names[i]);
	import_batch_init(&b);
	errbuf_init(&err);
	fuzz_check_err(vdbench_output_import(fuzz_tmp_dir(), &b, &err), &err);
	import_batch_release(&b);
	return 0;
}
