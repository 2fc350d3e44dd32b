# Shared helpers for the shell tests: a scratch directory, assertions that say what failed, sqlite queries.
# Source it: . "$BENCH_SRC/tests/lib/common.sh"
set -u
: "${BENCH:?BENCH must point at the bench binary (ctest sets it)}"
T=$(mktemp -d /tmp/bench-test-XXXXXX)
cleanup_hooks=()
on_exit() {
  for h in "${cleanup_hooks[@]}"; do eval "$h" || true; done
  rm -rf "$T"
}
trap on_exit EXIT
cd "$T"

fails=0
checks=0
skips=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# skip WHAT: a check this machine could not make (a timing check the machine disturbed, as the sim engine's own
# account shows): said, counted apart, never passed
skip() { skips=$((skips + 1)); echo "SKIP: $*"; }
expect_eq() { # expect_eq WHAT GOT WANT
  if [ "$2" = "$3" ]; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi
}
q() { sqlite3 -batch -noheader "$@"; }
# finish: the closing line, then the exit code: 1 when a check failed or none was made (a test that checked
# nothing must not pass), 77 (ctest: skipped) when a check could not be made here, else 0
finish() {
  local skipped=""
  [ "$skips" -eq 0 ] || skipped=", $skips skipped"
  echo "$((checks - fails)) passed, $fails failed$skipped"
  [ "$fails" -eq 0 ] || exit 1
  if [ "$checks" -eq 0 ]; then
    [ "$skips" -gt 0 ] && exit 77
    echo "FAIL: the test made no check"
    exit 1
  fi
  exit "$((skips > 0 ? 77 : 0))"
}
write_lines() { # write_lines FILE LINE...: FILE holds each LINE on a line of its own (a job file, a suite)
  local f=$1
  shift
  printf '%s\n' "$@" >"$f"
}
plan_runs() { # plan_runs WHAT N PLAN-ARGS...: bench plan PLAN-ARGS exits 0 listing N runs (in plan.txt, err.txt)
	local what=$1 n=$2
	shift 2
	"$BENCH" plan "$@" >plan.txt 2>err.txt
	expect_eq "$what: exit" "$?" 0
	expect_eq "$what: runs" "$(grep -cE '^ +[0-9]+ ' plan.txt)" "$n"
}
wait_one() { # wait_one DB SQL [TENTHS]: waits (up to TENTHS tenths of a second, 300) until SQL on DB answers 1
  local i
  for ((i = 0; i < ${3:-300}; i++)); do
    [ "$(q "$1" "$2" 2>/dev/null)" = 1 ] && return 0
    sleep 0.1
  done
  return 1
}
# fio processes of bench runs with their work directories under $TMPDIR (a test that sets TMPDIR=$T counts
# only its own)
fio_left() { pgrep -f "fio --output-format=json\+ --output=${TMPDIR:-/tmp}/bench-$(id -u)/run-" | wc -l; }
fio_gone() { # fio_gone: waits up to 3 s for fio_left to be 0 (after kill -9 of bench, its guard sends SIGKILL
  # within 2 s: docs/safety.md "Programs bench starts"); fio_waited holds the tenths of a second it waited
  for ((fio_waited = 0; fio_waited < 30; fio_waited++)); do
    [ "$(fio_left)" = 0 ] && return 0
    sleep 0.1
  done
  return 1
}
