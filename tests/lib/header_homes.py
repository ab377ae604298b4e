#!/usr/bin/env python3
"""header_homes.py SOURCE_ROOT ARCHIVE — every function (and extern object)
an internal engine header declares is defined in the file the header is
named after (doc/architecture.md §3 "What each folder may use").

An internal header D/NAME.h belongs to D/NAME.c and to the files of D
named NAME_*.c (diff.h: diff.c, diff_walk.c, diff_scene.c, diff_groups.c);
HOMES below lists the headers that stand for files of other names (the
platform edge: one implementation per system and the part they share).  Where each symbol is
defined is read from the static archive (`nm`), so the check sees what
was built, not what a comment says.  A header that declares a function
defined nowhere (dead, or in another library) fails too.  Header-only
headers (static inline helpers, types) declare nothing to check.

Exits 1 naming each declaration in the wrong home."""
import collections
import fnmatch
import os
import re
import subprocess
import sys

# Headers that stand for files of other names: header -> glob of its files.
HOMES = {
    'platform/platform.h': 'platform/*.c',
    'platform/system.h': 'platform/*.c',
}

KEYWORDS = {'const', 'volatile', 'struct', 'union', 'enum', 'unsigned', 'signed', 'extern',
            'inline', 'restrict', 'static'}


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\])*'", "''", text)
    # preprocessor lines, with their continuations
    return re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)


def statements(text):
    """Top-level statements of a header; function bodies (static inline)
    are left out, struct and enum bodies kept out of the statement text."""
    out, cur, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '{':
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {'{': 1, '}': -1}.get(text[j], 0)
                j += 1
            if ''.join(cur).strip().endswith(')'):  # a function body
                cur = []
            i = j
            continue
        if c == ';':
            out.append(' '.join(''.join(cur).split()))
            cur = []
        else:
            cur.append(c)
        i += 1
    return out


def declared(path):
    """The function and object names a header declares (not typedefs, not
    static ones)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = strip_comments(f.read())
    names = []
    for s in statements(text):
        words = re.findall(r'[A-Za-z_]\w*', s)
        if not words or words[0] == 'typedef' or 'static' in words:
            continue
        m = re.match(r'[^(]*?([A-Za-z_]\w*)\s*\(', s)
        if m:
            if m.group(1) not in KEYWORDS and not s.lstrip().startswith(m.group(1) + '('):
                names.append(m.group(1))
            continue
        if words[0] == 'extern':  # an object: the last name before [ or =
            m = re.search(r'([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)*(=.*)?$', s)
            if m:
                names.append(m.group(1))
    return names


def sources(root):
    """engine-relative path of every .c file, by the name meson gives its
    object (engine/ops/diff/diff_walk.c -> ops_diff_diff_walk.c.o)."""
    engine = os.path.join(root, 'engine')
    by_obj = {}
    for d, _, names in os.walk(engine):
        for n in names:
            if n.endswith('.c'):
                rel = os.path.relpath(os.path.join(d, n), engine).replace(os.sep, '/')
                by_obj[rel.replace('/', '_') + '.o'] = rel
    return by_obj


def definitions(archive, by_obj):
    out = subprocess.run(['nm', '-A', archive], capture_output=True, text=True, check=True).stdout
    defs = {}
    for line in out.splitlines():
        # "ARCHIVE:OBJECT:ADDRESS KIND SYMBOL"
        parts = line[len(archive) + 1:].split(':', 1)
        if len(parts) != 2:
            continue
        f = parts[1].split()
        if len(f) >= 2 and f[-2] in 'TDRBC':
            obj = os.path.basename(parts[0])
            # generated sources (meson-generated_.._rules_builtin.c.o) by their name
            defs[f[-1]] = by_obj.get(obj, re.sub(r'^meson-generated_(\.\._)*', '', obj)[:-2])
    return defs


def homes(header):
    if header in HOMES:
        return HOMES[header]
    d, name = os.path.split(header)
    base = re.sub(r'\.h$', '', name)
    return '%s/%s.c, %s/%s_*.c' % (d, base, d, base)


def at_home(header, src):
    return any(fnmatch.fnmatchcase(src, g.strip()) for g in homes(header).split(','))


def main():
    root, archive = sys.argv[1], sys.argv[2]
    defs = definitions(archive, sources(root))
    if not defs:
        print('no definitions found in ' + archive)
        return 1
    engine = os.path.join(root, 'engine')
    bad, checked = [], collections.Counter()
    for d, _, names in sorted(os.walk(engine)):
        for n in sorted(names):
            if not n.endswith('.h'):
                continue
            header = os.path.relpath(os.path.join(d, n), engine).replace(os.sep, '/')
            if header.startswith('include/'):
                continue  # the public header: lib/exports checks it
            for sym in declared(os.path.join(d, n)):
                src = defs.get(sym)
                if src is None:
                    bad.append('%s declares %s, which no engine file defines' % (header, sym))
                elif not at_home(header, src):
                    bad.append('%s declares %s, defined in %s (its home: %s)'
                               % (header, sym, src, homes(header)))
                else:
                    checked[header] += 1
    for b in bad:
        print(b)
    if bad:
        return 1
    print('%d declarations in %d internal headers, each defined in its header\'s file'
          % (sum(checked.values()), len(checked)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
