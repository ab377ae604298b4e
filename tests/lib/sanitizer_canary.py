#!/usr/bin/env python3
"""sanitizer_canary.py CANARY SOURCE — the sanitizer build catches what it
is built to catch (lib/sanitizer_canary).

Runs CANARY (sanitizer_canary.c, built with the build's sanitizer flags)
in each mode and checks that the program fails (not exit 0, not the
usage's 2), that standard error holds a sanitizer's report and that the
report names the line of SOURCE marked "canary: MODE"; and in mode
clean, which faults nowhere, that it ends with status 0, no report and
its line on standard output.  A build whose sanitizer is off, or whose
UBSan were to recover and carry on, fails.
"""
import os
import re
import subprocess
import sys

MODES = ('overflow', 'shift', 'heap', 'freed', 'leak')


def main():
    canary, source = sys.argv[1], sys.argv[2]
    lines = open(source, encoding='utf-8').read().splitlines()
    failed = 0
    for mode in MODES:
        line = next(i + 1 for i, l in enumerate(lines) if l.endswith('canary: %s */' % mode))
        run = subprocess.run([canary, mode, '1'], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = run.stderr.decode('utf-8', 'replace')
        where = '%s:%d' % (os.path.basename(source), line)
        problems = []
        if run.returncode in (0, 2):
            problems.append('exit status %d' % run.returncode)
        if not re.search(r'Sanitizer|runtime error:', err):
            problems.append('no sanitizer report')
        if where not in err:
            problems.append('the report does not name %s' % where)
        if problems:
            failed += 1
            print('FAIL %s: %s\n%s' % (mode, '; '.join(problems), err[-2000:]))
        else:
            print('PASS %s: caught at %s' % (mode, where))
    run = subprocess.run([canary, 'clean', '1'], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if run.returncode != 0 or run.stdout != b'no fault caught\n' or run.stderr:
        failed += 1
        print('FAIL clean: exit status %d, standard output %r, standard error %r'
              % (run.returncode, run.stdout, run.stderr[-2000:]))
    else:
        print('PASS clean: exit status 0, its line out, no report')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
