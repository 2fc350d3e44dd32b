/*
 * config_collect: the configurations of the suites a command names (suite files and built-in suite names, as
 * plan_build reads them), for the run loop and `bench profiles show`. Apart from config.c because it reads
 * suite files (suite.h includes config.h: the model stays below the reader).
 */
#include "profiles/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "profiles/profile.h"
#include "profiles/suite.h"

static int is_suite_file(const char *path)
{
	size_t l = strlen(path);
	FILE *f;

	if (l < 6 || strcmp(path + l - 6, ".suite"))
		return 0;
	f = fopen(path, "r");
	if (f)
		fclose(f);
	return f != NULL;
}

int config_collect(const char *const *args, size_t nargs, struct config_list *out, struct errbuf *err)
{
	for (size_t i = 0; i < nargs; i++) {
		struct suite su;
		char *lib = xasprintf("%s/%s.suite", profile_library_dir(), args[i]);
		const char *path = is_suite_file(args[i]) ? args[i] : strchr(args[i], '/') ? NULL : lib;
		FILE *f = path ? fopen(path, "r") : NULL;
		int rc = 0;

		if (!f) {
			free(lib);
			continue;
		}
		fclose(f);
		suite_init(&su);
		if (suite_parse_file(path, &su, err) < 0)
			rc = -1;
		if (!rc && config_list_merge(out, &su.configs, err) < 0)
			rc = -1;
		suite_release(&su);
		free(lib);
		if (rc)
			return -1;
	}
	return 0;
}
