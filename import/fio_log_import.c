/*
 * fio_log_import: fio log files as imported runs (see fio_log_import.h). A log makes one run named after the
 * file (the batch's suite is the path), or adds its series to a stored run (target_run_id). A log fio's
 * client wrote for a server (NAME_KIND.N.log.HOST) is read as NAME_KIND.N.log says (the metric of its kind)
 * and stored under host HOST, so the logs of several servers of one run are kept apart; any other log is
 * host "localhost", as fio wrote it on this machine.
 */
#include "import/fio_log_import.h"

#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/strbuf.h"
#include "engines/fio_histlog.h"
#include "engines/fio_log.h"
#include "engines/fio_logname.h"

/* The name a log is read as (without the client's .HOST) and the host its figures are stored under. */
struct log_name {
	char *bare;       /* path without ".HOST" */
	const char *host; /* HOST, or "localhost" */
};

static int log_name_init(struct log_name *n, const char *path, struct errbuf *err)
{
	const char *host = fio_log_client_host(path);

	n->bare = xstrdup(path);
	n->host = "localhost";
	if (!host)
		return 0;
	if (!strcmp(host, HOST_AGGREGATE)) {
		free(n->bare);
		n->bare = NULL;
		return err_set(err, ERR_INPUT, "%s: the host after '.log.' is '%s', the name bench gives all hosts "
			       "together: rename the file", path, host);
	}
	n->bare[host - path - 1] = '\0';
	n->host = host;
	return 0;
}

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

int fio_log_detect_import(const char *path)
{
	const char *host = fio_log_client_host(path);
	char *bare;
	int kind;

	if (!host)
		return fio_log_detect(path);
	bare = xstrndup(path, (size_t)(host - path - 1));
	kind = fio_log_kind_from_name(bare);
	free(bare);
	return kind >= 0 || fio_log_detect(path);
}

int fio_log_import(const char *path, int64_t target_run_id, struct import_batch *out, struct errbuf *err)
{
	struct fio_log l;
	struct log_name name;
	struct imported_run *ir;
	int kind, ret = -1;

	if (log_name_init(&name, path, err) < 0)
		return -1;
	kind = fio_log_kind_from_name(name.bare);
	fio_log_init(&l);
	if (fio_log_parse_file(path, kind < 0 ? FIO_LOG_LAT : (enum fio_log_kind)kind, 0, &l, err) < 0)
		goto out;
	ir = log_run(path, target_run_id, out);
	if (!target_run_id) {
		struct host_result h;
		host_result_init(&h, name.host);
		if (fio_logs_to_result(&l, 1, &h) == 0) {
			struct host_result *slot = run_result_add_host(&ir->res, name.host);
			host_result_release(slot);
			*slot = h;
			run_result_aggregate(&ir->res);
		} else {
			host_result_release(&h);
		}
	}
	fio_logs_to_samples(&l, 1, name.host, &ir->res);
	ret = 0;
out:
	fio_log_release(&l);
	free(name.bare);
	return ret;
}

int fio_histlog_import(const char *path, int64_t target_run_id, struct import_batch *out, struct errbuf *err)
{
	struct log_name name;
	struct imported_run *ir;
	long rc;

	if (log_name_init(&name, path, err) < 0)
		return -1;
	ir = log_run(path, target_run_id, out);
	rc = fio_histlog_read(path, name.host, 0, 0, fio_histlog_client_name(path) ? FIO_HISTLOG_CLIENT : 0,
			      &ir->res, err);
	free(name.bare);
	return rc < 0 ? -1 : 0;
}
