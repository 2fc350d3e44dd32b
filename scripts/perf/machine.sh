# machine.sh: sourced by the scripts in scripts/perf/ (not run on its own). perf_machine prints one line that
# says where a figure was measured: cores, CPU model, kernel, fio version, and the load average at the time
# (these benchmarks share their machine; a figure means little without it).
perf_machine() {
	local model
	model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	printf 'machine: %s cores (%s), kernel %s, %s, load average %s\n' "$(nproc)" "${model:-unknown CPU}" \
		"$(uname -r)" "$(fio --version 2>/dev/null || echo 'no fio')" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# perf_verdict FIGURE OP TARGET: "meets" or "misses" (OP is <= or >=), for the last column of a figure line.
perf_verdict() {
	awk -v f="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == "<=") ? (f <= t) : (f >= t); print ok ? "meets" : "MISSES" }'
}
