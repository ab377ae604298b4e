"""harness.py — posekit's pages in a real browser, for tests (doc/web.md,
doc/testing.md): headless Chromium (Debian's `chromium`, driven by
`chromium-driver` through `python3-selenium`) on the built site opened
from file://, files given through an <input type=file>, downloads caught
in a folder, screenshots kept, and the native CLI run on the same files
for comparison.  Standard library and Debian's selenium only.

Helpers (stable: the page's tests use them too):

  Browser(site, artefacts)             start Chromium (context manager);
                                       artefacts: the folder for
                                       screenshots, downloads and logs
    .open(page='index.html')           load SITE/page from file://; returns
                                       the driver
    .driver                            the selenium WebDriver
    .upload(paths, selector='input[type=file]')
                                       give files to a file input (CSS
                                       selector; the first match)
    .js(script, *args)                 run script in the page, its return value
    .js_async(script, *args, timeout=120)
                                       run script; it ends by calling
                                       done(value) (its last argument,
                                       also named `done`)
    .wait_for(script, timeout=30)      until the expression script is truthy
                                       (tested in the page every 20 ms);
                                       returns its value
    .screenshot(name)                  ARTEFACTS/NAME.png; returns the path
    .clear_downloads()                 empty the download folder
    .downloads(count, timeout=30)      wait until count downloads are complete;
                                       {name: bytes}
    .console()                         the page's console messages so far
  native(posekit, argv, files, work)   run the native CLI on copies of files
                                       ({name in the working folder: path})
                                       in the fresh folder work; a Result
  Result(status, stdout, stderr, files)
                                       files: {name: bytes} created or
                                       changed (as the worker reports)
  worker_run(browser, argv, files)     the engine's worker on test.html:
                                       same files mapping; a Result, plus
                                       .progress [[done, what]...] and .ms
  compare(a, b)                        '' when two Results are the same byte
                                       for byte, else what differs

Chromium starts with --headless --no-sandbox --disable-gpu
--disable-background-networking --disable-component-update
--disable-sync --no-first-run, $PK_CHROMIUM_FLAGS (default
--single-process: the browser, its renderers, its GPU and network
services as threads of one process, a third less CPU for the same page
loads, doc/testing.md) and a fresh --user-data-dir.
Environment: PK_CHROMIUM (default /usr/bin/chromium), PK_CHROMEDRIVER
(default /usr/bin/chromedriver), PK_CHROMIUM_FLAGS (set it empty for
Chromium's processes apart).
"""
import base64
import os
import shutil
import subprocess
import sys
import tempfile
import time

# Debian's python3-selenium, whichever python3 runs this.
if '/usr/lib/python3/dist-packages' not in sys.path:
    sys.path.append('/usr/lib/python3/dist-packages')

CHROMIUM = os.environ.get('PK_CHROMIUM', '/usr/bin/chromium')
CHROMEDRIVER = os.environ.get('PK_CHROMEDRIVER', '/usr/bin/chromedriver')
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run',
         '--window-size=1280,900'] + os.environ.get('PK_CHROMIUM_FLAGS', '--single-process').split()


def available():
    """'' when Chromium, ChromeDriver and selenium are there, else what is missing."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append('python3-selenium')
    return ', '.join(missing)


class Browser:
    def __init__(self, site, artefacts):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.site = os.path.abspath(site)
        self.artefacts = os.path.abspath(artefacts)
        self.download_dir = os.path.join(self.artefacts, 'downloads')
        os.makedirs(self.download_dir, exist_ok=True)
        self.profile = tempfile.mkdtemp(prefix='pk-chromium-')
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for f in FLAGS + ['--user-data-dir=' + self.profile]:
            opts.add_argument(f)
        opts.add_experimental_option('prefs', {
            'download.default_directory': self.download_dir,
            'download.prompt_for_download': False,
            'safebrowsing.enabled': False})
        opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
        self.service = Service(CHROMEDRIVER, log_output=os.path.join(self.artefacts, 'chromedriver.log')) \
            if 'log_output' in Service.__init__.__code__.co_varnames else \
            Service(CHROMEDRIVER, log_path=os.path.join(self.artefacts, 'chromedriver.log'))
        self.driver = webdriver.Chrome(service=self.service, options=opts)
        self.driver.execute_cdp_cmd('Browser.setDownloadBehavior',
                                    {'behavior': 'allow', 'downloadPath': self.download_dir})
        self._console = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def open(self, page='index.html'):
        path = os.path.join(self.site, page)
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        self.driver.get('file://' + path)
        return self.driver

    def upload(self, paths, selector='input[type=file]'):
        from selenium.webdriver.common.by import By
        el = self.driver.find_element(By.CSS_SELECTOR, selector)
        el.send_keys('\n'.join(os.path.abspath(p) for p in paths))
        return el

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def js_async(self, script, *args, timeout=120):
        self.driver.set_script_timeout(timeout)
        return self.driver.execute_async_script(
            'var done = arguments[arguments.length - 1];\n' + script, *args)

    def wait_for(self, script, timeout=30):
        """Until the expression script is truthy; its value.  The page
        itself tests it every 20 ms and answers once: one WebDriver command
        for the whole wait, where polling from here costs three processes
        (chromedriver, the browser, the renderer) a command each time."""
        v = self.js_async(
            'var t0 = Date.now(), limit = arguments[0] * 1000;'
            ' (function poll() {'
            '  var v; try { v = (' + script + '); } catch (e) { done({error: String(e)}); return; }'
            '  if (v) done({value: v});'
            '  else if (Date.now() - t0 > limit) done({timeout: true});'
            '  else setTimeout(poll, 20);'
            ' })();', timeout, timeout=timeout + 30)
        if 'error' in v:
            raise RuntimeError('%s: %s' % (script, v['error']))
        if 'timeout' in v:
            raise TimeoutError('waited %d s for %s' % (timeout, script))
        return v['value']

    def screenshot(self, name):
        path = os.path.join(self.artefacts, name + '.png')
        self.driver.save_screenshot(path)
        return path

    def clear_downloads(self):
        for n in os.listdir(self.download_dir):
            os.remove(os.path.join(self.download_dir, n))

    def downloads(self, count, timeout=30):
        end = time.time() + timeout
        while True:
            names = os.listdir(self.download_dir)
            done = [n for n in names if not n.endswith('.crdownload') and not n.startswith('.')]
            if len(done) >= count and len(done) == len(names):
                out = {}
                for n in done:
                    with open(os.path.join(self.download_dir, n), 'rb') as f:
                        out[n] = f.read()
                return out
            if time.time() > end:
                raise TimeoutError('%d of %d downloads after %d s: %s' % (len(done), count, timeout,
                                                                       sorted(names)))
            time.sleep(0.05)

    def console(self):
        try:
            self._console += self.driver.get_log('browser')
        except Exception:
            pass
        return list(self._console)


class Result:
    def __init__(self, status, stdout, stderr, files):
        self.status, self.stdout, self.stderr, self.files = status, stdout, stderr, files
        self.progress, self.ms = [], None

    def __repr__(self):
        return 'Result(status=%r, stdout=%r, stderr=%r, files=%r)' % (
            self.status, self.stdout[:200], self.stderr[:200], sorted(self.files))


def _snapshot(work):
    out = {}
    for root, _, names in os.walk(work):
        for n in names:
            p = os.path.join(root, n)
            with open(p, 'rb') as f:
                out[os.path.relpath(p, work).replace(os.sep, '/')] = f.read()
    return out


def native(posekit, argv, files, work):
    """Runs posekit argv[1:] in the fresh folder work holding copies of
    files ({name: source path}); the files it created or changed."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name, src in files.items():
        dst = os.path.join(work, name)
        os.makedirs(os.path.dirname(dst) or work, exist_ok=True)
        shutil.copyfile(src, dst)
    before = _snapshot(work)
    p = subprocess.run([posekit] + list(argv[1:]), cwd=work, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=600)
    after = _snapshot(work)
    changed = {n: d for n, d in after.items() if before.get(n) != d}
    return Result(p.returncode, p.stdout.decode('utf-8', 'replace'),
                  p.stderr.decode('utf-8', 'replace'), changed)


def worker_run(browser, argv, files, timeout=600):
    """Runs argv in the engine's worker of test.html (open it first) with
    files ({name in the working folder: path}), given through its file
    input; a Result with .progress and .ms."""
    paths = list(files.values())
    if paths:
        browser.upload(paths, '#files')
    r = browser.js_async(
        'pkTest.run(arguments[0], arguments[1], arguments[2]).then(done,'
        ' function (e) { done({error: String(e)}); });',
        list(argv), [os.path.basename(p) for p in paths], list(files.keys()), timeout=timeout)
    if 'error' in r:
        raise RuntimeError(r['error'])
    res = Result(r['status'], r['stdout'], r['stderr'],
                 {n: base64.b64decode(d) for n, d in r['files'].items()})
    res.progress, res.ms = r['progress'], r['ms']
    return res


def compare(a, b):
    why = []
    if a.status != b.status:
        why.append('status %r vs %r' % (a.status, b.status))
    if a.stdout != b.stdout:
        why.append('stdout differs: %r vs %r' % (a.stdout[:300], b.stdout[:300]))
    if a.stderr != b.stderr:
        why.append('stderr differs: %r vs %r' % (a.stderr[:300], b.stderr[:300]))
    if sorted(a.files) != sorted(b.files):
        why.append('files %s vs %s' % (sorted(a.files), sorted(b.files)))
    else:
        for n in sorted(a.files):
            if a.files[n] != b.files[n]:
                x, y = a.files[n], b.files[n]
                at = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]),
                          min(len(x), len(y)))
                why.append('%s differs (%d vs %d bytes, first at byte %d)' % (n, len(x), len(y), at))
    return '; '.join(why)
