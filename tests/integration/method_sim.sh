#!/usr/bin/env bash
# method_sim: runs tests/unit/test_method_sim (curves, sweeps and preconditioning to steady state, driving real
# fio on the sim engine; see that file for the model's answers) alone, as integration tests run serially.
set -euo pipefail
: "${BENCH_BUILD:?BENCH_BUILD is not set (run under ctest)}"
bin=$BENCH_BUILD/tests/test_method_sim
[ -x "$bin" ] || { echo "FAIL: $bin is missing (cmocka not found at configure time?)" >&2; exit 1; }
if [ ! -f "$BENCH_BUILD/engines/sim/bench_sim.so" ]; then
  echo "method_sim: no sim engine (built with -DBENCH_SIM=OFF): nothing to test (skipped)"
  exit 77
fi
BENCH_METHOD_SIM=1 "$bin"
