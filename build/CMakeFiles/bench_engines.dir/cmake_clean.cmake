file(REMOVE_RECURSE
  "CMakeFiles/bench_engines.dir/engines/engines.c.o"
  "CMakeFiles/bench_engines.dir/engines/engines.c.o.d"
  "CMakeFiles/bench_engines.dir/engines/null.c.o"
  "CMakeFiles/bench_engines.dir/engines/null.c.o.d"
  "libbench_engines.a"
  "libbench_engines.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_engines.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
