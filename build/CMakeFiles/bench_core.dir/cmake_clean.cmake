file(REMOVE_RECURSE
  "CMakeFiles/bench_core.dir/core/aggregate.c.o"
  "CMakeFiles/bench_core.dir/core/aggregate.c.o.d"
  "CMakeFiles/bench_core.dir/core/errbuf.c.o"
  "CMakeFiles/bench_core.dir/core/errbuf.c.o.d"
  "CMakeFiles/bench_core.dir/core/import.c.o"
  "CMakeFiles/bench_core.dir/core/import.c.o.d"
  "CMakeFiles/bench_core.dir/core/kv.c.o"
  "CMakeFiles/bench_core.dir/core/kv.c.o.d"
  "CMakeFiles/bench_core.dir/core/model.c.o"
  "CMakeFiles/bench_core.dir/core/model.c.o.d"
  "CMakeFiles/bench_core.dir/core/proc.c.o"
  "CMakeFiles/bench_core.dir/core/proc.c.o.d"
  "CMakeFiles/bench_core.dir/core/spec_json.c.o"
  "CMakeFiles/bench_core.dir/core/spec_json.c.o.d"
  "CMakeFiles/bench_core.dir/core/store.c.o"
  "CMakeFiles/bench_core.dir/core/store.c.o.d"
  "CMakeFiles/bench_core.dir/core/strbuf.c.o"
  "CMakeFiles/bench_core.dir/core/strbuf.c.o.d"
  "CMakeFiles/bench_core.dir/core/units.c.o"
  "CMakeFiles/bench_core.dir/core/units.c.o.d"
  "CMakeFiles/bench_core.dir/schema_sql.c.o"
  "CMakeFiles/bench_core.dir/schema_sql.c.o.d"
  "libbench_core.a"
  "libbench_core.pdb"
  "schema_sql.c"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_core.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
