#!/usr/bin/env bash
# store_reader_only: core/ is the only code that speaks SQL (design.md "One reader"), the SQLite handle of the
# store is core's own, and the files of report/ include each other one way only (no include circle).
. "$BENCH_SRC/tests/lib/common.sh"
cd "$BENCH_SRC"

# 1. No SQL text outside core/ (issue 12 acceptance 6).
hits=$(grep -rnE '"(SELECT|INSERT|UPDATE|DELETE|WITH) ' bench report engines collectors profiles || true)
if [ -z "$hits" ]; then ok "no SQL text outside core/"; else fail "SQL text outside core/:"$'\n'"$hits"; fi

# 2. store_db() and the statement cache are not used outside core/ (tests may include core/store_internal.h).
hits=$(grep -rnE 'store_db\(|core/store_internal\.h|sqlite3_(prepare|exec|step)' bench report engines collectors profiles || true)
if [ -z "$hits" ]; then ok "no SQLite handle outside core/"; else fail "SQLite used outside core/:"$'\n'"$hits"; fi

# 3. No include circle among the files of report/ and its rooms (report/gate/, report/chart/, ...): a module is
# foo.c with foo.h, named by its path under report/.
cycle=$(python3 - report <<'PY'
import os, re, sys
d = sys.argv[1]
def module(name):
    return os.path.splitext(name)[0]
edges = {}
for dp, _, fs in sorted(os.walk(d)):
    for f in sorted(fs):
        if not f.endswith((".c", ".h")):
            continue
        rel = os.path.relpath(os.path.join(dp, f), d)
        m = module(rel)
        edges.setdefault(m, set())
        for inc in re.findall(r'^#include "report/([^"]+)"', open(os.path.join(dp, f)).read(), re.M):
            if module(inc) != m:
                edges[m].add(module(inc))
state, path = {}, []
def visit(m):
    state[m] = 1
    path.append(m)
    for n in sorted(edges.get(m, ())):
        if state.get(n) == 1:
            return path[path.index(n):] + [n]
        if not state.get(n):
            c = visit(n)
            if c:
                return c
    path.pop()
    state[m] = 2
    return None
for m in sorted(edges):
    if not state.get(m):
        c = visit(m)
        if c:
            print(" -> ".join(c))
            break
PY
)
if [ -z "$cycle" ]; then ok "no include circle in report/"; else fail "include circle in report/: $cycle"; fi
finish
