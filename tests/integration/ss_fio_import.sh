#!/bin/bash
# ss_fio_import: `bench import` of real fio JSON from jobs with fio's own steady-state detection (ss=), issue 15
# acceptance 4, import side (docs/fio-facts.md "Steady-state labels").
#
# fio (this machine's, --output-format=json) runs two jobs on the null ioengine at rate_iops=2000, so that
# the IOPS per second are fio's rate and the outcome is known: "attained", time_based runtime=30 with
# ss=iops:0.5% ss_dur=2 ss_ramp=1, which fio stops after about 4 s; "never", runtime=3 with ss=bw:0.5%
# ss_dur=5 ss_ramp=1 (a window longer than the job runs can never be filled), which runs its full time. Checks: each imported run is stored done with fio.ss, fio.ss.criterion, fio.ss.window_s, fio.ss.ramp_s,
# fio.ss.after_s and fio.ss.value; after_s is the stored runtime and well under 30 s for the attained job;
# a job without ss= gets no fio.ss labels.
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { fail "fio is not installed"; finish; }

job() { # job NAME RUNTIME SS-OPTIONS...
  local name=$1 runtime=$2
  shift 2
  {
    printf '[global]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\ntime_based\nrate_iops=2000\n'
    printf 'runtime=%s\n' "$runtime"
    printf '%s\n' "$@"
    printf '\n[%s]\n' "$name"
  } >"$name.fio"
  fio --output-format=json --output="$name.json" "$name.fio" >"$name.fio-out" 2>&1 || fail "fio $name: $(cat "$name.fio-out")"
  "$BENCH" import "$name.json" --db i.db >"$name.out" 2>&1 || fail "bench import $name.json: $(cat "$name.out")"
}
job attained 30 ss=iops:0.5% ss_dur=2 ss_ramp=1
job never 3 ss=bw:0.5% ss_dur=5 ss_ramp=1
job plain 1

label() { # label RUN-NAME KEY
  q i.db "SELECT l.value FROM run_label l JOIN run r ON r.id = l.run_id WHERE r.name = '$1' AND l.key = '$2'"
}
runtime_ms() { q i.db "SELECT x.runtime_ms FROM result x JOIN run r ON r.id = x.run_id WHERE r.name = '$1' AND x.host = '*' AND x.ddir = 'read'"; }

expect_eq "status of the attained job" "$(q i.db "SELECT status FROM run WHERE name = 'attained'")" done
expect_eq "fio.ss (attained)" "$(label attained fio.ss)" attained
expect_eq "fio.ss.criterion (attained)" "$(label attained fio.ss.criterion)" "iops:0.5%"
expect_eq "fio.ss.window_s (attained)" "$(label attained fio.ss.window_s)" 2
expect_eq "fio.ss.ramp_s (attained)" "$(label attained fio.ss.ramp_s)" 1
ms=$(runtime_ms attained)
after=$(label attained fio.ss.after_s)
awk -v ms="$ms" 'BEGIN { exit !(ms > 0 && ms < 25000) }' && ok "attained job stopped early: stored runtime $ms ms of 30 s" ||
  fail "attained job: stored runtime '$ms' ms is not well under 30 s"
awk -v ms="$ms" -v a="$after" 'BEGIN { exit !(a * 1000 >= ms - 1 && a * 1000 <= ms + 1) }' &&
  ok "fio.ss.after_s $after s is the stored runtime" || fail "fio.ss.after_s '$after' is not the stored runtime $ms ms"
value=$(label attained fio.ss.value)
awk -v v="${value%\%}" 'BEGIN { exit !(v >= 0 && v <= 0.5) }' && [ "${value: -1}" = "%" ] &&
  ok "fio.ss.value $value is within the 0.5% limit" || fail "fio.ss.value '$value' of an attained iops:0.5%"

expect_eq "status of the job that never attains" "$(q i.db "SELECT status FROM run WHERE name = 'never'")" done
expect_eq "fio.ss (never)" "$(label never fio.ss)" not-attained
expect_eq "fio.ss.criterion (never)" "$(label never fio.ss.criterion)" "bw:0.5%"
ms=$(runtime_ms never)
awk -v ms="$ms" 'BEGIN { exit !(ms >= 2900) }' && ok "the job that never attains ran its full time ($ms ms of 3 s)" ||
  fail "the job that never attains ran $ms ms of 3 s"
expect_eq "fio.ss.after_s (never) is its runtime" "$(awk -v a="$(label never fio.ss.after_s)" 'BEGIN { printf "%d", a * 1000 + 0.5 }')" "$ms"

expect_eq "no fio.ss labels without ss=" "$(q i.db "SELECT count(*) FROM run_label l JOIN run r ON r.id = l.run_id WHERE r.name = 'plain' AND l.key LIKE 'fio.ss%'")" 0
finish
