#!/usr/bin/env python3
"""install.py — installs the interop test's npm packages from
package-lock.json into the node_modules folder beside it, without npm
(doc/testing.md "Setup on a fresh machine").

    python3 tests/interop/install.py

Each package of the lock file is fetched from npm's registry (the
address the lock file records as "resolved", or the registry's own
layout when it records none, as here), checked against the lock file's
"integrity" digest and unpacked where npm would put it (the lock file's
key, e.g. node_modules/mmd-parser), the tarball's first folder
("package/") stripped, links left out, as npm does.  A package already
there at the locked version is left alone, so a second run needs no
network.  Exits 1 with one line saying what went wrong (no network, a
missing package, a wrong digest, a package that would need npm to run
its install scripts): the interop test then fails with that line.

Why not `npm ci`: the lock file holds one package with no dependencies
and no install scripts, and Debian's npm is some 350 packages, most of
the CPU the interop test's setup took on a fresh machine.  The digest
check is the one `npm ci` makes (the lock file's SRI hash).  HTTPS uses
the system's CA certificates (Debian's ca-certificates) and honours
https_proxy, like any Python urllib client.
"""
import base64
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REGISTRY = 'https://registry.npmjs.org/'


def die(msg):
    print(f'install.py: {msg}', file=sys.stderr)
    sys.exit(1)


def check_integrity(name, data, integrity):
    """The lock file's SRI value ("sha512-BASE64", maybe several
    space-separated): the data must match one of the strongest kind."""
    want = {}
    for item in integrity.split():
        algo, _, b64 = item.partition('-')
        want.setdefault(algo, []).append(b64.split('?')[0])
    for algo in ('sha512', 'sha384', 'sha256'):
        if algo in want:
            got = base64.b64encode(hashlib.new(algo, data).digest()).decode()
            if got not in want[algo]:
                die(f'{name}: checksum mismatch: the lock file says '
                    f'{algo}-{want[algo][0]}, the download is {algo}-{got}')
            return
    die(f'{name}: no sha512/sha384/sha256 in the lock file\'s integrity "{integrity}"')


def unpack(name, data, dest):
    """Unpacks the tarball into DEST the way npm does: the first path
    component stripped, only files and folders, nothing outside DEST."""
    try:
        tar = tarfile.open(fileobj=io.BytesIO(data), mode='r:*')
    except tarfile.TarError as e:
        die(f'{name}: not a tarball: {e}')
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='.' + os.path.basename(dest) + '-',
                           dir=os.path.dirname(dest))
    os.chmod(tmp, 0o755)
    with tar:
        for m in tar:
            parts = m.name.replace('\\', '/').split('/')[1:]
            parts = [p for p in parts if p not in ('', '.')]
            if not parts or m.name.startswith('/') or '..' in parts:
                continue
            path = os.path.join(tmp, *parts)
            if m.isdir():
                os.makedirs(path, exist_ok=True)
            elif m.isfile():
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with tar.extractfile(m) as src, open(path, 'wb') as out:
                    shutil.copyfileobj(src, out)
                os.chmod(path, 0o755 if m.mode & 0o111 else 0o644)
    # Whole or not at all (a folder appears only once complete), and two
    # at once (builds A's and B's interop tests) both end well.
    shutil.rmtree(dest, ignore_errors=True)
    try:
        os.rename(tmp, dest)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not os.path.isdir(dest):
            raise


def tarball_url(name, version):
    """Where npm fetches NAME@VERSION from when the lock file records no
    address: its registry (npm_config_registry, as npm reads it from the
    environment, or npm's default), NAME/-/BASENAME-VERSION.tgz."""
    registry = os.environ.get('npm_config_registry') or DEFAULT_REGISTRY
    base = name.split('/')[-1]
    return f'{registry.rstrip("/")}/{name}/-/{base}-{version}.tgz'


def installed_version(dest):
    try:
        with open(os.path.join(dest, 'package.json'), encoding='utf-8') as f:
            return json.load(f).get('version')
    except (OSError, ValueError):
        return None


def main():
    lock_path = os.path.join(HERE, 'package-lock.json')
    try:
        with open(lock_path, encoding='utf-8') as f:
            lock = json.load(f)
    except (OSError, ValueError) as e:
        die(f'cannot read {lock_path}: {e}')
    packages = {k: v for k, v in lock.get('packages', {}).items()
                if k.startswith('node_modules/')}
    if not packages:
        die(f'{lock_path}: no packages')
    for key, entry in sorted(packages.items()):
        name = key.rsplit('node_modules/', 1)[1]
        version = entry.get('version')
        integrity = entry.get('integrity')
        if not (version and integrity):
            die(f'{name}: the lock file gives no version or integrity')
        url = entry.get('resolved') or tarball_url(name, version)
        if entry.get('hasInstallScript'):
            die(f'{name}: has install scripts, which need npm to run them')
        dest = os.path.join(HERE, *key.split('/'))
        if installed_version(dest) == version:
            continue
        print(f'install.py: {name} {version} from {url}')
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                data = r.read()
        except urllib.error.HTTPError as e:
            die(f'{name} {version}: {url}: HTTP {e.code} {e.reason}')
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, 'reason', e)
            die(f'{name} {version}: cannot fetch {url}: {reason}')
        check_integrity(name, data, integrity)
        unpack(name, data, dest)
        if installed_version(dest) != version:
            die(f'{name}: the tarball\'s package.json is not version {version}')


if __name__ == '__main__':
    main()
