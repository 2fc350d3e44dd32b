/*
 * explain_render: `bench report --explain` (explain_render.h). The model lives in report/analysis/explain.c.
 * Until the model lands this says so, with the exit code of an engine that cannot do what was asked.
 */
#include "report/format/explain_render.h"

int explain_render(struct strbuf *out, struct store *st, const struct rep_set *set, const struct rep_table *table,
		   const struct cmp_table *cmp, enum rep_format format, struct errbuf *err)
{
	(void)out;
	(void)st;
	(void)set;
	(void)table;
	(void)cmp;
	(void)format;
	return err_set(err, ERR_USAGE, "--explain is not available in this build yet");
}
