#!/usr/bin/env python3
"""rusage.py — the CPU time of each test (doc/testing.md "Where the time
goes").

As meson's test wrapper it runs one test and appends a line "USER SYSTEM
WALL FAULTS NAME" (seconds, and minor page faults: the test and all its
children) to $PK_RUSAGE_LOG:

    PK_RUSAGE_LOG=$PWD/cpu.txt meson test -C DIR --wrapper "$PWD/tests/rusage.py"

NAME is the case script (cli/NAME), the doc checks' script (lib/NAME) or
the test program, with its first argument (cli/bad_truncate: bad_variants
cut).  Its exit status is the test's.

    python3 tests/rusage.py --top N FILE...

prints the N dearest tests of each FILE, by user + system time, and the
total.  The page faults are the measure of a test's cost that load
changes least: each costs the kernel about 5 us on a quiet machine here
and 13 us on a loaded one, and a process of the sanitizer build takes
5,400 of them to start and end.
"""
import os
import subprocess
import sys
import time


def name_of(argv):
    for a in argv[1:]:
        if a.endswith('.sh') and '/cases/' in a:
            return 'cli/' + os.path.basename(a)[:-3]
        if a.endswith(('.py', '.sh')) and '/lib/' in a:
            return 'lib/' + os.path.basename(a)[:-3]
    base = os.path.basename(argv[0])
    if base == 'bad_variants' and len(argv) > 1:
        return 'cli/' + {'cut': 'bad_truncate', 'flip': 'bad_flip'}.get(argv[1], argv[1])
    if base in ('python3', 'bash', 'sh') and len(argv) > 1:
        base = os.path.basename(argv[1])
    return base


def top(n, files):
    for path in files:
        rows = []
        with open(path, encoding='utf-8') as f:
            for line in f:
                u, s, w, pf, name = line.rstrip('\n').split(' ', 4)
                rows.append((float(u) + float(s), float(w), int(pf), name))
        rows.sort(reverse=True)
        print('%s: %d tests, %.1f s CPU, %.2f M page faults'
              % (path, len(rows), sum(r[0] for r in rows), sum(r[2] for r in rows) / 1e6))
        for cpu, wall, pf, name in rows[:n]:
            print('  %7.1f s CPU %7.1f s wall %8.3f M faults  %s' % (cpu, wall, pf / 1e6, name))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == '--top':
        top(int(sys.argv[2]), sys.argv[3:])
        return 0
    argv = sys.argv[1:]
    t0 = time.monotonic()
    p = subprocess.Popen(argv)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    log = os.environ.get('PK_RUSAGE_LOG')
    if log:
        with open(log, 'a', encoding='utf-8') as f:
            f.write('%.2f %.2f %.2f %d %s\n'
                    % (ru.ru_utime, ru.ru_stime, wall, ru.ru_minflt, name_of(argv)))
    return os.waitstatus_to_exitcode(status) if status & 0x7f == 0 else 128 + (status & 0x7f)


if __name__ == '__main__':
    sys.exit(main())
