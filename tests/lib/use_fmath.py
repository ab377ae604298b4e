#!/usr/bin/env python3
"""use_fmath.py — the engine calls posekit's elementary functions
(engine/util/fmath.h), never the C library's, whose last bits differ from
one C library and one processor to another.

  python3 tests/lib/use_fmath.py SOURCE_ROOT
      rewrites every call in engine/ (sin( -> pki_sin( ..., and the float
      forms sinf( ... -> (float)pki_sin( is not done: a float call is
      reported, to be rewritten by hand) and adds #include "util/fmath.h"
      where a file newly calls one.  Comments and string literals are left
      alone; so are fabs, sqrt, floor, ceil, round, lround, fmin, fmax,
      remainder, ldexp, which every C library computes exactly.  Running it
      again changes nothing (idempotent); it prints the files it changed.
  python3 tests/lib/use_fmath.py --check SOURCE_ROOT [OBJECT_OR_ARCHIVE...]
      the tree test (lib/use_fmath): fails when an engine file calls a C
      library transcendental, or when an object or archive given has an
      undefined symbol of one (nm; catches what the compiler itself emits,
      such as sincos).
"""
import os
import re
import subprocess
import sys

# C library name -> posekit's.
NAMES = ['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'exp', 'log', 'log10', 'pow',
         'cbrt', 'hypot']
# Transcendentals posekit has no function for: any call is an error.
OTHERS = ['sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'exp2', 'expm1', 'exp10', 'log2',
          'log1p', 'logb', 'erf', 'erfc', 'tgamma', 'lgamma', 'sincos', 'fma']
FLOAT_FORMS = [n + s for n in NAMES + OTHERS for s in ('f', 'l')]
SKIP = {os.path.join('engine', 'util', 'fmath.c')}
INCLUDE = '#include "util/fmath.h"'

CALL = re.compile(r'(?<![A-Za-z0-9_.>])(' + '|'.join(sorted(NAMES + OTHERS + FLOAT_FORMS,
                                                                 key=len, reverse=True)) +
                  r')(\s*\()')


def code_spans(text):
    """(start, end) of the text outside comments, string and character
    literals."""
    spans, i, start, n = [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            spans.append((start, i))
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
            start = i
        elif text.startswith('//', i):
            spans.append((start, i))
            j = text.find('\n', i)
            i = n if j < 0 else j
            start = i
        elif c in '"\'':
            spans.append((start, i))
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            start = i
        else:
            i += 1
    spans.append((start, n))
    return spans


def calls(text):
    """(offset, name) of every call of a C library transcendental."""
    out = []
    for a, b in code_spans(text):
        for m in CALL.finditer(text, a, b):
            out.append((m.start(1), m.group(1)))
    return out


def engine_files(root):
    for dirpath, _, files in os.walk(os.path.join(root, 'engine')):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                if rel not in SKIP:
                    yield rel


def add_include(text):
    if INCLUDE in text:
        return text
    lines = text.split('\n')
    last = None
    for i, line in enumerate(lines):
        if line.startswith('#include "'):
            last = i
        elif last is not None and line.strip() and not line.startswith('#include'):
            break
    if last is None:  # no quoted include: after the last include of any kind
        for i, line in enumerate(lines):
            if line.startswith('#include'):
                last = i
    if last is None:
        raise SystemExit('use_fmath: no #include line to put util/fmath.h after')
    lines.insert(last + 1, INCLUDE)
    return '\n'.join(lines)


def rewrite(root):
    changed, bad = [], []
    for rel in engine_files(root):
        path = os.path.join(root, rel)
        text = open(path, encoding='utf-8').read()
        found = calls(text)
        if not found:
            continue
        out, pos = [], 0
        for off, name in found:
            if name not in NAMES:
                line = text.count('\n', 0, off) + 1
                bad.append(f'{rel}:{line}: {name}() has no posekit function: rewrite it by hand')
                continue
            out.append(text[pos:off])
            out.append('pki_' + name)
            pos = off + len(name)
        out.append(text[pos:])
        new = ''.join(out)
        if new != text:
            new = add_include(new)
            with open(path + '.tmp', 'w', encoding='utf-8') as f:
                f.write(new)
            os.replace(path + '.tmp', path)
            changed.append(rel)
    for rel in changed:
        print('use_fmath: rewrote', rel)
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


def check(root, objects):
    bad = []
    for rel in engine_files(root):
        text = open(os.path.join(root, rel), encoding='utf-8').read()
        for off, name in calls(text):
            line = text.count('\n', 0, off) + 1
            bad.append(f'{rel}:{line}: calls the C library\'s {name}()'
                       ' (use util/fmath.h: tests/lib/use_fmath.py rewrites it)')
    banned = set(NAMES + OTHERS + FLOAT_FORMS)
    for obj in objects:
        nm = subprocess.run(['nm', '-u', obj], capture_output=True, text=True, check=True).stdout
        for line in nm.splitlines():
            sym = line.split()[-1] if line.split() else ''
            base = sym.split('@')[0].lstrip('_') if sym else ''
            if base in banned:
                bad.append(f'{obj}: needs the C library\'s {sym}')
    for b in bad:
        print(b)
    if bad:
        print(f'use_fmath: {len(bad)} call(s) of C library transcendentals')
        return 1
    print('use_fmath: the engine calls no C library transcendental')
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == '--check':
        return check(argv[1], argv[2:])
    if len(argv) == 1:
        return rewrite(argv[0])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
