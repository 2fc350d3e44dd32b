/*
 * text: the trim and the file reading every reader of profiles/ shares (see text.h).
 */
#include "profiles/text.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

char *profile_trim(char *p)
{
	char *e;

	while (*p && isspace((unsigned char)*p))
		p++;
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return p;
}

int profile_read_file(struct strbuf *sb, const char *path, struct errbuf *err)
{
	if (strbuf_read_file(sb, path) == 0)
		return 0;
	err_set(err, ERR_INPUT, "%s: %s", path, strerror(errno));
	strbuf_release(sb);
	return -1;
}
