#!/usr/bin/env python3
"""include_cycles.py SOURCE_ROOT ARCHIVE — the engine's files depend on each
other one way (issue 18 §3, doc/architecture.md).

Three graphs, none may have a cycle:
  1. #include "..." among engine/ files (a header that ends up including
     itself).
  2. What each engine object calls: object A -> object B when A has an
     undefined symbol that B defines (`nm` on the static archive).  This is
     the cycle the headers hide: rules.c calling select.c's pattern code
     while select.c called rules.c's groups, both through rules.h.
     A module may span several files named after it (diff.c, diff_walk.c,
     diff_scene.c; job_load.c, job_run.c): files of one folder whose names
     share the first word (up to '_') are one node.
  3. The same calls between folders (the layers: common, platform, model,
     format, math, rules, ops, step, job): a layer never calls one above it.
Exits 1 naming every cycle found."""
import collections
import os
import re
import subprocess
import sys


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def include_graph(root):
    engine = os.path.join(root, 'engine')
    files = {}
    for d, _, names in os.walk(engine):
        for n in names:
            if n.endswith(('.c', '.h')):
                p = os.path.join(d, n)
                files[os.path.relpath(p, engine)] = p
    graph = collections.defaultdict(set)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for rel, path in files.items():
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        for name in inc.findall(text):
            for cand in (os.path.normpath(os.path.join(os.path.dirname(rel), name)), name,
                         os.path.join('include', name)):
                if cand in files:
                    graph[rel].add(cand)
                    break
    return files, graph


def module_of(obj):
    # meson names the objects of engine/ops/diff/diff_walk.c "ops_diff_walk.c.o"
    stem = re.sub(r'\.c\.o$', '', os.path.basename(obj))
    folder, _, name = stem.partition('_')
    return folder + '/' + name.split('_')[0]


def call_graph(archive):
    out = subprocess.run(['nm', '-A', archive], capture_output=True, text=True, check=True).stdout
    defs, uses = {}, collections.defaultdict(set)
    for line in out.splitlines():
        # "ARCHIVE:OBJECT:ADDRESS KIND SYMBOL" (no address for U)
        parts = line[len(archive) + 1:].split(':', 1)
        if len(parts) != 2:
            continue
        obj, f = parts[0], parts[1].split()
        if len(f) < 2:
            continue
        kind, sym = f[-2], f[-1]
        if kind == 'U':
            uses[obj].add(sym)
        elif kind in 'TDBRC':
            defs[sym] = obj
    graph, why = collections.defaultdict(set), {}
    for obj, syms in uses.items():
        for s in sorted(syms):
            if s in defs and module_of(defs[s]) != module_of(obj):
                a, b = module_of(obj), module_of(defs[s])
                graph[a].add(b)
                why.setdefault((a, b), s)
    return graph, why, len(defs)


def main():
    root, archive = sys.argv[1], sys.argv[2]
    status = 0
    files, ig = include_graph(root)
    for c in cycles(ig):
        print('#include cycle among: ' + ', '.join(c))
        status = 1
    cg, why, nsyms = call_graph(archive)
    if not cg:
        print('no calls between engine objects found in ' + archive)
        return 1
    for c in cycles(cg):
        links = ['%s -> %s (%s)' % (a, b, why[(a, b)]) for a in c for b in sorted(cg[a])
                 if b in c]
        print('modules that call each other: ' + ', '.join(c))
        for l in links:
            print('  ' + l)
        status = 1
    fg, fwhy = collections.defaultdict(set), {}
    for a in sorted(cg):
        for b in sorted(cg[a]):
            fa, fb = a.split('/')[0], b.split('/')[0]
            if fa != fb:
                fg[fa].add(fb)
                fwhy.setdefault((fa, fb), '%s -> %s (%s)' % (a, b, why[(a, b)]))
    for c in cycles(fg):
        print('layers that call each other: ' + ', '.join(c))
        for a in c:
            for b in sorted(fg[a]):
                if b in c:
                    print('  ' + fwhy[(a, b)])
        status = 1
    if status == 0:
        nedges = sum(len(v) for v in cg.values())
        print('no cycle: %d engine files by #include; %d modules, %d one-way links by calls; '
              '%d layers, %d one-way links'
              % (len(files), len(set(cg) | {b for v in cg.values() for b in v}), nedges,
                 len(set(fg) | {b for v in fg.values() for b in v}),
                 sum(len(v) for v in fg.values())))
    return status


if __name__ == '__main__':
    sys.exit(main())
