/*
 * chart_files: writing a chart's data file and gnuplot script (see chart_files.h).
 */
#include "report/chart_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int chart_files_write(const char *dir, const char *stem, const struct strbuf *data, const struct strbuf *script,
		      struct errbuf *err)
{
	const struct {
		const char *ext;
		const struct strbuf *text;
	} files[] = { { "dat", data }, { "gp", script } };
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < sizeof(files) / sizeof(files[0]); i++) {
		const struct strbuf *t = files[i].text;
		char *path;
		FILE *f;

		if (!t)
			continue;
		path = xasprintf("%s/%s.%s", dir, stem, files[i].ext);
		f = fopen(path, "w");
		if (!f || (t->len && fwrite(t->buf, 1, t->len, f) != t->len))
			ret = err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
		if (f && fclose(f) != 0 && ret == 0)
			ret = err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
		free(path);
	}
	return ret;
}
