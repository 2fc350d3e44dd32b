"""Reads bench's chart-over-time data back (report/chart/chart_time.c): for every plotted line of an e-*-time chart,
its panel (the y label with its unit), its title (host, "all hosts", "p99" ...) and its points in the panel's
unit converted back to the stored unit (ns for latency). Used by the series_* integration tests."""
import re

UNITS = {"us": 1e3, "ms": 1e6}


def read(gp_path):
    gp = open(gp_path).read()
    gp = gp.split("unset output")[0]  # the first terminal's copy
    dat = open(gp_path[:-3] + ".dat").read()
    blocks = dat.split("\n\n\n")
    lines = {}
    ylabel = None
    for l in gp.splitlines():
        m = re.match(r"set ylabel '(.*)'", l)
        if m:
            ylabel = m.group(1)
            continue
        if not l.startswith("plot "):
            continue
        for idx, title in re.findall(r"index (\d+) using 1:2 with lines[^,]*? title '([^']*)'", l):
            u = re.search(r"\((us|ms)\)$", ylabel or "")
            f = UNITS[u.group(1)] if u else 1.0
            pts = {}
            for row in blocks[int(idx)].strip("\n").splitlines():
                if row.strip():
                    t, v = row.split()
                    pts[round(float(t) * 1000)] = float(v) * f
            lines[(re.sub(r" \((us|ms)\)$", "", ylabel), title)] = pts
    return lines
