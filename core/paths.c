/*
 * paths: the built-in suites and the sim ioengine, found by the environment override, then relative to the
 * running binary (the installed layout), then at the build-tree paths compiled in (see paths.h); and path_dir().
 */
#include "core/paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strbuf.h"

/* Compiled in by CMakeLists.txt: the build-tree fallbacks and the installed layout seen from the bin dir. */
#ifndef BENCH_LIBRARY_DIR
#define BENCH_LIBRARY_DIR ""
#endif
#ifndef BENCH_SIM_SO
#define BENCH_SIM_SO ""
#endif
#ifndef BENCH_INSTALL_LIBRARY_REL
#define BENCH_INSTALL_LIBRARY_REL "../share/bench/library"
#endif
#ifndef BENCH_INSTALL_SIM_SO_REL
#define BENCH_INSTALL_SIM_SO_REL "../lib/bench/bench_sim.so"
#endif

/*
 * <directory of the running binary>/<rel>, resolved (no "..", no symlinks) into out[PATH_MAX], when it exists
 * and has the file type `kind` (S_IFDIR, S_IFREG). Returns out, or NULL.
 */
static const char *beside_exe(const char *rel, mode_t kind, char *out)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", exe, rel) >= sizeof(path))
		return NULL;
	if (!realpath(path, out) || stat(out, &st) < 0 || (st.st_mode & S_IFMT) != kind)
		return NULL;
	return out;
}

/* $name when set and not empty, else the cached lookup beside the binary, else the compiled-in fallback. */
static const char *lookup(const char *name, const char *rel, mode_t kind, char *buf, const char **cache,
			  const char *fallback)
{
	const char *env = getenv(name);

	if (env && *env)
		return env;
	if (!*cache) {
		const char *found = beside_exe(rel, kind, buf);
		*cache = found ? found : fallback;
	}
	return *cache;
}

const char *paths_library_dir(void)
{
	static char buf[PATH_MAX];
	static const char *cache;

	return lookup("BENCH_LIBRARY", BENCH_INSTALL_LIBRARY_REL, S_IFDIR, buf, &cache, BENCH_LIBRARY_DIR);
}

const char *paths_sim_so(void)
{
	static char buf[PATH_MAX];
	static const char *cache;

	return lookup("BENCH_SIM_SO", BENCH_INSTALL_SIM_SO_REL, S_IFREG, buf, &cache, BENCH_SIM_SO);
}

char *path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}
