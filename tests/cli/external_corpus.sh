#!/bin/bash
# external_corpus: more real fio and vdbench files than the repository can ship (issue 11). When
# $BENCH_EXTERNAL_CORPUS names a directory, every file in it (recursively) is tried:
#   - a directory holding flatfile.html: a vdbench output directory, `bench import DIR`;
#   - a file holding "fio version", or a *.log file: fio output, `bench import FILE`;
#   - a file with a vdbench definition line (sd= wd= rd= hd= fsd= fwd= rg= at a line start): `bench plan FILE`.
# A crash (signal), exit 70 (internal error), a timeout (60 s), any other exit but 0 and 3, an import that exits 0
# without storing a run or a plan that exits 0 without a run count is a failure; exit 3 with exactly one stderr
# line is a documented refusal and is counted. Other files (notes, licences) are counted as not tried.
# Unset or absent: says so and exits 77 (ctest: skipped).
set -euo pipefail
: "${BENCH:?}"
C=${BENCH_EXTERNAL_CORPUS:-}
if [ -z "$C" ] || [ ! -d "$C" ]; then
	echo "external corpus: BENCH_EXTERNAL_CORPUS names no directory: nothing to check (skipped)"
	exit 77
fi
command -v sqlite3 >/dev/null || { echo "FAIL: sqlite3 is not installed" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 refused=0 other=0 fails=0

runs() { sqlite3 "$T/t.db" "SELECT count(*) FROM run" 2>/dev/null || echo 0; }
try() { # try import|plan PATH
	local what=$1 p=$2 rc=0 before after
	before=$(runs)
	if [ "$what" = import ]; then
		timeout 60 "$BENCH" import --db "$T/t.db" "$p" >"$T/out" 2>"$T/err" || rc=$?
	else
		timeout 60 "$BENCH" plan "$p" >"$T/out" 2>"$T/err" || rc=$?
	fi
	n=$((n + 1))
	case $rc in
	0)
		if [ "$what" = import ]; then
			after=$(runs)
			[ "$after" -gt "$before" ] || { echo "FAIL: $p: import exited 0 and stored no run" >&2; fails=$((fails + 1)); }
		else
			grep -qE '^[0-9]+ runs?, estimated wall time' "$T/out" ||
				{ echo "FAIL: $p: plan exited 0 without a run count" >&2; fails=$((fails + 1)); }
		fi ;;
	3)
		if [ "$(grep -vc '^bench: warning: ' "$T/err")" -eq 1 ]; then
			refused=$((refused + 1))
			echo "refused: $(grep -v '^bench: warning: ' "$T/err")"
		else
			echo "FAIL: $p: exit 3 without exactly one error line:" >&2; cat "$T/err" >&2; fails=$((fails + 1))
		fi ;;
	124) echo "FAIL: $p: $what timed out after 60 s" >&2; fails=$((fails + 1)) ;;
	70) echo "FAIL: $p: $what exit 70 (internal error): $(cat "$T/err")" >&2; fails=$((fails + 1)) ;;
	*) echo "FAIL: $p: $what exit $rc: $(tail -3 "$T/err")" >&2; fails=$((fails + 1)) ;;
	esac
}

# vdbench output directories first; their files are not tried one by one
mapfile -d '' outdirs < <(find "$C" -name flatfile.html -type f -printf '%h\0' | sort -zu)
for d in "${outdirs[@]}"; do try import "$d"; done
while IFS= read -r -d '' f; do
	for d in "${outdirs[@]}"; do [ "${f#"$d"/}" = "$f" ] || continue 2; done
	if grep -q '"fio version"' "$f" || [[ $f == *.log ]]; then
		try import "$f"
	elif grep -qiE '^(sd|wd|rd|hd|fsd|fwd|rg)=' "$f"; then
		try plan "$f"
	else
		other=$((other + 1))
	fi
done < <(find "$C" -type f -print0 | sort -z)

echo "external corpus: $n files checked, $refused refused as documented ($other other files not tried)"
[ "$n" -gt 0 ] || { echo "FAIL: $C holds no fio or vdbench file" >&2; exit 1; }
[ "$fails" -eq 0 ]
