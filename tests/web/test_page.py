#!/usr/bin/env python3
"""test_page.py SITE POSEKIT CORPUS ARTEFACTS — the page (web/index.html)
driven in headless Chromium (tests/web/harness.py) as a user drives it.

Every check loads files through the page's file input, picks a step, sets
its fields, clicks its button and downloads what the page offers; each
download is compared byte for byte with what the native posekit writes for
the same argv in a folder holding the same files under the same names
(retarget's too: doc/web.md "Byte for byte").  The argv the page shows is
checked against the one the check expects, so a page that builds a wrong
command fails here, not only at the bytes.  Screenshots: ARTEFACTS/page-*.png.

One line per check, "PASS NAME" or "FAIL NAME: WHY"; last line
"web: N passed, N failed, N skipped in T s" (as web_tests.py, for
tests/web/web.sh).  PK_WEB_ONLY=REGEX runs the checks whose names match;
PK_WEB_PART=I/N the I-th of N parts of them (every N-th check from the
I-th: tests/web/web.sh runs two parts side by side).
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
OPT = argparse.Namespace(site=None, corpus=None, posekit=None, artefacts=None)


def corpus(name):
    return os.path.join(OPT.corpus, name)


def sample(rel):
    return os.path.join(SRC, 'samples', rel)


def native(argv, inputs):
    """posekit run natively on copies of inputs (paths) under their own
    names: (status, stdout, stderr, {name: bytes} of every file written)."""
    work = tempfile.mkdtemp(prefix='pk-native-')
    try:
        r = harness.native(OPT.posekit, argv, {os.path.basename(p): p for p in inputs},
                           os.path.join(work, 'w'))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return r.status, r.stdout, r.stderr, r.files


def pair(folder):
    """Two dancers walking up to each other until dancer 1's right wrist
    meets dancer 2's left one on Gene (frames 20-40), as
    tests/cli/cases/retarget_dancers.sh builds them: 全ての親 at x = +-(D + 3)
    at frames 0 and 60 and +-D at frames 20-40, D the x of Gene's right
    wrist at rest.  The paths of p1.vmd and p2.vmd in folder."""
    import struct
    name = '全ての親'.encode('cp932').ljust(15, b'\0')
    lin = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
    d = 6.245398
    paths = []
    for n, s in (('p1.vmd', 1.0), ('p2.vmd', -1.0)):
        keys = [(0, s * (d + 3)), (20, s * d), (40, s * d), (60, s * (d + 3))]
        out = b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'pair'.ljust(20, b'\0')
        out += struct.pack('<I', len(keys))
        for f, x in keys:
            out += name + struct.pack('<I3f4f', f, x, 0, 0, 0, 0, 0, 1) + lin
        out += struct.pack('<IIII', 0, 0, 0, 0)
        path = os.path.join(folder, n)
        with open(path, 'wb') as f:
            f.write(out)
        paths.append(path)
    return paths


# One browser for every check of a part on the built site: a Chromium
# started and quit costs about 6 s of CPU, and most of it in processes the
# test command's accounting never waits for (22 starts were a sixth of
# stage E).  Each check still gets the page loaded afresh, an empty
# download folder, its own console and no saved language; a check that
# fails quits the browser (main), so the next starts a new one.
_SHARED = {}


def shared_browser():
    b = _SHARED.get('b')
    if b is None:
        b = _SHARED['b'] = harness.Browser(OPT.site, OPT.artefacts)
    else:
        b.console()  # the last check's messages, dropped
        b._console = []
    return b


def quit_shared():
    b = _SHARED.pop('b', None)
    if b is not None:
        b.close()


class Page:
    """The page (index.html of the built site, or of site) in the shared
    browser, with an empty download folder."""

    def __init__(self, width=1200, height=1400, lang='en', site=None):
        self.b = shared_browser()
        self.d = self.b.driver
        self.downloads = self.b.download_dir
        self.b.clear_downloads()
        self.d.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                               {'width': width, 'height': height, 'deviceScaleFactor': 1,
                                'mobile': width < 500})
        self.d.get('file://' + os.path.join(os.path.abspath(site or self.b.site), 'index.html') + '?lang=' + lang)
        self.until('!!window.PK_APP', 20)

    def close(self):
        try:  # the next check starts from no saved language and no worker
            self.js('try { localStorage.clear(); } catch (e) {}')
            self.d.get('about:blank')
        except Exception:
            quit_shared()

    def wait(self, cond, timeout=120):
        return WebDriverWait(self.d, timeout, poll_frequency=0.1).until(cond)

    def until(self, script, timeout=120):
        """Until the JavaScript expression script is truthy, tested in the
        page (harness.Browser.wait_for): a step's sizing takes seconds,
        and polling it from here cost more CPU than the rest of a check's
        commands."""
        return self.b.wait_for(script, timeout)

    def js(self, code, *args):
        return self.d.execute_script(code, *args)

    def by_id(self, i):
        return self.d.find_element(By.ID, i)

    def add(self, *paths):
        """Files given to the page's file input; waits until each is read."""
        n = len(self.d.find_elements(By.CSS_SELECTOR, '#file-list li'))
        self.by_id('file-input').send_keys('\n'.join(paths))
        want = n + len(paths)
        self.until("document.querySelectorAll('#file-list li').length >= %d &&"
                   " !document.querySelector('#file-list li[data-kind=reading]')" % want)

    def kinds(self):
        """{name: kind} of the files listed (one read: the list is redrawn as files come)."""
        return self.js("var o = {}; document.querySelectorAll('#file-list li').forEach(function (li) {"
                       " o[li.getAttribute('data-name')] = li.getAttribute('data-kind'); }); return o;")

    def file_entry(self, name):
        for li in self.d.find_elements(By.CSS_SELECTOR, '#file-list li'):
            if li.get_attribute('data-name') == name:
                return li
        raise AssertionError('no file %s in the list' % name)

    def op(self, name):
        lab = self.d.find_element(By.CSS_SELECTOR, 'input[name=op][value=%s]' % name)
        self.d.find_element(By.XPATH, "//input[@name='op'][@value='%s']/parent::label" % name).click()
        assert lab.is_selected()
        assert self.by_id('op-' + name).is_displayed()

    def select(self, i, value):
        Select(self.by_id(i)).select_by_value(value)

    def type(self, i, text):
        e = self.by_id(i)
        e.clear()
        e.send_keys(text)

    def check(self, i, on=True):
        e = self.by_id(i)
        if e.is_selected() != on:
            e.click()

    def go(self, op):
        self.d.find_element(By.CSS_SELECTOR, '#op-%s button.go' % op).click()
        self.until(ENDED)

    def offered(self):
        """The names the result offers for download."""
        return self.js("return Array.prototype.map.call(document.querySelectorAll('#result a[download]'),"
                       " function (a) { return a.getAttribute('download'); })")

    def commands(self):
        return [c.text for c in self.d.find_elements(By.CSS_SELECTOR, '#result .cmd code')]

    def statuses(self):
        return [s.get_attribute('data-status') for s in
                self.d.find_elements(By.CSS_SELECTOR, '#result .status')]

    def messages(self):
        return '\n'.join(m.text for m in self.d.find_elements(By.CSS_SELECTOR, '#result pre.msg'))

    def download(self, name):
        """Clicks the result's download link of name; the file's bytes."""
        links = [a for a in self.d.find_elements(By.CSS_SELECTOR, '#result a[download]')
                 if a.get_attribute('download') == name]
        assert links, 'no download offered for %s (offered: %s)' % (name, [
            a.get_attribute('download') for a in self.d.find_elements(By.CSS_SELECTOR, '#result a[download]')])
        path = os.path.join(self.downloads, name)
        if os.path.exists(path):
            os.unlink(path)
        links[0].click()
        self.wait(lambda d: os.path.exists(path) and not os.path.exists(path + '.crdownload'), 30)
        time.sleep(0.2)
        with open(path, 'rb') as f:
            return f.read()

    def shot(self, name):
        return self.b.screenshot(name)

    def errors(self):
        """Console errors of the page (SEVERE), file-not-found of optional files aside."""
        return [m for m in self.b.console() if m['level'] == 'SEVERE']


def shown(i):
    """JavaScript: the element of id i is displayed (as WebDriver's
    is_displayed tells it: laid out, not hidden)."""
    return ("(function (e) { return !!e && e.getClientRects().length > 0 &&"
            " getComputedStyle(e).visibility !== 'hidden'; })(document.getElementById(%s))" % json.dumps(i))


def offered_js(name):
    """JavaScript: the result offers name for download."""
    return ("Array.prototype.some.call(document.querySelectorAll('#result a[download]'),"
            " function (a) { return a.getAttribute('download') === %s; })" % json.dumps(name))


PICTURE = "!!document.querySelector('#result figure.picture svg')"
# a step has ended: its status shown, the busy bar gone, the engine idle
ENDED = "!!document.querySelector('#result .status') && !%s && !window.PK_ENGINE.busy()" % shown('busy')


def quoted(argv):
    """The argv as the page shows it (quote() in app.js)."""
    import re
    out = []
    for a in argv:
        out.append(a if re.match(r"^[A-Za-z0-9_@%+=:,./-]+$", a) else "'" + a.replace("'", "'\\''") + "'")
    return ' '.join(out)


class PageTest(unittest.TestCase):
    def setUp(self):
        self.p = Page()

    def tearDown(self):
        try:
            errs = self.p.errors()
            self.assertEqual(errs, [], 'console errors')
        finally:
            self.p.close()

    def same_as_native(self, argv, inputs, outputs, status=0):
        """The page showed argv, ended with status and the CLI's messages,
        and each of outputs downloads byte for byte as the native CLI
        writes it."""
        p = self.p
        self.assertIn(quoted(argv), p.commands())
        st, so, se, files = native(argv, inputs)
        self.assertEqual(st, status, se)
        self.assertIn(str(status), p.statuses())
        if se.strip():
            shown = [m.text for m in p.d.find_elements(By.CSS_SELECTOR, '#result pre.msg')]
            self.assertIn(se.strip(), shown)
        for name in outputs:
            self.assertIn(name, files, 'native wrote %s' % sorted(files))
            got = p.download(name)
            self.assertEqual(len(got), len(files[name]), name)
            self.assertTrue(got == files[name], '%s differs from the native output' % name)
        return st, so, se, files

    # ---- the files ------------------------------------------------------

    def test_files_described(self):
        p = self.p
        p.add(sample('dance.vmd'), corpus('pmx_gene.pmx'), sample('hands/right_fist.vpd'),
              os.path.join(SRC, 'rules', 'ja-en.yaml'), corpus('vmd_wavefile_camera.vmd'))
        self.assertEqual(p.kinds(), {'dance.vmd': 'motion', 'pmx_gene.pmx': 'model', 'right_fist.vpd': 'pose',
                                 'ja-en.yaml': 'rules', 'vmd_wavefile_camera.vmd': 'camera'})
        dance = p.file_entry('dance.vmd').text
        self.assertIn('0–150', dance)
        self.assertIn('215 bone keys (41 bones)', dance)
        self.assertIn('初音ミク', dance)
        camera = p.file_entry('vmd_wavefile_camera.vmd').text
        self.assertIn('70 camera keys', camera)
        self.assertNotIn('for ', camera)
        gene = p.file_entry('pmx_gene.pmx').text
        self.assertIn('224 bones', gene)
        self.assertIn('ジェネ / Gene', gene)
        # removable, and the steps' choices follow
        p.file_entry('right_fist.vpd').find_element(By.CSS_SELECTOR, 'button.remove').click()
        self.assertNotIn('right_fist.vpd', [li.get_attribute('data-name') for li in
                                            p.d.find_elements(By.CSS_SELECTOR, '#file-list li')])
        opts = [o.get_attribute('value') for o in Select(p.by_id('overlay-pose')).options]
        self.assertNotIn('right_fist.vpd', opts)
        p.shot('page-files')

    def test_bad_file_then_still_works(self):
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-bad-')
        bad = os.path.join(tmp, 'cut.vmd')
        with open(sample('dance.vmd'), 'rb') as f:
            data = f.read()
        with open(bad, 'wb') as f:
            f.write(data[:120])
        p.add(bad)
        li = p.file_entry('cut.vmd')
        self.assertEqual(li.get_attribute('data-kind'), 'bad')
        st, so, se, _ = native(['posekit', 'info', '--json', 'cut.vmd'], [bad])
        self.assertEqual(st, 2)
        self.assertEqual(li.find_element(By.CSS_SELECTOR, 'pre.msg.error').text, se.strip())
        self.assertIn('cut.vmd:50:', se)
        # what is announced says it was not read, with the CLI's message
        said = p.by_id('files-status').get_attribute('textContent')
        self.assertEqual(said, 'cut.vmd could not be read: ' + se.strip())
        # a bad file in a step: the CLI's message, nothing written
        p.add(sample('dance.vmd'))
        p.op('mirror')
        opts = [o.get_attribute('value') for o in Select(p.by_id('mirror-in')).options]
        self.assertNotIn('cut.vmd', opts)
        # a bad rules file is read when added, as a step would read it:
        # listed with the CLI's message (line:column) and offered to no
        # step; a YAML syntax error too; a good one is offered
        rules = os.path.join(tmp, 'typo.yaml')
        with open(rules, 'w') as f:
            f.write('rename:\n  "右手首": "wrist_R"\nrenmae:\n  "左手首": "wrist_L"\n')
        broken = os.path.join(tmp, 'broken.yaml')
        with open(broken, 'w') as f:
            f.write('rename: [unclosed\n')
        good = os.path.join(SRC, 'rules', 'ja-en.yaml')
        p.add(rules, broken, good)
        self.assertEqual({k: v for k, v in p.kinds().items() if k.endswith('.yaml')},
                         {'typo.yaml': 'bad', 'broken.yaml': 'bad', 'ja-en.yaml': 'rules'})
        for name, path, words in (('typo.yaml', rules, 'typo.yaml:3:1: unknown key'),
                                  ('broken.yaml', broken, 'broken.yaml:2:1: YAML syntax error')):
            argv = ['posekit', 'rename', 'dance.vmd', '--rules', name, '-o', 'out.vmd']
            st, so, se, files = native(argv, [sample('dance.vmd'), path])
            self.assertEqual((st, files), (2, {}))
            self.assertIn(words, se)
            self.assertEqual(p.file_entry(name).find_element(By.CSS_SELECTOR, 'pre.msg.error').text, se.strip())
        p.op('rename')
        opts = [o.get_attribute('value') for o in Select(p.by_id('rename-rules')).options]
        self.assertEqual(opts, ['ja-en.yaml'])
        p.shot('page-bad-file')
        # still working
        p.op('mirror')
        p.select('mirror-in', 'dance.vmd')
        p.go('mirror')
        self.same_as_native(['posekit', 'mirror', 'dance.vmd', '-o', 'dance_mirrored.vmd'],
                            [sample('dance.vmd')], ['dance_mirrored.vmd'])
        shutil.rmtree(tmp)

    # ---- the steps ----------------------------------------------------------

    def test_check(self):
        p = self.p
        p.add(sample('dance.vmd'), corpus('pmx_nanoem_miku_bones.pmx'))
        p.op('check')
        p.select('check-in', 'dance.vmd')
        p.select('check-model', 'pmx_nanoem_miku_bones.pmx')
        p.check('check-suggest', True)
        p.go('check')
        rules = 'dance_for_pmx_nanoem_miku_bones_rules.yaml'
        argv = ['posekit', 'check', 'dance.vmd', '--model', 'pmx_nanoem_miku_bones.pmx', '--json',
                '--suggest-rules', rules]
        st, so, se, files = self.same_as_native(argv, [sample('dance.vmd'), corpus('pmx_nanoem_miku_bones.pmx')],
                                                [rules], status=1)
        table = p.d.find_element(By.CSS_SELECTOR, '#result table.check').text
        self.assertIn('右親指０', table)
        self.assertIn('左親指０', table)
        self.assertIn(files[rules].decode('utf-8').splitlines()[-1].strip(),
                      p.d.find_element(By.CSS_SELECTOR, '#result pre.yaml').text)

    def test_check_without_model(self):
        # no model: exit status 1 says no built-in body has any of the
        # motion's bones (no model lacks anything: none was given)
        p = self.p
        dance = corpus('vmd_yohawing_joint_orient_test.vmd')
        p.add(dance)
        p.op('check')
        p.select('check-in', 'vmd_yohawing_joint_orient_test.vmd')
        p.select('check-model', '')
        # its one warning, in the singular; no rules to suggest without a model
        entry = p.file_entry('vmd_yohawing_joint_orient_test.vmd').text
        self.assertIn('1 warning', entry)
        self.assertNotIn('1 warnings', entry)
        self.assertFalse(p.by_id('check-suggest').is_enabled())
        p.go('check')
        argv = ['posekit', 'check', 'vmd_yohawing_joint_orient_test.vmd', '--json']
        self.same_as_native(argv, [dance], [], status=1)
        status = p.d.find_element(By.CSS_SELECTOR, '#result .status').text
        self.assertEqual(status, 'Done: no built-in body has any of its bones.')
        # the bodies' table: its heads say what the columns hold
        table = p.d.find_element(By.CSS_SELECTOR, '#result table.bodies')
        heads = [th.text for th in table.find_elements(By.CSS_SELECTOR, 'th')]
        self.assertEqual(heads, ['Model', 'bones (the body has / keyed)', 'overlap'])
        self.assertIn('@classic', table.text)
        self.assertIn('0 / 3', table.text)

    def test_size_with_camera(self):
        p = self.p
        dance, cam, mei = corpus('vmd_wavefile_v2.vmd'), corpus('vmd_wavefile_camera.vmd'), corpus('pmd_mei.pmd')
        p.add(dance, cam, mei)
        p.op('size')
        p.select('size-in', 'vmd_wavefile_v2.vmd')
        p.select('size-from', '@auto')
        p.select('size-to', 'pmd_mei.pmd')
        p.select('size-camera', 'vmd_wavefile_camera.vmd')
        # what the progress bar says, and its value, at each change
        p.js("window.pkBar = []; var w = document.getElementById('busy-what'),"
             " b = document.getElementById('busy-progress');"
             " new MutationObserver(function () { pkBar.push([w.textContent, b.getAttribute('value')]); })"
             ".observe(w, {childList: true, characterData: true, subtree: true});")
        p.go('size')
        bar = p.js('return window.pkBar')
        # the camera's sizing, the second command, is told as such, and its
        # bar starts from nothing (not full from the dance's)
        second = [i for i, (w, v) in enumerate(bar) if w.startswith('(2/2) ')]
        self.assertTrue(any('sizing: ' in bar[i][0] for i in second), bar)
        self.assertIsNone(bar[second[0] - 1][1] if second else '', bar)
        out, rep = 'vmd_wavefile_v2_sized_to_pmd_mei.vmd', 'vmd_wavefile_v2_sized_to_pmd_mei_report.json'
        self.same_as_native(['posekit', 'retarget', 'vmd_wavefile_v2.vmd', '--from', '@auto', '--to', 'pmd_mei.pmd',
                             '-o', out, '--report', rep], [dance, mei], [out, rep])
        cout = 'vmd_wavefile_camera_sized_to_pmd_mei.vmd'
        self.same_as_native(['posekit', 'retarget', 'vmd_wavefile_camera.vmd', '--from', '@auto', '--to', 'pmd_mei.pmd',
                             '--motion', 'vmd_wavefile_v2.vmd', '-o', cout], [dance, cam, mei], [cout])
        self.assertEqual(p.kinds(), {'vmd_wavefile_v2.vmd': 'motion', 'vmd_wavefile_camera.vmd': 'camera',
                                     'pmd_mei.pmd': 'model', out: 'motion', cout: 'camera'})
        facts = p.d.find_element(By.CSS_SELECTOR, '#result ul.facts').text
        self.assertIn('hand contacts', facts)
        self.assertIn('posekit retarget: camera:', p.messages())

    def test_size_between_models_then_see(self):
        p = self.p
        bow, mei, sd = corpus('vmd_imas_azusa_bow1.vmd'), corpus('pmd_mei.pmd'), corpus('pmd_sd_mei.pmd')
        p.add(bow, mei, sd)
        p.op('size')
        p.select('size-in', 'vmd_imas_azusa_bow1.vmd')
        p.select('size-from', 'pmd_mei.pmd')
        p.select('size-to', 'pmd_sd_mei.pmd')
        p.check('size-fingers', True)
        p.go('size')
        out, rep = 'vmd_imas_azusa_bow1_sized_to_pmd_sd_mei.vmd', 'vmd_imas_azusa_bow1_sized_to_pmd_sd_mei_report.json'
        self.same_as_native(['posekit', 'retarget', 'vmd_imas_azusa_bow1.vmd', '--from', 'pmd_mei.pmd', '--to',
                             'pmd_sd_mei.pmd', '-o', out, '--report', rep, '--fingers'], [bow, mei, sd], [out, rep])
        # before and after, side by side: the sized dance on the SD model over the original on Mei
        p.d.find_element(By.CSS_SELECTOR, '#result button.see-ba').click()
        p.until(PICTURE)
        self.assertTrue(p.by_id('op-see').is_displayed())
        p.type('see-frame-n', '12')
        p.by_id('see-frame-n').send_keys('\t')
        svg = 'vmd_imas_azusa_bow1_sized_to_pmd_sd_mei_frame12_on_pmd_sd_mei.svg'
        p.until(offered_js(svg), 60)
        self.same_as_native(['posekit', 'draw', out, '--model', 'pmd_sd_mei.pmd', '--frame', '12', '--vs',
                             'vmd_imas_azusa_bow1.vmd', '--vs-model', 'pmd_mei.pmd', '-o', svg],
                            [bow, mei, sd, os.path.join(p.downloads, out)], [svg])
        p.shot('page-size-see-vs')

    def test_size_dancers(self):
        """Several dancers: added and removed (the others numbered again),
        sized together by one command, every output and the group's
        report the native CLI's bytes, the spacing and the contacts
        between dancers shown."""
        from selenium.webdriver.common.keys import Keys
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-dancers-')
        p1, p2 = pair(tmp)
        gene, mei, sd = corpus('pmx_gene.pmx'), corpus('pmd_mei.pmd'), corpus('pmd_sd_mei.pmd')
        p.add(p1, p2, gene, mei, sd)
        p.op('size')
        self.assertFalse(p.by_id('size-scale-row').is_displayed())
        legend = p.by_id('size-dancer-1').find_element(By.TAG_NAME, 'legend')
        self.assertLessEqual(legend.size['width'], 1, 'one dancer: no legend shown (kept for screen readers)')
        p.select('size-in', 'p1.vmd')
        p.select('size-from', 'pmx_gene.pmx')
        p.select('size-to', 'pmd_mei.pmd')
        # "+ Add a dancer" from the keyboard: the new dancer's dance takes the focus
        p.by_id('size-add').send_keys(Keys.ENTER)
        self.assertEqual(p.d.switch_to.active_element.get_attribute('id'), 'size-in-2')
        self.assertEqual(Select(p.by_id('size-in-2')).first_selected_option.get_attribute('value'), 'p2.vmd',
                         'a further dancer starts on a dance no dancer has')
        self.assertTrue(p.by_id('size-scale-row').is_displayed())
        self.assertFalse(p.by_id('size-camera').is_enabled())
        self.assertEqual(p.by_id('size-camera').get_attribute('aria-describedby'), 'size-camera-hint')
        self.assertTrue(p.by_id('size-camera-hint').is_displayed())
        self.assertEqual(legend.text, 'Dancer 1')
        self.assertGreater(legend.size['width'], 20)
        p.select('size-to-2', 'pmd_sd_mei.pmd')
        p.by_id('size-add').click()
        p.select('size-in-3', 'p2.vmd')
        p.select('size-from-3', 'pmx_gene.pmx')
        p.select('size-to-3', 'pmd_mei.pmd')
        # dancer 2 removed: dancer 3 becomes dancer 2, its choices kept
        p.by_id('size-dancer-2').find_element(By.CSS_SELECTOR, 'button.remove').click()
        self.assertEqual(p.d.switch_to.active_element.get_attribute('id'), 'size-add')
        self.assertEqual(p.d.find_elements(By.ID, 'size-in-3'), [])
        self.assertEqual(p.by_id('size-dancer-2').find_element(By.TAG_NAME, 'legend').text, 'Dancer 2')
        self.assertEqual(p.by_id('size-in-2').get_attribute('value'), 'p2.vmd')
        self.assertEqual(p.by_id('size-to-2').get_attribute('value'), 'pmd_mei.pmd')
        self.assertEqual(p.d.find_element(By.CSS_SELECTOR, 'label[for=size-to-2]').text, 'Your model')
        p.go('size')
        o1, o2, rep = 'p1_sized_to_pmd_mei.vmd', 'p2_sized_to_pmd_mei.vmd', 'p1_and_p2_sized_report.json'
        argv = ['posekit', 'retarget', 'p1.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd', '-o', o1,
                '--and', 'p2.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd', '-o', o2, '--report', rep]
        st, so, se, files = self.same_as_native(argv, [p1, p2, gene, mei], [o1, o2, rep])
        self.assertEqual(sorted(files), sorted([o1, o2, rep]))
        d = json.loads(files[rep])
        # the report: each dancer, the spacing, the held hands
        rows = p.d.find_elements(By.CSS_SELECTOR, '#result table.dancers tbody tr')
        self.assertEqual([r.find_elements(By.TAG_NAME, 'td')[-1].text for r in rows], [o1, o2])
        self.assertIn('%.2f → %.2f' % (d['dancers'][1]['leg']['from'], d['dancers'][1]['leg']['to']), rows[1].text)
        facts = p.d.find_element(By.CSS_SELECTOR, '#result ul.facts').text
        self.assertIn('translation scale %.4f, shared' % d['scale']['xz'], facts)
        self.assertIn('spacing error: at most %.2f%%' % (100 * d['spacing']['max']), facts)
        self.assertIn('within the 2% goal', facts)
        pa = d['partners']
        self.assertEqual(len(pa['contacts']), 1)
        self.assertIn('contacts between dancers: 1; gap error %.1f%% → %.1f%%' % (100 * pa['before']['mean'],
                                                                              100 * pa['after']['mean']), facts)
        held = p.d.find_elements(By.CSS_SELECTOR, '#result table.partners tbody tr td')
        self.assertEqual([c.text for c in held[:4]], ['1', 'right', '2', 'left hand'])
        self.assertIn('partners: 1 contact between dancers', p.messages())
        # the outputs join the files; each dancer's before and after
        self.assertEqual(p.kinds().get(o2), 'motion')
        see = p.d.find_elements(By.CSS_SELECTOR, '#result button.see-ba')
        self.assertEqual([b.text for b in see], ['See dancer 1 before and after', 'See dancer 2 before and after'])
        p.shot('page-size-dancers')
        # one dance twice to one model, a scale given: the second output is told apart
        p.select('size-in-2', 'p1.vmd')
        p.select('size-scale', 'set')
        self.assertEqual(p.d.switch_to.active_element.get_attribute('id'), 'size-scale-n')
        p.type('size-scale-n', '0.8')
        p.go('size')
        o2b, repb = 'p1_sized_to_pmd_mei_dancer2.vmd', 'p1_sized_report.json'
        argv = ['posekit', 'retarget', 'p1.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd', '-o', o1,
                '--and', 'p1.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd', '-o', o2b, '--report', repb,
                '--scale', '0.8']
        st, so, se, files = self.same_as_native(argv, [p1, gene, mei], [o1, o2b, repb])
        self.assertIn('translation scale 0.8000, shared (given)', p.d.find_element(By.CSS_SELECTOR, '#result ul.facts').text)
        self.assertIn('stand in one place', p.messages())
        # a scale of 0 (the field refuses negative ones): the CLI's message,
        # nothing written, and the page goes on
        p.type('size-scale-n', '0')
        p.go('size')
        self.assertEqual(p.statuses(), ['2'], p.commands())
        self.assertIn("--scale wants a positive number, or 'own' (not '0')", p.messages())
        self.assertEqual(p.offered(), [])
        p.select('size-scale', 'own')
        p.select('size-in-2', 'p2.vmd')
        p.go('size')
        argv = ['posekit', 'retarget', 'p1.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd', '-o', o1,
                '--and', 'p2.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd', '-o', o2, '--report', rep,
                '--scale', 'own']
        self.same_as_native(argv, [p1, p2, gene, mei], [o1, o2, rep])
        # back to one dancer: the lone command, the camera offered again
        p.by_id('size-dancer-2').find_element(By.CSS_SELECTOR, 'button.remove').click()
        self.assertTrue(p.by_id('size-camera').is_enabled())
        self.assertIsNone(p.by_id('size-camera').get_attribute('aria-describedby'))
        self.assertFalse(p.by_id('size-scale-row').is_displayed())
        p.go('size')
        self.same_as_native(['posekit', 'retarget', 'p1.vmd', '--from', 'pmx_gene.pmx', '--to', 'pmd_mei.pmd',
                             '-o', o1, '--report', 'p1_sized_to_pmd_mei_report.json'], [p1, gene, mei],
                            [o1, 'p1_sized_to_pmd_mei_report.json'])
        shutil.rmtree(tmp)

    def test_size_formation(self):
        """The formation of doc/commands.md "Several dancers" made and sized
        in the page: Gene's dance, a second dancer placed 20 units to the
        side by the overlay step (全ての親, added), the two sized together
        for Mei (from @auto) and SD Mei; the outputs the native CLI's
        bytes; dancer 2 seen before and after."""
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-formation-')
        place = os.path.join(tmp, 'place.vpd')
        with open(place, 'wb') as f:
            f.write('Vocaloid Pose Data file\r\n\r\nplace.osm;\r\n1;\r\n\r\nBone0{全ての親\r\n  -20,0,0;\r\n'
                    '  0,0,0,1;\r\n}\r\n'.encode('cp932'))
        dance, gene, mei, sd = (corpus(n) for n in ('vmd_wavefile_v2.vmd', 'pmx_gene.pmx', 'pmd_mei.pmd', 'pmd_sd_mei.pmd'))
        p.add(dance, place, gene, mei, sd)
        p.op('overlay')
        p.select('overlay-in', 'vmd_wavefile_v2.vmd')
        p.select('overlay-pose', 'place.vpd')
        p.type('overlay-bones', '全ての親')
        p.type('overlay-frames', '')
        p.type('overlay-fade', '0')
        p.select('overlay-mode', 'add')
        p.go('overlay')
        beside = 'vmd_wavefile_v2_with_place.vmd'
        self.same_as_native(['posekit', 'overlay', 'vmd_wavefile_v2.vmd', '--pose', 'place.vpd', '--bones', '全ての親',
                             '--mode', 'add', '-o', beside], [dance, place], [beside])
        p.op('size')
        p.select('size-in', 'vmd_wavefile_v2.vmd')
        p.select('size-from', '@auto')
        p.select('size-to', 'pmd_mei.pmd')
        p.by_id('size-add').click()
        p.select('size-in-2', beside)
        p.select('size-from-2', 'pmx_gene.pmx')
        p.select('size-to-2', 'pmd_sd_mei.pmd')
        p.go('size')
        o1, o2 = 'vmd_wavefile_v2_sized_to_pmd_mei.vmd', 'vmd_wavefile_v2_with_place_sized_to_pmd_sd_mei.vmd'
        rep = 'vmd_wavefile_v2_and_vmd_wavefile_v2_with_place_sized_report.json'
        argv = ['posekit', 'retarget', 'vmd_wavefile_v2.vmd', '--from', '@auto', '--to', 'pmd_mei.pmd', '-o', o1,
                '--and', beside, '--from', 'pmx_gene.pmx', '--to', 'pmd_sd_mei.pmd', '-o', o2, '--report', rep]
        st, so, se, files = self.same_as_native(argv, [dance, os.path.join(p.downloads, beside),
                                                       mei, gene, sd], [o1, o2, rep])
        d = json.loads(files[rep])
        self.assertLess(d['spacing']['max'], 0.02)
        self.assertEqual([x.get('picked') for x in d['dancers']], ['@classic', None])
        cells = p.d.find_elements(By.CSS_SELECTOR, '#result table.dancers tbody tr td:nth-child(3)')
        self.assertEqual([c.text for c in cells], ['@auto (@classic)', 'pmx_gene.pmx'])
        self.assertIn('within the 2% goal', p.d.find_element(By.CSS_SELECTOR, '#result li.spacing').text)
        self.assertIn('No hand touches another dancer on the source models.', p.by_id('result').text)
        # dancer 2 before and after: the sized dance on SD Mei over the placed one on Gene
        p.d.find_elements(By.CSS_SELECTOR, '#result button.see-ba')[1].click()
        p.until(PICTURE, 60)
        self.assertEqual(p.by_id('see-in').get_attribute('value'), o2)
        self.assertEqual(p.by_id('see-vs').get_attribute('value'), beside)
        self.assertEqual(p.by_id('see-model').get_attribute('value'), 'pmd_sd_mei.pmd')
        self.assertEqual(p.by_id('see-vs-model').get_attribute('value'), 'pmx_gene.pmx')
        p.shot('page-size-formation-see')
        shutil.rmtree(tmp)

    def test_job_with_folders(self):
        """A job written for a disk, its inputs in folders: the CLI's
        message, and why here (every file in one folder); written with
        the names alone, it runs."""
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-jobf-')
        job = os.path.join(tmp, 'ジョブ.yaml')
        with open(job, 'w') as f:
            f.write('inputs:\n  dance: ダンス\\dance.vmd\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  m: m.vmd\n')
        p.add(job, sample('dance.vmd'))
        p.op('job')
        p.select('job-in', 'ジョブ.yaml')
        p.go('job')
        self.assertIn("input 'dance' (ダンス\\dance.vmd): cannot open", p.messages())
        self.assertIn('without folders', p.by_id('result').text)
        job = os.path.join(tmp, 'ジョブ2.yaml')
        with open(job, 'w') as f:
            f.write('inputs:\n  dance: dance.vmd\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  m: m.vmd\n')
        p.add(job)
        p.select('job-in', 'ジョブ2.yaml')
        p.go('job')
        self.assertEqual(p.statuses(), ['0'])
        self.assertNotIn('without folders', p.by_id('result').text)
        shutil.rmtree(tmp)

    def test_job_dancers(self):
        """A job's dancers: list run by the Job step: the native run's bytes."""
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-jobd-')
        p1, p2 = pair(tmp)
        job = os.path.join(tmp, 'pair.yaml')
        with open(job, 'w') as f:
            f.write('inputs: {p1: p1.vmd, p2: p2.vmd, gene: pmx_gene.pmx, mei: pmd_mei.pmd}\n'
                    'steps:\n  - retarget:\n      scale: own\n      dancers:\n'
                    '        - {in: p1, from: gene, to: mei, out: o1}\n'
                    '        - {in: p2, from: gene, to: mei, out: o2}\n'
                    'outputs: {o1: out/j1.vmd, o2: out/j2.vmd}\n')
        p.add(job, p1, p2, corpus('pmx_gene.pmx'), corpus('pmd_mei.pmd'))
        p.op('job')
        p.select('job-in', 'pair.yaml')
        p.go('job')
        argv = ['posekit', 'run', 'pair.yaml']
        st, so, se, files = native(argv, [job, p1, p2, corpus('pmx_gene.pmx'), corpus('pmd_mei.pmd')])
        self.assertEqual(st, 0, se)
        self.assertIn(quoted(argv), p.commands())
        self.assertEqual(sorted(files), ['out/j1.vmd', 'out/j2.vmd'])
        self.assertIn('partners: 1 contact between dancers', so)
        for name in files:
            self.assertTrue(p.download(name.replace('/', '_')) == files[name], name)
        shutil.rmtree(tmp)

    def test_overlay(self):
        p = self.p
        p.add(sample('dance.vmd'), sample('hands/right_fist.vpd'))
        p.op('overlay')
        p.select('overlay-in', 'dance.vmd')
        p.select('overlay-pose', 'right_fist.vpd')
        p.type('overlay-bones', '@fingers_R')
        p.type('overlay-frames', '30-60')
        p.type('overlay-fade', '6')
        p.go('overlay')
        self.same_as_native(['posekit', 'overlay', 'dance.vmd', '--pose', 'right_fist.vpd', '--bones', '@fingers_R',
                             '--frames', '30-60', '--fade', '6', '-o', 'dance_with_right_fist.vmd'],
                            [sample('dance.vmd'), sample('hands/right_fist.vpd')], ['dance_with_right_fist.vmd'])
        self.assertIn('15 bones changed', p.messages())

    def test_diff_table_and_heatmap(self):
        p = self.p
        a, b, gene = sample('dance.vmd'), corpus('vmd_imas_azusa_bow1.vmd'), corpus('pmx_gene.pmx')
        p.add(a, b, gene)
        p.op('diff')
        p.select('diff-a', 'dance.vmd')
        p.select('diff-b', 'vmd_imas_azusa_bow1.vmd')
        p.type('diff-frames', 'all')
        p.select('diff-model', 'pmx_gene.pmx')
        p.go('diff')
        svg = 'dance_vs_vmd_imas_azusa_bow1_diff.svg'
        argv = ['posekit', 'diff', 'dance.vmd', 'vmd_imas_azusa_bow1.vmd', '--frames', 'all', '--model',
                'pmx_gene.pmx', '--json', '--svg', svg]
        st, so, se, files = self.same_as_native(argv, [a, b, gene], [svg], status=1)
        import json
        d = json.loads(so)
        rows = p.d.find_elements(By.CSS_SELECTOR, '#result table.diff tbody tr')
        self.assertEqual(len(rows), len([x for x in d['bones'] if x['differs']]))
        self.assertEqual(rows[0].find_elements(By.TAG_NAME, 'td')[0].text, d['bones'][0]['name'])
        self.assertTrue(p.d.find_elements(By.CSS_SELECTOR, '#result figure.picture svg'))
        # the picture is offered for download, not listed as an input
        self.assertEqual(p.kinds(), {'dance.vmd': 'motion', 'vmd_imas_azusa_bow1.vmd': 'motion',
                                     'pmx_gene.pmx': 'model'})
        p.shot('page-diff')

    def test_diff_two_poses(self):
        p = self.p
        a, b = sample('hands/right_fist.vpd'), sample('hands/right_open.vpd')
        p.add(a, b)
        p.op('diff')
        p.select('diff-a', 'right_fist.vpd')
        p.select('diff-b', 'right_open.vpd')
        p.go('diff')
        svg = 'right_fist_vs_right_open_diff.svg'
        self.same_as_native(['posekit', 'diff', 'right_fist.vpd', 'right_open.vpd', '--json', '--svg', svg],
                            [a, b], [svg], status=1)

    def test_reduce_bake_convert_mirror_rename(self):
        p = self.p
        dance, fist, rules = sample('dance.vmd'), sample('hands/right_fist.vpd'), os.path.join(SRC, 'rules', 'ja-en.yaml')
        p.add(dance, fist, rules)
        p.op('bake')
        p.select('bake-in', 'dance.vmd')
        p.go('bake')
        self.same_as_native(['posekit', 'bake', 'dance.vmd', '-o', 'dance_baked.vmd'], [dance], ['dance_baked.vmd'])
        baked = os.path.join(p.downloads, 'dance_baked.vmd')
        p.op('reduce')
        p.select('reduce-in', 'dance_baked.vmd')  # the page's own output, used as an input
        p.type('reduce-deg', '0.2')
        p.go('reduce')
        self.same_as_native(['posekit', 'reduce', 'dance_baked.vmd', '--max-deg', '0.2', '-o',
                             'dance_baked_reduced.vmd'], [baked], ['dance_baked_reduced.vmd'])
        p.op('convert')
        p.select('convert-in', 'dance.vmd')
        p.type('convert-frame', '60')
        p.go('convert')
        self.same_as_native(['posekit', 'convert', 'dance.vmd', '-o', 'dance_frame60.vpd', '--frame', '60'],
                            [dance], ['dance_frame60.vpd'])
        p.select('convert-in', 'right_fist.vpd')
        p.type('convert-frame', '30')
        p.go('convert')
        self.same_as_native(['posekit', 'convert', 'right_fist.vpd', '-o', 'right_fist.vmd', '--frame', '30'],
                            [fist], ['right_fist.vmd'])
        p.op('mirror')
        p.select('mirror-in', 'right_fist.vpd')
        p.go('mirror')
        self.same_as_native(['posekit', 'mirror', 'right_fist.vpd', '-o', 'right_fist_mirrored.vpd'], [fist],
                            ['right_fist_mirrored.vpd'])
        p.op('rename')
        p.select('rename-in', 'dance.vmd')
        p.select('rename-rules', 'ja-en.yaml')
        p.go('rename')
        self.same_as_native(['posekit', 'rename', 'dance.vmd', '--rules', 'ja-en.yaml', '-o', 'dance_ja-en.vmd'],
                            [dance, rules], ['dance_ja-en.vmd'])
        p.check('rename-reverse', True)
        p.select('rename-in', 'dance_ja-en.vmd')
        p.go('rename')
        got = p.download('dance_ja-en_ja-en_reversed.vmd')
        with open(dance, 'rb') as f:
            self.assertTrue(got == f.read(), 'rename there and back gives the dance back')

    def test_see_slider(self):
        p = self.p
        p.add(sample('dance.vmd'), corpus('pmx_gene.pmx'))
        p.op('see')
        p.select('see-in', 'dance.vmd')
        p.select('see-model', 'pmx_gene.pmx')
        self.assertEqual(p.by_id('see-frame').get_attribute('max'), '150')
        p.go('see')
        p.until(PICTURE)
        # the slider redraws as it moves (keyboard: End goes to the last frame)
        p.by_id('see-frame').send_keys('\ue010')  # End
        svg = 'dance_frame150_on_pmx_gene.svg'
        p.until(offered_js(svg), 60)
        self.assertEqual(p.by_id('see-frame-n').get_attribute('value'), '150')
        self.same_as_native(['posekit', 'draw', 'dance.vmd', '--model', 'pmx_gene.pmx', '--frame', '150', '-o', svg],
                            [sample('dance.vmd'), corpus('pmx_gene.pmx')], [svg])
        # play: the frames go by, drawn as they come, until Stop
        p.type('see-frame-n', '0')
        p.by_id('see-frame-n').send_keys('\t')
        p.by_id('see-play').click()
        self.assertEqual(p.by_id('see-play').get_attribute('aria-pressed'), 'true')
        # Stop as soon as a few frames went by: the play ends by itself at
        # frame 150, 5 s in, and a click after that would start it again
        p.until("+document.getElementById('see-frame-n').value > 10", 30)
        p.by_id('see-play').click()
        self.assertEqual(p.by_id('see-play').get_attribute('aria-pressed'), 'false')
        frame = int(p.by_id('see-frame-n').get_attribute('value'))
        self.assertGreater(frame, 10)
        svg = 'dance_frame%d_on_pmx_gene.svg' % frame
        p.until(offered_js(svg) + ' && !PK_ENGINE.busy()', 30)
        self.same_as_native(['posekit', 'draw', 'dance.vmd', '--model', 'pmx_gene.pmx', '--frame', str(frame),
                             '-o', svg], [sample('dance.vmd'), corpus('pmx_gene.pmx')], [svg])
        p.select('see-view', 'all')
        p.until(offered_js('dance_frame%d_on_pmx_gene_all.svg' % frame), 60)
        self.assertIn('--view all', p.commands()[0])
        p.shot('page-see')


    def test_job(self):
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-job-')
        job = os.path.join(tmp, 'hands.yaml')
        with open(job, 'w') as f:
            f.write('inputs:\n  dance: dance.vmd\n  fist: right_fist.vpd\nrules:\n  en: ja-en.yaml\n'
                    'steps:\n  - overlay: {base: dance, pose: fist, bones: "@fingers_R", frames: 30-60, fade: 6,'
                    ' out: hands}\n  - rename: {in: hands, rules: en, out: hands_en}\n'
                    '  - diff: {a: dance, b: hands, frames: all, out: changes}\n'
                    'outputs:\n  hands_en: out/hands-en.vmd\n  changes: out/changes.txt\n')
        p.add(job, sample('dance.vmd'), sample('hands/right_fist.vpd'))
        self.assertEqual(p.kinds()['hands.yaml'], 'job')
        p.op('job')
        p.select('job-in', 'hands.yaml')
        p.go('job')
        argv = ['posekit', 'run', 'hands.yaml']
        st, so, se, files = native(argv, [job, sample('dance.vmd'), sample('hands/right_fist.vpd')])
        self.assertEqual(st, 0, se)
        self.assertIn(quoted(argv), p.commands())
        self.assertEqual(sorted(files), ['out/changes.txt', 'out/hands-en.vmd'])
        # the job's report (its standard output): each step's line, each file written
        self.assertIn('wrote out/hands-en.vmd (', so)
        self.assertEqual(p.d.find_element(By.CSS_SELECTOR, '#result pre.report').text, so.strip())
        for name in files:
            self.assertTrue(p.download(name.replace('/', '_')) == files[name], name)
        shutil.rmtree(tmp)

    def test_cancel_then_still_works(self):
        p = self.p
        p.add(corpus('vmd_wavefile_v2.vmd'), corpus('pmd_mei.pmd'))
        p.op('size')
        p.select('size-in', 'vmd_wavefile_v2.vmd')
        p.select('size-from', '@classic')
        p.select('size-to', 'pmd_mei.pmd')
        p.d.find_element(By.CSS_SELECTOR, '#op-size button.go').click()
        p.until(shown('busy'), 10)
        # the page is not frozen while the worker works: it answers at once
        t = time.time()
        self.assertTrue(p.js('return document.querySelectorAll("#file-list li").length') == 2)
        self.assertLess(time.time() - t, 1.0)
        p.by_id('busy-cancel').click()
        p.until('!' + shown('busy'), 20)
        self.assertIn('Cancelled.', p.by_id('result').text)
        self.assertEqual(p.offered(), [])
        p.op('mirror')
        p.select('mirror-in', 'vmd_wavefile_v2.vmd')
        p.go('mirror')
        self.same_as_native(['posekit', 'mirror', 'vmd_wavefile_v2.vmd', '-o', 'vmd_wavefile_v2_mirrored.vmd'],
                            [corpus('vmd_wavefile_v2.vmd')], ['vmd_wavefile_v2_mirrored.vmd'])

    def test_drop(self):
        """Files dropped on the page (a drop event carrying them) are read
        as the picked ones are."""
        p = self.p
        import base64
        with open(sample('hands/right_fist.vpd'), 'rb') as f:
            b64 = base64.b64encode(f.read()).decode('ascii')
        p.js("""var bytes = Uint8Array.from(atob(arguments[0]), function (c) { return c.charCodeAt(0); });
                var dt = new DataTransfer();
                dt.items.add(new File([bytes], 'dropped_fist.vpd'));
                var zone = document.getElementById('drop');
                zone.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: dt}));
                zone.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: dt}));""", b64)
        p.until("Array.prototype.some.call(document.querySelectorAll('#file-list li'), function (li) {"
                " return li.getAttribute('data-name') === 'dropped_fist.vpd' &&"
                " li.getAttribute('data-kind') === 'pose'; })", 30)
        self.assertIn('16 bones', p.file_entry('dropped_fist.vpd').text)


    def test_japanese_file_names(self):
        """Names in Japanese, with a space and one that starts with '-',
        go to the CLI as they are (the last as ./NAME), and come back as
        the download's name."""
        p = self.p
        tmp = tempfile.mkdtemp(prefix='pk-names-')
        dance, pose = os.path.join(tmp, 'ダンス 1.vmd'), os.path.join(tmp, '-グー.vpd')
        shutil.copyfile(sample('dance.vmd'), dance)
        shutil.copyfile(sample('hands/right_fist.vpd'), pose)
        p.add(dance, pose)
        p.op('overlay')
        p.select('overlay-in', 'ダンス 1.vmd')
        p.select('overlay-pose', '-グー.vpd')
        p.type('overlay-frames', '10-20')
        p.type('overlay-fade', '0')
        p.go('overlay')
        out = 'ダンス 1_with_-グー.vmd'
        self.same_as_native(['posekit', 'overlay', 'ダンス 1.vmd', '--pose', './-グー.vpd', '--bones', '@fingers_R',
                             '--frames', '10-20', '-o', out], [dance, pose], [out])
        p.op('mirror')
        p.select('mirror-in', '-グー.vpd')
        p.go('mirror')
        self.same_as_native(['posekit', 'mirror', './-グー.vpd', '-o', './-グー_mirrored.vpd'], [pose],
                            ['-グー_mirrored.vpd'])
        shutil.rmtree(tmp)

    def test_keyboard(self):
        """Steps chosen with the arrow keys, fields filled and the step run
        without a mouse; focus lands on the result."""
        from selenium.webdriver.common.keys import Keys
        p = self.p
        p.add(sample('dance.vmd'))
        first = p.d.find_element(By.CSS_SELECTOR, 'input[name=op][value=check]')
        p.js('arguments[0].focus()', first)
        active = p.d.switch_to.active_element
        for _ in range(7):  # check, size, overlay, diff, reduce, bake, convert, mirror
            active.send_keys(Keys.ARROW_RIGHT)
            active = p.d.switch_to.active_element
        self.assertEqual(active.get_attribute('value'), 'mirror')
        self.assertTrue(p.by_id('op-mirror').is_displayed())
        self.assertFalse(p.by_id('op-check').is_displayed())
        active.send_keys(Keys.TAB)  # the motion field
        self.assertEqual(p.d.switch_to.active_element.get_attribute('id'), 'mirror-in')
        p.d.switch_to.active_element.send_keys(Keys.TAB)
        p.d.switch_to.active_element.send_keys(Keys.TAB)  # past the rules field, to the button
        self.assertEqual(p.d.switch_to.active_element.get_attribute('class'), 'go')
        p.d.switch_to.active_element.send_keys(Keys.ENTER)
        p.until("!!document.querySelector('#result .status') && !" + shown('busy'))
        self.assertEqual(p.d.switch_to.active_element.text, 'Mirror')
        self.same_as_native(['posekit', 'mirror', 'dance.vmd', '-o', 'dance_mirrored.vmd'],
                            [sample('dance.vmd')], ['dance_mirrored.vmd'])


class PageWithoutEngine(unittest.TestCase):
    """web/ as it is in the tree, without the built engine: the page says
    what to do instead of failing silently."""

    def test_no_engine(self):
        tmp = tempfile.mkdtemp(prefix='pk-noengine-')
        site = os.path.join(tmp, 'site')
        shutil.copytree(os.path.join(SRC, 'web'), site)
        self.assertFalse(os.path.exists(os.path.join(site, 'posekit-engine.js')))
        p = Page(site=site)
        try:
            p.until(shown('engine-error'), 10)
            self.assertIn('bash web/build.sh', p.by_id('engine-error').text)
            p.add(sample('dance.vmd'))
            self.assertEqual(p.kinds(), {'dance.vmd': 'bad'})
        finally:
            p.close()
            shutil.rmtree(tmp)


class PageLooks(unittest.TestCase):
    """The page in Japanese at phone width: screenshots to look at."""

    def test_japanese_phone(self):
        p = Page(width=360, height=1600, lang='ja')
        try:
            p.add(sample('dance.vmd'), corpus('pmx_gene.pmx'))
            self.assertEqual(p.d.find_element(By.CSS_SELECTOR, '#op-check button.go').text, 'チェックする')
            # every text of the page has both languages
            missing = p.js("var S = PK_I18N.strings, out = [];"
                           " document.querySelectorAll('[data-i18n]').forEach(function (e) {"
                           "  var k = e.getAttribute('data-i18n'); if (!S[k] || !S[k][0] || !S[k][1]) out.push(k); });"
                           " return out;")
            self.assertEqual(missing, [])
            self.assertIn('モーション', p.file_entry('dance.vmd').text)
            p.op('see')
            p.select('see-in', 'dance.vmd')
            p.select('see-model', 'pmx_gene.pmx')
            p.go('see')
            self.assertEqual(p.js('return window.innerWidth'), 360)
            width = p.js('return document.documentElement.scrollWidth')
            self.assertLessEqual(width, 360, 'nothing wider than the phone')
            p.shot('page-ja-phone')
            # an output's size in the page's language, following it; and
            # what the bar says while it runs (the engine's words)
            p.js("window.pkBar = []; var w = document.getElementById('busy-what');"
                 " new MutationObserver(function () { pkBar.push(w.textContent); })"
                 ".observe(w, {childList: true, characterData: true, subtree: true});")
            p.op('mirror')
            p.select('mirror-in', 'dance.vmd')
            p.go('mirror')
            bar = p.js('return window.pkBar')
            self.assertTrue(any(w in ('読み込み', '書き出し') for w in bar), bar)
            self.assertFalse([w for w in bar if re.search('reading|writing', w)], bar)
            self.assertEqual(p.js("return PK_I18N.progress('step 2 of 3, smooth: smoothing')"), '手順 2/3、smooth：平滑化')
            self.assertEqual(p.js("return PK_I18N.progress('input \\'dance\\': reading')"), '入力「dance」：読み込み')
            size = "return document.querySelector('#result .outputs .file-size').textContent"
            self.assertRegex(p.js(size), r'^\([0-9,]+ バイト\)$')
            p.d.find_element(By.CSS_SELECTOR, 'button[data-lang=en]').click()
            self.assertEqual(p.d.find_element(By.CSS_SELECTOR, '#op-check button.go').get_attribute('textContent'), 'Check')
            self.assertEqual(p.js('return document.documentElement.lang'), 'en')
            self.assertRegex(p.js(size), r'^\([0-9,]+ bytes\)$')
        finally:
            p.close()


    def test_dancers_phone(self):
        """Two dancers at phone width, in Japanese then English: every
        text in both languages, nothing wider than the phone, the
        dancers' legends following the language; screenshots of the
        fields and of the report."""
        p = Page(width=360, height=1600, lang='ja')
        tmp = tempfile.mkdtemp(prefix='pk-dancers-')
        try:
            p1, p2 = pair(tmp)
            p.add(p1, p2, corpus('pmx_gene.pmx'), corpus('pmd_sd_mei.pmd'))
            p.op('size')
            # the files are listed as they are read, in either order: the
            # dancers' motions are chosen, not left to the defaults
            p.select('size-in', 'p1.vmd')
            p.select('size-from', 'pmx_gene.pmx')
            p.by_id('size-add').click()
            p.select('size-in-2', 'p2.vmd')
            p.select('size-from-2', 'pmx_gene.pmx')
            p.select('size-scale', 'set')
            p.type('size-scale-n', '0.5')
            self.assertEqual(p.by_id('size-dancer-2').find_element(By.TAG_NAME, 'legend').text, 'ダンサー 2')
            p.go('size')
            self.assertEqual(p.statuses(), ['0'])
            self.assertIn('ダンサー同士の接触 1 箇所', p.by_id('result').text)
            held = [c.text for c in p.d.find_elements(By.CSS_SELECTOR, '#result table.partners tbody td')]
            self.assertEqual(held[:4], ['1', '右手', '2', '左手'])
            missing = p.js("var S = PK_I18N.strings, out = [];"
                           " document.querySelectorAll('[data-i18n]').forEach(function (e) {"
                           "  var k = e.getAttribute('data-i18n'); if (!S[k] || !S[k][0] || !S[k][1]) out.push(k); });"
                           " return out;")
            self.assertEqual(missing, [])
            self.assertLessEqual(p.js('return document.documentElement.scrollWidth'), 360, 'nothing wider than the phone')
            for lang in ('ja', 'en'):
                if lang == 'en':
                    p.d.find_element(By.CSS_SELECTOR, 'button[data-lang=en]').click()
                    self.assertEqual(p.by_id('size-dancer-2').find_element(By.TAG_NAME, 'legend').text, 'Dancer 2')
                    shown = p.by_id('result').text
                    self.assertIn('See dancer 2 before and after', shown)
                    self.assertIn('contacts between dancers: 1; gap error', shown)
                    self.assertIn('Done.', shown)
                    held = [c.text for c in p.d.find_elements(By.CSS_SELECTOR, '#result table.partners tbody td')]
                    self.assertEqual(held[:4], ['1', 'right', '2', 'left hand'])
                    self.assertLessEqual(p.js('return document.documentElement.scrollWidth'), 360)
                p.js("document.getElementById('op-size').scrollIntoView()")
                p.shot('page-dancers-%s-phone-fields' % lang)
                p.js("document.querySelector('#result table.dancers').scrollIntoView()")
                p.shot('page-dancers-%s-phone-report' % lang)
        finally:
            p.close()
            shutil.rmtree(tmp)


def main():
    OPT.site, OPT.posekit, OPT.corpus, OPT.artefacts = (os.path.abspath(x) for x in sys.argv[1:5])
    os.makedirs(OPT.artefacts, exist_ok=True)
    only = re.compile(os.environ.get('PK_WEB_ONLY', ''))
    part, parts = (int(x) for x in os.environ.get('PK_WEB_PART', '1/1').split('/'))
    t0 = time.time()
    passed, failing = 0, []
    k = 0
    for cls in (PageTest, PageWithoutEngine, PageLooks):
        for name in unittest.TestLoader().getTestCaseNames(cls):
            check = 'page: ' + name[len('test_'):].replace('_', ' ')
            if not only.search(check):
                continue
            k += 1
            if (k - 1) % parts != part - 1:
                continue
            result = unittest.TestResult()
            cls(name).run(result)
            problems = result.errors + result.failures
            if problems:
                lines = problems[0][1].strip().splitlines()
                why = [x for x in lines if re.match(r'^[\w.]+(Error|Exception)\b', x)] or lines
                print('FAIL %s: %s' % (check, why[-1][:300]), flush=True)
                print(''.join(problems[0][1]), file=sys.stderr, flush=True)
                failing.append(check)
                quit_shared()  # whatever state it left, the next check starts a browser
            else:
                print('PASS', check, flush=True)
                passed += 1
    quit_shared()
    if failing:
        print('web: failing: ' + ' '.join(n.replace(' ', '_') for n in failing))
    print('web: %d passed, %d failed, 0 skipped in %.0f s' % (passed, len(failing), time.time() - t0))
    sys.exit(1 if failing else 0)


if __name__ == '__main__':
    main()
