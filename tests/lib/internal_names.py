#!/usr/bin/env python3
"""internal_names.py SOURCE_ROOT ARCHIVE — one convention for internal
names (doc/architecture.md §4): every function the engine's objects define
and do not keep static is either declared PK_API in posekit.h or
posekit_tool.h, or named pki_...; every name an internal header (engine/,
include/ aside) introduces — functions, types, struct and enum tags, enum
constants, macros — starts with pki_ or PKI_ (but for the bodies of the
public opaque types, struct pk_step and the like, and the C library macros
a header replaces).  Internal headers have no _internal suffix: their
folder says they are internal."""
import os
import re
import subprocess
import sys

root, archive = sys.argv[1], sys.argv[2]
bad = []

api, public = set(), set()
for h in ('posekit.h', 'posekit_tool.h'):
    text = open(os.path.join(root, 'engine', 'include', h)).read()
    api |= set(re.findall(r'^PK_API .*?[ *](pk_[a-z0-9_]*)\(', text, re.M))
    public |= set(re.findall(r'\b(?:pk|PK)_[A-Za-z0-9_]+\b', text))
nm = subprocess.run(['nm', archive], capture_output=True, text=True, check=True).stdout
for line in nm.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in 'TDBR':
        name = parts[2]
        if name.startswith('__') or '.' in name:  # a sanitizer's own (__odr_asan.NAME)
            continue
        if name not in api and not name.startswith('pki_'):
            bad.append(f'{archive}: {name} is defined, not static, not PK_API and not pki_')

NAME = r'([A-Za-z_][A-Za-z0-9_]*)'
for dirpath, _, files in os.walk(os.path.join(root, 'engine')):
    if os.path.basename(dirpath) == 'include':
        continue
    for f in files:
        if not f.endswith('.h'):
            continue
        path = os.path.join(dirpath, f)
        rel = os.path.relpath(path, root)
        if f.endswith('_internal.h'):
            bad.append(f'{rel}: an internal header named _internal (the folder says it)')
        text = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
        names = set()
        names |= set(re.findall(r'^#define ' + NAME, text, re.M))
        names |= set(re.findall(r'\b(?:struct|enum|union) ' + NAME + r'\s*\{', text))
        names |= set(re.findall(r'\}\s*' + NAME + r'\s*;', text))
        names |= set(re.findall(r'^typedef [^;{]*?[ *(]' + NAME + r'\)?\s*(?:\(|;|\[)', text, re.M))
        names |= set(re.findall(r'^(?:static inline )?[A-Za-z_][A-Za-z0-9_ ]*[ *]' + NAME +
                                r'\(', text, re.M))
        for body in re.findall(r'\benum\b[^{;]*\{([^}]*)\}', text):
            names |= set(re.findall(r'^\s*' + NAME + r'\s*(?:=|,|$)', body, re.M))
        # the bodies of the public opaque types (struct pk_step, ...), and
        # C library macros a header replaces (#undef first: mingw_math.h)
        names -= public
        names -= set(re.findall(r'^#undef ' + NAME, text, re.M))
        for n in sorted(names):
            if not (n.startswith('pki_') or n.startswith('PKI_')):
                bad.append(f'{rel}: {n} is not named pki_/PKI_')

if bad:
    print('\n'.join(bad))
    sys.exit(1)
print('internal names: every non-static engine symbol is PK_API or pki_, every name of an '
      'internal header pki_/PKI_')
