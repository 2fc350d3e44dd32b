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

# perf_cpu_ticks: the machine's busy CPU time so far, in clock ticks, all cores (user + nice + system + irq +
# softirq of /proc/stat). Two readings around a step give how busy the whole machine was during it.
perf_cpu_ticks() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat
}

# perf_cpu_s T0 T1: the CPU seconds (all cores) between two perf_cpu_ticks readings.
perf_cpu_s() {
	awk -v a="$1" -v b="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", (b - a) / hz }'
}

# perf_busy_pct T0 T1 WALL_S: the share of all cores the machine was busy between two perf_cpu_ticks readings
# taken WALL_S seconds apart. Near 100 %, the step waited for CPUs: its wall time shows the machine.
perf_busy_pct() {
	awk -v c="$(perf_cpu_s "$1" "$2")" -v w="$3" -v n="$(nproc)" \
		'BEGIN { printf "%.0f", (w > 0) ? 100 * c / (n * w) : 0 }'
}
