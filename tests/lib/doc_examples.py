#!/usr/bin/env python3
"""doc_examples.py POSEKIT SOURCE_ROOT CORPUS [DOC...] -- the examples in
the documents are what the binary prints (DOC: README.md and doc/*.md by
default).

The complete program of doc/library.md compiles against the build's
library and writes what `posekit convert --frame 30` writes.

doc/commands.md has one "## NAME" section for every command `posekit help`
lists (and help), in that order, and each section's first block is the usage `posekit
help NAME` prints, up to its first empty line.

A transcript is a fenced block holding a line "$ posekit ...": each
"$ COMMAND" line (a trailing backslash continues it on the next line) is
run with bash, standard error joined to standard output, and what it prints
must be the lines that follow it in the block, up to the next "$ " line.
A line "..." (indented or not) stands for any number of lines; "$?" is
the status of the block's previous command.  A block whose info string
names a file (```yaml models.yaml) is written to that file.  Blocks run in
order, in one folder per document holding copies of samples/, rules/,
doc/pictures/ and every corpus file under its own name (pmx_gene.pmx), so
that a later block may use what an earlier one wrote.
Needs the corpus (exit 77 without it, which meson reports as skipped).
Exits 1 naming the document, line and command of every example whose
output differs, with both outputs.
"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

posekit, root, corpus = sys.argv[1:4]
posekit, root = os.path.abspath(posekit), os.path.abspath(root)
docs = sys.argv[4:] or ['README.md'] + sorted(
    'doc/' + n for n in os.listdir(os.path.join(root, 'doc')) if n.endswith('.md'))


def help_text(*args):
    return subprocess.run([posekit, 'help', *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT).stdout.decode('utf-8')


def usage_problems():
    """Sections of doc/commands.md against `posekit help`."""
    text = open(os.path.join(root, 'doc', 'commands.md'), encoding='utf-8').read()
    listed = re.findall(r'^  ([a-z]+)  ', help_text().split('commands:', 1)[-1], re.M)
    if not listed:
        return ['posekit help lists no commands']
    problems = []
    sections = [n for n in re.findall(r'^## (\S+)$', text, re.M) if n in listed + ['help']]
    if sections != [n for n in listed + ['help'] if n in sections]:
        problems.append('doc/commands.md: the command sections are not in the order of '
                        '`posekit help`: ' + ', '.join(listed + ['help']))
    for name in listed + ['help', 'version']:
        m = re.search(r'^## ' + name + r'\n+```\n(.*?)\n```', text, re.M | re.S)
        usage = help_text(name).split('\n\n', 1)[0].rstrip('\n')
        if not m:
            problems.append(f'doc/commands.md: no "## {name}" section opening with its usage')
        elif m.group(1) != usage:
            problems.append(f'doc/commands.md, section {name}: the usage block is not what '
                            f'`posekit help {name}` prints:\n{usage}')
    return problems


def library_problems():
    """doc/library.md's complete program, built and run."""
    text = open(os.path.join(root, 'doc', 'library.md'), encoding='utf-8').read()
    m = re.search(r'^## A complete program\n.*?^```c\n(.*?)^```', text, re.M | re.S)
    if not m:
        return ['doc/library.md: no C program under "## A complete program"']
    cc = shutil.which(os.environ.get('CC', 'cc'))
    if not cc:
        print('doc examples: no C compiler: the library example is not built')
        return []
    work = tempfile.mkdtemp(prefix='pkdoclib.')
    try:
        with open(os.path.join(work, 'ex.c'), 'w', encoding='utf-8') as f:
            f.write(m.group(1))
        libdir = os.path.join(os.path.dirname(os.path.abspath(posekit)), '..', 'engine')
        san = os.environ.get('PK_SANITIZED', '')
        build = subprocess.run(
            [cc, '-std=c11', '-Wall', '-Wextra', '-Werror', 'ex.c', '-o', 'ex',
             '-I' + os.path.join(os.path.abspath(root), 'engine', 'include'), '-L' + libdir, '-lposekit',
             '-Wl,-rpath,' + os.path.abspath(libdir)] + (['-fsanitize=' + san] if san else []),
            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if build.returncode:
            return ['doc/library.md: the complete program does not build:\n' +
                    build.stdout.decode('utf-8', 'replace')]
        dance = os.path.join(os.path.abspath(root), 'samples', 'dance.vmd')
        run = subprocess.run(['./ex', dance], cwd=work, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        if run.returncode or not os.path.exists(os.path.join(work, 'frame30.vpd')):
            return ['doc/library.md: the complete program did not write frame30.vpd:\n' +
                    run.stdout.decode('utf-8', 'replace')]
        subprocess.run([posekit, 'convert', dance, '--frame', '30', '-o', 'cli30.vpd'], cwd=work)
        with open(os.path.join(work, 'frame30.vpd'), 'rb') as a, \
                open(os.path.join(work, 'cli30.vpd'), 'rb') as b:
            if a.read() != b.read():
                return ['doc/library.md: the complete program wrote another frame30.vpd '
                        'than posekit convert --frame 30']
        run = subprocess.run(['./ex', 'nothere.vmd'], cwd=work, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        if run.returncode != 2 or b'nothere.vmd: cannot open' not in run.stdout:
            return ['doc/library.md: on a missing file the program should print the error '
                    'and exit 2, it exits %d:\n%s' % (run.returncode, run.stdout.decode())]
        return []
    finally:
        shutil.rmtree(work)


problems = usage_problems() + library_problems()
for p in problems:
    print(p)
if not corpus or not os.path.isdir(corpus):
    print('doc examples: no corpus: the transcripts are not run')
    sys.exit(1 if problems else 77)


def transcripts(path):
    """(line, command, expected lines, last of its block) of every
    transcript of a document, and ('file', name, lines) for a block whose
    info string names a file (```yaml models.yaml), which is written into
    the folder before the commands after it run."""
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if not lines[i].startswith('```'):
            i += 1
            continue
        info = lines[i][3:].split()
        j = i + 1
        while j < len(lines) and not lines[j].startswith('```'):
            j += 1
        block = lines[i + 1:j]
        i = j + 1
        if len(info) == 2:
            yield 'file', info[1], block, True
            continue
        if not any(x.startswith('$ posekit ') for x in block):
            continue
        k = 0
        while k < len(block):
            if not block[k].startswith('$ '):
                k += 1
                continue
            at = i - len(block) + k
            cmd = block[k][2:]
            while cmd.endswith('\\') and k + 1 < len(block):
                k += 1
                cmd = cmd[:-1] + ' ' + block[k].strip()
            k += 1
            out = []
            while k < len(block) and not block[k].startswith('$ '):
                out.append(block[k])
                k += 1
            yield at, cmd, out, k >= len(block)


def matches(expected, actual):
    """expected lines, where '...' is any number of lines, against actual."""
    if not expected:
        return not actual
    if expected[0].strip() == '...':
        return any(matches(expected[1:], actual[n:]) for n in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def folder():
    work = tempfile.mkdtemp(prefix='pkdoc.')
    shutil.copytree(os.path.join(root, 'samples'), os.path.join(work, 'samples'),
                    ignore=shutil.ignore_patterns('gen', 'out'))
    shutil.copytree(os.path.join(root, 'rules'), os.path.join(work, 'rules'))
    shutil.copytree(os.path.join(root, 'doc', 'pictures'), os.path.join(work, 'doc', 'pictures'))
    for name in os.listdir(corpus):
        src = os.path.join(corpus, name)
        if os.path.isfile(src):
            shutil.copyfile(src, os.path.join(work, name))
    bindir = os.path.join(work, '.bin')
    os.mkdir(bindir)
    os.symlink(os.path.abspath(posekit), os.path.join(bindir, 'posekit'))
    return work, bindir


# as a reader runs them: from the folder, with the data folders the binary
# finds itself (its build tree's rules/ and rules/bodies/, or the installed)
env = dict(os.environ, LC_ALL='C.UTF-8', LANG='C.UTF-8')
env.pop('POSEKIT_RULES_DIR', None)
env.pop('POSEKIT_BODIES_DIR', None)
failed = checked = skipped = 0
# The sanitizer build (PK_SANITIZED set) leaves out the transcripts' dearest
# commands, whose code the other tests of that build run (two thirds of
# this test's CPU there; what the test reaches without them was compared
# by gcov counters with the rest of that build's tests: every line and
# branch direction of engine/ and cli/ is still reached, doc/testing.md);
# build A runs every command and checks every output.
SANITIZED_ELSEWHERE = [
    # cli/camera_corpus: this camera and dance on two models, @auto too
    'posekit retarget vmd_wavefile_camera.vmd ',
    # the same bake as the one before them (which this build runs), with
    # an option other cases of this build give
    'posekit bake vmd_wavefile_v2.vmd --ik-to-fk --model pmd_mei.pmd --max-move ',
    'posekit bake vmd_wavefile_v2.vmd --ik-to-fk --keep-ik-keys ',
    # two dancers sized together (the same pair with --scale own after it
    # runs here)
    'posekit retarget vmd_wavefile_v2.vmd --from pmx_gene.pmx --to pmd_mei.pmd -o wave_mei.vmd  --and',
    # a formation job
    'posekit run formation.yaml',
    # @auto to Mei (README and doc/commands.md)
    'posekit retarget vmd_wavefile_v2.vmd --from @auto --to pmd_mei.pmd -o mei.vmd',
    # a reduce at tight tolerances
    'posekit reduce baked.vmd -o back.vmd --max-deg 0.05',
    # a short bake to FK
    'posekit bake vmd_imas_azusa_bow1.vmd --ik-to-fk --model pmd_mei.pmd -o bow_fk.vmd',
    # check of a motion alone
    'posekit check vmd_mmdagent_stand.vmd 2>/dev/null',
]
sanitized = bool(os.environ.get('PK_SANITIZED'))
# PK_DOC_TIMES=FILE: each command's CPU seconds (children), doc:line and command
times = open(os.environ['PK_DOC_TIMES'], 'w') if os.environ.get('PK_DOC_TIMES') else None
for doc in docs:
    work, bindir = folder()
    env['PATH'] = bindir + os.pathsep + os.environ.get('PATH', '')
    try:
        status = 0
        for at, cmd, expected, last in transcripts(os.path.join(root, doc)):
            if at == 'file':
                with open(os.path.join(work, cmd), 'w', encoding='utf-8') as f:
                    f.write('\n'.join(expected) + '\n')
                continue
            if sanitized and any(cmd.startswith(c) for c in SANITIZED_ELSEWHERE):
                skipped += 1
                continue
            checked += 1
            t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            # "$?" is the status of the block's previous command
            run = subprocess.run(['bash', '-c', f'(exit {status}); {cmd}'], cwd=work,
                                 stderr=subprocess.STDOUT,
                                 env=env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
            status = 0 if last else run.returncode
            if times is not None:
                t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                times.write('%.3f %s:%d: %s\n' % (t1.ru_utime + t1.ru_stime - t0.ru_utime
                                                    - t0.ru_stime, doc, at, cmd))
            actual = run.stdout.decode('utf-8', 'replace').rstrip('\n')
            actual = actual.split('\n') if actual else []
            if not matches(expected, actual):
                failed += 1
                print(f'{doc}:{at}: $ {cmd}')
                print('  the document shows:')
                print('\n'.join('    ' + x for x in expected) or '    (nothing)')
                print('  posekit prints:')
                print('\n'.join('    ' + x for x in actual) or '    (nothing)')
    finally:
        if os.environ.get('PK_KEEP') == '1':
            print(f'kept {work}')
        else:
            shutil.rmtree(work)
if failed or problems:
    print(f'doc examples: {failed} of {checked} differ; {len(problems)} usage problems')
    sys.exit(1)
print(f'doc examples: {checked} commands in {len(docs)} documents print what the documents '
      'show; doc/commands.md opens every command with its usage' +
      (f' ({skipped} left to the tests that run them in this build)' if skipped else ''))
