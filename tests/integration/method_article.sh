#!/usr/bin/env bash
# method_article: the article's suite (built-in nvmeof-vs-iser, the nine workloads of the published comparison)
# with --precondition on files (issue 15, acceptance 5). `bench plan` shows the precondition phases (purge, wipc,
# wdpc rounds) before the workloads that need them and says why later ones skip them; `bench run --quick` (real
# fio on bench's default files; a wrapper suite shrinks the quick form to 1 s runs on 16 MiB files and rounds to
# 1 s, at most 5) stores every phase as runs labelled phase=precondition, in the planned order, and every
# measured run after wdpc rounds carries steady_state=reached:N or not-reached:N. About 40 s.
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { echo "FAIL: fio is not installed"; exit 1; }
m=(--precondition --round-time 1s --max-rounds 5)

"$BENCH" plan nvmeof-vs-iser --quick "${m[@]}" >plan.txt
grep -q "precondition purge:" plan.txt && ok "plan shows the purge" || fail "plan: no purge"
grep -q "precondition wipc (sequential-write): $((2 * 256 * 1048576)) bytes" plan.txt &&
  ok "plan shows the wipc: 2 x the quick working set (256 MiB)" || fail "plan: no wipc of 2 x 256 MiB"
grep -q "precondition wdpc (random-write): round 5 of at most 5, 1 s each" plan.txt && ok "plan shows the wdpc rounds" ||
  fail "plan: no wdpc rounds"
grep -q "precondition skipped: .*wdpc: done for class random-write" plan.txt && ok "plan says which rule skips a phase" ||
  fail "plan: no skip reason"
"$BENCH" plan nvmeof-vs-iser --quick "${m[@]}" --format json >plan.json
planned=$(python3 -c 'import json; print(",".join(r["labels"].get("precondition", "-") for r in json.load(open("plan.json"))["runs"]))')

cat >article-quick.suite <<'EOF'
[suite]
name = article-quick
quick.ramp = 0
quick.runtime = 1
quick.size = 16m
profile = nvmeof-vs-iser
EOF
"$BENCH" plan article-quick.suite --quick "${m[@]}" --format json >quick.json
"$BENCH" run --db a.db article-quick.suite --quick "${m[@]}" --no-collectors -q 2>run.err || { cat run.err; fail "bench run"; }
want=$(python3 -c 'import json; print(",".join(r["labels"].get("precondition", "-") for r in json.load(open("quick.json"))["runs"]))')
[ "$(echo "$want" | tr , '\n' | grep -c wdpc)" -gt 0 ] && ok "the quick plan has wdpc rounds too" || fail "quick plan: no wdpc"
# stored in plan order; the rounds after steady state are planned but not run
got=$(q a.db "SELECT r.seq || ':' || IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'precondition'), '-')
              FROM run r ORDER BY r.seq" | paste -sd,)
python3 -c '
import sys
want = sys.argv[1].split(","); got = dict(x.split(":") for x in sys.argv[2].split(","))
for i, w in enumerate(want, 1):
    g = got.get(str(i))
    if g is None and w == "wdpc":
        continue  # a round after steady state: not run
    if g != w:
        sys.exit("run %d: stored %r, planned %r" % (i, g, w))' "$want" "$got" &&
  ok "every planned phase stored in order (rounds after steady state not run)" || fail "stored runs differ from the plan"
expect_eq "phases stored with phase=precondition" \
  "$(q a.db "SELECT COUNT(*) FROM run_label l WHERE l.key = 'precondition' AND NOT EXISTS (SELECT 1 FROM run_label p
     WHERE p.run_id = l.run_id AND p.key = 'phase' AND p.value = 'precondition')")" 0
expect_eq "purge, wipc and wdpc all stored" "$(q a.db "SELECT COUNT(DISTINCT value) FROM run_label WHERE key = 'precondition'")" 3
expect_eq "every stored run done" "$(q a.db "SELECT COUNT(*) FROM run WHERE status != 'done'")" 0
python3 -c '
import sys
runs = [r.split("|") for r in sys.argv[1].split("\n") if r]
bad = [n for n, prev, ss in runs if prev == "wdpc" and not (ss.startswith("reached:") or ss.startswith("not-reached:"))]
print("measured runs after wdpc rounds: " + ", ".join("%s %s" % (n, ss) for n, prev, ss in runs if prev == "wdpc"))
sys.exit(1 if bad else 0)' "$(q a.db "SELECT r.name, (SELECT IFNULL(l.value, '-') FROM run p LEFT JOIN run_label l ON l.run_id = p.id AND l.key = 'precondition'
     WHERE p.suite_id = r.suite_id AND p.seq < r.seq ORDER BY p.seq DESC LIMIT 1),
     IFNULL((SELECT value FROM run_label WHERE run_id = r.id AND key = 'steady_state'), '-')
     FROM run r WHERE NOT EXISTS (SELECT 1 FROM run_label WHERE run_id = r.id AND key = 'phase') ORDER BY r.seq")" &&
  ok "each measured run after wdpc rounds carries steady_state" || fail "a measured run after wdpc rounds has no steady_state"
[ -n "$planned" ] && ok "plan json lists the phases" || fail "plan json"
finish
