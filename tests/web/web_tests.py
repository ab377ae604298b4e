#!/usr/bin/env python3
"""web_tests.py SITE POSEKIT CORPUS ARTEFACTS — the engine's worker in
headless Chromium (tests/web/harness.py) against the native CLI: every
operation the page offers, on corpus files, byte for byte (exit status,
standard output and error, every file written); bad files give the CLI's
messages and status and the worker goes on working; the protocol's
answers to bad messages; the worker's progress messages; a download and
a drawn picture (screenshots in ARTEFACTS).

One line per check, "PASS NAME" or "FAIL NAME: WHY"; last line
"web: N passed, N failed, N skipped in T s".  Exit status 0 only when
nothing failed.  PK_WEB_ONLY=REGEX runs the checks whose names match.
"""
import base64
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

site, posekit, corpus, artefacts = (os.path.abspath(a) for a in sys.argv[1:5])
src = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
os.makedirs(artefacts, exist_ok=True)
only = re.compile(os.environ.get('PK_WEB_ONLY', ''))
t0 = time.time()
passed, failed, skipped, failing = 0, 0, 0, []


def ok(name):
    global passed
    passed += 1
    print('PASS', name, flush=True)


def bad(name, why):
    global failed
    failed += 1
    failing.append(name)
    print('FAIL %s: %s' % (name, why), flush=True)


def C(name):
    return os.path.join(corpus, name)


def S(name):
    return os.path.join(src, name)


# name -> (argv, {name in the working folder: source path}); every output
# file and every byte of the messages must be the native CLI's.
dance, dance2 = C('vmd_wavefile_v2.vmd'), C('vmd_mmdtools_test.vmd')
cases = []
corpus_files = sorted(n for n in os.listdir(corpus) if re.search(r'\.(vmd|vpd|pmx|pmd)$', n))
for n in corpus_files:
    cases.append(('info ' + n, ['posekit', 'info', n], {n: C(n)}))
cases += [
    ('info --json', ['posekit', 'info', '--json', 'a.vmd', 'b.vpd'],
     {'a.vmd': C('vmd_imas_azusa_bow1.vmd'), 'b.vpd': C('vpd_keitel_01.vpd')}),
    ('check', ['posekit', 'check', 'dance.vmd', '--model', 'mei.pmd',
               '--suggest-rules', 'suggested.yaml'],
     {'dance.vmd': dance, 'mei.pmd': C('pmd_mei.pmd')}),
    ('check --json', ['posekit', 'check', 'bow.vmd', '--model', 'gene.pmx', '--json'],
     {'bow.vmd': C('vmd_imas_azusa_bow1.vmd'), 'gene.pmx': C('pmx_gene.pmx')}),
    ('check built-in body', ['posekit', 'check', 'pose.vpd'], {'pose.vpd': C('vpd_keitel_03.vpd')}),
    ('retarget', ['posekit', 'retarget', 'dance.vmd', '--from', 'gene.pmx', '--to', 'mei.pmd',
                  '-o', 'sized.vmd', '--report', 'report.json'],
     {'dance.vmd': dance, 'gene.pmx': C('pmx_gene.pmx'), 'mei.pmd': C('pmd_mei.pmd')}),
    ('retarget camera', ['posekit', 'retarget', 'camera.vmd', '--from', 'gene.pmx', '--to',
                         'mei.pmd', '--motion', 'dance.vmd', '-o', 'camera-sized.vmd'],
     {'camera.vmd': C('vmd_wavefile_camera.vmd'), 'dance.vmd': dance,
      'gene.pmx': C('pmx_gene.pmx'), 'mei.pmd': C('pmd_mei.pmd')}),
    ('retarget pose --verbose', ['posekit', 'retarget', 'pose.vpd', '--from', 'mei.pmd', '--to',
                                 'sd.pmd', '-o', 'pose-sd.vpd', '--verbose'],
     {'pose.vpd': C('vpd_keitel_04.vpd'), 'mei.pmd': C('pmd_mei.pmd'),
      'sd.pmd': C('pmd_sd_mei.pmd')}),
    ('overlay', ['posekit', 'overlay', 'dance.vmd', '--pose', 'fist.vpd', '--bones', '@fingers_R',
                 '--frames', '30-60', '--fade', '6', '-o', 'hands.vmd', '--json'],
     {'dance.vmd': S('samples/dance.vmd'), 'fist.vpd': S('samples/hands/right_fist.vpd')}),
    ('overlay add', ['posekit', 'overlay', 'dance.vmd', '--pose', 'peace.vpd', '--bones',
                     '@hand_R', '--mode', 'add', '--frames', '10-400', '--fade', '12', '-o',
                     'out.vmd'],
     {'dance.vmd': dance, 'peace.vpd': S('samples/hands/right_peace.vpd')}),
    ('diff frames all', ['posekit', 'diff', 'a.vmd', 'b.vmd', '--frames', 'all',
                         '--svg', 'heat.svg'],
     {'a.vmd': C('vmd_babylon_physics_toggle_yyb10th.vmd'),
      'b.vmd': C('vmd_babylon_physics_toggle_v2_yyb10th.vmd')}),
    ('diff poses --json', ['posekit', 'diff', 'a.vpd', 'b.vpd', '--json'],
     {'a.vpd': C('vpd_keitel_09.vpd'), 'b.vpd': C('vpd_keitel_10.vpd')}),
    ('diff --csv --groups', ['posekit', 'diff', 'a.vmd', 'b.vmd', '--frames', 'all', '--csv',
                             '--groups'],
     {'a.vmd': S('samples/dance.vmd'), 'b.vmd': S('samples/traced.vmd')}),
    ('reduce', ['posekit', 'reduce', 'dance.vmd', '-o', 'light.vmd', '--json'],
     {'dance.vmd': dance}),
    ('bake', ['posekit', 'bake', 'bow.vmd', '-o', 'dense.vmd', '--step', '2'],
     {'bow.vmd': C('vmd_imas_azusa_bow1.vmd')}),
    ('bake ik-to-fk', ['posekit', 'bake', 'bow.vmd', '--ik-to-fk', '--model', 'mei.pmd', '-o',
                       'fk.vmd'],
     {'bow.vmd': C('vmd_mmdagent_00_normal.vmd'), 'mei.pmd': C('pmd_mei.pmd')}),
    ('convert vmd to vpd', ['posekit', 'convert', 'bow.vmd', '--frame', '10', '-o', 'pose.vpd'],
     {'bow.vmd': C('vmd_imas_azusa_bow1.vmd')}),
    ('convert vpd to vmd', ['posekit', 'convert', 'pose.vpd', '-o', 'pose.vmd'],
     {'pose.vpd': C('vpd_imas_makoto_basic.vpd')}),
    ('convert rewrite', ['posekit', 'convert', 'x.vmd', '-o', 'y.vmd'],
     {'x.vmd': C('vmd_vmd2xml_newvmd_mmd739m.vmd')}),
    ('mirror', ['posekit', 'mirror', 'dance.vmd', '-o', 'mirrored.vmd', '--verbose'],
     {'dance.vmd': dance}),
    ('mirror in place', ['posekit', 'mirror', 'pose.vpd', '-o', 'pose.vpd'],
     {'pose.vpd': C('vpd_keitel_11.vpd')}),
    ('rename', ['posekit', 'rename', 'dance.vmd', '--rules', 'ja-en.yaml', '-o', 'en.vmd'],
     {'dance.vmd': dance, 'ja-en.yaml': S('rules/ja-en.yaml')}),
    ('rename --reverse', ['posekit', 'rename', 'en.vmd', '--rules', 'ja-en.yaml', '--reverse',
                          '-o', 'ja.vmd'],
     {'en.vmd': S('samples/dance.vmd'), 'ja-en.yaml': S('rules/ja-en.yaml')}),
    ('mirror shipped rules', ['posekit', 'mirror', 'pose.vpd', '--rules', 'mirror.yaml', '-o',
                              'm.vpd'],
     {'pose.vpd': C('vpd_keitel_01.vpd')}),
    ('draw', ['posekit', 'draw', 'dance.vmd', '--model', 'mei.pmd', '--frame', '200', '-o',
              'frame.svg'],
     {'dance.vmd': dance, 'mei.pmd': C('pmd_mei.pmd')}),
    ('draw --vs', ['posekit', 'draw', 'sized.vpd', '--model', 'sd.pmd', '--vs', 'pose.vpd',
                   '--vs-model', 'mei.pmd', '--view', 'all', '-o', 'vs.svg'],
     {'sized.vpd': C('vpd_keitel_04.vpd'), 'pose.vpd': C('vpd_keitel_09.vpd'),
      'sd.pmd': C('pmd_sd_mei.pmd'), 'mei.pmd': C('pmd_mei.pmd')}),
    ('draw --frames', ['posekit', 'draw', 'dance.vmd', '--model', 'gene.pmx', '--frames',
                       '0-400', '-o', 'strip.svg'],
     {'dance.vmd': dance, 'gene.pmx': C('pmx_gene.pmx')}),
    ('draw --json', ['posekit', 'draw', 'pose.vpd', '--model', 'mei.pmd', '--json'],
     {'pose.vpd': C('vpd_keitel_01.vpd'), 'mei.pmd': C('pmd_mei.pmd')}),
    ('time', ['posekit', 'time', 'dance.vmd', '--shift', '30', '-o', 'later.vmd'],
     {'dance.vmd': C('vmd_imas_azusa_bow1.vmd')}),
    ('run job (folders)', ['posekit', 'run', 'samples/hand-overlay.yaml'],
     {'samples/hand-overlay.yaml': S('samples/hand-overlay.yaml'),
      'samples/dance.vmd': S('samples/dance.vmd'),
      'samples/hands/right_fist.vpd': S('samples/hands/right_fist.vpd'),
      'samples/hands/right_peace.vpd': S('samples/hands/right_peace.vpd'),
      'rules/ja-en.yaml': S('rules/ja-en.yaml')}),
    # threads: none in the browser; -j 2 runs one job after another with
    # the same outputs and report.
    ('run --each -j 2', ['posekit', 'run', 'light.yaml', '--each', 'dances/*.vmd', '-j', '2'],
     {'light.yaml': os.path.join(artefacts, 'light.yaml'),
      'dances/bow.vmd': C('vmd_imas_azusa_bow1.vmd'),
      'dances/toggle.vmd': C('vmd_babylon_physics_toggle_yyb10th.vmd'),
      'dances/mmdtools.vmd': C('vmd_mmdtools_test.vmd'),
      'dances/broken.vmd': os.path.join(artefacts, 'broken.vmd')}),
]
with open(os.path.join(artefacts, 'light.yaml'), 'w') as f:
    f.write('inputs:\n  dance: "{each}"\nsteps:\n  - bake: {in: dance, out: dense}\n'
            '  - reduce: {in: dense, max_deg: 0.05, max_pos: 0.001, out: light}\n'
            'outputs:\n  light: light/{stem}.vmd\n')

# Bad inputs: the CLI's message and status, byte for byte; each followed
# (below) by a good command in the same worker.
bad_dir = os.path.join(artefacts, 'bad')
os.makedirs(bad_dir, exist_ok=True)


def bad_file(name, data):
    p = os.path.join(bad_dir, name)
    with open(p, 'wb') as f:
        f.write(data)
    return p


with open(C('vmd_imas_azusa_bow1.vmd'), 'rb') as f:
    vmd = f.read()
with open(C('pmd_mei.pmd'), 'rb') as f:
    pmd = f.read()
with open(os.path.join(artefacts, 'broken.vmd'), 'wb') as f:
    f.write(b'not a motion')
cases += [
    ('bad: truncated vmd', ['posekit', 'info', 'cut.vmd'],
     {'cut.vmd': bad_file('cut.vmd', vmd[:len(vmd) // 2 + 3])}),
    ('bad: text as vmd', ['posekit', 'convert', 'text.vmd', '-o', 'out.vpd'],
     {'text.vmd': bad_file('text.vmd', b'Vocaloid Motion Data? no\n')}),
    ('bad: truncated model', ['posekit', 'check', 'bow.vmd', '--model', 'cut.pmd'],
     {'bow.vmd': C('vmd_imas_azusa_bow1.vmd'), 'cut.pmd': bad_file('cut.pmd', pmd[:5000])}),
    ('bad: rules yaml', ['posekit', 'rename', 'bow.vmd', '--rules', 'bad.yaml', '-o', 'x.vmd'],
     {'bow.vmd': C('vmd_imas_azusa_bow1.vmd'),
      'bad.yaml': bad_file('bad.yaml', b'rename:\n  a: [b\n  c: d\n')}),
    ('bad: deeply nested yaml', ['posekit', 'rename', 'bow.vmd', '--rules', 'deep.yaml', '-o',
                                 'x.vmd'],
     {'bow.vmd': C('vmd_imas_azusa_bow1.vmd'),
      'deep.yaml': bad_file('deep.yaml', b'rename:\n  a: ' + b'[' * 10000 + b']' * 10000 +
                            b'\n')}),
    ('bad: missing file', ['posekit', 'diff', 'a.vmd', 'nothere.vmd'],
     {'a.vmd': C('vmd_imas_azusa_bow1.vmd')}),
    ('bad: unknown option', ['posekit', 'reduce', 'a.vmd', '--fast', '-o', 'b.vmd'],
     {'a.vmd': C('vmd_imas_azusa_bow1.vmd')}),
    ('bad: unknown command', ['posekit', 'resize', 'a.vmd'], {}),
    ('bad: damaged utf8 vpd', ['posekit', 'info', '--strict', 'p.vpd'],
     {'p.vpd': C('vpd_damaged_utf8_fffd_pose.vpd')}),
    ('help', ['posekit', 'retarget', '--help'], {}),
]

selected = [c for c in cases if only.search(c[0])]
if only.pattern and not selected and not only.search('protocol') and not only.search('cp932'):
    print('web: no check matches PK_WEB_ONLY=%s' % only.pattern)

with harness.Browser(site, artefacts) as b:
    b.open('test.html')
    version = b.js_async('pkTest.ready.then(done);', timeout=60)
    print('web: engine ready, posekit %s (%.1f s)' % (version, time.time() - t0), flush=True)
    work = os.path.join(artefacts, 'native-work')
    results = {}
    for name, argv, files in selected:
        try:
            want = harness.native(posekit, argv, files, work)
            got = harness.worker_run(b, argv, files)
        except Exception as e:  # a check that could not run fails
            bad(name, 'could not run: %s' % e)
            continue
        results[name] = got
        why = harness.compare(got, want)
        if not why and name.startswith('bad:') and got.status == 0:
            why = 'a bad input was accepted (status 0)'
        if not why and name.startswith('bad:'):
            after = harness.worker_run(b, ['posekit', 'info', 'ok.vpd'],
                                       {'ok.vpd': C('vpd_keitel_01.vpd')})
            if after.status != 0 or 'ok.vpd' not in after.stdout:
                why = 'the worker did not work after it: %r' % after
        ok(name) if not why else bad(name, why)

    # Progress: a command that reports it (reduce) posts progress
    # messages, 0 <= done <= 1, each naming the work.
    if only.search('protocol: progress') and 'reduce' in results:
        p = results['reduce'].progress
        if p and all(0 <= d <= 1 for d, _ in p) and all(isinstance(w, str) and w for _, w in p):
            ok('protocol: progress')
        else:
            bad('protocol: progress', 'progress messages of reduce: %r' % p[:5])

    # Sizing, the page's longest step, posts its progress too (the page's
    # bar moves), though the command draws no terminal line.
    if only.search('protocol: progress of sizing') and 'retarget' in results:
        p = results['retarget'].progress
        if any(w.startswith('sizing: ') for _, w in p) and all(0 <= d <= 1 for d, _ in p):
            ok('protocol: progress of sizing')
        else:
            bad('protocol: progress of sizing', 'progress messages of retarget: %r' % p[:5])

    # The protocol's own errors: status 70 and a reason; the worker goes on.
    if only.search('protocol: bad messages'):
        r1 = b.js_async('pkTest.send({type: "frobnicate"}).then(done);')
        r2 = b.js_async('pkTest.send({type: "run", argv: ["posekit", "info", "../x.vmd"],'
                        ' files: [{name: "../x.vmd", data: new ArrayBuffer(4)}]}).then(done);')
        r3 = b.js_async('pkTest.send({type: "run", argv: [], files: []}).then(done);')
        after = harness.worker_run(b, ['posekit', 'info', 'ok.vpd'],
                                   {'ok.vpd': C('vpd_keitel_01.vpd')})
        probs = [r for r in (r1, r2, r3) if r['status'] != 70 or not r['stderr']]
        if probs or after.status != 0:
            bad('protocol: bad messages', 'answers %r; then %r' % (probs, after))
        else:
            ok('protocol: bad messages')

    # Downloads: the harness's download folder receives a page's download
    # (an <a download> of a worker's output) byte for byte.
    if only.search('harness: download') and 'mirrored.vmd' in getattr(results.get('mirror'), 'files', {}):
        b.clear_downloads()
        data = results['mirror'].files['mirrored.vmd']
        b.js('var a = document.createElement("a");'
             'var bin = atob(arguments[0]), u = new Uint8Array(bin.length);'
             'for (var i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);'
             'a.href = URL.createObjectURL(new Blob([u]));'
             'a.download = "mirrored.vmd"; document.body.appendChild(a); a.click();',
             base64.b64encode(data).decode())
        try:
            got = b.downloads(1)
            if got.get('mirrored.vmd') == data:
                ok('harness: download')
            else:
                bad('harness: download', 'downloaded %s' % sorted(got))
        except TimeoutError as e:
            bad('harness: download', str(e))

    # The drawn pictures, as a browser shows them: screenshots.
    if only.search('screenshot: draw'):
        shots = []
        for name, fname in (('draw', 'frame.svg'), ('draw --vs', 'vs.svg'),
                            ('draw --frames', 'strip.svg'), ('diff frames all', 'heat.svg')):
            if name not in results or fname not in results[name].files:
                continue
            svg = results[name].files[fname]
            b.js('document.body.innerHTML = "";'
                 'var img = document.createElement("img"); img.id = "shot";'
                 'img.style.maxWidth = "1260px"; img.style.background = "white";'
                 'img.src = "data:image/svg+xml;base64," + arguments[0];'
                 'document.body.appendChild(img);', base64.b64encode(svg).decode())
            w = b.wait_for('document.getElementById("shot").complete && '
                           'document.getElementById("shot").naturalWidth')
            shots.append((b.screenshot('draw-' + fname.replace('.svg', '')), w))
        if len(shots) == 4 and all(w > 0 for _, w in shots):
            ok('screenshot: draw')
        else:
            bad('screenshot: draw', 'pictures shown: %r' % shots)

    # Any static host: the same page served over http:// (a local server
    # of plain files) runs the engine as from file://.  Last: it leaves
    # the browser on that page (a load of test.html less than going back).
    if only.search('static host'):
        import functools
        import http.server
        import threading
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        handler = functools.partial(Quiet, directory=site)
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            b.driver.get('http://127.0.0.1:%d/test.html' % server.server_address[1])
            v = b.js_async('pkTest.ready.then(done);', timeout=60)
            files = {'bow.vmd': C('vmd_imas_azusa_bow1.vmd')}
            argv = ['posekit', 'mirror', 'bow.vmd', '-o', 'm.vmd']
            why = harness.compare(harness.worker_run(b, argv, files),
                                  harness.native(posekit, argv, files, work))
            ok('static host') if not why and v == version else bad('static host', why or v)
        except Exception as e:
            bad('static host', str(e))
        finally:
            server.shutdown()

t = time.time() - t0
if failing:
    print('web: failing: ' + ' '.join(n.replace(' ', '_') for n in failing))
print('web: %d passed, %d failed, %d skipped in %.0f s' % (passed, failed, skipped, t))
sys.exit(1 if failed else 0)
