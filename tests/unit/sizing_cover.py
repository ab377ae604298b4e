#!/usr/bin/env python3
"""sizing_cover.py SOURCE_ROOT CORPUS [BUILD_DIR] -- chooses the triples
(dance, from model, to model) of test_sizing_corpus.c that a sanitizer
build runs: as few as cover every line and every branch direction of the
engine that all the triples together cover.

Builds test_sizing_corpus with gcov counters (-Db_coverage=true, no
optimisation, so that a line is a line) into BUILD_DIR (default
SOURCE_ROOT/build-cover), runs each triple alone (PK_SIZING_ONLY), reads
gcov's counts of every engine object after each run, then picks greedily
the triple that adds the most lines and branch directions not yet covered
per second of its run, until none adds any.  Then adds,
for any corpus dance or model (as source, as target) the chosen triples do
not use yet, the triple holding it that adds most, so that every file of
the law is read under the sanitizers.  Prints the C table for SANITIZED
and what it covers.  Takes about ten minutes (300 runs and gcov calls);
the counts are kept in BUILD_DIR/sizing_cover.json, which a second call
reads instead (delete it after changing the engine).
"""
import glob
import gzip
import json
import os
import re
import subprocess
import sys
import time

root, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
build = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else os.path.join(root, 'build-cover')
src = open(os.path.join(root, 'tests/unit/test_sizing_corpus.c'), encoding='utf-8').read()
models = re.findall(r'"([^"]+\.pm[xd])"', src.split('MODELS[] = {')[1].split('};')[0])
dances = sorted(n for n in os.listdir(corpus) if n.endswith('.vmd'))

if not os.path.exists(os.path.join(build, 'build.ninja')):
    subprocess.run(['meson', 'setup', build, '-Db_coverage=true', '--buildtype=debug',
                    '-Dcorpus_dir=' + corpus], cwd=root, check=True, stdout=subprocess.DEVNULL)
subprocess.run(['meson', 'compile', '-C', build, 'test_sizing_corpus'], check=True,
               stdout=subprocess.DEVNULL)
exe = os.path.join(build, 'tests', 'test_sizing_corpus')
objdir = os.path.join(build, 'engine', 'libposekit_internal.a.p')
env = dict(os.environ, PK_CORPUS=corpus, PK_SANITIZED='',
           POSEKIT_RULES_DIR=os.path.join(root, 'rules'),
           POSEKIT_BODIES_DIR=os.path.join(root, 'rules', 'bodies'))


def features():
    """The engine's lines run and branch directions taken since the
    counters were last cleared."""
    got = set()
    gcdas = glob.glob(os.path.join(objdir, '*.gcda'))
    out = subprocess.run(['gcov', '--json-format', '--stdout', '-b', '-o', objdir] + gcdas,
                         cwd=build, check=True, capture_output=True).stdout
    for doc in out.splitlines():
        if not doc.strip():
            continue
        for f in json.loads(doc)['files']:
            name = os.path.relpath(os.path.join(build, f['file']), root)
            if not name.startswith('engine/'):
                continue
            for ln in f['lines']:
                if ln['count']:
                    got.add((name, ln['line_number']))
                for i, br in enumerate(ln.get('branches', [])):
                    if br['count']:
                        got.add((name, ln['line_number'], i))
    return got


def run(d, a, b):
    """Runs one triple from cleared counters: (features, seconds), or None
    when it did not run (a dance without bone keys)."""
    for g in glob.glob(os.path.join(objdir, '*.gcda')):
        os.remove(g)
    t0 = time.time()
    r = subprocess.run([exe], env=dict(env, PK_SIZING_ONLY='%s:%s:%s' % (d, a, b)),
                       capture_output=True, text=True)
    t = time.time() - t0
    if r.returncode != 0:
        return None
    return features(), t


cache = os.path.join(build, 'sizing_cover.json')
runs = {}
if os.path.exists(cache):
    for k, f, t in json.load(open(cache)):
        runs[tuple(k)] = ({tuple(x) for x in f}, t)
for d in dances if not runs else []:
    for a in models:
        for b in models:
            if a == b:
                continue
            got = run(d, a, b)
            if got is None:
                print('%s %s %s: did not run' % (d, a, b), file=sys.stderr)
                if not any(k[0] == d for k in runs):
                    break
                sys.exit('sizing_cover.py: %s runs with some models but not %s -> %s' % (d, a, b))
            runs[(d, a, b)] = got
        if not any(k[0] == d for k in runs):
            break
    print('%s: %d triples so far' % (d, len(runs)), file=sys.stderr)

if not os.path.exists(cache):
    json.dump([[k, sorted(f), t] for k, (f, t) in runs.items()], open(cache, 'w'))
universe = set().union(*(f for f, _ in runs.values()))
chosen, have = [], set()
while True:
    best = max(runs, key=lambda k: len(runs[k][0] - have) / runs[k][1])
    gain = len(runs[best][0] - have)
    if gain == 0:
        break
    chosen.append((best, 'covers %d more' % gain))
    have |= runs[best][0]
greedy = len(chosen)
for slot, names in ((0, sorted({k[0] for k in runs})), (1, models), (2, models)):
    for n in names:
        if any(k[slot] == n for k, _ in chosen):
            continue
        best = max((k for k in runs if k[slot] == n), key=lambda k: (len(runs[k][0] - have), -runs[k][1]))
        chosen.append((best, 'uses %s' % n))
        have |= runs[best][0]
print('%d triples run, %d lines and branch directions covered by all; the first %d chosen '
      'cover all of them, %d more use every dance and model' %
      (len(runs), len(universe), greedy, len(chosen) - greedy))
print('sum of run times: all %.1f s, chosen %.1f s (gcov build)' %
      (sum(t for _, t in runs.values()), sum(runs[k][1] for k, _ in chosen)))
for (d, a, b), why in chosen:
    print('    {"%s", "%s", "%s"}, /* %s */' % (d, a, b, why))
