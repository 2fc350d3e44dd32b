#!/usr/bin/env bash
# structure: the source tree keeps its structure rules (issue 12): no include circle between the files of one
# folder, no function over 150 lines. Prints each problem with its file and line; none may be left.
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
out=$(python3 "$BENCH_SRC/tests/lib/structure.py" "$BENCH_SRC" 150 2>&1) && rc=0 || rc=$?
printf '%s\n' "$out"
expect_eq "structure problems (include circles, functions over 150 lines)" "$(printf '%s\n' "$out" | tail -1)" "0 problems"
expect_eq "structure checker exit" "$rc" 0
# the checker itself finds what it looks for: a circle and a long function planted in a copy
mkdir -p planted/report planted/core
printf '#include "report/b.h"\n' >planted/report/a.h
printf '#include "report/a.h"\n' >planted/report/b.c
{ printf 'int f(void)\n{\n'; for i in $(seq 1 160); do printf '\tx();\n'; done; printf '}\n'; } >planted/core/long.c
planted=$(python3 "$BENCH_SRC/tests/lib/structure.py" planted 150 2>&1) || true
printf '%s\n' "$planted" | grep -q '^circle in report/: a b$' && ok "a planted circle is found" || fail "planted circle: $planted"
printf '%s\n' "$planted" | grep -q '^long function core/long.c:1 f 162 lines$' && ok "a planted long function is found" ||
  fail "planted long function: $planted"
finish
