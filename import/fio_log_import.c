/*
 * fio_log_import: fio log files as imported runs (see fio_log_import.h). A log makes one run named after the
 * file (the batch's suite is the path), or adds its series to a stored run (target_run_id).
 */
#include "import/fio_log_import.h"

#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/strbuf.h"
#include "engines/fio_histlog.h"
#include "engines/fio_log.h"

/*
 * Adds to `out` the run that `bench import` of the log file at path fills: the batch's suite is named path,
 * the run after the file's base name, engine "import", tool fio, source file path; target_run_id as given
 * (non-zero: the samples go to that stored run). Returns the run (owned by out).
 */
static struct imported_run *log_run(const char *path, int64_t target_run_id, struct import_batch *out)
{
	const char *base = strrchr(path, '/');
	struct imported_run *ir;

	free(out->suite_name);
	out->suite_name = xstrdup(path);
	ir = import_batch_add(out);
	ir->target_run_id = target_run_id;
	ir->spec.name = xstrdup(base ? base + 1 : path);
	ir->spec.engine = xstrdup("import");
	ir->spec.wl.tool = xstrdup("fio");
	ir->spec.wl.src_file = xstrdup(path);
	return ir;
}

int fio_log_import(const char *path, int64_t target_run_id, struct import_batch *out, struct errbuf *err)
{
	struct fio_log l;
	struct imported_run *ir;
	int kind = fio_log_kind_from_name(path);

	fio_log_init(&l);
	if (fio_log_parse_file(path, kind < 0 ? FIO_LOG_LAT : (enum fio_log_kind)kind, 0, &l, err) < 0)
		return -1;
	ir = log_run(path, target_run_id, out);
	if (!target_run_id) {
		struct host_result h;
		host_result_init(&h, "localhost");
		if (fio_logs_to_result(&l, 1, &h) == 0) {
			struct host_result *slot = run_result_add_host(&ir->res, "localhost");
			host_result_release(slot);
			*slot = h;
			run_result_aggregate(&ir->res);
		} else {
			host_result_release(&h);
		}
	}
	fio_logs_to_samples(&l, 1, "localhost", &ir->res);
	fio_log_release(&l);
	return 0;
}

int fio_histlog_import(const char *path, int64_t target_run_id, struct import_batch *out, struct errbuf *err)
{
	struct imported_run *ir = log_run(path, target_run_id, out);

	return fio_histlog_read(path, "localhost", 0, 0, fio_histlog_client_name(path) ? FIO_HISTLOG_CLIENT : 0,
				&ir->res, err) < 0 ? -1 : 0;
}
