/*
 * text: the trim, the file reading and the comma lists every reader of profiles/ shares (see text.h).
 */
#include "profiles/text.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
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

int profile_common_key(const char *key, const char *val, char **name, char **description, struct kvlist *labels,
		       const char *file, int line, struct errbuf *err)
{
	char **text = !strcmp(key, "name") ? name : !strcmp(key, "description") ? description : NULL;
	char *k, *v;

	if (text) {
		free(*text);
		*text = xstrdup(val);
		return 1;
	}
	if (strcmp(key, "label"))
		return 0;
	if (kv_parse_label(val, &k, &v) < 0)
		return err_set(err, ERR_INPUT, "%s:%d: label must be key=value, got '%s'", file, line, val);
	kvlist_set(labels, k, v);
	free(k);
	free(v);
	return 1;
}

void free_list(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

char **split_list(const char *s, char sep, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0;
	const char *p = s;

	for (;;) {
		const char *e = strchr(p, sep);
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char *item;
		while (l && isspace((unsigned char)*p)) {
			p++;
			l--;
		}
		while (l && isspace((unsigned char)p[l - 1]))
			l--;
		if (!l) {
			free_list(v);
			return NULL;
		}
		item = xstrndup(p, l);
		v = xrealloc(v, (cnt + 2) * sizeof(*v));
		v[cnt++] = item;
		v[cnt] = NULL;
		if (!e)
			break;
		p = e + 1;
	}
	if (n)
		*n = cnt;
	return v;
}

char **profile_dir_names(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = xcalloc(1, sizeof(*v));
	size_t n = 0, sl = strlen(suffix);

	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l <= sl || strcmp(de->d_name + l - sl, suffix))
			continue;
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrndup(de->d_name, l - sl);
		v[n] = NULL;
	}
	if (d)
		closedir(d);
	for (size_t i = 1; i < n; i++) /* insertion sort: a few dozen names */
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v;
}
