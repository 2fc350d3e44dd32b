/* chart_files: see chart_files.h. */
#include "report/chart_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int chart_write_text(const char *path, const struct strbuf *sb, struct errbuf *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len || fclose(f) != 0) {
		int e = errno;
		return err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

int chart_write_part(const char *dir, const char *stem, const char *ext, const struct strbuf *sb,
		     struct errbuf *err)
{
	char *path = xasprintf("%s/%s.%s", dir, stem, ext);
	int ret = chart_write_text(path, sb, err);

	free(path);
	return ret;
}
