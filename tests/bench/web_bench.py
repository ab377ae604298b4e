#!/usr/bin/env python3
"""web_bench.py SITE POSEKIT CORPUS [RUNS] — the browser's engine against
the native CLI (doc/web.md "Speed"): a benchmark, not a test.

Makes a 4 MB dance (corpus vmd_wavefile_v2.vmd baked every 7 frames by
the native CLI, about 4.1 MB), then times, best of RUNS (default 3):

  round trip   convert dance.vmd -o out.vmd (read and write); also of
               the dance baked at every frame (about 28 MB)
  diff         diff dance.vmd mirrored.vmd --frames all (every frame)
  sizing       retarget dance.vmd --from pmx_gene.pmx --to pmd_mei.pmd

natively (the process's wall time) and in headless Chromium's worker
(the worker's own time for the command, `ms` of its answer, and the
whole round trip from the page: files sent, outputs back).  Prints a
table; the ratio is browser (worker) over native.  Needs a built site
(bash web/build.sh) and a native build.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'web'))
import harness  # noqa: E402

site, posekit, corpus = (os.path.abspath(a) for a in sys.argv[1:4])
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
tmp = tempfile.mkdtemp(prefix='pk-web-bench-')
dance = os.path.join(tmp, 'dance.vmd')
mirrored = os.path.join(tmp, 'mirrored.vmd')
subprocess.run([posekit, 'bake', os.path.join(corpus, 'vmd_wavefile_v2.vmd'), '--step', '7',
                '-o', dance], check=True, capture_output=True)
subprocess.run([posekit, 'mirror', dance, '-o', mirrored], check=True, capture_output=True)
big = os.path.join(tmp, 'big.vmd')  # every frame: about 28 MB
subprocess.run([posekit, 'bake', os.path.join(corpus, 'vmd_wavefile_v2.vmd'), '-o', big],
               check=True, capture_output=True)
C = lambda n: os.path.join(corpus, n)  # noqa: E731
cases = [
    ('round trip (4 MB VMD)', ['posekit', 'convert', 'dance.vmd', '-o', 'out.vmd'],
     {'dance.vmd': dance}),
    ('round trip (28 MB VMD)', ['posekit', 'convert', 'big.vmd', '-o', 'out.vmd'],
     {'big.vmd': big}),
    ('diff --frames all', ['posekit', 'diff', 'dance.vmd', 'mirrored.vmd', '--frames', 'all'],
     {'dance.vmd': dance, 'mirrored.vmd': mirrored}),
    ('sizing (retarget)', ['posekit', 'retarget', 'dance.vmd', '--from', 'gene.pmx', '--to',
                           'mei.pmd', '-o', 'sized.vmd'],
     {'dance.vmd': dance, 'gene.pmx': C('pmx_gene.pmx'), 'mei.pmd': C('pmd_mei.pmd')}),
]
print('dance: %d bytes, big: %d bytes; best of %d runs' % (os.path.getsize(dance),
                                                         os.path.getsize(big), runs))


def native_ms(argv, files):
    work = os.path.join(tmp, 'native')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for n, p in files.items():
        shutil.copyfile(p, os.path.join(work, n))
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([posekit] + argv[1:], cwd=work, capture_output=True)
        ms = (time.perf_counter() - t) * 1000
        best = ms if best is None else min(best, ms)
    return best


rows = []
art = os.path.join(tmp, 'artefacts')
with harness.Browser(site, art) as b:
    b.open('test.html')
    b.js_async('pkTest.ready.then(done);')
    for name, argv, files in cases:
        b.upload(list(files.values()), '#files')
        engine = whole = None
        for _ in range(runs):
            r = b.js_async('pkTest.time(arguments[0], arguments[1], arguments[2]).then(done);',
                           argv, [os.path.basename(p) for p in files.values()], list(files),
                           timeout=600)
            engine = r['engineMs'] if engine is None else min(engine, r['engineMs'])
            whole = r['ms'] if whole is None else min(whole, r['ms'])
        nat = native_ms(argv, files)
        rows.append((name, nat, engine, whole))
print('%-24s %10s %12s %14s %7s' % ('', 'native ms', 'browser ms', 'page round ms', 'ratio'))
for name, nat, engine, whole in rows:
    print('%-24s %10.0f %12.0f %14.0f %6.2fx' % (name, nat, engine, whole, engine / nat))
shutil.rmtree(tmp, ignore_errors=True)
