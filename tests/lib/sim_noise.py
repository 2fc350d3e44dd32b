#!/usr/bin/env python3
"""sim_noise: tells a run that the machine disturbed from a wrong model, from the sim engine's own account.

With BENCH_SIM_STATS=/ABSOLUTE/PATH the sim ioengine appends one line per fio job to PATH (engines/sim/
sim_engine.c, stats_print):

    sim-stats job=NAME ios=N late=N late_sum_ns=N overdue_ns=N starved_ns=N span_ns=N late_us=2:N,...,65536:N

late: IOs handed back more than 2 us after their modelled completion; late_sum_ns: their lateness summed;
overdue_ns: the union of the intervals in which at least one IO was due and not handed back (the time the machine
held the model back); starved_ns: the part of it in which every IO in flight was due, so that the modelled
device had nothing left to do (the device time a job that keeps its queue full lost to the machine); span_ns:
from the first submission to the last hand-back; late_us=K:M: M IOs late by [K, 2K) us (the last bucket
open-ended).

A figure measured through such a run differs from the model by what the machine took. For a rate the engine
knows the share of the run it was held back (overdue / span), for a mean latency the mean lateness per IO; both
are taken out exactly ("corrected"). A tail percentile cannot be corrected: a miss there is put down to the
machine only when enough IOs (a fifth of the tail beyond the percentile) were late by more than the tolerance.
No correction is made when the machine held the run back for more than MAX_OVERDUE_SHARE of it (too disturbed to
tell anything), nor when the engine itself looks wrong: more than MAX_LATE_SHARE of all IOs late within a run the
machine left alone (a disturbed machine holds back some IOs by a lot, a late engine all of them by a little).

usage: exit 0 and the corrected value or the reason; 1 the miss is the model's; 2 usage; 3 the machine disturbed
the run too much to tell (a noisy run: try again); 4 the engine's account itself looks wrong (most IOs late):
  sim_noise.py correct STATS rate|mean VALUE          prints the corrected value
  sim_noise.py explain STATS pQQ GOT WANT TOL_PCT     exit 0 when a slow miss of percentile QQ is explained
  sim_noise.py describe STATS                         one line per job, for the test's log
  sim_noise.py held STATS MAX_PCT                     exit 0 when no job's device was starved for more than
                                                      MAX_PCT% of its span; else exit 3 naming the worst
STATS is the file; with several lines (jobs) their counts are summed (spans, overdue and starved times: the largest).
"""
import sys

MAX_LATE_SHARE = 0.5
MAX_OVERDUE_SHARE = 0.10


def load(path):
    jobs = []
    with open(path) as f:
        for line in f:
            if not line.startswith("sim-stats "):
                continue
            d = dict(kv.split("=", 1) for kv in line.split()[1:])
            j = {k: float(d[k]) for k in ("ios", "late", "late_sum_ns", "overdue_ns", "starved_ns", "span_ns")}
            j["job"] = d["job"]
            j["hist"] = [(float(a), float(b)) for a, b in (x.split(":") for x in d["late_us"].split(","))]
            jobs.append(j)
    if not jobs:
        raise SystemExit("sim_noise: no sim-stats line in %s (was BENCH_SIM_STATS set to it?)" % path)
    return jobs


def combined(jobs):
    out = {k: sum(j[k] for j in jobs) for k in ("ios", "late", "late_sum_ns")}
    out["overdue_ns"] = max(j["overdue_ns"] for j in jobs)
    out["starved_ns"] = max(j["starved_ns"] for j in jobs)
    out["span_ns"] = max(j["span_ns"] for j in jobs)
    out["hist"] = [(jobs[0]["hist"][i][0], sum(j["hist"][i][1] for j in jobs)) for i in range(len(jobs[0]["hist"]))]
    return out


def shares(s):
    late = s["late"] / s["ios"] if s["ios"] else 0.0
    overdue = s["overdue_ns"] / s["span_ns"] if s["span_ns"] else 0.0
    return late, overdue


def correctable(s):
    """None when a figure of this run can be corrected; else (exit code, why): 4 the engine looks wrong, 3 the
    machine disturbed the run too much to tell."""
    late, overdue = shares(s)
    if overdue > MAX_OVERDUE_SHARE:
        return 3, "the machine held the run back for %.1f%% of it: too disturbed to tell" % (overdue * 100)
    if late > MAX_LATE_SHARE:
        return 4, ("%.1f%% of the IOs were late while the run lost only %.1f%% of its time: more than a disturbed "
                   "machine explains (the engine looks wrong)" % (late * 100, overdue * 100))
    return None


def late_share_over(s, us):
    """The share of IOs late by at least `us` microseconds (whole buckets only: never more than the truth)."""
    return sum(n for lo, n in s["hist"] if lo >= us) / s["ios"] if s["ios"] else 0.0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "held" and len(argv) == 4:
        starved = [(j["starved_ns"] / j["span_ns"] if j["span_ns"] else 0.0, j["job"]) for j in load(argv[2])]
        share, job = max(starved)
        if share * 100 > float(argv[3]):
            print("the machine held job %s back: its device sat idle for %.1f%% of the run (more than %s%%)" % (
                job, share * 100, argv[3]))
            return 3
        return 0
    cmd, s = argv[1], combined(load(argv[2]))
    late, overdue = shares(s)
    if cmd == "describe":
        print("%d IOs, %.2f%% late (%.1f us on average), overdue %.2f%% (starved %.2f%%) of %.0f ms" % (
            s["ios"], late * 100, s["late_sum_ns"] / s["late"] / 1e3 if s["late"] else 0.0, overdue * 100,
            s["starved_ns"] / s["span_ns"] * 100 if s["span_ns"] else 0.0, s["span_ns"] / 1e6))
        return 0
    why = correctable(s)
    if cmd == "correct" and len(argv) == 5:
        if why:
            print(why[1])
            return why[0]
        value = float(argv[4])
        if argv[3] == "rate":
            print(repr(value / (1 - overdue)))
        elif argv[3] == "mean":
            print(repr(value - s["late_sum_ns"] / s["ios"] / 1e3))
        else:
            return 2
        return 0
    if cmd == "explain" and len(argv) == 7 and argv[3].startswith("p"):
        q = float(argv[3][1:]) / 100
        got, want, tol = float(argv[4]), float(argv[5]), float(argv[6]) / 100
        if why:
            print(why[1])
            return why[0]
        if got <= want:
            print("not a slow miss")
            return 1
        need = tol * want
        share = late_share_over(s, need)
        if share >= 0.2 * (1 - q):
            print("%.2f%% of the IOs were handed back at least %.0f us late by a held-back machine" % (
                share * 100, need))
            return 0
        print("only %.3f%% of the IOs were late by %.0f us or more: the miss is the model's" % (share * 100, need))
        return 1
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
