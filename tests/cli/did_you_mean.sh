#!/usr/bin/env bash
# did_you_mean (issue 28): a typo gets the closest name. Unknown commands (`bench rnu` -> run, also through
# `bench help`): exit 2, one stderr line with the suggestion; a word close to nothing gets no suggestion.
# A --where key that no stored run has and that is no workload field (`--where stak=x` beside runs labelled
# stack=...): exit 3 naming 'stack', in report and gate alike, the database unchanged; a real key still works.
# A suite (`bench run hcibench-easyrn`), a recipe (`recipes show btrfs-raid6`): the closest name. Errors about
# command-line values name the option, not a suite line (`--matrix bs=4q`, `--runtime 3x`). A recipe given fewer
# members than its level needs (btrfs-raid5 with one device) is refused by `recipes show` and `plan`.
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

typo "run hcibench-easyrn" 3 "did you mean 'hcibench-easyrun'?" run hcibench-easyrn --db never.db
[ -e never.db ] && fail "a refused run made a database" || ok "no database made by a refused run"
typo "plan nvmeof-vs-isre" 3 "did you mean 'nvmeof-vs-iser'?" plan nvmeof-vs-isre
typo "recipes show btrfs-raid1O" 3 "did you mean 'btrfs-raid10'?" recipes show btrfs-raid1O
typo "plan --matrix bs=4q" 3 "bench: error: --matrix bs=4q: 'bs' is not a block size" plan hcibench-easyrun --matrix bs=4q
if grep -q "hcibench-easyrun.suite" err.txt; then fail "--matrix error blames the suite: $(cat err.txt)"
else ok "--matrix error names the option, not the suite"; fi
typo "plan --runtime 3x" 3 "bench: error: --runtime 3x: " plan hcibench-easyrun --runtime 3x
typo "recipes show btrfs-raid5 with one member" 3 "recipe 'btrfs-raid5' needs at least 3 member devices, got 1" \
	recipes show btrfs-raid5 devices=/dev/loop1
write_lines r5.suite '[suite]' 'name = r5' '[config r5]' 'recipe = btrfs-raid5 devices=/dev/loop1 mountpoint=/mnt/x' \
	'[workload w]' rw=read bs=4k size=1m runtime=1
typo "plan of a raid5 config with one member" 3 "needs at least 3 member devices, got 1" plan r5.suite

"$BENCH" import "$BENCH_SRC/tests/fixtures/fio/json/fio-3.33_jsonplus_randread_bins.json" --db d.db \
	--label stack=mdadm-raid0 >/dev/null 2>&1 || fail "import of a fixture"
before=$(sha256sum <d.db)
typo "report --where stak=x" 3 "did you mean 'stack'?" report --db d.db --where stak=x
typo "gate --baseline stak=x" 3 "did you mean 'stack'?" gate --db d.db --baseline stak=x --candidate stack=y
typo "report --where bz=4k" 3 "did you mean 'bs'?" report --db d.db --where bz=4k
typo "report --by stak" 3 "--by stak: no run has a label 'stak'" report --db d.db --by stak
grep -q "did you mean 'stack'?" err.txt && ok "--by stak: did you mean 'stack'" || fail "--by stak: $(cat err.txt)"
typo "report --compare stak=a:b" 3 "did you mean 'stack'?" report --db d.db --compare stak=a:b
expect_eq "database unchanged by the refusals" "$(sha256sum <d.db)" "$before"
"$BENCH" report --db d.db --where stack=mdadm-raid0 >out.txt 2>err.txt
expect_eq "report --where stack=mdadm-raid0: exit" "$?" 0
grep -q randread out.txt && ok "a real key selects the run" || fail "report --where stack=: $(cat out.txt err.txt)"
"$BENCH" report --db d.db --where bs=4k >out.txt 2>err.txt
expect_eq "a workload field needs no label: exit" "$?" 0
finish
