#!/usr/bin/env python3
"""doc_refs.py SOURCE_ROOT -- the documents the code cites are the project's
own (doc/), and every cited section exists:
 - no file cites the design documents that live outside the repository
   (FORMATS.md, DESIGN.md, STYLE.md without a doc/ path);
 - every "doc/formats.md §N" or "§N.M" names a "## N." or "### N.M" heading
   of doc/formats.md (a "§N, §M" list checks each; a citation may run over
   a line break), and doc/formats.md is cited by number, never by title;
 - every 'doc/architecture.md "Title"' names a heading of architecture.md.
"""
import os
import re
import sys

root = sys.argv[1]
WHERE = ['engine', 'cli', 'tests', 'rules', 'samples', 'completion', 'README.md', 'doc']
SKIP_DIRS = {'corpus', 'crashes'}
SELF = os.path.basename(__file__)


def files():
    for top in WHERE:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for d, dirs, names in os.walk(path):
            dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
            for n in names:
                if n != SELF:
                    yield os.path.relpath(os.path.join(d, n), root)


def text(rel):
    try:
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None  # binary files


def headings(rel, pattern):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return {m.group(1) for m in re.finditer(pattern, f.read(), re.M)}


sections = headings('doc/formats.md', r'^#{2,3} ([0-9]+(?:\.[0-9]+)?)\.? ')
titles = headings('doc/architecture.md', r'^#{2,3} (?:[0-9]+\. )?(.+?)\s*$')

OUTSIDE = re.compile(r'(?<![/\w])(FORMATS|DESIGN|STYLE)\.md')
BY_TITLE = re.compile(r'doc/formats\.md "')
FORMATS_CITE = re.compile(r'doc/formats\.md[ *#]*§[0-9.]+(?:[,/ and]+§[0-9.]+)*')
SECTION = re.compile(r'§([0-9]+(?:\.[0-9]+)?)')
ARCH_CITE = re.compile(r'doc/architecture\.md\s+"([^"]+)"')

problems, cited = [], 0
for rel in files():
    s = text(rel)
    if s is None:
        continue
    for n, line in enumerate(s.split('\n'), 1):
        if OUTSIDE.search(line):
            problems.append(f'{rel}:{n}: cites a document outside the repository (use doc/)')
        if BY_TITLE.search(line):
            problems.append(f'{rel}:{n}: cite doc/formats.md by section number (§N.M)')
    flat = s.replace('\n', ' ')
    for m in FORMATS_CITE.finditer(flat):
        for sec in SECTION.findall(m.group(0)):
            cited += 1
            if sec not in sections:
                problems.append(f'{rel}: doc/formats.md §{sec}: no such section')
    for m in ARCH_CITE.finditer(flat):
        cited += 1
        if m.group(1) not in titles:
            problems.append(f'{rel}: doc/architecture.md "{m.group(1)}": no such heading')

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f'doc refs: {cited} cited sections, all present; nothing cites the outside docs')
