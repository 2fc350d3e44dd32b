#!/bin/bash
# gate_live: the gate's tests on live runs (fio on the sim engine, and on a file) instead of their recordings.
# tests/integration/gate_sim.sh, gate_sim_verdicts.sh and gate_real_fio.sh check the gate's verdicts on stored runs with known
# figures (tests/fixtures/gate/*.sql.gz: their own runs, recorded by this script); here they run fio on the sim
# engine or a file again (about 130 s on an idle machine; a busy one makes sim_blocks run a held-back block again,
# or skip)
# and judge those runs with the same assertions. --record keeps the new runs as the tests' recordings (do it on
# an idle machine and say so in tests/fixtures/gate/README.md).
#
# usage: scripts/perf/gate_live.sh [--record] [BUILD_DIR]
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
record=
[ "${1:-}" = --record ] && { record=$SRC/tests/fixtures/gate; shift; }
build=$(cd "${1:-$SRC/build}" && pwd)
[ -x "$build/bench" ] || { echo "gate_live: $build/bench is not built (scripts/build)" >&2; exit 2; }
rc=0
for t in gate_sim gate_sim_verdicts gate_real_fio; do
	echo "== $t (live)"
	BENCH=$build/bench BENCH_SRC=$SRC BENCH_BUILD=$build BENCH_LIVE=1 BENCH_RECORD_DIR=$record \
		bash "$SRC/tests/integration/$t.sh"
	r=$?
	echo "== $t: exit $r"
	[ $r -eq 0 ] || rc=1
done
exit $rc
