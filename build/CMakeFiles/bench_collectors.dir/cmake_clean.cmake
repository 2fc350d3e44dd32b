file(REMOVE_RECURSE
  "CMakeFiles/bench_collectors.dir/collectors/collectors.c.o"
  "CMakeFiles/bench_collectors.dir/collectors/collectors.c.o.d"
  "libbench_collectors.a"
  "libbench_collectors.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_collectors.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
