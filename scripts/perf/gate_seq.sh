#!/bin/bash
# gate_seq: the full table of acceptance 1 of issue 30 for the sequential gate (`bench gate --run`): 1000
# seeded trials per cell at budgets 3, 4, 5, 6, 8, 10, 12, 15 and 20 pairs and cv 3, 5 and 10% - false
# REGRESSION and EQUIVALENT when nothing changed and the mean pairs used, power (REGRESSION within the budget)
# and mean pairs to a decision for a 10% drop. Not a test: the CI runs tests/unit/test_gate_seq on a smaller
# grid; this prints the figures docs/gate.md quotes (and asserts the same bounds). Takes a few minutes.
#
# usage: scripts/perf/gate_seq.sh [BUILD_DIR] [TRIALS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
build=${1:-$HERE/../../build}
exe=$build/tests/test_gate_seq
[ -x "$exe" ] || { echo "gate_seq: $exe is not built (scripts/build)" >&2; exit 2; }
GATE_SEQ_FULL=1 GATE_SEQ_TRIALS=${2:-1000} exec "$exe"
