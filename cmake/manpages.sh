#!/bin/sh
# manpages.sh BENCH OUTDIR VERSION: writes the man pages of the built bench into OUTDIR, generated from its own
# help texts so that `--help` and the man pages cannot drift apart: bench.1 from `bench help`, and
# bench-CMD.1 from `bench CMD --help` for every command `bench help` lists whose help is a usage text (help and
# version are described in bench.1 only). The roff is made by manpage.awk beside this script. Run by the
# build (CMakeLists.txt, target bench_man); pages of commands that no longer exist are removed.
set -eu
[ $# -eq 3 ] || { echo "usage: manpages.sh BENCH OUTDIR VERSION" >&2; exit 2; }
bench=$1
out=$2
version=$3
awk_prog=$(dirname "$0")/manpage.awk
date=""
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
fi

tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

"$bench" help >"$tmp/help.txt"
cmds=$(awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}' "$tmp/help.txt")
[ -n "$cmds" ] || { echo "manpages.sh: '$bench help' lists no commands" >&2; exit 1; }

pages=""
for c in $cmds; do
	"$bench" "$c" --help >"$tmp/cmd-$c.txt" || { echo "manpages.sh: '$bench $c --help' failed" >&2; exit 1; }
	if head -n 1 "$tmp/cmd-$c.txt" | grep -q "^usage: bench $c "; then
		summary=$(awk -v c="$c" '/^commands:/ {on = 1; next} on && $1 == c {sub(/^ *[^ ]+ +/, ""); print; exit}' \
			"$tmp/help.txt")
		awk -v name="bench-$c" -v summary="$summary" -v version="$version" -v date="$date" \
			-v src="bench $c --help" -v see="bench" -f "$awk_prog" "$tmp/cmd-$c.txt" >"$tmp/bench-$c.1"
		pages="$pages $c"
	fi
	rm -f "$tmp/cmd-$c.txt"
done

cat >"$tmp/extra.man" <<'EOF'
.SH ENVIRONMENT
.TP
.B BENCH_LIBRARY
the directory of the built\-in suites (\fINAME\fR.suite files) instead of the installed one.
.TP
.B BENCH_SIM_SO
the sim ioengine (a fio external ioengine, \fBbench run \-\-engine sim\fR) instead of the installed one.
.SH FILES
Found relative to the \fBbench\fR binary, so that an installed tree works wherever it is put:
.TP
.I ../share/bench/library/
the built\-in suites (\fBbench profiles list\fR).
.TP
.I ../lib/bench/bench_sim.so
the sim ioengine.
.TP
.I bench.db
the default database, in the current directory (\fB\-\-db\fR \fIPATH\fR in every command).
EOF
see=""
for c in $pages; do see="$see bench-$c"; done
awk -v name="bench" -v summary="run storage workloads with fio, store every figure in SQLite, report and gate on them" \
	-v version="$version" -v date="$date" -v src="bench help" -v see="$see" -v pages="$pages" \
	-v extra="$tmp/extra.man" -f "$awk_prog" "$tmp/help.txt" >"$tmp/bench.1"
rm -f "$tmp/help.txt" "$tmp/extra.man"

mkdir -p "$out"
rm -f "$out"/bench*.1
for f in "$tmp"/bench-*.1 "$tmp"/bench.1; do
	[ -f "$f" ] && mv "$f" "$out/"
done
