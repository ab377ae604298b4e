# smooth: a clean hand-keyed dance (a few keys a track, eased Bezier
# curves: センター travelling, 右腕 swinging, a morph fading) holds no
# noise: nothing is smoothed, the output is the input's bytes and the key
# count does not grow.  Its eased curves are not read as noise; noise the
# caller gives (--noise-pos) still smooths the track.
need_cmd python3
python3 - <<'PY'
import math, struct
def rot(ax, deg):
    h = math.radians(deg) / 2
    return [a * math.sin(h) for a in ax] + [math.cos(h)]
# an ease-in-out curve on every axis (x1, y1, x2, y2 = 64, 0, 64, 127)
row = [64] * 4 + [0] * 4 + [64] * 4 + [127] * 4
ease = bytes(row * 4)
bones = []
for f, z, x in ((0, 0.0, 0.0), (14, 2.5, 0.4), (33, -1.0, 1.3), (47, 0.7, -0.6),
                (70, 3.1, 0.2), (96, 0.0, 0.0)):
    bones.append(('センター', f, [x, 0.3 * z, z], [0, 0, 0, 1]))
for f, a in ((0, 0), (11, 35), (29, -20), (52, 48), (80, 5), (96, 0)):
    bones.append(('右腕', f, [0, 0, 0], rot([0.48, 0.6, 0.64], a)))
out = bytearray(b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'm'.ljust(20, b'\0'))
out += struct.pack('<I', len(bones))
for name, f, p, q in bones:
    out += name.encode('cp932').ljust(15, b'\0') + struct.pack('<I3f4f', f, *p, *q) + ease
morphs = [('あ', 0, 0.0), ('あ', 20, 1.0), ('あ', 45, 0.2), ('あ', 90, 0.0)]
out += struct.pack('<I', len(morphs))
for name, f, w in morphs:
    out += name.encode('cp932').ljust(15, b'\0') + struct.pack('<If', f, w)
out += struct.pack('<IIII', 0, 0, 0, 0)
open('keyed.vmd', 'wb').write(out)
PY
expect_exit 0 "$POSEKIT" smooth keyed.vmd -o same.vmd --json
[ "$(json_eval _stdout 'd["bone_tracks"], d["morph_tracks"], d["sections"]["bones"]["after"]')" = "(0, 0, 12)" ] ||
    fail "smooth changed a clean keyed dance: $(cat _stdout)"
expect_same_bytes keyed.vmd same.vmd
# noise the caller gives smooths it all the same
expect_exit 0 "$POSEKIT" smooth keyed.vmd -o forced.vmd --noise-pos 0.02 --bones センター
expect_stderr_contains '(1 bone and 0 morph tracks smoothed'
