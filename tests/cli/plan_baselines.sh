#!/usr/bin/env bash
# plan_baselines: `bench plan` lists the baseline runs `baseline = on` makes per configuration (issue 32,
# docs/profiles.md "Baselines in a plan") and counts them in the estimate. A suite of 2 configurations on file
# members (a: a1, a2; b: b1) and 2 workloads of distinct identity (w1: 4k random write, ramp 5 s, runtime 30 s;
# w2: 64k read, runtime 2 s) is 4 runs and 12 baseline runs:
#  - per configuration, before its setup, one member baseline per member and workload (a: 4, b: 2), on that
#    member alone, and for a (2 members) one of both at once per workload (2), and once built one CPU baseline
#    per workload (2 each); each at most 1 s ramp and 5 s runtime;
#  - the estimate counts them as runs are counted (ramp + runtime + 2 s): runs 82 s, baselines 72 s, 2:34 in
#    all ("4 runs and 12 baseline runs"), where leaving them out gives 1:22;
#  - JSON: per configuration "baselines" (name, kind, member, targets, ramp_s, runtime_s, when), top level
#    "baseline_runs", "baseline_s" and an "estimated_s" that includes them;
#  - with --hosts the planner plans no member baseline (the load runs on the hosts): a "no baseline" note per
#    configuration, the CPU baselines still listed, exit 0;
#  - the same suite without `baseline = on` lists none and its total line and JSON have no baseline fields.
# bench plan runs nothing: the members are never made, the directory is unchanged. About 1 s.
. "$BENCH_SRC/tests/lib/common.sh"
suite() { # suite FILE [SUITE-LINE]...
	local f=$1
	shift
	write_lines "$f" "[suite]" "name = pb" "$@" \
		"[config a]" "members = $T/a1.dat $T/a2.dat" "targets = $T/ta.dat" "setup = true" "teardown = true" \
		"[config b]" "members = $T/b1.dat" "targets = $T/tb.dat" "setup = true" "teardown = true" \
		"[workload w1]" "rw=randwrite" "bs=4k" "size=16m" "ioengine=psync" "ramp_time=5" "runtime=30" \
		"[workload w2]" "rw=read" "bs=64k" "size=16m" "ioengine=psync" "runtime=2"
}
suite bl.suite "baseline = on"
suite nobl.suite
printf 'h1 127.0.0.1:8765\n' >hosts.txt
before=$(ls -A "$T")

"$BENCH" plan bl.suite >plan.txt 2>err.txt
expect_eq "plan: exit (err: $(cat err.txt))" "$?" 0
expect_eq "plan: member baselines before setup" "$(grep -c '^  baseline  before setup  member ' plan.txt)" 6
expect_eq "plan: CPU baselines once built" "$(grep -c '^  baseline  once built    cpu ' plan.txt)" 4
# the baseline lines of each configuration's block: kind, name, ramp, runtime, targets
awk '/^configuration /{c=$2} /^  baseline /{print c, $4, $5, $7, $9, $10}' plan.txt >lines.txt
expect_eq "plan: a's and b's baselines, in run order" "$(tr '\n' ';' <lines.txt)" \
"a member baseline-a1.dat-w1 1s 5s $T/a1.dat;a member baseline-a2.dat-w1 1s 5s $T/a2.dat;\
a members baseline-members-w1 1s 5s $T/a1.dat,$T/a2.dat;\
a member baseline-a1.dat-w2 0s 2s $T/a1.dat;a member baseline-a2.dat-w2 0s 2s $T/a2.dat;\
a members baseline-members-w2 0s 2s $T/a1.dat,$T/a2.dat;\
a cpu baseline-cpu-w1 1s 5s $T/ta.dat;a cpu baseline-cpu-w2 0s 2s $T/ta.dat;\
b member baseline-b1.dat-w1 1s 5s $T/b1.dat;b member baseline-b1.dat-w2 0s 2s $T/b1.dat;\
b cpu baseline-cpu-w1 1s 5s $T/tb.dat;b cpu baseline-cpu-w2 0s 2s $T/tb.dat;"
expect_eq "plan: the total counts them" "$(grep 'estimated wall time' plan.txt)" \
	"4 runs and 12 baseline runs, estimated wall time 2:34"
grep -q "^(baseline runs: 'bench run' makes none whose key has a done run stored, so it may make fewer)$" plan.txt &&
	ok "plan: says stored baselines are reused" || fail "plan: no reuse line: $(cat plan.txt)"
expect_eq "plan: the runs still 4" "$(grep -cE '^ +[0-9]+ ' plan.txt)" 4

"$BENCH" plan bl.suite --format json >plan.json 2>err.txt
expect_eq "json: exit (err: $(cat err.txt))" "$?" 0
python3 - "$T" <<'EOF' >json.txt
import json, sys
d = json.load(open("plan.json"))
print("top", d["count"], d["baseline_runs"], d["baseline_s"], d["estimated_s"])
for c in d["configurations"]:
    print(c["name"], "notes", len(c["baseline_notes"]))
    for b in c["baselines"]:
        print(c["name"], b["kind"], b.get("member", "-"), b["name"], ",".join(t.replace(sys.argv[1], "T") for t in b["targets"]),
              b["ramp_s"], b["runtime_s"], b["when"])
EOF
expect_eq "json: count, baseline_runs, baseline_s, estimated_s" "$(head -1 json.txt)" "top 4 12 72 154"
expect_eq "json: a's baselines" "$(grep '^a ' json.txt | tr '\n' ';')" \
"a notes 0;a member a1.dat baseline-a1.dat-w1 T/a1.dat 1 5 before_setup;a member a2.dat baseline-a2.dat-w1 T/a2.dat 1 5 before_setup;\
a members - baseline-members-w1 T/a1.dat,T/a2.dat 1 5 before_setup;\
a member a1.dat baseline-a1.dat-w2 T/a1.dat 0 2 before_setup;a member a2.dat baseline-a2.dat-w2 T/a2.dat 0 2 before_setup;\
a members - baseline-members-w2 T/a1.dat,T/a2.dat 0 2 before_setup;\
a cpu - baseline-cpu-w1 T/ta.dat 1 5 built;a cpu - baseline-cpu-w2 T/ta.dat 0 2 built;"
expect_eq "json: b's baselines" "$(grep '^b ' json.txt | tr '\n' ';')" \
"b notes 0;b member b1.dat baseline-b1.dat-w1 T/b1.dat 1 5 before_setup;b member b1.dat baseline-b1.dat-w2 T/b1.dat 0 2 before_setup;\
b cpu - baseline-cpu-w1 T/tb.dat 1 5 built;b cpu - baseline-cpu-w2 T/tb.dat 0 2 built;"

"$BENCH" plan bl.suite --hosts hosts.txt >hosts.out 2>err.txt
expect_eq "--hosts: exit (err: $(cat err.txt))" "$?" 0
expect_eq "--hosts: a note per configuration" "$(grep -c "^  baseline  before setup  no baseline: the workloads run on the hosts of --hosts: member baselines are measured on this host only" hosts.out)" 2
expect_eq "--hosts: no member baseline" "$(grep -c '^  baseline  before setup  member ' hosts.out)" 0
expect_eq "--hosts: the CPU baselines counted" "$(grep 'estimated wall time' hosts.out)" \
	"4 runs and 4 baseline runs, estimated wall time 1:46"

"$BENCH" plan nobl.suite >none.txt 2>err.txt
expect_eq "no baseline = on: exit (err: $(cat err.txt))" "$?" 0
expect_eq "no baseline = on: no baseline line" "$(grep -c 'baseline' none.txt)" 0
expect_eq "no baseline = on: the total" "$(grep 'estimated wall time' none.txt)" "4 runs, estimated wall time 1:22"
"$BENCH" plan nobl.suite --format json >none.json 2>err.txt
expect_eq "no baseline = on: json" "$(python3 -c 'import json; d = json.load(open("none.json")); print(d["estimated_s"], "baseline_runs" in d, any("baselines" in c for c in d["configurations"]))')" \
	"82 False False"

expect_eq "nothing written (no member, no database)" "$(ls -A "$T" | grep -vxE 'plan.txt|err.txt|lines.txt|plan.json|json.txt|hosts.out|none.txt|none.json')" "$before"
finish
