/*
 * fuzz_fio_log: fuzz target for fio's log file reader (engines/fio_log.c, fio_log_parse_buf). The input is a log
 * file's text; it is read twice, as a per-IO latency log (clat: histogram path) and as a bandwidth log, and every
 * log that parses is turned into samples and results (fio_logs_to_samples, fio_logs_to_result) as `bench import`
 * does. Checked: 0 or -1, and a one-line message on -1.
 * Corpus: tests/fixtures/fio/logs and tests/fuzz/corpus/fio_log.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/model.h"
#include "engines/fio_log.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum fio_log_kind kinds[] = { FIO_LOG_CLAT, FIO_LOG_BW };
	static const unsigned windows[] = { 0, 250 };

	if (size > 1 << 20)
		return 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct fio_log l;
		struct errbuf err;
		int rc;

		errbuf_init(&err);
		fio_log_init(&l);
		rc = fio_log_parse_buf((const char *)data, size, "fuzz_clat.log", kinds[k], windows[k], &l, &err);
		fuzz_check_err(rc, &err);
		if (rc == 0) {
			struct run_result r;
			struct host_result h;
			run_result_init(&r);
			fio_logs_to_samples(&l, 1, "localhost", &r);
			run_result_release(&r);
			host_result_init(&h, "localhost");
			rc = fio_logs_to_result(&l, 1, &h);
			if (rc != 0 && rc != -1)
				abort();
			host_result_release(&h);
		}
		fio_log_release(&l);
	}
	return 0;
}
