#!/bin/bash
# no_outside_paths: the repository stands on its own (issue 11): nothing committed names a path outside it
# (the shared reference directory beside the checkout, or the workspace root). In a git checkout this is
# `git grep` over the tracked files except .ci/ (the CI scripts may point at a corpus beside the checkout);
# otherwise grep -rn over the tree, leaving out build directories and .git. Any hit fails the test and is
# printed with file:line.
set -euo pipefail
: "${BENCH_SRC:?}"
# the bracket keeps this file from matching itself: the pattern is the dot-dot shared path or the workspace root
pattern='\.\./shared|/wor[k]/'
if git -C "$BENCH_SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
	[ "$(git -C "$BENCH_SRC" rev-parse --show-toplevel)" = "$(cd "$BENCH_SRC" && pwd -P)" ]; then
	how="git grep"
	rc=0; hits=$(git -C "$BENCH_SRC" grep -nE "$pattern" -- . ':!.ci') || rc=$?
	[ "$rc" -le 1 ] || { echo "FAIL: git grep exited $rc" >&2; exit 1; }
else
	how="grep -rn"
	rc=0; hits=$(cd "$BENCH_SRC" && grep -rnE "$pattern" --exclude-dir=.git --exclude-dir=.ci \
		--exclude-dir='build*' --exclude-dir=_build -- .) || rc=$?
	[ "$rc" -le 1 ] || { echo "FAIL: grep exited $rc" >&2; exit 1; }
fi
if [ -n "$hits" ]; then
	echo "FAIL: paths outside the repository ($how):" >&2
	echo "$hits" >&2
	exit 1
fi
echo "no_outside_paths: ok ($how: no path outside the repository in the tree)"
