/*
 * paths: where bench finds the files it ships besides its binary (the built-in suites, the sim ioengine), so
 * that an installed bench works from any directory and a bench in its build tree works without installing.
 * Each lookup takes, in order: the environment override, the installed location relative to the running
 * binary (/proc/self/exe: <exe dir>/../share/bench/library, <exe dir>/../lib/bench/bench_sim.so), the
 * build-tree path compiled in. The installed layout is what `cmake --install` writes (CMakeLists.txt).
 */
#ifndef BENCH_CORE_PATHS_H
#define BENCH_CORE_PATHS_H

/*
 * Directory of the built-in suites (NAME.suite files): $BENCH_LIBRARY if set and not empty, else the
 * installed library next to the binary if that directory exists, else the source tree's profiles/library.
 * The string is static: valid for the whole process, never freed.
 */
const char *paths_library_dir(void);

/*
 * The sim ioengine's shared object (fio ioengine=external:<path>): $BENCH_SIM_SO if set and not empty, else
 * the installed one next to the binary if that file exists, else the one in the build tree; "" when bench was
 * built without the sim engine (BENCH_SIM=OFF). Static, like paths_library_dir().
 */
const char *paths_sim_so(void);

/* The directory part of path as a new string: "." for a bare name, "/" for a name right under the root. */
char *path_dir(const char *path);

#endif
