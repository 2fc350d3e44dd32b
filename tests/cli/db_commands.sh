#!/bin/bash
# db_commands: `bench db list|show|rm|relabel|merge|check|vacuum` (issue 17, docs/db.md).
# Builds two databases from fio 3.33 JSON generated here (ioengine=null, a second each) and fio logs:
# main.db with two suites (one with a hostile label), other.db with two suites of "another machine"
# (one with samples). Then: merge other.db brings its two suites with their results, samples and
# artifacts (compared with other.db row by row); merging again adds nothing; relabel and rm with --dry-run
# change nothing and without it do what they said; show --raw is byte-identical to the fio output; list and
# show --format json parse; check finds a broken foreign key; every subcommand has --help; exit codes as
# documented (0, 2, 3, 5).
set -euo pipefail
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 1; }
rc_of() { set +e; "$@" >out.txt 2>err.txt; echo $?; set -e; }

gen() { # gen NAME RW BS [extra fio options]
	local name=$1 rw=$2 bs=$3
	shift 3
	fio --name="$name" --ioengine=null --size=16m --bs="$bs" --rw="$rw" --output-format=json+ \
		--output="$name.json" "$@" >/dev/null
}
gen a randrw 4k --rwmixread=70
gen b read 64k
gen c randwrite 4k
gen d randread 8k --time_based --runtime=2 --rate_iops=3000 --write_iops_log=d --log_avg_msec=500
hostile='q"uote
nl <script>,c=e s'
"$BENCH" import --db main.db --label "stack=$hostile" --label transport=nvmeof a.json >/dev/null
"$BENCH" import --db main.db --label transport=iser b.json >/dev/null
"$BENCH" import --db other.db --label site=lab2 c.json >/dev/null
"$BENCH" import --db other.db --label site=lab2 d.json >/dev/null
drun=$(q other.db "SELECT r.id FROM run r WHERE r.name = 'd'")
"$BENCH" import --db other.db --run "$drun" d_iops.1.log >/dev/null
nsamples=$(q other.db "SELECT count(*) FROM sample")
[ "$nsamples" -ge 2 ] && ok "other.db has $nsamples samples" || fail "other.db samples: $nsamples"

# ---- list ---------------------------------------------------------------------------------------
expect_eq "list exit" "$(rc_of "$BENCH" db list --db main.db)" 0
expect_eq "list lines (header, 2 runs, count)" "$(wc -l <out.txt)" 4
grep -q '<script>' out.txt && ok "list shows the label" || fail "list: $(cat out.txt)"
expect_eq "list --where" "$("$BENCH" db list --db main.db --where transport=iser --format json |
	python3 -c 'import json,sys; print([r["name"] for r in json.load(sys.stdin)])')" "['b']"
python3 - main.db <<'PY' || fail "list --format json"
import json, subprocess, sys, os
out = subprocess.run([os.environ["BENCH"], "db", "list", "--db", sys.argv[1], "--format", "json"],
                     check=True, capture_output=True, text=True).stdout
runs = json.loads(out)
assert len(runs) == 2, runs
a = [r for r in runs if r["name"] == "a"][0]
assert a["labels"]["stack"] == 'q"uote\nnl <script>,c=e s', a["labels"]
doc = json.load(open("a.json"))
want = doc["jobs"][0]["read"]["iops"] + doc["jobs"][0]["write"]["iops"]
assert abs(a["iops"] - want) <= 1e-6 * want, (a["iops"], want)
print("ok: list --format json: labels and IOPS as fio wrote them")
PY

# ---- merge ----------------------------------------------------------------------------------------
before_runs=$(q main.db "SELECT count(*) FROM run")
expect_eq "merge --dry-run" "$("$BENCH" db merge --db main.db other.db --dry-run)" \
	"would merge 2 new suites and 2 new runs; 0 suites and 0 runs already present"
expect_eq "dry-run merge leaves runs" "$(q main.db "SELECT count(*) FROM run")" "$before_runs"
other_sum=$(sha256sum other.db)
expect_eq "merge" "$("$BENCH" db merge --db main.db other.db)" \
	"merged 2 new suites and 2 new runs; 0 suites and 0 runs already present"
expect_eq "other.db untouched by merge" "$(sha256sum other.db)" "$other_sum"
expect_eq "merge again" "$("$BENCH" db merge --db main.db other.db --format json |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["suites_new"], d["runs_new"], d["suites_same"], d["runs_same"])')" \
	"0 0 2 2"
expect_eq "runs after two merges" "$(q main.db "SELECT count(*) FROM run")" $((before_runs + 2))
expect_eq "no duplicate suites" "$(q main.db "SELECT count(*) FROM (SELECT name, created_at FROM suite GROUP BY 1, 2 HAVING count(*) > 1)")" 0
python3 - main.db other.db <<'PY' || fail "merged rows differ from other.db"
import sqlite3, sys
m, o = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
def rows(db, name):
    rid = db.execute("SELECT r.id FROM run r WHERE r.name = ?", (name,)).fetchone()[0]
    res = db.execute("SELECT host, ddir, ios, bytes, iops, bw_bytes, lat_mean_ns FROM result WHERE run_id = ? "
                     "ORDER BY host, ddir", (rid,)).fetchall()
    pct = db.execute("SELECT r.host, r.ddir, p.pct, p.value_ns FROM result_pct p JOIN result r ON r.id = p.result_id "
                     "WHERE r.run_id = ? ORDER BY 1, 2, 3", (rid,)).fetchall()
    bins = db.execute("SELECT count(*), sum(b.count) FROM result_bin b JOIN result r ON r.id = b.result_id "
                      "WHERE r.run_id = ?", (rid,)).fetchall()
    lab = db.execute("SELECT key, value FROM suite_label WHERE suite_id = (SELECT suite_id FROM run WHERE id = ?) "
                     "ORDER BY 1", (rid,)).fetchall()
    smp = db.execute("SELECT host, metric, t_ms, value FROM sample WHERE run_id = ? ORDER BY 1, 2, 3", (rid,)).fetchall()
    art = db.execute("SELECT name, content FROM artifact WHERE run_id = ? ORDER BY 1", (rid,)).fetchall()
    return res, pct, bins, lab, smp, art
for name in ("c", "d"):
    a, b = rows(m, name), rows(o, name)
    for what, x, y in zip(("results", "percentiles", "bins", "labels", "samples", "artifacts"), a, b):
        assert x == y and len(x) > 0 or (what == "samples" and name == "c"), (name, what, x[:3], y[:3])
print("ok: merged runs c and d equal other.db's: results, percentiles, bins, labels, samples, artifacts")
PY

# ---- show -----------------------------------------------------------------------------------------
arun=$(q main.db "SELECT id FROM run WHERE name = 'a'")
crun=$(q main.db "SELECT id FROM run WHERE name = 'c'")
"$BENCH" db show --db main.db "$arun" --raw >raw_a.json
cmp raw_a.json a.json && ok "show --raw is byte-identical to fio's output" || fail "show --raw differs"
"$BENCH" db show --db main.db "$crun" --raw -o raw_c.json
cmp raw_c.json c.json && ok "show --raw -o of a merged run" || fail "show --raw of the merged run differs"
expect_eq "show exit" "$(rc_of "$BENCH" db show --db main.db "$arun")" 0
for section in "spec:" "results:" "hosts:" "cpu:" "samples:" "artifacts:"; do
	grep -qx "$section" out.txt && ok "show has $section" || fail "show lacks $section"
done
drun_main=$(q main.db "SELECT id FROM run WHERE name = 'd'")
python3 - main.db "$drun_main" <<'PY' || fail "show --format json"
import json, subprocess, sys, os, sqlite3
out = subprocess.run([os.environ["BENCH"], "db", "show", "--db", sys.argv[1], sys.argv[2], "--format", "json"],
                     check=True, capture_output=True, text=True).stdout
d = json.loads(out)
db = sqlite3.connect(sys.argv[1])
assert d["spec"]["workload"]["bs_bytes"] == 8192, d["spec"]
n = db.execute("SELECT count(*) FROM result WHERE run_id = ?", (sys.argv[2],)).fetchone()[0]
assert len(d["results"]) == n and n > 0, (len(d["results"]), n)
p99 = db.execute("SELECT p.value_ns FROM result_pct p JOIN result r ON r.id = p.result_id WHERE r.run_id = ? "
                 "AND r.host = '*' AND r.ddir = 'read' AND p.pct = 99", (sys.argv[2],)).fetchone()[0]
agg = [r for r in d["results"] if r["host"] == "*" and r["ddir"] == "read"][0]
assert agg["percentiles_ns"]["99"] == p99, (agg["percentiles_ns"], p99)
s = db.execute("SELECT count(*), min(value), max(value) FROM sample WHERE run_id = ?", (sys.argv[2],)).fetchone()
assert d["samples"][0]["n"] == s[0] and d["samples"][0]["min"] == s[1] and d["samples"][0]["max"] == s[2], d["samples"]
assert [a["name"] for a in d["artifacts"]] == ["fio-output.json", "import.sha256"], d["artifacts"]
assert d["artifacts"][0]["bytes"] == os.path.getsize("d.json")
print("ok: show --format json: spec, results with p99, samples summary, artifacts")
PY

# a run of `bench run` (a tiny null-engine job): show has its job file, --raw is the stored fio output
printf '[global]\nioengine=null\nsize=8m\nbs=4k\n[r]\nrw=randread\n' >tiny.fio
"$BENCH" run --db run.db tiny.fio >/dev/null 2>&1
"$BENCH" db show --db run.db 1 >show_run.txt
grep -q "^job file (jobfile):$" show_run.txt && grep -q "^rw=randread$" show_run.txt && ok "show prints the job file" ||
	fail "show of a bench run: $(head -30 show_run.txt)"
"$BENCH" db show --db run.db 1 --raw >raw_run.json
python3 - run.db raw_run.json <<'PY2' || fail "show --raw of a bench run differs from the stored artifact"
import sqlite3, sys, json
blob = sqlite3.connect(sys.argv[1]).execute("SELECT content FROM artifact WHERE run_id = 1 AND name = 'fio-output.json'").fetchone()[0]
blob = blob.encode() if isinstance(blob, str) else blob
got = open(sys.argv[2], "rb").read()
assert got == blob and json.loads(got)["fio version"] == "fio-3.33", (len(got), len(blob))
print(f"ok: show --raw of a bench run: the {len(got)} stored bytes of fio's output")
PY2

# ---- relabel ---------------------------------------------------------------------------------------
labels() { q main.db "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM run_label WHERE run_id = $1 ORDER BY key)"; }
before=$(labels "$crun")
expect_eq "relabel --dry-run" "$("$BENCH" db relabel --db main.db --where site=lab2 --set rack=r7 --dry-run)" \
	"would change 2 labels on 2 runs"
expect_eq "labels after dry-run" "$(labels "$crun")" "$before"
expect_eq "relabel" "$("$BENCH" db relabel --db main.db --where site=lab2 --set rack=r7 --unset site)" \
	"changed 4 labels on 2 runs"
expect_eq "labels of run c" "$(labels "$crun")" "rack=r7"
expect_eq "relabel by --where of the new label" "$("$BENCH" db list --db main.db --where rack=r7 --format json |
	python3 -c 'import json,sys; print(sorted(r["name"] for r in json.load(sys.stdin)))')" "['c', 'd']"

# ---- rm ---------------------------------------------------------------------------------------------
brun=$(q main.db "SELECT id FROM run WHERE name = 'b'")
nres=$(q main.db "SELECT count(*) FROM result WHERE run_id = $brun")
expect_eq "rm --dry-run" "$("$BENCH" db rm --db main.db "$brun" --dry-run)" \
	"would remove 1 run ($nres results, 0 samples, 2 artifacts) and 1 empty suite"
expect_eq "runs after rm --dry-run" "$(q main.db "SELECT count(*) FROM run WHERE id = $brun")" 1
expect_eq "rm" "$("$BENCH" db rm --db main.db "$brun")" "removed 1 run ($nres results, 0 samples, 2 artifacts) and 1 empty suite"
expect_eq "run b gone" "$(q main.db "SELECT count(*) FROM run WHERE id = $brun")" 0
expect_eq "results of b gone" "$(q main.db "SELECT count(*) FROM result WHERE run_id = $brun")" 0
expect_eq "artifacts of b gone" "$(q main.db "SELECT count(*) FROM artifact WHERE run_id = $brun")" 0
expect_eq "suite of b gone" "$(q main.db "SELECT count(*) FROM suite WHERE name = 'b.json'")" 0
expect_eq "rm json" "$("$BENCH" db rm --db main.db --where rack=r7 --dry-run --format json |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["runs"]), d["samples"], d["dry_run"])')" \
	"2 $nsamples True"

# ---- check, vacuum ------------------------------------------------------------------------------------
expect_eq "check" "$("$BENCH" db check --db main.db)" "ok: 0 problems, 0 notes"
cp main.db broken.db
q broken.db "PRAGMA foreign_keys = OFF; INSERT INTO run_label(run_id, key, value) VALUES (9999, 'x', 'y');"
expect_eq "check of a broken file" "$(rc_of "$BENCH" db check --db broken.db)" 5
grep -q "^foreign_key: table run_label" out.txt && ok "check names the orphan" || fail "check: $(cat out.txt)"
expect_eq "check json" "$("$BENCH" db check --db broken.db --format json 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["ok"], [p["kind"] for p in d["problems"]])')" \
	"False ['foreign_key']"
expect_eq "vacuum" "$(rc_of "$BENCH" db vacuum --db main.db)" 0
grep -q "^vacuumed 'main.db': [0-9]* -> [0-9]* bytes$" out.txt && ok "vacuum prints sizes" || fail "vacuum: $(cat out.txt)"
expect_eq "check after vacuum" "$("$BENCH" db check --db main.db)" "ok: 0 problems, 0 notes"

# ---- help and exit codes ---------------------------------------------------------------------------------
for sub in list show rm relabel merge check vacuum; do
	expect_eq "db $sub --help" "$(rc_of "$BENCH" db "$sub" --help)" 0
	grep -q "^usage: bench db $sub" out.txt || fail "db $sub --help: $(head -1 out.txt)"
	grep -q "^exit codes:" out.txt || fail "db $sub --help lacks the exit codes"
done
expect_eq "db --help" "$(rc_of "$BENCH" db --help)" 0
expect_eq "db (nothing)" "$(rc_of "$BENCH" db)" 2
expect_eq "db frob" "$(rc_of "$BENCH" db frob)" 2
expect_eq "list --set" "$(rc_of "$BENCH" db list --db main.db --set a=b)" 2
grep -q "has no option '--set'" err.txt && ok "names the option" || fail "$(cat err.txt)"
expect_eq "rm without selection" "$(rc_of "$BENCH" db rm --db main.db)" 2
expect_eq "show bad id" "$(rc_of "$BENCH" db show --db main.db x1)" 2
expect_eq "show missing run" "$(rc_of "$BENCH" db show --db main.db 9999)" 3
expect_eq "rm missing run" "$(rc_of "$BENCH" db rm --db main.db 9999)" 3
expect_eq "merge a JSON file" "$(rc_of "$BENCH" db merge --db main.db a.json)" 3
expect_eq "merge a missing file" "$(rc_of "$BENCH" db merge --db main.db nope.db)" 3
expect_eq "list a missing database" "$(rc_of "$BENCH" db list --db nope.db)" 5
expect_eq "error is one line" "$(wc -l <err.txt)" 1

finish
