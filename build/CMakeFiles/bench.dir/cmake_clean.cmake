file(REMOVE_RECURSE
  "CMakeFiles/bench.dir/bench/cli.c.o"
  "CMakeFiles/bench.dir/bench/cli.c.o.d"
  "CMakeFiles/bench.dir/bench/cmd_import.c.o"
  "CMakeFiles/bench.dir/bench/cmd_import.c.o.d"
  "CMakeFiles/bench.dir/bench/cmd_plan.c.o"
  "CMakeFiles/bench.dir/bench/cmd_plan.c.o.d"
  "CMakeFiles/bench.dir/bench/cmd_report.c.o"
  "CMakeFiles/bench.dir/bench/cmd_report.c.o.d"
  "CMakeFiles/bench.dir/bench/cmd_run.c.o"
  "CMakeFiles/bench.dir/bench/cmd_run.c.o.d"
  "CMakeFiles/bench.dir/bench/commands.c.o"
  "CMakeFiles/bench.dir/bench/commands.c.o.d"
  "CMakeFiles/bench.dir/bench/main.c.o"
  "CMakeFiles/bench.dir/bench/main.c.o.d"
  "bench"
  "bench.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
