#!/bin/bash
# export_push: `bench export` in every format, parsed back, and pushed to real servers (issue 17).
# 1. A database from fio 3.33 JSON and fio iops/latency logs generated here, one run with a hostile label
#    (double quote, newline, <script>, comma, equals sign, space): the CSV, JSON, line-protocol and
#    OpenMetrics outputs are parsed back here and must carry the label and every figure exactly.
# 2. InfluxDB 1.6 (influxd of Debian, a config file written here, HTTP on 127.0.80.1): `--push` writes every
#    point; /query returns each one with its value and timestamp (runs at started_at, samples at
#    started_at + t_ms).
# 3. Prometheus Pushgateway (Debian's prometheus-pushgateway on 127.0.80.1): `--push` of OpenMetrics; its
#    /metrics has every run figure with its value.
# 4. Endpoints that refuse: a closed port, HTTP 500 from a python3 server, a server that never answers, and
#    one that fails the third batch: exit 4, one clear line, within the documented worst case, and the count
#    of points written before the failure.
set -euo pipefail
: "${BENCH:?}" "${BENCH_SRC:?}"
for p in fio influxd prometheus-pushgateway python3 curl; do
	command -v "$p" >/dev/null || { echo "$p is not installed (scripts/setup installs it)" >&2; exit 1; }
done
T=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
ADDR=127.0.80.1
# ports of this test: free ones picked by the kernel on ADDR
read -r P_INFLUX P_RPC P_PGW P_500 P_SLOW P_FLAKY P_CLOSED < <(python3 - "$ADDR" <<'PY'
import socket, sys
socks = []
for _ in range(7):
    s = socket.socket(); s.bind((sys.argv[1], 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
)
fails=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect() { if [ "$2" = "$3" ]; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }

# ---- 1. the database and the four formats -----------------------------------------------------------
hostile='q"uote
nl <script>,c=e s'
fio --name=h --ioengine=null --size=1g --bs=4k --rw=randread --time_based --runtime=2 --rate_iops=2000 \
	--write_iops_log=h --write_lat_log=h --log_avg_msec=500 --output-format=json+ --output=h.json >/dev/null
fio --name=w --ioengine=null --size=16m --bs=64k --rw=write --output-format=json+ --output=w.json >/dev/null
"$BENCH" import --db t.db --label "stack=$hostile" --label "x.y-z=1" h.json >/dev/null
hrun=$(sqlite3 t.db "SELECT id FROM run WHERE name = 'h'")
"$BENCH" import --db t.db --run "$hrun" h_iops.1.log h_lat.1.log >/dev/null
"$BENCH" import --db t.db --label transport=iser w.json >/dev/null
for f in csv json influx openmetrics; do
	"$BENCH" export --db t.db --format "$f" -o "out.$f"
done
"$BENCH" export --db t.db --format csv --samples -o samples.csv

cat >parse.py <<'PY'
# Parsers of the four export formats, written from the format rules (not from bench's code).
import csv, json, re, sqlite3

def lp_split(s, seps):
    """Splits at unescaped characters of seps; returns the parts, still escaped."""
    parts, cur, i = [], "", 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            cur += s[i:i + 2]; i += 2; continue
        if c in seps:
            parts.append(cur); cur = ""; i += 1; continue
        cur += c; i += 1
    parts.append(cur)
    return parts

def lp_unescape(s):
    out, i = "", 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in ",= \\":
            out += s[i + 1]; i += 2; continue
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] == "n":
            out += "\n"; i += 2; continue
        out += s[i]; i += 1
    return out

def parse_lp(text):
    points = []
    for line in text.splitlines():
        series, fields, ts = lp_split(line, " ")
        head = lp_split(series, ",")
        tags = dict((lp_unescape(k), lp_unescape(v)) for k, v in (lp_split(t, "=") for t in head[1:]))
        f = {}
        for kv in lp_split(fields, ","):
            k, v = lp_split(kv, "=")
            f[lp_unescape(k)] = int(v[:-1]) if v.endswith("i") else float(v)
        points.append((lp_unescape(head[0]), tags, f, int(ts)))
    return points

OM_LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)(?: (\S+))?$')
def om_labels(s):
    labels, i = {}, 0
    while i < len(s):
        m = re.match(r'([a-zA-Z_][a-zA-Z0-9_]*)="', s[i:])
        assert m, s[i:]
        key = m.group(1); i += m.end(); val = ""
        while s[i] != '"':
            if s[i] == "\\":
                val += {"\\": "\\", '"': '"', "n": "\n"}[s[i + 1]]; i += 2
            else:
                val += s[i]; i += 1
        labels[key] = val; i += 1
        if i < len(s) and s[i] == ",":
            i += 1
    return labels

def parse_om(text, strict=True):
    out, families, last = [], [], None
    lines = text.splitlines()
    if strict:
        assert lines[-1] == "# EOF", lines[-1]
    for line in lines:
        if line.startswith("#"):
            m = re.match(r"# TYPE (\S+) gauge$", line)
            if m:
                assert m.group(1) not in families, "family twice: " + m.group(1)
                families.append(m.group(1))
            continue
        m = OM_LINE.match(line)
        assert m, "bad line: " + line
        out.append((m.group(1), om_labels(m.group(2)), float(m.group(3)),
                    float(m.group(4)) if m.group(4) else None))
    return out

def db_runs(path):
    db = sqlite3.connect(path)
    return {rid: (name, started) for rid, name, started in db.execute("SELECT id, name, started_at FROM run")}
PY

python3 - "$hostile" <<'PY' || fail "formats do not parse back"
import csv, json, sys, sqlite3, datetime
sys.path.insert(0, ".")
from parse import *
hostile = sys.argv[1]
db = sqlite3.connect("t.db")
def epoch_ms(iso):
    return int(datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp() * 1000 + 0.5)
runs = {rid: (name, epoch_ms(st)) for rid, name, st in db.execute("SELECT id, name, started_at FROM run")}
samples = db.execute("SELECT run_id, host, metric, t_ms, value FROM sample ORDER BY 1, 2, 3, 4").fetchall()
hrun = [r for r in runs if runs[r][0] == "h"][0]

rows = list(csv.DictReader(open("out.csv", newline="")))
assert len(rows) == 2 and rows[0]["label:stack"] == hostile, rows[0]
rows = list(csv.DictReader(open("samples.csv", newline="")))
assert [(int(r["run_id"]), r["host"], r["metric"], int(r["t_ms"]), float(r["value"])) for r in rows] == samples
for r in rows:
    assert int(r["time_ms"]) == runs[int(r["run_id"])][1] + int(r["t_ms"])
print("ok: csv: hostile label and", len(rows), "samples with their times")

doc = json.load(open("out.json"))
h = [r for r in doc["runs"] if r["workload"] == "h"][0]
assert h["labels"]["stack"] == hostile and h["labels"]["x.y-z"] == "1"
assert len(h["samples"]) == len([s for s in samples if s[0] == hrun])
print("ok: json: hostile label and samples")

pts = parse_lp(open("out.influx").read())
assert len(pts) == 2 + len(samples), len(pts)
for meas, tags, f, ts in pts:
    rid = int(tags["run"])
    if meas == "bench_run":
        assert ts == runs[rid][1] * 1000000, (ts, runs[rid])
        if rid == hrun:
            assert tags["stack"] == hostile and tags["x.y-z"] == "1", tags
    else:
        assert meas == "bench_sample"
        want = [s for s in samples if s[0] == rid and s[1] == tags["host"] and s[2] == tags["metric"]
                and (runs[rid][1] + s[3]) * 1000000 == ts]
        assert len(want) == 1 and want[0][4] == f["value"], (tags, f, ts)
print("ok: influx: every point parses back with its tags, value and timestamp")

om = parse_om(open("out.openmetrics").read())
iops = [s for s in om if s[0] == "bench_iops"]
assert len(iops) == 2
hi = [s for s in iops if s[1]["run"] == str(hrun)][0]
assert hi[1]["stack"] == hostile and hi[1]["x_y_z"] == "1" and hi[3] == runs[hrun][1] / 1000, hi
sm = [s for s in om if s[0].startswith("bench_sample_")]
assert len(sm) == len(samples), (len(sm), len(samples))
for name, labels, v, ts in sm:
    rid = int(labels["run"])
    want = [s for s in samples if s[0] == rid and s[2] == labels["metric"] and abs((runs[rid][1] + s[3]) / 1000 - ts) < 1e-6]
    assert len(want) == 1 and want[0][4] == v, (name, labels, v, ts)
print("ok: openmetrics: hostile label, sanitised label name, samples with timestamps")
PY

# ---- 2. InfluxDB ------------------------------------------------------------------------------------
mkdir -p influx
cat >influx/influxdb.conf <<EOF
reporting-disabled = true
bind-address = "$ADDR:$P_RPC"
[meta]
  dir = "$T/influx/meta"
[data]
  dir = "$T/influx/data"
  wal-dir = "$T/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "$ADDR:$P_INFLUX"
  log-enabled = false
[logging]
  level = "error"
EOF
influxd run -config influx/influxdb.conf >influx/log.txt 2>&1 &
pids+=($!)
prometheus-pushgateway --web.listen-address="$ADDR:$P_PGW" >pgw.log 2>&1 &
pids+=($!)
up() { for _ in $(seq 100); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done; return 1; }
up "http://$ADDR:$P_INFLUX/ping" || { cat influx/log.txt; fail "influxd did not start"; exit 1; }
curl -sf -XPOST "http://$ADDR:$P_INFLUX/query" --data-urlencode "q=CREATE DATABASE bench" >/dev/null

out=$("$BENCH" export --db t.db --format influx --push "http://$ADDR:$P_INFLUX/" --batch 3)
npoints=$(wc -l <out.influx)
expect "influx push" "$out" "pushed $npoints points to http://$ADDR:$P_INFLUX/write?db=bench&precision=ns"
for m in bench_run bench_sample; do
	curl -sf -G "http://$ADDR:$P_INFLUX/query" --data-urlencode db=bench --data-urlencode epoch=ns \
		--data-urlencode "q=SELECT * FROM \"$m\"" >"q_$m.json"
done
python3 - "$hostile" <<'PY' || fail "InfluxDB does not hold what was exported"
import json, sys
sys.path.insert(0, ".")
from parse import parse_lp
hostile = sys.argv[1]
exported = parse_lp(open("out.influx").read())
got = {}
for m in ("bench_run", "bench_sample"):
    series = json.load(open(f"q_{m}.json"))["results"][0]["series"]
    for s in series:
        cols = s["columns"]
        for row in s["values"]:
            rec = dict(zip(cols, row))
            got.setdefault(m, []).append(rec)
n = 0
for meas, tags, fields, ts in exported:
    match = [r for r in got[meas] if r["time"] == ts and all(r.get(k) == v for k, v in tags.items())]
    # line protocol cannot carry a newline in a tag: bench writes it as the two characters \n
    if not match and "stack" in tags:
        t2 = dict(tags, stack=tags["stack"].replace("\n", "\\n"))
        match = [r for r in got[meas] if r["time"] == ts and all(r.get(k) == v for k, v in t2.items())]
    assert len(match) == 1, (meas, tags, ts, len(match))
    for k, v in fields.items():
        assert match[0][k] == v, (meas, k, match[0][k], v)
    n += 1
stored = sum(len(v) for v in got.values())
assert stored == n, (stored, n)
h = [r for r in got["bench_run"] if r.get("stack")][0]
assert h["stack"] == hostile.replace("\n", "\\n"), h["stack"]
print(f"ok: InfluxDB returns all {n} points with their values and timestamps; hostile tag as {h['stack']!r}")
PY

# the example Grafana dashboard reads what was written: every query of it, variables set to run h
python3 - "$BENCH_SRC/examples/grafana-dashboard.json" "http://$ADDR:$P_INFLUX" <<'PY2' || fail "dashboard queries"
import json, re, sys, urllib.parse, urllib.request
dash = json.load(open(sys.argv[1]))
def run(q):
    q = q.replace("$timeFilter", "time > 0").replace("$suite", re.escape("h.json"))
    q = q.replace("$workload", "h").replace("$metric", re.escape("iops.read"))
    url = sys.argv[2] + "/query?" + urllib.parse.urlencode({"db": "bench", "q": q})
    res = json.load(urllib.request.urlopen(url))["results"][0]
    assert "error" not in res, (q, res)
    return res.get("series", [])
queries = [v["query"] for v in dash["templating"]["list"]]
queries += [t["query"] for p in dash["panels"] for t in p["targets"]]
for q in queries:
    series = run(q)
    assert series and all(s["values"] for s in series), "no data: " + q
    if "GROUP BY" in q:
        for s in series:
            for tag in re.findall(r'GROUP BY (.*)$', q)[0].replace('"', "").split(", "):
                assert s["tags"].get(tag), (q, s["tags"])
print(f"ok: all {len(queries)} queries of examples/grafana-dashboard.json return data from the export")
PY2

# ---- 3. Pushgateway -------------------------------------------------------------------------------------
up "http://$ADDR:$P_PGW/metrics" || { cat pgw.log; fail "pushgateway did not start"; exit 1; }
npgw=$(grep '^bench_' out.openmetrics | grep -vc '^bench_sample_')
out=$("$BENCH" export --db t.db --format openmetrics --push "http://$ADDR:$P_PGW" --job bench-test)
expect "pushgateway push" "$out" "pushed $npgw points to http://$ADDR:$P_PGW/metrics/job/bench-test"
curl -sf "http://$ADDR:$P_PGW/metrics" >pgw_metrics.txt
python3 - "$hostile" <<'PY' || fail "the Pushgateway does not hold what was exported"
import sys
sys.path.insert(0, ".")
from parse import parse_om
hostile = sys.argv[1]
exported = [s for s in parse_om(open("out.openmetrics").read()) if not s[0].startswith("bench_sample_")]
text = "\n".join(l for l in open("pgw_metrics.txt").read().splitlines()
                 if l.startswith("#") or l.startswith("bench_"))
got = parse_om(text, strict=False)
for name, labels, v, ts in exported:
    match = [g for g in got if g[0] == name and g[1].get("job") == "bench-test" and
             all(g[1].get(k) == val for k, val in labels.items())]
    assert len(match) == 1 and match[0][2] == v, (name, labels, v, match)
assert any(g[1].get("stack") == hostile for g in got), "hostile label lost"
assert len([g for g in got if g[1].get("job") == "bench-test"]) == len(exported)
print(f"ok: the Pushgateway's /metrics has all {len(exported)} exported figures with their values")
PY

# ---- 4. endpoints that refuse ---------------------------------------------------------------------------
cat >server.py <<'PY'
import http.server, sys, time
mode, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
count = 0
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global count
        n = int(self.headers.get("Content-Length", 0)); self.rfile.read(n)
        count += 1
        if mode == "slow":
            time.sleep(3600)
        if mode == "flaky" and count <= 2:
            self.send_response(204); self.end_headers(); return
        body = b"internal error: disk full\nsecond line\n"
        self.send_response(500); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    do_PUT = do_POST
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer((addr, port), H).serve_forever()
PY
python3 server.py 500 "$ADDR" "$P_500" & pids+=($!)
python3 server.py slow "$ADDR" "$P_SLOW" & pids+=($!)
python3 server.py flaky "$ADDR" "$P_FLAKY" & pids+=($!)
for p in "$P_500" "$P_SLOW" "$P_FLAKY"; do
	for _ in $(seq 50); do python3 -c "import socket,sys; socket.create_connection(('$ADDR', $p), 1)" 2>/dev/null && break; sleep 0.1; done
done
opts=(--timeout 1 --connect-timeout 1 --retries 1) # worst case: 1 + 0.5 + 1 = 2.5 s
refuse() { # refuse NAME WANT-IN-MESSAGE URL [format]
	local name=$1 want=$2 url=$3 fmt=${4:-influx} t0 t1 rc
	t0=$(date +%s%N)
	set +e
	"$BENCH" export --db t.db --format "$fmt" --push "$url" "${opts[@]}" --batch 3 >r.out 2>r.err
	rc=$?
	set -e
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	expect "$name: exit" "$rc" 4
	expect "$name: one line" "$(wc -l <r.err)" 1
	grep -q "$want" r.err && ok "$name: $(cat r.err)" || fail "$name: message $(cat r.err)"
	[ "$ms" -lt 4500 ] && ok "$name: gave up after $ms ms (documented worst case 2500 ms)" ||
		fail "$name: took $ms ms"
	[ ! -s r.out ] || fail "$name: something was reported done: $(cat r.out)"
}
refuse "closed port" "push failed after 0 of $npoints points were written: gave up after 2 attempts: POST http://$ADDR:$P_CLOSED/write.*: Failed to connect" "http://$ADDR:$P_CLOSED"
refuse "HTTP 500" "gave up after 2 attempts: POST .*: HTTP 500: internal error: disk full$" "http://$ADDR:$P_500"
refuse "slow server" "gave up after 2 attempts: POST .*: Operation timed out after 10[0-9][0-9] milliseconds" "http://$ADDR:$P_SLOW"
refuse "pushgateway 500" "push failed after 0 of $npgw points were written: gave up after 2 attempts: PUT .*/metrics/job/bench: HTTP 500" "http://$ADDR:$P_500" openmetrics
refuse "third batch fails" "push failed after 6 of $npoints points were written" "http://$ADDR:$P_FLAKY"

echo "$fails failed"
[ "$fails" -eq 0 ]
