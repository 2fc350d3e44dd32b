#!/bin/bash
# db_show_text: `bench db show RUN` (text) prints each stored string in its own place. Two strings of one line
# (a host and its error, a sample series' host and metric) used to share one buffer, so the second printed
# the first's text ("error: ini1", metric "hostA"). The run is imported from fio's own JSON (ioengine=null);
# the host error and the samples are then written with sqlite3, with a control character that must show as '?'.
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 1; }

fio --name=w --ioengine=null --size=4m --bs=4k --rw=randread --output-format=json --output=w.json >/dev/null
"$BENCH" import --db s.db w.json >/dev/null 2>err.txt
expect_eq "import exit" "$?" 0
id=$(q s.db "SELECT id FROM run LIMIT 1")
host=$(q s.db "SELECT host FROM run_host WHERE run_id = $id AND host <> '*' LIMIT 1")
[ -n "$host" ] || host='*'
q s.db "UPDATE run_host SET error = 'disk gone' WHERE run_id = $id AND host = '$host'"
q s.db "INSERT INTO sample(run_id, host, metric, t_ms, value) VALUES
 ($id, 'hostA', 'iops.read', 1000, 5), ($id, 'hostA', 'iops.read', 2000, 7),
 ($id, 'hostB', 'lat'||char(27)||'x', 1000, 9)"

"$BENCH" db show "$id" --db s.db >out.txt 2>err.txt
expect_eq "show exit" "$?" 0
expect_eq "host line carries the host's error" \
	"$(grep -c "^  $(printf '%s' "$host" | sed 's/[*]/[*]/g') .*, error: disk gone$" out.txt)" 1
expect_eq "samples of hostA are iops.read" "$(grep -cE '^  hostA +iops\.read +2 samples' out.txt)" 1
expect_eq "control character of a metric shown as ?" "$(grep -cE '^  hostB +lat\?x +1 samples' out.txt)" 1
finish
