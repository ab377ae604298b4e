# The progress line of long work (smooth, reduce, bake): on a terminal
# (a pseudo-terminal made by script(1)) one line updated in place with
# carriage returns, "posekit smooth: smoothing N% (S s)" then "writing",
# once the work has taken POSEKIT_PROGRESS_DELAY seconds (1 unset; 0
# here, so that the input need not take seconds), and cleared before the
# summary; never when standard error is a pipe or a file, nor with
# --quiet, nor before the delay; the output's bytes are the same either
# way.  The input: 150 bones x 300 frames, a key a frame with jitter.
need_cmd python3 script
nf=300
keys=$((150 * nf))
export POSEKIT_PROGRESS_DELAY=0
python3 - "$nf" <<'PY'
import math, random, struct, sys
random.seed(6)
out = bytearray(b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'm'.ljust(20, b'\0'))
nb, nf = 150, int(sys.argv[1])
out += struct.pack('<I', nb * nf)
lin = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
for b in range(nb):
    name = ('b%d' % b).encode().ljust(15, b'\0')
    for f in range(nf):
        a = math.radians(20 * math.sin(f / 40 + b) + random.gauss(0, 0.6))
        out += name + struct.pack('<I3f4f', f, 0, 0, 0, math.sin(a / 2), 0, 0, math.cos(a / 2)) + lin
out += struct.pack('<IIIII', 0, 0, 0, 0, 0)
open('big.vmd', 'wb').write(out)
PY
# a pipe: no progress, the summary alone
expect_exit 0 "$POSEKIT" smooth big.vmd -o piped.vmd
expect_stderr_lacks 'smoothing'
grep -q $'\r' "$ERR" && fail "a carriage return in standard error sent to a file"
expect_stderr_matches "^posekit smooth: bone keys $keys -> $keys, .*\\(150 bone and 0 morph tracks smoothed"
# a terminal: the line, then the summary on a cleared line
on_tty tty.txt "'$POSEKIT' smooth big.vmd -o tty.vmd"
grep -q 'posekit smooth: smoothing [0-9]*% ([0-9]* s)' tty.txt || fail "no progress line: $(head -c 300 tty.txt)"
grep -q 'posekit smooth: writing 100% ([0-9]* s)' tty.txt || fail "no writing progress: $(tail -c 300 tty.txt)"
tr '\r' '\n' <tty.txt | grep -v '^ *$' | tail -n 1 | grep -q "^posekit smooth: bone keys $keys" ||
    fail "the summary is not on a line of its own: $(tail -c 300 tty.txt)"
expect_same_bytes piped.vmd tty.vmd
# the delay: work shorter than it draws nothing (the whole seconds time()
# counts; 3600 cannot pass here)
on_tty late.txt "POSEKIT_PROGRESS_DELAY=3600 '$POSEKIT' smooth big.vmd -o late.vmd"
grep -Eq 'smooth: (reading|smoothing|writing)' late.txt && fail "a line drawn before the delay: $(head -c 300 late.txt)"
grep -q "^posekit smooth: bone keys $keys" late.txt || fail "no summary after the delay: $(head -c 300 late.txt)"
# --quiet: none on a terminal either
on_tty quiet.txt "'$POSEKIT' smooth big.vmd -o quiet.vmd --quiet"
grep -q 'smoothing' quiet.txt && fail "--quiet showed progress: $(head -c 300 quiet.txt)"
grep -q "^posekit smooth: bone keys $keys" quiet.txt || fail "no summary with --quiet"
# --quiet is an option of the long commands only
expect_exit 0 "$POSEKIT" reduce piped.vmd -o r.vmd --quiet --max-deg 1
expect_exit 2 "$POSEKIT" mirror piped.vmd -o m.vmd --quiet
