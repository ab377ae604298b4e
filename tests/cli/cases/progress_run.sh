# The progress line of a job (run): on a terminal (a pseudo-terminal made
# by script(1)) once the run has taken POSEKIT_PROGRESS_DELAY seconds (1
# unset; 0 here, so that the inputs need not take seconds), the part being done,
# "posekit run: step 1 of 2, smooth: smoothing N% (S s)", cleared before
# the steps' lines; with --each the files done so far, "N of M files";
# never when standard error is a pipe or a file, nor with --quiet; the
# outputs the same either way.  The inputs: 150 bones with jitter at every
# frame (300 frames; three of 100 frames for --each).
need_cmd python3 script
nf=300
export POSEKIT_PROGRESS_DELAY=0
python3 - "$nf" <<'PY'
import math, os, random, struct, sys
nf = int(sys.argv[1])
random.seed(7)
lin = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
def dance(path, nf, nb=150):
    out = bytearray(b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'm'.ljust(20, b'\0'))
    out += struct.pack('<I', nb * nf)
    for b in range(nb):
        name = ('b%d' % b).encode().ljust(15, b'\0')
        for f in range(nf):
            a = math.radians(20 * math.sin(f / 40 + b) + random.gauss(0, 0.6))
            out += name + struct.pack('<I3f4f', f, 0, 0, 0, math.sin(a / 2), 0, 0, math.cos(a / 2)) + lin
    out += struct.pack('<IIIII', 0, 0, 0, 0, 0)
    open(path, 'wb').write(out)
dance('big.vmd', nf)
os.mkdir('d')
for i in range(3):
    dance('d/%d.vmd' % i, nf // 3)
PY
cat >job.yaml <<'YAML'
inputs:
  dance: big.vmd
steps:
  - smooth: {in: dance, out: clean}
  - mirror: {in: clean, out: small}
outputs:
  small: out.vmd
YAML
cat >each.yaml <<'YAML'
inputs:
  dance: "{each}"
steps:
  - smooth: {in: dance, out: clean}
outputs:
  clean: "out/{stem}.vmd"
YAML
# a pipe: the steps' lines alone
expect_exit 0 "$POSEKIT" run job.yaml
grep -q $'\r' "$ERR" && fail "a carriage return in standard error sent to a file"
expect_stderr_empty
expect_stdout_contains "smooth dance -> clean: bone keys $((150 * nf)) -> $((150 * nf))"
mv out.vmd piped.vmd
# a terminal: the part being done, then the steps' lines on lines of their own
on_tty tty.txt "'$POSEKIT' run job.yaml"
grep -q 'posekit run: step 1 of 2, smooth: smoothing [0-9]*% ([0-9]* s)' tty.txt ||
    fail "no progress line: $(head -c 300 tty.txt)"
grep -q 'posekit run: step 2 of 2, mirror' tty.txt || fail "no second step: $(tail -c 300 tty.txt)"
# (on failure the line as written, control characters shown: this check
# failed once in a fresh-clone run under load, its cause not yet seen)
tr '\r' '\n' <tty.txt | grep -v '^ *$' | grep -n '' | grep -m1 'smooth dance -> clean' | grep -q '^[0-9]*:smooth' ||
    fail "the steps' lines are not on lines of their own: $(grep -a 'smooth dance -> clean' tty.txt | cut -c1-600 | cat -v)"
tr '\r' '\n' <tty.txt | grep -v '^ *$' | tail -n 1 | grep -q '^wrote out.vmd' ||
    fail "the last line is not the write: $(tail -c 300 tty.txt)"
expect_same_bytes piped.vmd out.vmd
# an input's and an output's first frame say what the part does, as the
# frames after it do (not "input 'dance' 0%")
tr '\r' '\n' <tty.txt | grep -q "^posekit run: input 'dance': reading 0% " ||
    fail "no 'reading' on the input's first frame: $(head -c 300 tty.txt | cat -v)"
tr '\r' '\n' <tty.txt | grep -Eq "^posekit run: (input|output) '[a-z]+' [0-9]+%" &&
    fail "a frame of an input or output without what it does: $(tr '\r' '\n' <tty.txt | grep -E "(input|output) '[a-z]+' [0-9]" | head -3)"
# --quiet: none on a terminal either
on_tty quiet.txt "'$POSEKIT' run job.yaml --quiet"
grep -q 'step 1 of 2' quiet.txt && fail "--quiet showed progress: $(head -c 300 quiet.txt)"
grep -q 'wrote out.vmd' quiet.txt || fail "no report with --quiet"
# --each on a terminal: the files done so far; in a pipe, the lines alone
on_tty each.txt "'$POSEKIT' run each.yaml --each 'd/*.vmd' -j 1"
grep -q 'posekit run: [12] of 3 files [0-9]*% ([0-9]* s)' each.txt ||
    fail "no total progress: $(head -c 400 each.txt)"
tr '\r' '\n' <each.txt | grep -v '^ *$' | tail -n 1 | grep -q '^3 files: 3 written, 0 failed' ||
    fail "the total line is not on a line of its own: $(tail -c 300 each.txt)"
expect_exit 0 "$POSEKIT" run each.yaml --each 'd/*.vmd' -j 1
grep -q 'files' "$ERR" && fail "progress in a pipe: $(cat "$ERR")"
expect_stdout_contains '3 files: 3 written, 0 failed'
