#!/usr/bin/env bash
# explain_network: the shaped network's ceiling (docs/explain.md, the network/transport rule from the label
# cfg.net.rate_bps that the configuration record stores for a lab host's tc shaping) on fixed inputs: runs
# stored by `bench import --csv` with that label. 1 Gbit/s at 256k reads = 1e9 / 8 / 262,144 = 476.8 IOPS:
# a row at 470 IOPS (34 ms: Little's law is at its limit too, the resource comes first) is "limited by
# network/transport" with the evidence, a row at 200 IOPS (8 ms) is not, and the same run without the label has
# no network check at all (queue depth names it). About 2 s.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
. "$BENCH_SRC/tests/lib/common.sh"

printf 'workload,bs,rdpct,randpct,iodepth,numjobs,iops,read_lat_ms\n' >net.csv
printf 'seq256k-at-link,256k,100,0,16,1,470,34\nseq256k-slow,256k,100,0,16,1,200,8\n' >>net.csv
"$BENCH" import --db n.db --csv net.csv --label cfg.net.rate_bps=1000000000 --label link=1gbit >out.txt 2>&1
expect_eq "import (shaped): exit" "$?" 0
printf 'workload,bs,rdpct,randpct,iodepth,numjobs,iops,read_lat_ms\nseq256k-unshaped,256k,100,0,16,1,470,34\n' \
	>plain.csv
"$BENCH" import --db n.db --csv plain.csv --label link=none >out.txt 2>&1
expect_eq "import (unshaped): exit" "$?" 0

"$BENCH" report --db n.db --explain --format json >r.json 2>r.err
expect_eq "report --explain --format json: exit" "$?" 0
out=$(python3 - r.json <<'PY'
import json, sys
text, docs, dec, i = open(sys.argv[1]).read(), [], json.JSONDecoder(), 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    d, i = dec.raw_decode(text, i)
    docs.append(d)
v = {x["workload"]: x for d in docs if isinstance(d, dict) for x in d.get("explain") or []}
for name in sorted(v):
    x = v[name]
    net = [c for c in x["checks"] if "cfg.net.rate_bps" in c["evidence"]]
    print(name, x["limited_by"], "%.1f" % (x["ceiling_iops"] or 0), len(net),
          "%.1f" % net[0]["ceiling_iops"] if net else "-", "evidence" if "network shaped to 1,000,000,000 bit/s"
          in x["evidence"] else "no-evidence")
PY
)
expect_eq "verdicts" "$out" "seq256k-at-link transport 476.8 1 476.8 evidence
seq256k-slow unexplained 476.8 1 476.8 evidence
seq256k-unshaped queue_depth 470.6 0 - no-evidence"
finish
