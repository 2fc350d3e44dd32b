
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/bench/cli.c" "CMakeFiles/bench.dir/bench/cli.c.o" "gcc" "CMakeFiles/bench.dir/bench/cli.c.o.d"
  "/work/main/bench/cmd_import.c" "CMakeFiles/bench.dir/bench/cmd_import.c.o" "gcc" "CMakeFiles/bench.dir/bench/cmd_import.c.o.d"
  "/work/main/bench/cmd_plan.c" "CMakeFiles/bench.dir/bench/cmd_plan.c.o" "gcc" "CMakeFiles/bench.dir/bench/cmd_plan.c.o.d"
  "/work/main/bench/cmd_report.c" "CMakeFiles/bench.dir/bench/cmd_report.c.o" "gcc" "CMakeFiles/bench.dir/bench/cmd_report.c.o.d"
  "/work/main/bench/cmd_run.c" "CMakeFiles/bench.dir/bench/cmd_run.c.o" "gcc" "CMakeFiles/bench.dir/bench/cmd_run.c.o.d"
  "/work/main/bench/commands.c" "CMakeFiles/bench.dir/bench/commands.c.o" "gcc" "CMakeFiles/bench.dir/bench/commands.c.o.d"
  "/work/main/bench/main.c" "CMakeFiles/bench.dir/bench/main.c.o" "gcc" "CMakeFiles/bench.dir/bench/main.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/bench_profiles.dir/DependInfo.cmake"
  "/work/main/build/CMakeFiles/bench_engines.dir/DependInfo.cmake"
  "/work/main/build/CMakeFiles/bench_collectors.dir/DependInfo.cmake"
  "/work/main/build/CMakeFiles/bench_report.dir/DependInfo.cmake"
  "/work/main/build/CMakeFiles/bench_core.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
