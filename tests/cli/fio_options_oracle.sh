#!/bin/bash
# fio_options_oracle: the normaliser (core/fio_options.c) reads fio options as the installed fio reads them.
# For a table of block sizes, iodepths and runtimes under kb_base=1024 and kb_base=1000, fio's own reading
# (`fio --debug=parse --parse-only`: "handle_option=bs" then "ret=0, out=N") must equal what `bench plan
# --format json` derives (bs_bytes, iodepth, runtime_s rounded up to whole seconds), so a fio release that
# changes a rule makes this test fail instead of bench silently disagreeing with fio. bench plan runs with
# --no-fio-check (its own fio --parse-only of the job is plan_fio_check's subject, not this test's: fio's reading
# here is the --debug=parse run), and the cases run 4 at a time: no check depends on timing.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
need fio
cd "$T"

python3 - "$BENCH" <<'PY'
import concurrent.futures, json, re, subprocess, sys
bench = sys.argv[1]
cases = []
for kb in ("1024", "1000"):
    for bs in ("4k", "4K", "4kb", "4KB", "4KiB", "4kib", "1536", "0x1000", "8m", "1MiB", "512b", "64KiB"):
        cases.append((kb, {"bs": bs}))
    for depth in ("1k", "16", "0x10"):
        cases.append((kb, {"iodepth": depth}))
for rt in ("2m", "90", "90s", "1h", "1500ms"):
    cases.append(("1024", {"runtime": rt}))
def one(i, kb, opt):
    """fio's and bench's reading of case i: (fail, None) or (None, line)."""
    (key, val), = opt.items()
    path = f"j{i}.fio"
    with open(path, "w") as f:
        f.write(f"[j]\nioengine=null\nsize=1m\nkb_base={kb}\n{key}={val}\n")
    dbg = subprocess.run(["fio", "--debug=parse", "--parse-only", path], capture_output=True, text=True)
    lines = (dbg.stdout + dbg.stderr).splitlines()
    fio_val = None
    for n, line in enumerate(lines):
        if re.search(rf"\bhandle_option={key}, ptr=", line):
            for nxt in lines[n + 1:n + 4]:
                m = re.search(r"ret=0, out=(\d+)", nxt)
                if m:
                    fio_val = int(m.group(1))
                    break
            break
    if fio_val is None:
        return f"{key}={val} kb_base={kb}: fio printed no value", None
    plan = subprocess.run([bench, "plan", "--no-fio-check", "--format", "json", path], capture_output=True,
                          text=True)
    if plan.returncode != 0:
        return f"{key}={val} kb_base={kb}: bench plan failed: {plan.stderr.strip()}", None
    run = json.loads(plan.stdout)["runs"][0]
    got = {"bs": run["bs_bytes"], "iodepth": run["iodepth"], "runtime": run["runtime_s"]}[key]
    want = -(-fio_val // 1000000) if key == "runtime" else fio_val
    if got != want:
        return f"{key}={val} kb_base={kb}: fio reads {fio_val}, bench {got}", None
    return None, f"{key}={val} kb_base={kb}: fio {fio_val}, bench {got}"
fails = []
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    for fail, line in pool.map(lambda c: one(c[0], *c[1]), enumerate(cases)):
        if fail:
            fails.append(fail)
        else:
            print(line)
if fails:
    print("FAIL:\n  " + "\n  ".join(fails), file=sys.stderr)
    sys.exit(1)
print(f"fio_options_oracle: {len(cases)} values read as fio reads them")
PY
