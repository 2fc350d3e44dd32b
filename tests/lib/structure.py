#!/usr/bin/env python3
"""The tree's structure rules (issue 12; design.md): no include circle between the files of one folder (a.c and
a.h are one node), no function of core, engines, profiles, collectors, report or bench over LIMIT lines (150)."""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else '.'
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 150
folders = ['core', 'engines', 'engines/sim', 'profiles', 'collectors', 'report', 'bench']
bad = 0
for fo in folders:
    d = os.path.join(root, fo)
    if not os.path.isdir(d):
        continue
    files = [f for f in os.listdir(d) if f.endswith(('.c', '.h'))]
    # unit = basename without extension: a.c and a.h are one unit
    graph = {}
    for f in files:
        u = f.rsplit('.', 1)[0]
        graph.setdefault(u, set())
        for line in open(os.path.join(d, f), errors='replace'):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            if inc.startswith(fo + '/') and '/' not in inc[len(fo) + 1:]:
                v = inc[len(fo) + 1:].rsplit('.', 1)[0]
                if v != u:
                    graph[u].add(v)
    # find cycles with Tarjan SCC
    idx = {}; low = {}; st = []; on = set(); out = []; c = [0]
    def sc(v):
        idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in graph: continue
            if w not in idx:
                sc(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(comp)
    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in idx: sc(v)
    for comp in out:
        print(f'circle in {fo}/: ' + ' '.join(sorted(comp)))
        bad += 1
# function lengths
for dp, dn, fn in os.walk(root):
    if '/build' in dp or '/.git' in dp or '/tests' in dp.replace(root, '', 1)[:6]:
        continue
    rel = os.path.relpath(dp, root)
    if rel.split('/')[0] not in ('core', 'engines', 'profiles', 'collectors', 'report', 'bench'):
        continue
    for f in fn:
        if not f.endswith('.c'): continue
        p = os.path.join(dp, f)
        lines = open(p, errors='replace').read().split('\n')
        start = None; name = None
        for i, l in enumerate(lines):
            if l.startswith('{') and start is None:
                start = i
                # name: look back for identifier before '('
                j = i - 1
                while j >= 0 and '(' not in lines[j]: j -= 1
                m = re.search(r'(\w+)\s*\(', lines[j]) if j >= 0 else None
                name = m.group(1) if m else '?'
            elif l.startswith('}') and start is not None:
                n = i - start + 1
                if n > LIMIT:
                    print(f'long function {os.path.relpath(p, root)}:{start} {name} {n} lines')
                    bad += 1
                start = None
print(f'{bad} problems')
sys.exit(1 if bad else 0)
