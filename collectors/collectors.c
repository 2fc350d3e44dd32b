/*
 * collectors: the explicit list of registered collectors and the checks of their ops tables.
 */
#include "collectors/collector.h"

#include <string.h>

static const struct collector_ops *const registered[] = {
	NULL,
};

const struct collector_ops *const *collector_list(void)
{
	return registered;
}

const struct collector_ops *collector_find(const char *name)
{
	for (size_t i = 0; registered[i]; i++)
		if (!strcmp(registered[i]->name, name))
			return registered[i];
	return NULL;
}

int collector_check_ops(const struct collector_ops *ops, struct errbuf *err)
{
	if (!ops->name || ops->version != COLLECTOR_OPS_VERSION)
		return err_set(err, ERR_INTERNAL, "collector '%s' has a bad ops version", ops->name ? ops->name : "?");
	if (!ops->open || !ops->sample || !ops->finish || !ops->close)
		return err_set(err, ERR_INTERNAL, "collector '%s' lacks a required hook", ops->name);
	return 0;
}
