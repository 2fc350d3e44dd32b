
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/core/aggregate.c" "CMakeFiles/bench_core.dir/core/aggregate.c.o" "gcc" "CMakeFiles/bench_core.dir/core/aggregate.c.o.d"
  "/work/main/core/errbuf.c" "CMakeFiles/bench_core.dir/core/errbuf.c.o" "gcc" "CMakeFiles/bench_core.dir/core/errbuf.c.o.d"
  "/work/main/core/import.c" "CMakeFiles/bench_core.dir/core/import.c.o" "gcc" "CMakeFiles/bench_core.dir/core/import.c.o.d"
  "/work/main/core/kv.c" "CMakeFiles/bench_core.dir/core/kv.c.o" "gcc" "CMakeFiles/bench_core.dir/core/kv.c.o.d"
  "/work/main/core/model.c" "CMakeFiles/bench_core.dir/core/model.c.o" "gcc" "CMakeFiles/bench_core.dir/core/model.c.o.d"
  "/work/main/core/proc.c" "CMakeFiles/bench_core.dir/core/proc.c.o" "gcc" "CMakeFiles/bench_core.dir/core/proc.c.o.d"
  "/work/main/core/spec_json.c" "CMakeFiles/bench_core.dir/core/spec_json.c.o" "gcc" "CMakeFiles/bench_core.dir/core/spec_json.c.o.d"
  "/work/main/core/store.c" "CMakeFiles/bench_core.dir/core/store.c.o" "gcc" "CMakeFiles/bench_core.dir/core/store.c.o.d"
  "/work/main/core/strbuf.c" "CMakeFiles/bench_core.dir/core/strbuf.c.o" "gcc" "CMakeFiles/bench_core.dir/core/strbuf.c.o.d"
  "/work/main/core/units.c" "CMakeFiles/bench_core.dir/core/units.c.o" "gcc" "CMakeFiles/bench_core.dir/core/units.c.o.d"
  "/work/main/build/schema_sql.c" "CMakeFiles/bench_core.dir/schema_sql.c.o" "gcc" "CMakeFiles/bench_core.dir/schema_sql.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
