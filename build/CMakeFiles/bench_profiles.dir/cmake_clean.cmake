file(REMOVE_RECURSE
  "CMakeFiles/bench_profiles.dir/profiles/plan.c.o"
  "CMakeFiles/bench_profiles.dir/profiles/plan.c.o.d"
  "libbench_profiles.a"
  "libbench_profiles.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_profiles.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
