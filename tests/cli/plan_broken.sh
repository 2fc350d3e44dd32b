#!/bin/bash
# plan_broken: issue 3 acceptance 5. Every file of the broken-inputs corpus (tests/data/profiles-broken,
# listed in its EXPECT file with the file:line the message must name) makes `bench plan` exit 3 with exactly
# one line on stderr, "bench: error: FILE:LINE: ...", and nothing on stdout; `bench run` refuses the same files
# the same way before touching the database (spot check). Also: every corpus file is listed (nothing untested).
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
C="$BENCH_SRC/tests/data/profiles-broken"
unset BENCH_BROKEN_NOT_SET DISK || true
fail=0 n=0
cd "$C"
while read -r file where; do
	case "$file" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	rc=0
	"$BENCH" plan "$file" >"$T/out" 2>"$T/err" || rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" -ne 3 ] || [ "$lines" -ne 1 ] || [ -s "$T/out" ] ||
	   ! grep -qE "^bench: error: (\./)?$where: " "$T/err"; then
		echo "FAIL $file: exit $rc, $lines stderr lines, want exit 3 and one line at $where:" >&2
		cat "$T/err" >&2
		fail=1
	else
		echo "$file: $(cat "$T/err")"
	fi
done <EXPECT
for f in *; do
	case "$f" in EXPECT|*.inc|*.inc2) continue ;; esac
	grep -q "^$f " EXPECT || { echo "FAIL: $f is in the corpus but not in EXPECT" >&2; fail=1; }
done
# bench run reads profiles the same way: refused before any database is created
for f in fio-rwmixread-170.fio vdb-unknown-keyword.vdb suite-duplicate-section.suite; do
	rc=0
	"$BENCH" run --db "$T/run.db" "$f" >/dev/null 2>"$T/err" || rc=$?
	if [ "$rc" -ne 3 ] || [ -e "$T/run.db" ] || [ "$(wc -l <"$T/err")" -ne 1 ]; then
		echo "FAIL bench run $f: exit $rc, database created: $([ -e "$T/run.db" ] && echo yes || echo no)" >&2
		fail=1
	fi
done
[ "$n" -ge 25 ] || { echo "FAIL: only $n broken inputs (want >= 25)" >&2; fail=1; }
echo "plan_broken: $n broken inputs"
exit $fail
