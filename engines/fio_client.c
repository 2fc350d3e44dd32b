/*
 * fio_client: placeholder until the multi-host engine lands; every hook refuses with a clear message.
 */
#include "engines/fio_client.h"

int fio_client_prepare(struct engine_run *run, struct errbuf *err)
{
	(void)run;
	return err_set(err, ERR_HOST, "runs on several hosts (--hosts) are not available in this build yet");
}

int fio_client_start(struct engine_run *run, struct errbuf *err)
{
	return fio_client_prepare(run, err);
}

int fio_client_wait(struct engine_run *run, int timeout_ms, struct errbuf *err)
{
	(void)timeout_ms;
	return fio_client_prepare(run, err);
}

int fio_client_collect(struct engine_run *run, struct run_result *out, enum run_status *status, struct errbuf *err)
{
	(void)out;
	*status = RUN_FAILED;
	return fio_client_prepare(run, err);
}

void fio_client_stop(struct engine_run *run)
{
	(void)run;
}

void fio_client_release(struct engine_run *run)
{
	(void)run;
}
