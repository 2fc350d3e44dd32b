#!/bin/bash
# gate_grid: the tables of error rates of the fixed gate in docs/gate.md ("Error rates over the grid", "Error
# rates"): tests/unit/test_gate with every cell of the grid (CI runs every other size at cv 3% and 10%, the
# same cells with the same seeds). Not a test: prints the figures. Takes about 20 s of CPU.
#
# usage: scripts/perf/gate_grid.sh [BUILD_DIR]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
build=${1:-$HERE/../../build}
exe=$build/tests/test_gate
[ -x "$exe" ] || { echo "gate_grid: $exe is not built (scripts/build)" >&2; exit 2; }
GATE_GRID_FULL=1 exec "$exe"
