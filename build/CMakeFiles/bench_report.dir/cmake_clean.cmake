file(REMOVE_RECURSE
  "CMakeFiles/bench_report.dir/report/escape.c.o"
  "CMakeFiles/bench_report.dir/report/escape.c.o.d"
  "libbench_report.a"
  "libbench_report.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_report.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
