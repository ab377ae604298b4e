# smooth: a motion made noisy on purpose (a swing of 右腕 and a planted
# then walking 左足ＩＫ, a key every frame, 1 degree and 0.02 units of
# noise with a fixed seed) comes out closer to the clean motion than the
# noisy input, by diff's measure and by the frames' mean error; the
# planted foot holds one position; unselected and clean tracks stay the
# same bytes; a clean motion is "nothing to smooth"; errors exit 2 and
# write nothing; the job step gives the command's bytes.
need_cmd python3
python3 - <<'PY'
import math, random, struct
random.seed(29)
def vmd(path, bones):
    out = bytearray(b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'm'.ljust(20, b'\0'))
    out += struct.pack('<I', len(bones))
    lin = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
    for name, f, p, q in bones:
        out += name.encode('cp932').ljust(15, b'\0') + struct.pack('<I3f4f', f, *p, *q) + lin
    out += struct.pack('<IIIII', 0, 0, 0, 0, 0)
    open(path, 'wb').write(out)
def rot(ax, deg):
    h = math.radians(deg) / 2
    return [a * math.sin(h) for a in ax] + [math.cos(h)]
def mul(a, b):
    ax, ay, az, aw = a; bx, by, bz, bw = b
    return [aw*bx + ax*bw + ay*bz - az*by, aw*by - ax*bz + ay*bw + az*bx,
            aw*bz + ax*by - ay*bx + az*bw, aw*bw - ax*bx - ay*by - az*bz]
def rdir():
    z = random.uniform(-1, 1); a = random.uniform(0, 2 * math.pi); r = math.sqrt(1 - z * z)
    return [r * math.cos(a), r * math.sin(a), z]
clean, noisy = [], []
for f in range(301):
    q = rot([0.48, 0.6, 0.64], 30 * math.sin(2 * math.pi * f / 300))
    clean.append(('右腕', f, [0, 0, 0], q))
    noisy.append(('右腕', f, [0, 0, 0], mul(q, rot(rdir(), 1.0))))
    p = [1.0, 0.0, 2.0 if f < 150 else 2.0 + 0.05 * (f - 149)]
    clean.append(('左足ＩＫ', f, p, [0, 0, 0, 1]))
    d = rdir()
    noisy.append(('左足ＩＫ', f, [p[i] + 0.02 * d[i] for i in range(3)], [0, 0, 0, 1]))
for f in (0, 100, 300):
    noisy.append(('左腕', f, [0, 0, 0], rot([0, 0, 1], f / 10)))
vmd('clean.vmd', clean)
vmd('noisy.vmd', noisy)
PY
remember noisy.vmd
expect_exit 0 "$POSEKIT" smooth noisy.vmd -o smooth.vmd
expect_stderr_matches '^posekit smooth: bone keys 605 -> 605, morph keys 0 -> 0 \(2 bone and 0 morph tracks smoothed, 1 without noise left alone\); noise up to 0\.[4-7][0-9]* deg, 0\.01[0-9]* units'
expect_stderr_matches '[1-9][0-9]* planted foot runs? held'
expect_unchanged noisy.vmd
# closer to the clean motion: diff's worst angle of the input is the
# noise (1 degree), the output's mean error is under 30 % of it
expect_exit 0 "$POSEKIT" dump noisy.vmd
mv _stdout noisy.json
expect_exit 0 "$POSEKIT" dump smooth.vmd
mv _stdout smooth.json
expect_exit 0 "$POSEKIT" dump clean.vmd
mv _stdout clean.json
python3 - clean.json noisy.json smooth.json <<'PY' || fail "smooth did not remove the noise"
import json, math, sys
def load(p):
    d = {}
    for k in json.load(open(p, encoding="utf-8"))["bones"]:
        d[(k["name"], k["frame"])] = k
    return d
c, n, s = (load(p) for p in sys.argv[1:4])
def ang(a, b):
    d = abs(sum(x * y for x, y in zip(a, b)))
    return math.degrees(2 * math.acos(min(1.0, d)))
def err(m, bone, f0, f1, pos=False):
    e = []
    for f in range(f0, f1 + 1):
        a, b = c[(bone, f)], m[(bone, f)]
        e.append(math.dist(a["pos"], b["pos"]) if pos else ang(a["rot"], b["rot"]))
    return sum(e) / len(e), max(e)
rn, rs = err(n, "右腕", 0, 300), err(s, "右腕", 0, 300)
pn, ps = err(n, "左足ＩＫ", 0, 300, True), err(s, "左足ＩＫ", 0, 300, True)
print(f"rotation mean {rn[0]:.3f} -> {rs[0]:.3f} deg; position mean {pn[0]:.4f} -> {ps[0]:.4f}")
assert rs[0] <= 0.3 * rn[0] and ps[0] <= 0.3 * pn[0]
# planted: frames 5..140 all one position, within 0.01 of the clean one
held = {tuple(s[("左足ＩＫ", f)]["pos"]) for f in range(5, 141)}
assert len(held) == 1, held
assert math.dist(next(iter(held)), [1, 0, 2]) < 0.01
# 左腕 (three keys: a clean swing) is the same records
for f in (0, 100, 300):
    assert n[("左腕", f)] == s[("左腕", f)]
PY
# --bones: only the selected track is rewritten
expect_exit 0 "$POSEKIT" smooth noisy.vmd --bones 右腕 -o arm.vmd
expect_stderr_contains '(1 bone and 0 morph tracks smoothed'
expect_exit 0 "$POSEKIT" smooth noisy.vmd --json -o j.vmd
expect_same_bytes smooth.vmd j.vmd
[ "$(json_eval _stdout 'd["bone_tracks"], d["clean_tracks"], d["contacts"] > 0')" = "(2, 1, True)" ] ||
    fail "smooth --json: $(cat _stdout)"
# a clean motion: nothing to smooth, the same records; --strict fails it
expect_exit 0 "$POSEKIT" smooth clean.vmd -o same.vmd
expect_stderr_contains 'warning: nothing to smooth'
expect_exit 2 "$POSEKIT" smooth clean.vmd -o strict.vmd --strict
expect_no_file strict.vmd
expect_stderr_lacks 'the motion keys no bone'
# a motion without bone or morph keys (a camera's) says that, not that its
# (absent) tracks hold no noise
{
    vmd_header 'camera'
    pack V 0 0
} >cam.vmd
expect_exit 0 "$POSEKIT" smooth cam.vmd -o cam_same.vmd
expect_stderr_contains 'warning: nothing to smooth: the motion keys no bone or morph, the tracks smooth filters (camera, light, shadow and IK records stay as they are)'
expect_same_bytes cam.vmd cam_same.vmd
# the job step writes the command's bytes
cat >job.yaml <<'YAML'
inputs: {n: noisy.vmd}
steps:
  - smooth: {in: n, strength: 30, out: s}
outputs: {s: job.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_exit 0 "$POSEKIT" smooth noisy.vmd --strength 30 -o cli.vmd
expect_same_bytes cli.vmd job.vmd
# errors
expect_exit 2 "$POSEKIT" smooth noisy.vmd -o x.vmd --strength 1
expect_stderr_contains '--strength must be 2 to 120 frames, not 1'
expect_exit 2 "$POSEKIT" smooth noisy.vmd -o x.vmd --noise-deg -1
expect_exit 2 "$POSEKIT" smooth noisy.vmd -o x.vmd --bones 頭
expect_stderr_contains 'smooth'
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n' >p.vpd
expect_exit 2 "$POSEKIT" smooth p.vpd -o x.vmd
expect_stderr_contains 'smooth works on a VMD motion'
expect_no_file x.vmd
