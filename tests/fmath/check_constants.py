#!/usr/bin/env python3
"""tests/fmath/check_constants.py SOURCE_ROOT — the constants block of
engine/util/fmath.c (between "constants.py begin" and "constants.py end")
is exactly what tests/fmath/constants.py derives.  Exit 77 (skipped) when
python3-mpmath is not installed."""
import os
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
try:
    import mpmath  # noqa: F401
except ImportError:
    print('check_constants: python3-mpmath is not installed')
    sys.exit(77)
want = subprocess.run([sys.executable, os.path.join(root, 'tests', 'fmath', 'constants.py')],
                      capture_output=True, text=True, check=True).stdout
text = open(os.path.join(root, 'engine', 'util', 'fmath.c'), encoding='utf-8').read()
begin, end = '/* constants.py begin */\n', '/* constants.py end */'
a, b = text.find(begin), text.find(end)
if a < 0 or b < 0:
    print('check_constants: engine/util/fmath.c has no constants.py block')
    sys.exit(1)
got = text[a + len(begin):b]
if got != want:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                               'constants.py', 'fmath.c'))
    sys.exit(1)
print('check_constants: fmath.c holds constants.py\'s output')
