#!/usr/bin/env bash
# One option table for every command (issues 27, 28): no command parses its own options (no getopt_long outside
# bench/options.c); every option a command's --help lists is accepted by that command, and an option other
# commands list but it does not is refused; --timeout has one unit (the same help text) everywhere; an unknown
# option and a --format value out of its set get "did you mean"; a bad option opens no database.
. "$BENCH_SRC/tests/lib/common.sh"

n=$(grep -l 'getopt_long\|struct option ' "$BENCH_SRC"/bench/*.c | grep -v '/options\.c$' | wc -l)
expect_eq "files of bench/ with their own getopt_long table" "$n" 0

# the subcommand that parses each command's options without acting (--help after the option ends it)
declare -A pre=([db]="db list" [hosts]="hosts check" [lab]="lab status" [profiles]="profiles list")
cmds=$("$BENCH" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
# options of a help text: NAME or NAME=VALUE (when it takes a value), one per line
options_of() {
	awk '/^options|^the measurement method|^options that change/ {on = 1; next}
	     on && /^  (-[a-zA-Z], )?--[a-z]/ {
		sub(/^  (-[a-zA-Z], )?--/, ""); name = $1; has = ($2 != "" && $2 ~ /^[A-Z\[]|[|]/)
		print has ? name "=x" : name }' "$1" | sort -u
}
all=""
for c in $cmds; do
	[ "$c" = help ] || [ "$c" = version ] && continue
	"$BENCH" "$c" --help >"help.$c" 2>/dev/null
	options_of "help.$c" >"opts.$c"
	all="$all $(cat "opts.$c")"
done
k=0
for c in $cmds; do
	[ "$c" = help ] || [ "$c" = version ] && continue
	k=$((k + 1))
	[ -s "opts.$c" ] || { fail "bench $c --help lists no option"; continue; }
	bad=""
	while read -r o; do
		[ "$o" = help ] && continue
		"$BENCH" ${pre[$c]:-$c} "--$o" --help >/dev/null 2>err.txt
		grep -q "unknown option\|is an option of" err.txt && bad="$bad --$o"
	done <"opts.$c"
	[ -z "$bad" ] && ok "bench $c accepts every option its help lists ($(wc -l <"opts.$c"))" ||
		fail "bench $c refuses options its help lists:$bad"
	bad=""
	# a sixth of the other commands' options per command, a different sixth for each (the whole set over six
	# commands): each refusal is one bench start, and all of them for every command took minutes
	for o in $(printf '%s\n' $all | sort -u | awk -v k="$k" 'NR % 6 == k % 6'); do
		grep -qx -- "$o" "opts.$c" && continue
		grep -qx -- "${o%=x}" "opts.$c" && continue
		grep -qx -- "${o%=x}=x" "opts.$c" && continue
		"$BENCH" ${pre[$c]:-$c} "--$o" --help >/dev/null 2>err.txt
		rc=$?
		{ [ $rc -eq 2 ] && grep -q "unknown option\|is an option of\|has no option" err.txt; } || bad="$bad --$o($rc)"
	done
	[ -z "$bad" ] && ok "bench $c refuses the options of other commands it does not list" ||
		fail "bench $c accepts options its help does not list:$bad"
done

# --timeout: one unit, one help text, in every command that takes it
grep -h -A1 -- "--timeout DURATION" help.* | sort -u >timeout.txt
units=$(grep -c 'a bare number is seconds' timeout.txt)
cmds_t=$(grep -l -- '--timeout' help.* | wc -l)
[ "$cmds_t" -ge 2 ] && ok "--timeout in $cmds_t commands' help" || fail "--timeout in $cmds_t commands' help"
expect_eq "distinct --timeout help lines" "$(grep -h -- "^  --timeout DURATION" help.* | sort -u | wc -l)" 1
expect_eq "--timeout help says a bare number is seconds" "$units" 1
grep -q -- '--timeout MS\|--timeout S ' help.* && fail "an old --timeout unit in a help" || ok "no --timeout MS or S left"
"$BENCH" hosts check --hosts none --timeout 3000 >/dev/null 2>err.txt
expect_eq "hosts --timeout 3000 (old milliseconds) exit" "$?" 2
grep -q "a bare number is seconds: write '3000ms'" err.txt && ok "the refusal says how to write milliseconds" ||
	fail "hosts --timeout 3000: $(cat err.txt)"
"$BENCH" export --format influx --push http://127.0.0.1:1/ --timeout 2s --connect-timeout 500ms --db none.db \
	>/dev/null 2>err.txt
grep -q "timeout" err.txt && fail "export --timeout 2s refused: $(cat err.txt)" || ok "export takes --timeout 2s, 500ms"

# "did you mean", exactly one line, exit 2, no database made
"$BENCH" report --db new.db --wehre x=y >out.txt 2>err.txt
expect_eq "report --wehre exit" "$?" 2
expect_eq "report --wehre message" "$(cat err.txt)" \
	"bench: error: report: unknown option '--wehre' (did you mean '--where'?)"
[ -e new.db ] && fail "a bad option created the database" || ok "a bad option opens no database"
"$BENCH" db list --fromat json >/dev/null 2>err.txt
grep -q "did you mean '--format'" err.txt && ok "db list --fromat: did you mean --format" || fail "db: $(cat err.txt)"
"$BENCH" report --format jsn >/dev/null 2>err.txt
expect_eq "report --format jsn exit" "$?" 2
grep -q "did you mean 'json'" err.txt && ok "--format jsn: did you mean json" || fail "--format jsn: $(cat err.txt)"
"$BENCH" trend --order git-seq >/dev/null 2>err.txt
expect_eq "trend --order exit" "$?" 2
grep -q "did you mean '--sort'" err.txt && ok "trend --order: did you mean --sort" || fail "trend --order: $(cat err.txt)"
"$BENCH" gate --baseline a=b --match nmae >/dev/null 2>err.txt
expect_eq "gate --match nmae exit" "$?" 2
finish
