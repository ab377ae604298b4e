#!/usr/bin/env python3
"""tests/fmath/accuracy.py — the accuracy table of posekit's elementary
functions (engine/util/fmath.c) and of the C library's, in ulps of the
exact result (mpmath, 200 bits), over random arguments per range.

  python3 tests/fmath/accuracy.py [N [NAME,...]]   (N arguments per range, default 20000)

Builds fmath.c as a shared object with cc -O2 -ffp-contract=off (as
meson.build does) and calls it with ctypes; the C library is this
Python's (glibc on Linux).  Prints one Markdown row per function and range:
the largest error of each and the share of results not correctly rounded.
Not a test (needs python3-mpmath, takes a minute): doc/architecture.md
quotes its output."""
import ctypes
import math
import os
import random
import subprocess
import sys
import tempfile

import mpmath
from mpmath import mp, mpf

mp.prec = 200
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')

F1 = {
    'sin': mpmath.sin, 'cos': mpmath.cos, 'tan': mpmath.tan, 'asin': mpmath.asin,
    'acos': mpmath.acos, 'atan': mpmath.atan, 'exp': mpmath.exp, 'log': mpmath.log,
    'log10': mpmath.log10, 'cbrt': lambda x: mpmath.cbrt(x) if x >= 0 else -mpmath.cbrt(-x),
}
F2 = {'atan2': mpmath.atan2, 'pow': mpmath.power, 'hypot': lambda x, y: mpmath.sqrt(x * x + y * y)}
RANGES = {
    'sin': [(-math.pi / 4, math.pi / 4), (-7, 7), (-1e6, 1e6), ('log', 1e-10, 1e300)],
    'cos': [(-math.pi / 4, math.pi / 4), (-7, 7), (-1e6, 1e6), ('log', 1e-10, 1e300)],
    'tan': [(-math.pi / 4, math.pi / 4), (-2, 2), ('log', 1e-10, 1e300)],
    'asin': [(-1, 1), (0.99, 1)], 'acos': [(-1, 1), (0.99, 1)],
    'atan': [(-4, 4), ('log', 1e-10, 1e10)], 'atan2': [(-5, 5)],
    'exp': [(-2, 2), (-745, 709.7), (-745, -708)], 'log': [(0.5, 2), ('log', 1e-300, 1e300)],
    'log10': [(0.5, 2), ('log', 1e-300, 1e300)], 'pow': [(0.5, 2), (0, 20)],
    'cbrt': [(-8, 8), ('log', 1e-300, 1e300)], 'hypot': [(-3, 3)],
}


def build():
    d = tempfile.mkdtemp()
    so = os.path.join(d, 'fmath.so')
    subprocess.run(['cc', '-std=c11', '-O2', '-ffp-contract=off', '-fPIC', '-shared',
                    '-I' + os.path.join(root, 'engine'), os.path.join(root, 'engine', 'util', 'fmath.c'),
                    '-o', so], check=True)
    return ctypes.CDLL(so), ctypes.CDLL('libm.so.6')


def err_ulps(got, exact):
    if math.isinf(got) or math.isnan(got):
        return 0.0 if got == float(exact) else math.inf
    e = float(exact)
    u = math.ulp(e) if e != 0 else 5e-324
    return float(abs(mpf(got) - exact) / u)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    pk, lm = build()
    rnd = random.Random(20261205)
    print('| function | range | posekit max ulp | not correctly rounded | C library max ulp | not c.r. |')
    print('|---|---|---|---|---|---|')
    only = sys.argv[2].split(',') if len(sys.argv) > 2 else list(F1) + list(F2)
    for name in only:
        two = name in F2
        for fn, lib in ((getattr(pk, 'pki_' + name), getattr(lm, name)),):
            for f in (fn, lib):
                f.restype = ctypes.c_double
                f.argtypes = [ctypes.c_double] * (2 if two else 1)
        fn, lib = getattr(pk, 'pki_' + name), getattr(lm, name)
        for rg in RANGES[name]:
            worst = [0.0, 0.0]
            wrong = [0, 0]
            for _ in range(n):
                def pick():
                    if rg[0] == 'log':
                        x = math.exp(rnd.uniform(math.log(rg[1]), math.log(rg[2])))
                        return -x if name not in ('log', 'log10') and rnd.random() < 0.5 else x
                    return rnd.uniform(rg[0], rg[1])
                x = pick()
                if two:
                    y = rnd.uniform(-30, 30) if name == 'pow' else pick()
                    exact = F2[name](mpf(x), mpf(y))
                    vals = (fn(x, y), lib(x, y))
                else:
                    exact = F1[name](mpf(x))
                    vals = (fn(x), lib(x))
                cr = float(exact)
                for k, v in enumerate(vals):
                    e = err_ulps(v, exact)
                    worst[k] = max(worst[k], e)
                    wrong[k] += v != cr
            r = ('[%g, %g]' % rg) if rg[0] != 'log' else '±[%g, %g] log' % rg[1:]
            if name in ('log', 'log10', 'pow') and rg[0] == 'log':
                r = r.replace('±', '')
            print('| %s | %s | %.3f | %.3f%% | %.3f | %.3f%% |' % (
                name, r, worst[0], 100.0 * wrong[0] / n, worst[1], 100.0 * wrong[1] / n))
            sys.stdout.flush()


if __name__ == '__main__':
    main()
