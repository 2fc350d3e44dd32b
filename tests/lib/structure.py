#!/usr/bin/env python3
"""The tree's structure rules (issues 12 and 27; design.md): no include circle between the files of one folder (a.c
and a.h are one node); the folder table (which folder may include which: INCLUDES below, design.md "Folders");
no call circle between files of any folders (a.c calls a function a b.c defines, b.c one of c.c, c.c one of
a.c: they are one concern in three files, or a helper in the wrong home); no function of core, engines,
profiles, collectors, import, export, report or bench over LIMIT lines (150)."""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else '.'
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 150
folders = ['core', 'engines', 'engines/sim', 'profiles', 'collectors', 'import', 'report', 'report/text',
           'report/analysis', 'report/gate', 'report/chart', 'report/format', 'export', 'bench']
# design.md's folder table: what each folder's files may include (bench/, the driver, everything). report/ is
# rooms, each above the ones it may include: report/ (the view of the store) and report/text/ (escaping and
# number cells) at the bottom, report/analysis/ on them, report/gate/ and report/chart/ on analysis, and
# report/format/ (the renderers, the HTML page with its charts) on top. import/ (the importers and their table)
# reads fio's output with the parsers the fio engine shares (engines/fio_json.h, fio_log.h, fio_histlog.h) and
# stores through core; only bench/ includes it. export/ (the writers of `bench export`: data formats, the sim
# histogram, the HTTP push) renders report/'s view of the store (report/load.h, report/text/ escaping) and
# pushes with libcurl, initialised once through collectors/node_exporter.h; only bench/ includes it.
REPORT = {'core', 'report'}
INCLUDES = {
    'core': {'core'},
    'engines': {'core', 'engines'},
    'engines/sim': {'core', 'engines/sim'},
    'profiles': {'core', 'profiles'},
    'collectors': {'core', 'collectors'},
    'import': {'core', 'engines', 'import'},
    'export': REPORT | {'report/text', 'collectors', 'export'},
    'report': REPORT,
    'report/text': {'core', 'report/text'},
    'report/analysis': REPORT | {'report/text', 'report/analysis'},
    'report/gate': REPORT | {'report/text', 'report/analysis', 'report/gate'},
    'report/chart': REPORT | {'report/text', 'report/analysis', 'report/chart'},
    'report/format': REPORT | {'report/text', 'report/analysis', 'report/chart', 'report/format'},
    'bench': {'core', 'engines', 'profiles', 'collectors', 'import', 'export', 'bench'} |
             {f for f in folders if f.startswith('report')},
}
bad = 0


# every folder of ours with C files is in the table: a new room cannot stand outside the rules
for top in ('core', 'engines', 'profiles', 'collectors', 'import', 'export', 'report', 'bench'):
    for dp, dn, fn in os.walk(os.path.join(root, top)):
        rel = os.path.relpath(dp, root)
        if rel not in INCLUDES and any(f.endswith(('.c', '.h')) for f in fn):
            print(f'folder rule: {rel}/ holds C files and is not in the folder table (tests/lib/structure.py, '
                  f'design.md)')
            bad += 1


def include_folder(inc):
    """The folder of an include of ours ("engines/sim/x.h" -> engines/sim), or None for another's."""
    parts = inc.split('/')
    if len(parts) < 2:
        return None
    folder = '/'.join(parts[:-1])
    return folder if folder in INCLUDES else None


for fo in folders:
    d = os.path.join(root, fo)
    if not os.path.isdir(d):
        continue
    for f in sorted(os.listdir(d)):
        if not f.endswith(('.c', '.h')):
            continue
        for n, line in enumerate(open(os.path.join(d, f), errors='replace'), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            to = include_folder(m.group(1)) if m else None
            if to and to not in INCLUDES[fo]:
                print(f'folder rule: {fo}/{f}:{n} includes "{m.group(1)}" ({fo}/ may include '
                      f'{", ".join(sorted(INCLUDES[fo]))})')
                bad += 1


def sccs(graph):
    """The strongly connected components of more than one node (Tarjan)."""
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
    sys.setrecursionlimit(100000)
    for v in list(graph):
        if v not in idx: sc(v)
    return out


# call circles: which file defines each non-static function, and which files call it
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined'}
defs = {}
texts = {}
for fo in folders:
    d = os.path.join(root, fo)
    if not os.path.isdir(d):
        continue
    for f in sorted(os.listdir(d)):
        if not f.endswith('.c'):
            continue
        unit = fo + '/' + f[:-2]
        text = open(os.path.join(d, f), errors='replace').read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
        texts[unit] = text
        lines = text.split('\n')
        for i, l in enumerate(lines):
            if not l.startswith('{'):
                continue
            j = i - 1
            while j >= 0 and '(' not in lines[j]: j -= 1
            k = j
            while k > 0 and lines[k - 1].strip() and not lines[k - 1].rstrip().endswith((';', '}')) \
                    and not lines[k - 1].startswith('#'):
                k -= 1
            if j < 0 or re.match(r'\s*static\b', ' '.join(lines[k:j + 1])):
                continue
            m = re.search(r'(\w+)\s*\(', ' '.join(lines[k:j + 1]))
            if m and m.group(1) not in KEYWORDS:
                defs.setdefault(m.group(1), unit)
calls = {u: set() for u in texts}
for u, t in texts.items():
    for m in re.finditer(r'\b(\w+)\s*\(', t):
        v = defs.get(m.group(1))
        if v and v != u:
            calls[u].add(v)
# the folder table holds for calls too: a file calls no function that a file of a folder it may not include
# defines (a declaration written by hand instead of the include would pass the include rule)
for u in sorted(calls):
    fu = u.rsplit('/', 1)[0]
    for v in sorted(calls[u]):
        fv = v.rsplit('/', 1)[0]
        own = set(re.findall(r'^static\b[^;{=(]*?\b(\w+)\s*\(', texts[u], re.M))  # namesakes of its own
        names = sorted(n for n in set(re.findall(r'\b(\w+)\s*\(', texts[u])) if defs.get(n) == v and n not in own)
        if names and fv not in INCLUDES[fu]:
            print(f'folder rule: {u}.c calls {", ".join(names)} of {v}.c ({fu}/ may include '
                  f'{", ".join(sorted(INCLUDES[fu]))})')
            bad += 1

for comp in sccs(calls):
    names = sorted(comp)
    via = []
    for a in names:
        for m in sorted(set(re.findall(r'\b(\w+)\s*\(', texts[a]))):
            if defs.get(m) in comp and defs.get(m) != a:
                via.append(f'{a} -> {defs[m]} ({m})')
    print('call circle: ' + ' '.join(names) + ': ' + '; '.join(via))
    bad += 1

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
    out = sccs(graph)
    for comp in out:
        print(f'circle in {fo}/: ' + ' '.join(sorted(comp)))
        bad += 1
# function lengths
for dp, dn, fn in os.walk(root):
    if '/build' in dp or '/.git' in dp or '/tests' in dp.replace(root, '', 1)[:6]:
        continue
    rel = os.path.relpath(dp, root)
    if rel.split('/')[0] not in ('core', 'engines', 'profiles', 'collectors', 'import', 'export', 'report',
                                 'bench'):
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
