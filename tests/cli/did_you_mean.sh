#!/usr/bin/env bash
# did_you_mean (issue 28): a typo gets the closest name. Unknown commands (`bench rnu` -> run, also through
# `bench help`): exit 2, one stderr line with the suggestion; a word close to nothing gets no suggestion.
. "$BENCH_SRC/tests/lib/common.sh"

typo() { # typo WHAT WANT_EXIT WANT_TEXT ARGS...: exit, one stderr line holding WANT_TEXT
	local what=$1 want=$2 text=$3 rc
	shift 3
	"$BENCH" "$@" >out.txt 2>err.txt
	rc=$?
	expect_eq "$what: exit" "$rc" "$want"
	expect_eq "$what: stderr lines" "$(wc -l <err.txt)" 1
	if grep -qF -- "$text" err.txt; then ok "$what: says $text"; else fail "$what: stderr: $(cat err.txt)"; fi
}

typo "bench rnu" 2 "did you mean 'run'?" rnu
typo "bench reprot" 2 "did you mean 'report'?" reprot
typo "bench help gaet" 2 "did you mean 'gate'?" help gaet
typo "bench zzzzzz" 2 "unknown command 'zzzzzz'" zzzzzz
if grep -q "did you mean" err.txt; then fail "a word close to no command got a suggestion: $(cat err.txt)"
else ok "no suggestion for a word close to no command"; fi
finish
