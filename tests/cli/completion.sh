#!/usr/bin/env bash
# completion: the bash completion (completion/bench.bash) registers _bench for bench and completes, from the
# bench being completed: commands (bench help), the options of the current command (bench CMD --help), the
# values an option lists (--format text|csv|...), subcommands (profiles list|show), suite names (bench profiles
# list) after run and plan, *.db files after --db, and files otherwise. Driven as bash does it: COMP_WORDS,
# COMP_CWORD, then the function `complete -p bench` names.
. "$BENCH_SRC/tests/lib/common.sh"

. "$BENCH_SRC/completion/bench.bash"
spec=$(complete -p bench 2>&1)
fn=$(sed -n 's/.*-F \([^ ]*\) .*/\1/p' <<<"$spec")
[ -n "$fn" ] && ok "complete -p bench: $spec" || fail "no completion function registered: $spec"

# comp WORD... : COMPREPLY for the command line "WORD..." with the cursor at the end of the last word.
comp() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  "$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]:-}"
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect_comp() { # expect_comp WANT WORD...: the sorted replies, one line each, joined by spaces
  local want=$1
  shift
  expect_eq "completion of '$*'" "$(comp "$@" | tr '\n' ' ' | sed 's/ $//')" "$want"
}
has_comp() { # has_comp WANT WORD...: WANT is among the replies
  local want=$1
  shift
  if comp "$@" | grep -qx -- "$want"; then ok "'$*' offers $want"; else fail "'$*' does not offer $want: $(comp "$@" | tr '\n' ' ')"; fi
}

touch results.db other.db notes.txt job.fio
mkdir dbdir

expect_comp "report" "$BENCH" rep
# every command bench help lists, and nothing else
want=$("$BENCH" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}' | sort | tr '\n' ' ')
expect_comp "${want% }" "$BENCH" ""
expect_comp "--target" "$BENCH" run --ta
expect_comp "--target" "$BENCH" plan --ta
# all options of run, as its --help lists them
for o in $("$BENCH" run --help | grep -oE '^ +(-[a-z], )?--[a-z][-a-z]*' | grep -oE -- '--[a-z][-a-z]*'); do
  has_comp "$o" "$BENCH" run -
done
has_comp "--compare" "$BENCH" report --
has_comp "--baseline" "$BENCH" gate --db x.db --
# suite names after run and plan (from bench profiles list), files too
for s in $("$BENCH" profiles list | awk 'NR > 1 {print $1}'); do
  has_comp "$s" "$BENCH" run ""
done
has_comp "hcibench-easyrun" "$BENCH" run hci
has_comp "hcibench-easyrun" "$BENCH" plan --quick ""
has_comp "job.fio" "$BENCH" run ""
has_comp "kernel-compare" "$BENCH" run hcibench-easyrun --target x.dat ""
# *.db files and directories after --db, in any command
expect_comp "dbdir other.db results.db" "$BENCH" report --db ""
expect_comp "results.db" "$BENCH" run --db r
expect_comp "results.db" "$BENCH" gate --baseline suite:1 --db re
# an option's values as its help lists them; other option arguments: files
expect_comp "csv" "$BENCH" report --format c
expect_comp "always auto never" "$BENCH" report --color ""
has_comp "notes.txt" "$BENCH" run --target ""
# subcommands, and suite names after profiles show
expect_comp "list show" "$BENCH" profiles ""
has_comp "nvmeof-vs-iser" "$BENCH" profiles show ""
expect_comp "" "$BENCH" profiles list ""
expect_comp "check start stop" "$BENCH" hosts ""
expect_comp "--help --version" "$BENCH" --
expect_comp "gate" "$BENCH" help ga
finish
