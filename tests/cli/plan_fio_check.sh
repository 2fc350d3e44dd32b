#!/usr/bin/env bash
# plan_fio_check (issue 28): fio parses every job file before anything runs or is stored. A job file with a
# mistake from fio's own option table (a typo'd or unknown option, a value out of fio's range, a value not in
# fio's list, a number that is no number, an unknown ioengine, a 100,000-character section name) is refused
# by `bench plan` and by `bench run` alike: exit 3, one stderr line with the file:line that holds the option
# and fio's suggestion where fio gives one; the database of `run --db` is byte-unchanged, or not created.
# A good job file still plans and runs; --no-fio-check plans the bad one with a warning; a machine without
# fio plans with a warning; --hosts jobs are checked by the local fio; no temporary file is left behind.
. "$BENCH_SRC/tests/lib/common.sh"

command -v fio >/dev/null || { echo "fio is not installed: nothing can check the job files here"; exit 77; }
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

# a job of 4k random reads on a sparse file of this test, with one more line ($1) at line 7
job() { # job FILE LINE
	write_lines "$1" "[a]" "rw=randread" "bs=4k" "runtime=1" "time_based" "size=4m" "$2" "filename=$T/t.dat"
}

# refused NAME FILE WANT: plan and run (into db.db) exit 3 with one stderr line holding WANT; db.db unchanged
refused() {
	local name=$1 file=$2 want=$3 cmd rc before
	for cmd in plan run; do
		before=$(sha256sum <db.db)
		if [ "$cmd" = plan ]; then "$BENCH" plan "$file" >out.txt 2>err.txt; else
			"$BENCH" run "$file" --db db.db -q >out.txt 2>err.txt; fi
		rc=$?
		expect_eq "$name: $cmd: exit" "$rc" 3
		expect_eq "$name: $cmd: stderr lines" "$(wc -l <err.txt)" 1
		if grep -qF -- "$want" err.txt; then ok "$name: $cmd says $want"
		else fail "$name: $cmd: stderr: $(cut -c1-300 err.txt)"; fi
		[ "$cmd" = run ] && expect_eq "$name: run: database unchanged" "$(sha256sum <db.db)" "$before"
	done
}

# a database with one good run in it; the good job also plans
job good.fio ""
"$BENCH" plan good.fio >out.txt 2>err.txt
expect_eq "good job: plan exit" "$?" 0
expect_eq "good job: plan stderr" "$(cat err.txt)" ""
"$BENCH" run good.fio --db db.db -q >out.txt 2>err.txt
expect_eq "good job: run exit" "$?" 0
expect_eq "good job: stored done" "$(q db.db "select count(*) from run where status = 'done'")" 1

# the job of the issue: iodepht=4 on line 4
write_lines bad4.fio "[a]" "rw=randread" "bs=4k" "iodepht=4" "runtime=2" "time_based" "size=16m" "filename=$T/t.dat"
refused "typo iodepht" bad4.fio "bench: error: bad4.fio:4: fio: bad option 'iodepht=4' (did you mean 'iodepth'?)"
"$BENCH" run bad4.fio --db new.db >out.txt 2>err.txt
expect_eq "typo iodepht: run into a new database: exit" "$?" 3
[ -e new.db ] && fail "run of a refused job created new.db" || ok "run of a refused job created no database"

# mistakes from fio's option table, each on line 7 of its job file
cases=(
	"unknown option|foo=bar|t7.fio:7: fio: bad option 'foo=bar'"
	"typo verifyy|verifyy=md5|t7.fio:7: fio: bad option 'verifyy=md5' (did you mean 'verify'?)"
	"direct=2 over fio's max|direct=2|t7.fio:7: fio: failed parsing 'direct=2': max value out of range: 2 (1 max)"
	"invalidate=5 over fio's max|invalidate=5|t7.fio:7: fio: failed parsing 'invalidate=5': max value out of range"
	"verify=crc99 not in fio's list|verify=crc99|t7.fio:7: fio: failed parsing 'verify=crc99' (did you mean 'crc64'?)"
	"zonemode=foo not in fio's list|zonemode=foo|t7.fio:7: fio: failed parsing 'zonemode=foo' (valid values: none, strided, zbd)"
	"thinktime=xyz no time|thinktime=xyz|t7.fio:7: fio: failed parsing 'thinktime=xyz': 'z' suffix isn't applicable"
	"offset=abc no size|offset=abc|t7.fio:7: fio: failed parsing 'offset=abc'"
	"bsrange=4k-abc no range|bsrange=4k-abc|t7.fio:7: fio: failed parsing 'bsrange=4k-abc'"
	"random_distribution=zipf:abc|random_distribution=zipf:abc|t7.fio:7: fio: failed parsing 'random_distribution=zipf:abc': random postfix parsing failed"
	"iodepth_batch=abc no number|iodepth_batch=abc|t7.fio:7: fio: failed parsing 'iodepth_batch=abc'"
	"unknown ioengine|ioengine=libaioo|t7.fio:7: fio: unknown ioengine 'libaioo' (did you mean 'libaio'?)"
	"unknown ioengine with blanks|ioengine = sinc|t7.fio:7: fio: unknown ioengine 'sinc' (did you mean 'sync'?)"
	"external ioengine not there|ioengine=external:$T/none.so|t7.fio:7: fio: failed parsing 'ioengine=external:$T/none.so': invalid external ioengine path"
	"rw=randwritee (bench's own reader)|rw=randwritee|t7.fio:7: 'rw' must be one of"
	"iodepth=abc (bench's own reader)|iodepth=abc|t7.fio:7: 'iodepth' must be a whole number"
	"size=-1 (bench's own reader)|size=-1|t7.fio:7: 'size' is not a size fio reads"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name line want <<<"$c"
	job t7.fio "$line"
	refused "$name" t7.fio "$want"
done

# the option in a [global] above the section, and in a run of two jobs fio runs together
write_lines g.fio "[global]" "rw=read" "offset=abc" "size=4m" "filename=$T/t.dat" "" "[a]" "bs=4k"
refused "option in [global]" g.fio "g.fio:3: fio: failed parsing 'offset=abc'"
write_lines two.fio "[a]" "rw=read" "size=4m" "runtime=1" "filename=$T/t.dat" "" "[b]" "rw=read" "size=4m" \
	"runtime=1" "rate=xyz" "filename=$T/u.dat"
refused "second job of two" two.fio "two.fio:11: fio: failed parsing 'rate=xyz'"

# a section name of 100,000 characters (fio reads lines of up to 8191)
{ printf '['; head -c 100000 /dev/zero | tr '\0' x; printf ']\nrw=read\nsize=4m\nfilename=%s/t.dat\n' "$T"; } >long.fio
refused "100,000-character section name" long.fio "long.fio:1: fio: bad option 'xxxxxxxx"
grep -qF "longer than fio reads" err.txt && ok "long name: says the line is too long" ||
	fail "long name: $(cut -c1-300 err.txt)"

# --hosts: the initiators' jobs go to the local fio (nothing is contacted to plan)
write_lines hosts.txt "vm01 127.0.0.21 target=/dev/nonexistent-a" "vm02 127.0.0.22 target=/data/x.dat"
"$BENCH" plan bad4.fio --hosts hosts.txt >out.txt 2>err.txt
expect_eq "--hosts: plan exit" "$?" 3
grep -qF "bad4.fio:4: fio: bad option 'iodepht=4'" err.txt && ok "--hosts: refused by the local fio" ||
	fail "--hosts: $(cat err.txt)"

# --no-fio-check plans it (bench's own checks only) and says so
"$BENCH" plan bad4.fio --no-fio-check >out.txt 2>err.txt
expect_eq "--no-fio-check: plan exit" "$?" 0
grep -qF "warning: the job files were not checked by fio (--no-fio-check)" err.txt &&
	ok "--no-fio-check: warns" || fail "--no-fio-check: stderr: $(cat err.txt)"

# no fio on this machine: plan warns and plans
mkdir -p nofio
PATH=$T/nofio "$BENCH" plan bad4.fio >out.txt 2>err.txt
expect_eq "no fio: plan exit" "$?" 0
grep -qF "warning: the job files were not checked by fio: cannot run 'fio'" err.txt &&
	ok "no fio: warns" || fail "no fio: stderr: $(cat err.txt)"

expect_eq "temporary files left" "$(find "$TMPDIR" -name 'bench-fio-check-*' | wc -l)" 0
expect_eq "runs stored in all" "$(q db.db "select count(*) from run")" 1
finish
