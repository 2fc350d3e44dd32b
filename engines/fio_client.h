/*
 * fio_client: the multi-host side of the fio engine: one fio client process driving `fio --server` on every
 * host of a hosts file (reference/fio.md "Client/server mode"). The fio engine (fio_engine.c) hands a run to
 * these functions when run->hosts is non-empty; they have the same contract as the engine_ops hooks.
 */
#ifndef BENCH_ENGINES_FIO_CLIENT_H
#define BENCH_ENGINES_FIO_CLIENT_H

#include "engines/engine.h"

int fio_client_prepare(struct engine_run *run, struct errbuf *err);
int fio_client_start(struct engine_run *run, struct errbuf *err);
int fio_client_wait(struct engine_run *run, int timeout_ms, struct errbuf *err);
int fio_client_collect(struct engine_run *run, struct run_result *out, enum run_status *status, struct errbuf *err);
void fio_client_stop(struct engine_run *run);
void fio_client_release(struct engine_run *run);

#endif
