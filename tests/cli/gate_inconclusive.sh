#!/bin/bash
# gate_inconclusive: a gate whose every cell is INCONCLUSIVE is no pass (acceptance 4 of the "a gate you can
# trust" issue), and --plan says how many runs per side the threshold needs.
#
# Baseline and candidate: 3 runs each of one workload with +-40% noise (deterministic), the same mean: no
# regression, but nothing equivalent either. Checks: exit 6, the text, Markdown and JUnit headlines say
# INCONCLUSIVE and never PASS, the Markdown names the runs each cell needs; --on-inconclusive pass gives 0
# (headline still INCONCLUSIVE), --on-inconclusive fail and --strict give 1; --plan from the baseline's runs
# alone prints the noise and the runs needed, exit 0; --help documents exit 6.
. "$(dirname "$0")/gate_db.bash"

gate_db_scratch
gate_db_suite "$db" 1 git abc
gate_db_runs "$db" 1 1 noisy randread 8192 100 3 3000 40 3
gate_db_suite "$db" 2 git def
gate_db_runs "$db" 2 1 noisy randread 8192 100 3 3030 40 3

"$BENCH" gate --db "$db" --baseline git=abc --candidate git=def --markdown "$work/g.md" --junit "$work/g.xml" \
	>"$work/out" 2>"$work/err"
rc=$?
cat "$work/out" "$work/err"
[ $rc -eq 6 ] || fail "all INCONCLUSIVE: expected exit 6, got $rc"
[ "$(grep -c '^INCONCLUSIVE ' "$work/out")" -eq 4 ] || fail "not four INCONCLUSIVE cells"
grep -q '^gate: INCONCLUSIVE: 0 regressions' "$work/out" || fail "the text headline is not INCONCLUSIVE"
grep -q '^### bench gate: INCONCLUSIVE$' "$work/g.md" || fail "the Markdown headline is not INCONCLUSIVE"
grep -q 'PASS' "$work/g.md" "$work/g.xml" "$work/out" && fail "a headline says PASS"
[ "$(grep -c 'INCONCLUSIVE (~[0-9]* runs per side)\|INCONCLUSIVE (more than [0-9]* runs per side)' "$work/g.md")" -ge 1 ] ||
	fail "the Markdown does not say how many runs each cell needs"
python3 - "$work/g.xml" <<'EOF' || fail "JUnit outcome"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
props = {p.get("name"): p.get("value") for p in root.find("testsuite").find("properties")}
assert props["outcome"] == "INCONCLUSIVE", props["outcome"]
assert len(root.iter("skipped").__iter__().__next__().attrib) >= 1
print("junit: outcome", props["outcome"])
EOF

"$BENCH" gate --db "$db" --baseline git=abc --candidate git=def --on-inconclusive pass >"$work/out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "--on-inconclusive pass: expected exit 0, got $rc"
grep -q '^gate: INCONCLUSIVE (accepted: --on-inconclusive pass)' "$work/out" || fail "--on-inconclusive pass: headline"
for opt in "--on-inconclusive fail" --strict; do
	# shellcheck disable=SC2086
	"$BENCH" gate --db "$db" --baseline git=abc --candidate git=def $opt >"$work/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$opt: expected exit 1, got $rc"
done
"$BENCH" gate --db "$db" --baseline git=abc --candidate git=def --on-inconclusive maybe >/dev/null 2>&1
[ $? -eq 2 ] || fail "--on-inconclusive maybe: expected a usage error"

# --plan from the baseline alone
"$BENCH" gate --db "$db" --plan --baseline git=abc --threshold 10 >"$work/out" 2>&1
rc=$?
cat "$work/out"
[ $rc -eq 0 ] || fail "--plan: expected exit 0, got $rc"
grep -q 'RUNS NEEDED' "$work/out" || fail "--plan prints no RUNS NEEDED column"
grep -Eq '^noisy +read IOPS +[0-9.]+% ' "$work/out" || fail "--plan does not list the noise of the workload"
grep -q 'noisiest cell' "$work/out" || fail "--plan does not sum up the runs needed"

"$BENCH" gate --help | grep -q '6 inconclusive' || fail "--help does not document exit 6"
echo "gate_inconclusive: ok"
