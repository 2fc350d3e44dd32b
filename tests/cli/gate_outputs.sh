#!/bin/bash
# gate_outputs: `bench gate` verdicts, exit codes and its three files (acceptance 3 of the gate issue).
#
# A baseline suite and a candidate suite whose random-read workload is 30% slower, whose sequential-write
# workload is unchanged and whose noisy workload cannot be decided; plus a failed run and a run with a fio
# error, both to be excluded. Checks: exit 1 and the right verdicts on the terminal; the JUnit XML parses
# (python3 xml.etree) with one testcase per cell, <failure> exactly for regressions and <skipped> exactly for
# inconclusive/invalid cells, with the ratio/ci_low/ci_high/p/n properties; the Markdown renders as a table with
# pandoc (one row per cell, a name with '|' and '<' stays in its cell); the JSON holds the raw samples;
# --strict fails on an inconclusive cell; the database is not modified.
. "$(dirname "$0")/gate_db.bash"
command -v pandoc >/dev/null || fail "pandoc is not installed (scripts/setup installs it)"

gate_db_scratch

weird='rr|4k <b>x</b>'
gate_db_suite "$db" 1 git abc
gate_db_runs "$db" 1 1 "$weird" randread 4096 100 6 10000 2 1
gate_db_runs "$db" 1 2 seq-write write 1048576 0 6 800 2 2
gate_db_runs "$db" 1 3 noisy randread 8192 100 6 3000 40 3
gate_db_suite "$db" 2 git def
gate_db_runs "$db" 2 1 "$weird" randread 4096 100 6 7000 2 4
gate_db_runs "$db" 2 2 seq-write write 1048576 0 6 800 2 5
gate_db_runs "$db" 2 3 noisy randread 8192 100 6 3000 40 6
gate_db_runs "$db" 2 4 "$weird" randread 4096 100 1 7000 0 7 failed
sqlite3 "$db" "UPDATE run SET seq = 1, repetition = 7 WHERE id = 2401"
gate_db_fio_error "$db" 2203 5
# an A/A copy of the baseline with other noise
gate_db_suite "$db" 3 git abc2
gate_db_runs "$db" 3 1 "$weird" randread 4096 100 6 10000 2 8
gate_db_runs "$db" 3 2 seq-write write 1048576 0 6 800 2 9
gate_db_runs "$db" 3 3 noisy randread 8192 100 6 3000 40 3

before=$(sqlite3 "$db" "SELECT count(*), total(iops) FROM result; PRAGMA user_version;" | md5sum)

# --- regression: exit 1 and files ---------------------------------------------------------------------
"$BENCH" gate --db "$db" --baseline git=abc --candidate latest:git=def \
	--junit "$work/gate.xml" --markdown "$work/gate.md" --json "$work/gate.json" >"$work/out" 2>"$work/err"
rc=$?
cat "$work/out"
[ $rc -eq 1 ] || fail "expected exit 1 (regression), got $rc: $(cat "$work/err")"
grep -q '^REGRESSION  *rr|4k <b>x</b>  *read IOPS' "$work/out" || fail "no read IOPS regression on the terminal"
grep -q 'gate: REGRESSION' "$work/out" || fail "no REGRESSION summary"
grep -q 'baseline runs .*show them: bench report -v --db .* --where name=' "$work/out" ||
	fail "the next steps do not name the runs and the command that shows them"
grep -q 'excluded: candidate run 2401 .*status failed' "$work/out" || fail "the failed run is not listed as excluded"
grep -q 'excluded: candidate run 2203 .*fio error 5' "$work/out" || fail "the run with a fio error is not excluded"
# sorted by effect: the first table row is the worst cell
first=$(sed -n 5p "$work/out")
case "$first" in REGRESSION*) ;; *) fail "table not sorted by effect, first row: $first" ;; esac

python3 - "$work/gate.xml" "$work/gate.json" <<'EOF' || fail "JUnit XML check failed"
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cells = json.load(open(sys.argv[2]))["cells"]
cases = root.findall(".//testcase")
assert root.tag == "testsuites", root.tag
assert len(cases) == len(cells) and len(cases) >= 9, (len(cases), len(cells))
by_verdict = {}
for tc in cases:
    props = {p.get("name"): p.get("value") for p in tc.find("properties").findall("property")}
    for k in ("ratio", "ci_low", "ci_high", "p", "n", "verdict"):
        assert k in props, (k, props)
    v = props["verdict"]
    judged = props.get("judged") == "true"   # --metric: information cells neither fail nor skip
    if judged:
        by_verdict[v] = by_verdict.get(v, 0) + 1
    failure, skipped = tc.find("failure"), tc.find("skipped")
    assert (failure is not None) == (judged and v == "REGRESSION"), (tc.attrib, v)
    assert (skipped is not None) == (judged and v in ("INCONCLUSIVE", "INVALID")), (tc.attrib, v)
    if v == "REGRESSION":
        assert float(props["ci_high"]) < 1 or float(props["ci_low"]) > 1, props
suite = root.find("testsuite")
assert int(suite.get("failures")) == by_verdict.get("REGRESSION", 0)
assert int(suite.get("tests")) == len(cases)
assert by_verdict.get("REGRESSION", 0) == 3, by_verdict        # read IOPS, MiB/s, p99 (mean latency: information)
assert sum(1 for c in cells if not c["judged"]) >= 1          # mean latency and CPU per IO are shown, not judged
assert by_verdict.get("INCONCLUSIVE", 0) >= 1, by_verdict     # the noisy workload
names = {tc.get("classname") for tc in cases}
assert "rr|4k <b>x</b>" in names, names
# raw samples in the JSON: 6 baseline and 6 valid candidate runs for the slowed workload
c = [c for c in cells if c["workload"] == "rr|4k <b>x</b>" and c["metric"] == "iops.read"][0]
assert len(c["baseline_samples"]) == 6 and len(c["candidate_samples"]) == 6, c
print("junit: %d testcases, verdicts %s" % (len(cases), by_verdict))
EOF

pandoc -f gfm -t html "$work/gate.md" -o "$work/gate.html" || fail "pandoc cannot render the Markdown"
python3 - "$work/gate.html" "$work/gate.json" <<'EOF' || fail "the Markdown is not a table"
import json, re, sys
html = open(sys.argv[1]).read()
ncells = len(json.load(open(sys.argv[2]))["cells"])
assert html.count("<table") == 1, "no table"
rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
assert len(rows) == ncells + 1, (len(rows), ncells)
for r in rows[1:]:
    cols = re.findall(r"<td[^>]*>", r)
    assert len(cols) == 10, (len(cols), r)
assert "<b>" not in html, "unescaped HTML from a run name"
print("markdown: a table of %d rows" % (len(rows) - 1))
EOF

# --- the baseline against its A/A copy: INCONCLUSIVE (exit 6) because of the noisy workload -------------
"$BENCH" gate --db "$db" --baseline suite:1 --candidate git=abc2 --markdown "$work/aa.md" >"$work/out" 2>&1
rc=$?
[ $rc -eq 6 ] || fail "A/A with an inconclusive cell: expected exit 6, got $rc: $(cat "$work/out")"
grep -q '^gate: INCONCLUSIVE:' "$work/out" || fail "A/A: the headline is not INCONCLUSIVE"
grep -q '^### bench gate: INCONCLUSIVE' "$work/aa.md" || fail "A/A: the Markdown headline is not INCONCLUSIVE"
grep -q 'PASS' "$work/aa.md" && fail "A/A: the Markdown says PASS"
grep -q 'noisy: .*INCONCLUSIVE (~[0-9]* runs per side)' "$work/aa.md" || fail "A/A: Markdown does not say the runs needed"
"$BENCH" gate --db "$db" --baseline suite:1 --candidate git=abc2 --on-inconclusive pass >"$work/out2" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "--on-inconclusive pass: expected exit 0, got $rc"
grep -q '^gate: INCONCLUSIVE (accepted: --on-inconclusive pass)' "$work/out2" || fail "--on-inconclusive pass: headline"
grep -q '^REGRESSION' "$work/out" && fail "A/A shows a regression"
grep -q '^INCONCLUSIVE  *noisy' "$work/out" || fail "A/A: the noisy workload should be inconclusive"
grep -q '^EQUIVALENT  *seq-write' "$work/out" || fail "A/A: the unchanged workload should be equivalent"
grep -q 'more runs per side would likely settle it' "$work/out" || fail "no estimate of the runs needed"
"$BENCH" gate --db "$db" --baseline suite:1 --candidate git=abc2 --strict --junit "$work/strict.xml" \
	>"$work/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--strict with an inconclusive cell: expected exit 1, got $rc"
grep -q '<failure type="INCONCLUSIVE"' "$work/strict.xml" || fail "--strict: inconclusive is not a JUnit failure"

# --- calibration on the A/A pair ---------------------------------------------------------------------------
"$BENCH" gate --db "$db" --calibrate --baseline suite:1 --candidate suite:3 --threshold 5 >"$work/out" 2>&1
rc=$?
cat "$work/out"
[ $rc -eq 0 ] || fail "--calibrate: expected exit 0, got $rc"
grep -q 'noisiest cell needs' "$work/out" || fail "--calibrate does not say how many runs are needed"
grep -q '^noisy .*read IOPS' "$work/out" || fail "--calibrate does not list the noisy workload"

after=$(sqlite3 "$db" "SELECT count(*), total(iops) FROM result; PRAGMA user_version;" | md5sum)
[ "$before" = "$after" ] || fail "the gate changed the database"
echo "gate_outputs: ok"
