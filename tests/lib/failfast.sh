# The start shared by the shell tests that stop at their first failure (common.sh is for the ones that count
# their checks and go on): `set -u`, fail() that prints one line on stderr and exits 1, Debian's python3, a
# scratch directory $T removed on exit, and the database and import steps several of them begin with.
# Source it: . "$BENCH_SRC/tests/lib/failfast.sh"   (a test that wants `set -e` sets it before)
set -u
: "${BENCH:?BENCH must point at the bench binary (ctest sets it)}"
: "${BENCH_SRC:?BENCH_SRC must name the source tree (ctest sets it)}"
# Debian's python3 (a pyenv shim in PATH can take seconds to start)
PY3=/usr/bin/python3; [ -x "$PY3" ] || PY3=python3
fail() { echo "FAIL: $*" >&2; exit 1; }
need() { # need PROGRAM [HINT]: fail unless PROGRAM is on PATH
	command -v "$1" >/dev/null || fail "$1 is not installed${2:+ ($2)}"
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The published NVMe-oF vs iSER dataset (examples/), the input of most report tests.
EXAMPLE_CSV=$BENCH_SRC/examples/nvmeof-vs-iser-100g.csv
import_example() { # import_example DB [IMPORT-OPTIONS...]: the dataset into DB, nothing printed
	local db=$1
	shift
	"$BENCH" import --db "$db" --csv "$EXAMPLE_CSV" "$@" >/dev/null || fail "import"
}

schema_db() { # schema_db DB <ROWS: a database of schema.sql at its last migration, then the SQL on stdin (sqlite3)
	local ver
	ver=$(grep -o '^-- migration [0-9]*' "$BENCH_SRC/schema.sql" | tail -1 | awk '{print $3}')
	sqlite3 "$1" <"$BENCH_SRC/schema.sql" || fail "schema"
	sqlite3 "$1" "PRAGMA user_version=$ver"
	sqlite3 "$1" || fail "insert"
}

null_job() { # null_job FILE SECTION [OPTION...]: a one-job fio file on the null engine, 16 MiB, 1 s time based
	local f=$1 s=$2
	shift 2
	{ printf '[global]\nioengine=null\nsize=16m\nruntime=1\ntime_based\n\n[%s]\n' "$s"; printf '%s\n' "$@"; } >"$f"
}
