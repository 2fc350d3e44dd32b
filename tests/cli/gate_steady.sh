#!/bin/bash
# gate_steady: the gate and the run label steady_state (docs/gate.md "Steady state", docs/method.md).
#
# Runs of the null engine (the same figures every time, so a comparison of valid runs is EQUIVALENT) stored
# with `bench run --label steady_state=...`: a baseline at steady state (reached:6..8) and a candidate that
# never got there (not-reached:25). Checks: the candidate's runs are excluded and the gate is INVALID, exit 3,
# with the reason in the terminal output, the Markdown, the JUnit file (parsed with python3 xml.etree) and the
# JSON (parsed with python3 json); --allow-unsteady includes them: PASS, exit 0, and every output still says
# that they are not at steady state; reached:N is shown as "steady state reached at round N"; running:N and a
# value that is not understood are excluded as well; the database is not changed by the gate.
. "$BENCH_SRC/tests/lib/common.sh"

printf '[global]\nbs=4k\ntime_based\nruntime=2\n\n[w]\nrw=randrw\n' >w.fio
run() { # run LABEL... : one null-engine run of w.fio
  local args=()
  for l in "$@"; do args+=(--label "$l"); done
  "$BENCH" run w.fio --engine null --db s.db -q "${args[@]}" >run.out 2>&1 || fail "bench run $*: $(cat run.out)"
}
for n in 6 7 8; do run side=A "steady_state=reached:$n"; done
for n in 1 2 3; do run side=B steady_state=not-reached:25; done
run side=C steady_state=running:3
run side=C steady_state=maybe
run side=C steady_state=not-reached:25
before=$(q s.db "SELECT count(*) FROM run_label; SELECT group_concat(status) FROM run" | md5sum)

# --- not at steady state: INVALID, exit 3, the reason in every output --------------------------------------
"$BENCH" gate --db s.db --baseline side=A --candidate side=B --markdown g.md --junit g.xml --json g.json \
  >out.txt 2>err.txt
expect_eq "exit of a gate whose candidate is not at steady state" "$?" 3
grep -q '^gate: INVALID' out.txt && ok "headline INVALID" || fail "no INVALID headline: $(tail -1 out.txt)"
expect_eq "candidate runs excluded as not at steady state (text)" \
  "$(grep -c '^excluded: candidate run [0-9]* (w, repetition 1): steady state not reached after 25 rounds (--allow-unsteady to include it)$' out.txt)" 3
expect_eq "baseline runs shown at steady state (text)" \
  "$(grep -cE '^note: baseline run [0-9]+ \(w, repetition 1\): steady state reached at round [678]$' out.txt)" 3
grep -q '^INVALID .*0 baseline and 3 candidate run(s) not at steady state excluded (--allow-unsteady to include them)' out.txt &&
  ok "the cells say why they are INVALID" || fail "no steady-state reason in the cells: $(grep ^INVALID out.txt | head -1)"
grep -q -- '--allow-unsteady' err.txt && ok "the error names --allow-unsteady" || fail "error: $(cat err.txt)"
expect_eq "Markdown: excluded runs with the reason" \
  "$(grep -c '^- excluded candidate run [0-9]* (w, repetition 1): steady state not reached after 25 rounds' g.md)" 3
expect_eq "Markdown: the baseline's steady state" "$(grep -c 'steady state reached at round' g.md)" 3
python3 - g.xml g.json <<'EOF' >py.out 2>&1 && ok "JUnit and JSON carry the reason: $(cat py.out)" || fail "JUnit/JSON: $(cat py.out)"
import json, sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
out = suite.find("system-out").text
assert out.count("steady state not reached after 25 rounds (--allow-unsteady to include it)") == 3, out
assert out.count("steady state reached at round") == 3, out
judged = [tc for tc in suite.findall("testcase")
          if any(p.get("name") == "judged" and p.get("value") == "true" for p in tc.iter("property"))]
skipped = [tc.find("skipped").get("message") for tc in judged]
assert skipped and all("not at steady state excluded" in m for m in skipped), skipped
g = json.load(open(sys.argv[2]))
assert g["outcome"] == "INVALID", g["outcome"]
reasons = [r["reason"] for r in g["candidate"]["excluded"]]
assert reasons == ["steady state not reached after 25 rounds (--allow-unsteady to include it)"] * 3, reasons
assert g["candidate"]["valid_runs"] == 0 and g["baseline"]["valid_runs"] == 3
assert sum("steady state reached at round" in n for n in g["notes"]) == 3, g["notes"]
print(len(skipped), "cells skipped,", len(reasons), "runs excluded")
EOF

# --- --allow-unsteady: included, PASS, and still said -------------------------------------------------------
"$BENCH" gate --db s.db --baseline side=A --candidate side=B --allow-unsteady --markdown a.md --junit a.xml \
  --json a.json >out.txt 2>err.txt
expect_eq "exit with --allow-unsteady" "$?" 0
grep -q '^gate: PASS' out.txt && ok "headline PASS" || fail "headline: $(tail -1 out.txt)"
grep -q '^excluded:' out.txt && fail "runs still excluded: $(grep ^excluded: out.txt)" || ok "no run excluded"
expect_eq "candidate runs said to be included though not at steady state (text)" \
  "$(grep -c '^note: candidate run [0-9]* (w, repetition 1): steady state not reached after 25 rounds (included: --allow-unsteady)$' out.txt)" 3
for f in a.md a.xml a.json; do
  expect_eq "$f says it" "$(grep -o 'steady state not reached after 25 rounds (included: --allow-unsteady)' "$f" | wc -l)" 3
done

# --- running:N and a value not understood are not steady state either -----------------------------------------
"$BENCH" gate --db s.db --baseline side=A --candidate side=C >out.txt 2>err.txt
expect_eq "exit with running:3, maybe, not-reached:25" "$?" 3
grep -q 'excluded: candidate run [0-9]* (w, repetition 1): steady state not decided after 3 rounds (--allow-unsteady' out.txt &&
  ok "running:3 is not decided" || fail "running:3: $(grep excluded out.txt)"
grep -q "excluded: candidate run [0-9]* (w, repetition 1): steady_state label 'maybe' is none of reached:N, not-reached:N, running:N" out.txt &&
  ok "'maybe' is not understood" || fail "maybe: $(grep excluded out.txt)"

after=$(q s.db "SELECT count(*) FROM run_label; SELECT group_concat(status) FROM run" | md5sum)
expect_eq "database unchanged by the gate" "$after" "$before"
finish
