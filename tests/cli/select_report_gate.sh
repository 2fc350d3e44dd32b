#!/usr/bin/env bash
# select_report_gate: `bench report --where k=v` and `bench gate` with the selection k=v choose the same runs
# of one database (one selection language, report/select.h; a run's label overrides its suite's), across
# run/suite label combinations that `bench import --csv` stores: the suite's label only (--label), the run's
# only (a CSV label column), and both disagreeing (--label env=prod with env=lab rows, and the reverse).
# Compared: how many runs each chose (report -v lists every run it chose, the gate counts its sides) and the
# ids of the failed runs among them (report -v lists them, the gate names them as excluded).
. "$BENCH_SRC/tests/lib/common.sh"

# csv FILE [ENV]: three repetitions of two workloads (the third failed), with an env column when ENV is given
csv() {
  local f=$1 env=${2:-} st
  {
    printf '%sworkload,tool,bs,rdpct,randpct,read_iops,write_iops,cpu_pct,repetition,status\n' "${env:+env,}"
    for rep in 1 2 3; do
      st=done
      [ "$rep" = 3 ] && st=failed
      printf '%sfio-4k-rr-%s,fio,4k,100,100,%d,,%d.5,%d,%s\n' "${env:+$env,}" "$f" $((1000 + rep)) $((20 + rep)) "$rep" $st
      printf '%sfio-64k-sw-%s,fio,64k,0,0,,%d,%d.5,%d,%s\n' "${env:+$env,}" "$f" $((300 + rep)) $((30 + rep)) "$rep" $st
    done
  } >"$f.csv"
}
csv suite_only
csv run_only lab
csv run_lab_suite_prod lab
csv run_prod_suite_lab prod
"$BENCH" import --db t.db --csv suite_only.csv --label env=lab >/dev/null || fail "import suite_only"
"$BENCH" import --db t.db --csv run_only.csv >/dev/null || fail "import run_only"
"$BENCH" import --db t.db --csv run_lab_suite_prod.csv --label env=prod >/dev/null || fail "import run_lab_suite_prod"
"$BENCH" import --db t.db --csv run_prod_suite_lab.csv --label env=lab >/dev/null || fail "import run_prod_suite_lab"
expect_eq "runs stored" "$(q t.db 'SELECT count(*) FROM run')" 24
expect_eq "disagreeing labels stored" \
  "$(q t.db "SELECT count(*) FROM run r JOIN run_label l ON l.run_id = r.id AND l.key = 'env'
             JOIN suite_label s ON s.suite_id = r.suite_id AND s.key = 'env' WHERE l.value <> s.value")" 12

# chosen SOURCE: "N: ids" - how many runs a report -v JSON (its run list) or a gate JSON (its baseline) chose,
# and the sorted ids of the failed ones (report: status failed; gate: excluded with "status failed")
chosen() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if "runs" in d:
    n, failed = len(d["runs"]), [r["id"] for r in d["runs"] if r["status"] == "failed"]
else:
    b = d["baseline"]
    n, failed = b["runs"], [r["run_id"] for r in b["excluded"] if r["reason"].startswith("status failed")]
print("%d: %s" % (n, " ".join(str(i) for i in sorted(failed))))
PY
}

for sel in env=lab env=prod "env=lab,bs=4k" "env=prod,bs=64k"; do
  where=()
  IFS=, read -ra conds <<<"$sel"
  for c in "${conds[@]}"; do where+=(--where "$c"); done
  rm -f gate.json
  "$BENCH" report --db t.db "${where[@]}" -v --format json >report.json 2>report.err || fail "report $sel: $(cat report.err)"
  # CSV rows have no IO counts, so the gate has nothing to judge (exit 3); it still writes what it chose
  "$BENCH" gate --db t.db --baseline "$sel" --candidate "$sel" --min-runs 1 --json gate.json --quiet >gate.out 2>&1
  [ -s gate.json ] || fail "gate $sel wrote no JSON: $(cat gate.out)"
  r=$(chosen report.json)
  g=$(chosen gate.json)
  expect_eq "gate's runs for $sel" "$g" "$r"
  # and what the label rule says: the run's env wins over its suite's
  env=${sel%%,*}
  env=${env#env=}
  want=$(q t.db "SELECT r.id FROM run r WHERE r.status = 'failed' AND coalesce((SELECT value FROM run_label WHERE run_id = r.id AND key = 'env'),
                 (SELECT value FROM suite_label WHERE suite_id = r.suite_id AND key = 'env')) = '$env' $(
                 case $sel in *bs=4k) echo "AND r.bs_bytes = 4096" ;; *bs=64k) echo "AND r.bs_bytes = 65536" ;; esac)
                 ORDER BY r.id" | tr '\n' ' ' | sed 's/ $//')
  expect_eq "report's failed runs for $sel" "${r#*: }" "$want"
done
finish
