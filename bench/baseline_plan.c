/*
 * baseline_plan: which baseline runs a configuration needs (see baseline_plan.h). Until `baseline = on` is a
 * suite key, no configuration asks for one: nothing is planned.
 */
#include "bench/baseline_plan.h"

int baseline_plan_config(struct store *st, const struct plan *plan, const struct suite_config *c, size_t first,
			 size_t end, int built, const struct kvlist *labels, const char *record, struct plan *out,
			 struct errbuf *err)
{
	(void)st, (void)plan, (void)c, (void)first, (void)end, (void)built, (void)labels, (void)record, (void)out, (void)err;
	return 0;
}
