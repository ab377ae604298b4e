#!/usr/bin/env python3
"""include_cycles.py SOURCE_ROOT ARCHIVE [EXE] — the engine's and the CLI's
files depend on each other one way (doc/architecture.md §3).

Three graphs, none may have a cycle:
  1. #include "..." among the files of engine/ and cli/ (a header that
     ends up including itself).
  2. What each source file calls: file A -> file B when A's object has an
     undefined symbol that B's object defines (`nm` on the engine's static
     archive, and on the CLI's objects: the folder EXE.p that meson keeps
     beside the executable).  Every .c file is its own node: two files
     that call each other both ways are one piece of code cut in two, or
     two pieces that each need the other's insides, whatever their names.
     This is the cycle the headers hide: rules.c calling select.c's
     pattern code while select.c called rules.c's groups, both through
     rules.h.
  3. The same calls between layers (the engine's folders: common,
     platform, model, format, math, rules, ops, step, job, util; and cli): a
     layer never calls one above it.
KNOWN_CYCLES names the cycles of graph 2 still being taken apart; each one
is reported, and fails the test once it is gone (so the list is emptied
with the code).  A registry's table of handlers (step.c's row per
operation) counts as a use of each handler's file like any call, so the
handlers must not call back into it: what they share lives in a file below
both (step_option.c).  Exits 1 naming every other cycle found."""
import collections
import os
import re
import subprocess
import sys

# Cycles between files that are known and being broken (none today): an
# entry goes when its cycle does.
KNOWN_CYCLES = []

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


def source_files(root, top, exts):
    """root-relative paths ('engine/ops/diff/diff.c') of the files under top."""
    out = []
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in names:
            if n.endswith(exts):
                out.append(os.path.relpath(os.path.join(d, n), root).replace(os.sep, '/'))
    return sorted(out)


def include_graph(root):
    files = {p: os.path.join(root, p) for top in ('engine', 'cli')
             for p in source_files(root, top, ('.c', '.h'))}
    graph = collections.defaultdict(set)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for rel, path in files.items():
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        for name in inc.findall(text):
            # beside the file, then the engine's include folders
            for cand in (os.path.normpath(os.path.join(os.path.dirname(rel), name)),
                         'engine/' + name, 'engine/include/' + name):
                if cand in files:
                    graph[rel].add(cand.replace(os.sep, '/'))
                    break
    return files, graph


def object_names(root):
    """The source of each object, by the name meson gives it: the path
    inside the target's folder with '/' as '_' (engine/ops/diff/diff_walk.c
    -> ops_diff_diff_walk.c.o; cli/step_cmd.c -> step_cmd.c.o)."""
    names = {}
    for top in ('engine', 'cli'):
        for rel in source_files(root, top, ('.c',)):
            inner = rel[len(top) + 1:]
            names[(top, inner.replace('/', '_') + '.o')] = rel
    return names


def node_of(top, obj, names):
    base = os.path.basename(obj)
    if (top, base) in names:
        return names[(top, base)]
    # a generated source (meson-generated_.._rules_builtin.c.o), by its name
    return top + '/' + re.sub(r'^meson-generated_(\.\._)*', '', base)[:-2]


def symbols(cmd, label):
    """(object, kind, symbol) for each line of `nm -A` output; label is
    what nm prints before the object's name (the archive)."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        # "ARCHIVE:OBJECT:ADDRESS KIND SYMBOL" or "OBJECT:ADDRESS KIND SYMBOL"
        rest = line[len(label) + 1:] if label else line
        parts = rest.split(':', 1)
        if len(parts) != 2:
            continue
        f = parts[1].split()
        if len(f) >= 2:
            yield parts[0], f[-2], f[-1]


def call_graph(root, archive, exe):
    names = object_names(root)
    defs, uses = {}, collections.defaultdict(set)
    sources = [('engine', symbols(['nm', '-A', archive], archive))]
    objdir = exe + '.p' if exe else None
    if objdir and os.path.isdir(objdir):
        objs = sorted(os.path.join(objdir, o) for o in os.listdir(objdir) if o.endswith('.o'))
        if objs:
            sources.append(('cli', symbols(['nm', '-A'] + objs, '')))
    elif exe:
        print('no objects beside %s (looked for %s)' % (exe, objdir))
        return None, None, 0
    for top, syms in sources:
        for obj, kind, sym in syms:
            node = node_of(top, obj, names)
            if kind == 'U':
                uses[node].add(sym)
            elif kind in 'TDBRC':
                defs[sym] = node
    graph, why = collections.defaultdict(set), {}
    for a, syms in uses.items():
        for s in sorted(syms):
            b = defs.get(s)
            if b is not None and b != a:
                graph[a].add(b)
                why.setdefault((a, b), s)
    return graph, why, len(defs)


def layer_of(node):
    top, _, rest = node.partition('/')
    return rest.split('/')[0] if top == 'engine' else top


def main():
    root, archive = sys.argv[1], sys.argv[2]
    exe = sys.argv[3] if len(sys.argv) > 3 else None
    status = 0
    files, ig = include_graph(root)
    for c in cycles(ig):
        print('#include cycle among: ' + ', '.join(c))
        status = 1
    cg, why, nsyms = call_graph(root, archive, exe)
    if not cg:
        print('no calls between objects found in ' + archive)
        return 1
    known = {frozenset(k): k for k in KNOWN_CYCLES}
    seen = set()
    for c in cycles(cg):
        links = ['%s -> %s (%s)' % (a, b, why[(a, b)]) for a in c for b in sorted(cg[a])
                 if b in c]
        if frozenset(c) in known:
            seen.add(frozenset(c))
            print('known cycle, being broken: ' + ', '.join(c))
        else:
            print('files that call each other: ' + ', '.join(c))
            status = 1
        for l in links:
            print('  ' + l)
    for k, v in known.items():
        if k not in seen:
            print('known cycle %s is gone: take it out of KNOWN_CYCLES in %s'
                  % (' <-> '.join(v), os.path.basename(__file__)))
            status = 1
    fg, fwhy = collections.defaultdict(set), {}
    for a in sorted(cg):
        for b in sorted(cg[a]):
            fa, fb = layer_of(a), layer_of(b)
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
        nodes = set(cg) | {b for v in cg.values() for b in v}
        print('no cycle: %d files by #include; %d files, %d one-way links by calls; '
              '%d layers, %d one-way links'
              % (len(files), len(nodes), sum(len(v) for v in cg.values()),
                 len(set(fg) | {b for v in fg.values() for b in v}),
                 sum(len(v) for v in fg.values())))
    return status


if __name__ == '__main__':
    sys.exit(main())
