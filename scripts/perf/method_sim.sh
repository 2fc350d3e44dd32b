#!/usr/bin/env bash
# method_sim: runs tests/unit/test_method_sim (curves, sweeps and preconditioning to steady state through the
# library, driving real fio on the sim engine; see that file for the model's answers). Not in ctest: the same
# model answers are asserted through `bench run` by tests/integration/method_curve.sh (curve points within 5 %),
# method_sweep.sh (the sweep stops where the model says) and method_precondition.sh (steady state after the
# cliff), so this library-level copy of them (about a minute of timed runs that must run alone) is kept here, to
# run by hand when profiles/method*.c or report/analysis/steady.c change.
#
# usage: scripts/perf/method_sim.sh [BUILD_DIR]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
build=${1:-$HERE/../../build}
bin=$build/tests/test_method_sim
[ -x "$bin" ] || { echo "method_sim: $bin is not built (scripts/build; cmocka needed)" >&2; exit 2; }
[ -f "$build/engines/sim/bench_sim.so" ] || { echo "method_sim: no sim engine in $build (-DBENCH_SIM=OFF)" >&2; exit 2; }
BENCH_METHOD_SIM=1 exec "$bin"
