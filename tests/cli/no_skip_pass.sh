#!/usr/bin/env bash
# no_skip_pass: a test that cannot check here must say so and exit 77 (ctest: skipped), never pass.
#  - no test script or test library has a skip path that exits 0: an `exit 0` on a line that, or whose 3 lines
#    before it, say "skip"/"nothing to test"/"not present";
#  - common.sh's finish() fails a test that made no check, and exits 77 when a check was skipped;
#  - the check itself finds a planted skip-and-pass script (it could fail).
. "$BENCH_SRC/tests/lib/common.sh"

scan() { # scan FILE...: prints FILE:LINE of each skip path that exits 0
	awk '
		FNR == 1 { delete prev }
		{
			ctx = prev[FNR - 1] "\n" prev[FNR - 2] "\n" prev[FNR - 3] "\n" $0
			if ($0 ~ /(^|[;{ \t])exit 0([ \t;}]|$)/ && tolower(ctx) ~ /skip|nothing to test|not present/)
				print FILENAME ":" FNR
			prev[FNR] = $0
		}' "$@"
}

mapfile -t scripts < <(find "$BENCH_SRC/tests" -name '*.sh' -o -name '*.bash' | sort)
expect_eq "test scripts found" "$([ "${#scripts[@]}" -gt 50 ] && echo yes)" yes
found=$(scan "${scripts[@]}")
expect_eq "skip paths that exit 0" "$found" ""

printf '#!/bin/sh\nif true; then\n\techo "SKIP: no widget"\n\texit 0\nfi\n' >planted.sh
expect_eq "the scan finds a planted skip that passes" "$(scan planted.sh)" "planted.sh:4"

# finish() with 0 checks fails; with a skipped check it exits 77; with checks only, 0
run_finish() { (cd "$T" && bash -c ". '$BENCH_SRC/tests/lib/common.sh' >/dev/null; $1; finish" >/dev/null 2>&1; echo $?); }
expect_eq "finish with no check" "$(run_finish true)" 1
expect_eq "finish with one skipped check only" "$(run_finish 'skip x')" 77
expect_eq "finish with a passed and a skipped check" "$(run_finish 'ok a; skip x')" 77
expect_eq "finish with passed checks" "$(run_finish 'ok a; ok b')" 0
expect_eq "finish with a failed check" "$(run_finish 'ok a; fail b')" 1
finish
