/*
 * engines: the explicit list of registered engines and the checks of their ops tables.
 */
#include "engines/engine.h"

#include <string.h>

extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_fio_ops;
extern const struct engine_ops engine_sim_ops;

static const struct engine_ops *const registered[] = {
	&engine_fio_ops,
	&engine_sim_ops,
	&engine_null_ops,
	NULL,
};

const struct engine_ops *const *engine_list(void)
{
	return registered;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; registered[i]; i++)
		if (!strcmp(registered[i]->name, name))
			return registered[i];
	return NULL;
}

int engine_check_ops(const struct engine_ops *ops, struct errbuf *err)
{
	if (err_check_ops_head(err, "an engine", "engine", ops->name, ops->version, ENGINE_OPS_VERSION) < 0)
		return -1;
	if (!ops->prepare || !ops->start || !ops->wait || !ops->collect || !ops->stop)
		return err_set(err, ERR_INTERNAL, "engine '%s' lacks a required hook (%s)", ops->name,
			       !ops->prepare ? "prepare" : !ops->start ? "start" : !ops->wait ? "wait" :
			       !ops->collect ? "collect" : "stop");
	return 0;
}

int engine_check_all(struct errbuf *err)
{
	for (size_t i = 0; registered[i]; i++)
		if (engine_check_ops(registered[i], err) < 0)
			return -1;
	return 0;
}

unsigned engine_deadline_s(const struct engine_run *run)
{
	const struct workload *w = &run->spec->wl;
	return w->ramp_s + w->runtime_s + run->grace_s + 30;
}
