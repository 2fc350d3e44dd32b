# The start of the integration tests that bring up a loopback lab of fio servers (`bench lab up`): fail(), a
# scratch directory, a random port and the lab directory, and `bench lab down` on exit whatever happens.
# Source it: . "$BENCH_SRC/tests/lib/lab.sh"; then lab_scratch NAME.
set -u
: "${BENCH:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }

lab_scratch() { # lab_scratch NAME: T=/tmp/bench-NAME.XXXXXX (the working directory), PORT, LAB=$T/lab
	T=$(mktemp -d "/tmp/bench-$1.XXXXXX")
	PORT=$((20000 + RANDOM % 12000))
	LAB="$T/lab"
	trap '"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1; rm -rf "$T"' EXIT
	cd "$T" || exit 1
}

needed() { # needed PROGRAM...: fail unless each is on PATH
	local p
	for p in "$@"; do command -v "$p" >/dev/null || fail "$p is needed"; done
}
