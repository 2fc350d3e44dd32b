#!/usr/bin/env bash
# config_plan_blocks: the plan says which runs are each configuration's (profiles/profile.h plan.configs), and
# the preconditioning phases planned inside a configuration's block belong to it: two configurations whose
# blocks differ in length (beta asks for one more wdpc round), the ranges `bench plan` prints and its JSON
# first_run/last_run agree with the config= label of every run, in order and with no gap.
. "$BENCH_SRC/tests/lib/common.sh"
write_lines c.suite '[suite]' 'name = blocks' '[config alpha]' 'label = layout=wide' '[config beta]' \
	'label = layout=narrow' 'precondition.max_rounds = 6' '[workload r]' rw=randwrite bs=4k size=4m runtime=1 \
	'[workload s]' rw=read bs=128k size=4m runtime=1
args=(c.suite --target "$T/t.dat" --precondition --max-rounds 5)
# alpha: purge, wipc, 5 wdpc rounds, r, s (9); beta: purge, wipc, 6 rounds, r, s (10)
plan_runs "plan with phases in each configuration" 19 "${args[@]}"
grep -q "^configuration alpha (c.suite:3): runs 1-9$" plan.txt && ok "alpha's block" || fail "$(grep '^configuration' plan.txt)"
grep -q "^configuration beta (c.suite:5): runs 10-19$" plan.txt && ok "beta's block" || fail "$(grep '^configuration' plan.txt)"
"$BENCH" plan "${args[@]}" --format json >plan.json || fail "plan --format json"
expect_eq "json ranges agree with every run's config label" "$(python3 -c '
import json; d = json.load(open("plan.json")); runs = d["runs"]; out = []
for c in d["configurations"]:
    mine = [i + 1 for i, r in enumerate(runs) if r["labels"].get("config") == c["name"]]
    out.append("%s %d-%d %s" % (c["name"], c["first_run"], c["last_run"],
               mine == list(range(c["first_run"], c["last_run"] + 1))))
print(" ".join(out), len(runs))')" "alpha 1-9 True beta 10-19 True 19"
expect_eq "each block starts with its own purge" "$(python3 -c '
import json; d = json.load(open("plan.json"))
print(" ".join(d["runs"][c["first_run"] - 1]["name"] for c in d["configurations"]))')" \
	"precondition-purge precondition-purge"
finish
