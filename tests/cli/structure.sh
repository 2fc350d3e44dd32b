#!/usr/bin/env bash
# structure: the source tree keeps its structure rules (issues 12 and 27): no include circle between the files
# of one folder, the folder table of design.md (which folder may include which), no call circle between files,
# no function over 150 lines. Prints each problem with its file and line; none may be left.
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
grep -q '^circle in report/: a b$' <<<"$planted" && ok "a planted circle is found" || fail "planted circle: $planted"
grep -q '^long function core/long.c:1 f 162 lines$' <<<"$planted" && ok "a planted long function is found" ||
  fail "planted long function: $planted"
# a planted include that breaks the folder table (report/ may include core/ and report/ only)
mkdir -p planted/engines planted/profiles
printf '#include "engines/x.h"\n' >planted/report/c.c
printf '#include "bench/cli.h"\n' >planted/core/d.c
planted=$(python3 "$BENCH_SRC/tests/lib/structure.py" planted 150 2>&1) && prc=0 || prc=$?
grep -q '^folder rule: report/c.c:1 includes "engines/x.h"' <<<"$planted" && ok "a planted folder-rule break is found" ||
  fail "planted folder rule: $planted"
grep -q '^folder rule: core/d.c:1 includes "bench/cli.h"' <<<"$planted" && ok "core may include nothing of the others" ||
  fail "planted core include: $planted"
expect_eq "checker exit with planted problems" "$prc" 1
# a planted call circle across files of two folders: x.c calls y(), y.c calls z(), z.c calls x()
printf 'int y(void);\nint x(void)\n{\n\treturn y();\n}\n' >planted/engines/x.c
printf 'int z(void);\nint y(void)\n{\n\treturn z();\n}\n' >planted/engines/y.c
printf 'int x(void);\nint z(void)\n{\n\treturn x();\n}\nstatic int w(void)\n{\n\treturn 0;\n}\n' >planted/profiles/z.c
planted=$(python3 "$BENCH_SRC/tests/lib/structure.py" planted 150 2>&1) || true
grep -q '^call circle: engines/x engines/y profiles/z: ' <<<"$planted" && ok "a planted call circle is found" ||
  fail "planted call circle: $planted"
# the rooms of report/ (design.md): a room includes only the rooms under it, calls keep the same table, and
# a folder with C files that the table does not name is found
rm -rf planted && mkdir -p planted/report/gate planted/report/analysis planted/report/extra
printf '#include "report/format/render.h"\n' >planted/report/gate/g.c
printf 'int stat_fn(void)\n{\n\treturn 0;\n}\n' >planted/report/analysis/s.c
printf 'int stat_fn(void);\nint base_fn(void)\n{\n\treturn stat_fn();\n}\n' >planted/report/b.c
printf 'int e(void);\n' >planted/report/extra/e.c
planted=$(python3 "$BENCH_SRC/tests/lib/structure.py" planted 150 2>&1) || true
grep -q '^folder rule: report/gate/g.c:1 includes "report/format/render.h"' <<<"$planted" &&
  ok "a room that includes a room above it is found" || fail "planted room include: $planted"
grep -q '^folder rule: report/b.c calls stat_fn of report/analysis/s.c' <<<"$planted" &&
  ok "a call against the folder table is found" || fail "planted call: $planted"
grep -q '^folder rule: report/extra/ holds C files and is not in the folder table' <<<"$planted" &&
  ok "a folder outside the table is found" || fail "planted folder: $planted"
finish
