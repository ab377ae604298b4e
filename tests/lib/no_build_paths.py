#!/usr/bin/env python3
"""no_build_paths.py BINARY... -- ROOT... [--prefix PREFIX] — the library and
the command hold no path of the tree they were built in: none of the ROOTs
(the source and build folders) appears in their data sections (.rodata,
.data, .data.rel.ro), so an installed posekit behaves the same wherever it
was built.  The one path compiled in, the installed data folder, lies
under PREFIX: its occurrences are taken out first, so that a build whose
prefix is a folder inside it (tests/run.sh's build A, which
cli/install_prefix installs there) is held to the same rule.  Debug
information may name them (it is not read at run time).  An uninstalled
build finds the shipped rule files through $POSEKIT_RULES_DIR, which the
tests set (engine/platform/platform.h)."""
import os
import subprocess
import sys
import tempfile

SECTIONS = ('.rodata', '.data', '.data.rel.ro')


def data_of(binary, tmp):
    """The bytes of each data section of binary: {section: bytes}."""
    out = {}
    for sec in SECTIONS:
        path = os.path.join(tmp, sec.strip('.') + '.bin')
        r = subprocess.run(['objcopy', '-O', 'binary', '--only-section=' + sec, binary, path],
                           capture_output=True)
        if r.returncode == 0 and os.path.exists(path):
            with open(path, 'rb') as f:
                out[sec] = f.read()
            os.remove(path)
    return out


def main():
    args = sys.argv[1:]
    prefix = b''
    if '--prefix' in args:
        at = args.index('--prefix')
        prefix = args[at + 1].encode()
        del args[at:at + 2]
    cut = args.index('--')
    binaries, roots = args[:cut], [r.encode() for r in args[cut + 1:]]
    bad, seen = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for b in binaries:
            sections = data_of(b, tmp)
            if not sum(len(d) for d in sections.values()):
                bad.append('no data sections read from ' + b)
            seen += sum(len(d) for d in sections.values())
            for sec, data in sections.items():
                if prefix:
                    data = data.replace(prefix + b'/', b'')
                for root in roots:
                    if root in data:
                        bad.append('%s: %s holds %s' % (os.path.basename(b), sec, root.decode()))
    for b in bad:
        print(b)
    if bad:
        return 1
    print('no build-tree path in %s (%d bytes of data)'
          % (', '.join(os.path.basename(b) for b in binaries), seen))
    return 0


if __name__ == '__main__':
    sys.exit(main())
