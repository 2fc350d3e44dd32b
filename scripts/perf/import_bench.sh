#!/bin/bash
# import_bench: throughput and memory of `bench import` of fio JSON files (issue 2, acceptance 5; issue 19,
# acceptance 2: >= 10,000 files/s, peak RSS flat from 1,000 to 50,000 files).
# Not a test: a measurement. Runs fio 3.33 once (ioengine=null, a 70/30 randrw job with group_reporting and
# json+ output, as a typical result file), writes N copies varied in job name and figures, and times one
# `bench import` of all of them into one fresh database, at two file counts so that you can see whether
# memory grows with the number of files. Prints files/s, MB/s, CPU time per file (user + sys: bench reads
# and parses files in a second thread, so CPU may exceed wall) and peak RSS (GNU time), each with its target.
#
# usage: scripts/perf/import_bench.sh [BENCH_BINARY] [N_SMALL] [N_LARGE] [json|json+]
set -euo pipefail
. "$(dirname "$0")/machine.sh"
BENCH=${1:-${BENCH:-$(dirname "$0")/../../build/bench}}
N1=${2:-1000}
N2=${3:-50000}
FMT=${4:-json}
[ -x "$BENCH" ] || { echo "import_bench: no bench binary at '$BENCH' (pass it as the first argument)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "import_bench: GNU time is missing: apt-get install time" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
perf_machine

fio --name=typical --ioengine=null --size=64m --bs=4k --rw=randrw --rwmixread=70 --numjobs=2 --iodepth=8 \
	--group_reporting --output-format="$FMT" --output="$T/template.json" >/dev/null

# N2 files: the template with another job name and scaled figures (python3, one pass).
python3 - "$T/template.json" "$T/files" "$N2" <<'PY'
import json, os, sys
tpl, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(open(tpl))
os.makedirs(out)
orig = {d: dict(doc["jobs"][0][d]) for d in ("read", "write")}
for i in range(n):
    job = doc["jobs"][0]
    job["jobname"] = f"typical-{i}"
    k = 1 + (i % 97) / 1000 # every figure of a direction scaled alike, so that the file stays consistent
    for d in ("read", "write"):
        r, o = job[d], orig[d]
        ios = int(o["total_ios"] * k)
        f = ios / o["total_ios"] if o["total_ios"] else 1
        r["total_ios"] = ios
        r["io_bytes"] = int(o["io_bytes"] * f)
        r["io_kbytes"] = r["io_bytes"] // 1024
        for key in ("iops", "bw_bytes", "bw"):
            r[key] = o[key] * f
        if "bw" in r:
            r["bw"] = int(r["bw"])
    with open(f"{out}/fio-{i:06d}.json", "w") as f:
        json.dump(doc, f, indent=2)
PY
size=$(du -b "$T/template.json" | cut -f1)
echo "typical file: fio $(fio --version) $FMT output, $size bytes"

measure() { # measure N
	local n=$1
	rm -f "$T"/m.db*
	ls "$T/files" >"$T/all"
	head -n "$n" "$T/all" | sed "s|^|$T/files/|" >"$T/list"
	local bytes; bytes=$(xargs cat <"$T/list" | wc -c)
	# one command, all files in one transaction
	/usr/bin/time -f "%e %U %S %M" -o "$T/time" xargs -a "$T/list" -x -s 2000000 "$BENCH" import --db "$T/m.db" >/dev/null
	local calls; calls=$(xargs -a "$T/list" -x -s 2000000 echo | wc -l)
	read -r wall usr sys rss <"$T/time"
	local runs; runs=$(sqlite3 "$T/m.db" "SELECT count(*) FROM run")
	[ "$runs" -eq "$n" ] || { echo "import_bench: $runs runs stored for $n files" >&2; exit 1; }
	local fps; fps=$(awk -v n="$n" -v w="$wall" 'BEGIN { printf "%.0f", n / (w > 0 ? w : 0.01) }')
	awk -v n="$n" -v b="$bytes" -v w="$wall" -v u="$usr" -v s="$sys" -v r="$rss" -v c="$calls" -v v="$(perf_verdict "$fps" '>=' 10000)" 'BEGIN {
		printf "%6d files (%.1f MB, %d bench command%s): %.2f s wall (%.2f user + %.2f sys = %.3f ms CPU per file) -> %.0f files/s [target >= 10000: %s], %.1f MB/s; peak RSS %.1f MiB\n",
			n, b / 1e6, c, (c > 1 ? "s" : ""), w, u, s, (u + s) * 1000 / n, n / w, v, b / w / 1e6, r / 1024 }'
	echo "$rss" >"$T/rss.$n"
}
measure "$N1"
measure "$N2"
awk -v a="$(cat "$T/rss.$N1")" -v b="$(cat "$T/rss.$N2")" -v n1="$N1" -v n2="$N2" 'BEGIN {
	printf "peak RSS %d -> %d files: %.1f -> %.1f MiB (x%.2f) [target: flat, x <= 1.25: %s]\n", n1, n2, a / 1024, b / 1024,
		b / a, (b / a <= 1.25) ? "meets" : "MISSES" }'
