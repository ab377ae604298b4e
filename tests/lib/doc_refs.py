#!/usr/bin/env python3
"""doc_refs.py SOURCE_ROOT -- every reference to the project's own files and
documents leads somewhere.  Checked in every text file of the tree (docs,
code and its comments, tests, build files, rule files, samples):

 - no file cites the design documents that live outside the repository
   (FORMATS.md, DESIGN.md, STYLE.md without a doc/ path);
 - every "doc/formats.md §N" or "§N.M" (also "§N, §M", over a line break)
   names a "## N." or "### N.M" heading of doc/formats.md, and formats.md
   is cited by number, never by title; "doc/architecture.md §N" names a
   numbered heading of architecture.md;
 - every 'FILE.md "Title"' or 'README "Title"' names a heading of that
   document (backticks and a leading section number aside);
 - every relative Markdown link [text](path#anchor) names a file or folder
   that exists, and its anchor a heading of the target (GitHub's slugs);
 - every path of the tree cited in text (engine/ops/sample/cursor.c,
   tests/cli/cases/*.sh, ops/keys/overlay.h, .ci/setup.sh, ...) exists;
   paths inside engine/ may drop the "engine/".  A path with a placeholder
   in capitals (cli/cmd_NAME.c) or a glob names a pattern, which must match
   at least one file;
 - every name of the code a document cites (pk_doc_load, pki_qd_angle_deg,
   PK_CURSOR_BYTES; pk_os_temp_* as a prefix) is defined or used in the
   sources.
Exits 1 listing every dangling reference as FILE:LINE.
"""
import glob
import os
import re
import sys

root = sys.argv[1]
WHERE = ['engine', 'cli', 'tests', 'rules', 'samples', 'completion', 'doc', '.ci',
         'README.md', 'meson.build', 'meson_options.txt']
SKIP_DIRS = {'corpus', 'crashes', 'node_modules', 'out'}
SELF = os.path.relpath(os.path.abspath(__file__), os.path.abspath(root))


def files():
    for top in WHERE:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for d, dirs, names in os.walk(path):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for n in sorted(names):
                rel = os.path.relpath(os.path.join(d, n), root)
                if rel != SELF:
                    yield rel


def text(rel):
    try:
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None  # binary files


def exists(rel):
    return os.path.exists(os.path.join(root, rel))


# --- headings -------------------------------------------------------------

def md_headings(rel):
    """(titles, numbers, slugs) of a Markdown file's headings, code fences
    skipped."""
    titles, numbers, slugs, seen = set(), set(), set(), {}
    fence = False
    for line in text(rel).split('\n'):
        if line.startswith('```'):
            fence = not fence
            continue
        m = None if fence else re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        title = m.group(2)
        n = re.match(r'^([0-9]+(?:\.[0-9]+)*)\.?\s+(.*)$', title)
        if n:
            numbers.add(n.group(1))
            titles.add(n.group(2).replace('`', ''))
        titles.add(title.replace('`', ''))
        slug = github_slug(title)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        slugs.add(slug if count == 0 else f'{slug}-{count}')
    return titles, numbers, slugs


def github_slug(title):
    s = title.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)  # \w is Unicode: Japanese headings stay
    return s.replace(' ', '-')


_headings = {}


def headings(rel):
    if rel not in _headings:
        _headings[rel] = md_headings(rel) if exists(rel) else None
    return _headings[rel]


# --- patterns -------------------------------------------------------------

OUTSIDE = re.compile(r'(?<![/\w])(FORMATS|DESIGN|STYLE)\.md')
BY_TITLE = re.compile(r'doc/formats\.md "')
SECTION_CITE = re.compile(r'(doc/(?:formats|architecture)\.md)[ *#]*(§[0-9.]+(?:(?:,| and| or|/) ?§[0-9.]+)*)')
SECTION = re.compile(r'§([0-9]+(?:\.[0-9]+)*)')
TITLE_CITE = re.compile(r'((?:[\w.-]+/)*[\w.-]+\.md|\bREADME)(?: §[0-9.]+)?,? "([^"$]+)"')
LINK = re.compile(r'\[[^\]\n]*\]\(([^)\s]+)\)')
TOP = r'(?:\.ci|engine|cli|tests|doc|rules|samples|completion)'
INNER = r'(?:common|platform|format|model|math|ops|step|job|include)'
PATH = re.compile(r'(?<![\w./$~@-])((' + TOP + r'|' + INNER + r')/[\w./*{},+-]*[\w*}/])')
EXT = re.compile(r'\.(c|h|py|sh|md|scd|yaml|yml|vmd|vpd|pmx|pmd|txt|json|js|build|ini|bash|svg|tsv)$')


def flatten(s):
    """Comment continuation lines joined, so that a citation may run over a
    line break in C, shell and Markdown alike."""
    return re.sub(r'\n[ \t]*(?:\*(?!/)|#|//)?[ \t]*', ' ', s)


def line_of(s, pos):
    return s.count('\n', 0, pos) + 1


def check_path(token, rel):
    """None when the cited path exists (or its pattern matches a file)."""
    p = token.rstrip('.,;:')
    top = p.split('/')[0]
    if re.fullmatch(INNER, top) and not EXT.search(p) and not p.endswith('/'):
        return None  # "step/job" in prose is not a path
    if '/out/' in '/' + p or p.startswith('samples/out'):
        return None  # what the main job and the tests write
    if top == 'cli' and (exists(f'tests/cli/cases/{p[4:]}.sh') or p in TEST_NAMES):
        return None  # a meson test's name (cli/CASE)
    candidates = [p] if re.fullmatch(TOP, top) else []
    candidates += ['engine/' + p, os.path.join(os.path.dirname(rel), p)]
    for c in candidates:
        pattern = re.sub(r'(?<![a-z0-9])[A-Z][A-Z0-9]+(?![a-z0-9])', '*', c)  # cmd_NAME.c
        if '{' in pattern:
            head, rest = pattern.split('{', 1)
            alts, tail = rest.split('}', 1) if '}' in rest else (rest, '')
            if all(glob.glob(os.path.join(root, head + a + tail)) for a in alts.split(',')):
                return None
            continue
        if glob.glob(os.path.join(root, pattern)):
            return None
    return p


# the names meson registers tests under: cli/CASE for every case, and
# test('cli/NAME', ...) rows
TEST_NAMES = set(re.findall(r"test\('([a-z]+/[\w-]+)'", text('tests/meson.build') or ''))

C_COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)
HASH_COMMENT = re.compile(r'(?:^|(?<=\s))#(?![!{]).*$', re.M)


def prose(rel, s):
    """The text of a file that is written for people: a document whole, the
    comments of code.  Paths are checked there only: code builds paths of
    files it writes."""
    if rel.endswith(('.md', '.scd')):
        return s
    out = list(re.sub(r'[^\n]', ' ', s))
    if rel.endswith(('.c', '.h')):
        for m in C_COMMENT.finditer(s):
            if not m.group(0).startswith('"'):
                out[m.start():m.end()] = m.group(0)
    elif rel.endswith('.py'):
        return s
    else:
        for m in HASH_COMMENT.finditer(s):
            out[m.start():m.end()] = m.group(0)
    return ''.join(out)


IDENT = re.compile(r'(?<![\w.])((?:pki?|PKI?)_[A-Za-z0-9_]+)(\*?)')


def code_words():
    words = set()
    for top in ('engine', 'cli', 'tests', 'web'):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
            for n in names:
                if n.endswith(('.c', '.h', '.py', '.sh', '.build')):
                    t = text(os.path.relpath(os.path.join(d, n), root)) or ''
                    words.update(re.findall(r'\b(?:pki?|PKI?)_\w+', t))
    return words


WORDS = code_words()
problems, cited = [], 0
for rel in files():
    s = text(rel)
    if s is None:
        continue
    is_md = rel.endswith('.md')
    lines = s.split('\n')
    for n, line in enumerate(lines, 1):
        if OUTSIDE.search(line):
            problems.append(f'{rel}:{n}: cites a document outside the repository (use doc/)')
        if BY_TITLE.search(line):
            problems.append(f'{rel}:{n}: cite doc/formats.md by section number (§N.M)')

    flat = flatten(s.replace('\\"', '"'))  # a citation inside a C string

    def where(pos_flat):
        # positions in the flattened text map back through the joins
        line, shrink = 1, 0
        for m in re.finditer(r'\n[ \t]*(?:\*(?!/)|#|//)?[ \t]*', s):
            if m.start() - shrink >= pos_flat:
                break
            shrink += len(m.group(0)) - 1
            line += 1
        return f'{rel}:{line}'

    for m in SECTION_CITE.finditer(flat):
        doc = m.group(1)
        numbers = headings(doc)[1]
        for sec in SECTION.findall(m.group(2)):
            cited += 1
            if sec not in numbers:
                problems.append(f'{where(m.start())}: {doc} §{sec}: no such section')
    for m in TITLE_CITE.finditer(flat):
        doc, title = m.group(1), m.group(2).strip()
        if doc == 'README':
            doc = 'README.md'
        if '/' not in doc and not exists(doc):
            doc = os.path.join(os.path.dirname(rel), doc)
        cited += 1
        h = headings(os.path.normpath(doc))
        if h is None:
            problems.append(f'{where(m.start())}: {m.group(1)}: no such file')
        elif title.replace('`', '') not in h[0]:
            problems.append(f'{where(m.start())}: {m.group(1)} "{title}": no such heading')

    fence = False
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith('```'):
            fence = not fence
        if is_md and not fence:
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r'^[a-z]+:', target):
                    continue
                cited += 1
                path, _, anchor = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
                if not exists(dest):
                    problems.append(f'{rel}:{n}: link ({target}): no such file')
                elif anchor and dest.endswith('.md') and anchor not in headings(dest)[2]:
                    problems.append(f'{rel}:{n}: link ({target}): no such heading in {dest}')

    if rel.endswith(('.md', '.scd')):
        for n, line in enumerate(lines, 1):
            for m in IDENT.finditer(line):
                name, star = m.group(1), m.group(2)
                cited += 1
                # a placeholder in capitals: PKI_FOLDER_NAME_H
                pattern = re.sub(r'(?<=_)(?:FOLDER|NAME|CMD)(?=_|$)', '[A-Z0-9_]+',
                                 re.escape(name).replace('\\_', '_'))
                if star or name.endswith('_'):
                    pattern += r'\w*'
                ok = name in WORDS or any(re.fullmatch(pattern, w) for w in WORDS)
                if not ok:
                    problems.append(f'{rel}:{n}: {name}{star}: no such name in the code')

    for n, line in enumerate(prose(rel, s).split('\n'), 1):
        for m in PATH.finditer(line):
            if line[m.end():m.end() + 1] in ('$', '\\'):
                continue  # a path put together by code: tests/fuzz/fuzz_$t.c
            cited += 1
            bad = check_path(m.group(1), rel)
            if bad:
                problems.append(f'{rel}:{n}: {bad}: no such file or folder')

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f'doc refs: {cited} references (sections, headings, links, paths, names), all present; '
      'nothing cites the outside docs')
