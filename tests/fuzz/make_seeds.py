#!/usr/bin/env python3
"""make_seeds.py — writes the generated seed inputs of the fuzz corpora.

Every seed here is built from the byte layouts in doc/formats.md (no real-world
file is copied: the shared corpus's licences forbid it).  Each one shows a
quirk a parser must survive: files that end after a section count, 0xFD name
padding, garbage interpolation filler, names cut in the middle of a CP932
character, trailing bytes, the v1 header, LF/CRLF/CR line endings, a BOM,
exponents, Morph blocks, the hybrid VPD layout, and YAML rule/job files.

Usage: python3 tests/fuzz/make_seeds.py   (rewrites corpus/*/seed_*)
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

# ---------------------------------------------------------------- VMD
SIG2 = b"Vocaloid Motion Data 0002"
SIG1 = b"Vocaloid Motion Data file"
LINEAR = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107])
CENTER = "センター".encode("cp932")          # 83 5A 83 93 83 5E 81 5B
RWRIST = "右手首".encode("cp932")
BLINK = "まばたき".encode("cp932")


def interp(b16, filler=b"\0\0\0", physics=b"\0\0"):
    """The 64-byte block: row r = B[r..r+15], B[16..18] = filler."""
    b = bytes(b16) + filler
    rows = b"".join(b[r:r + 16] for r in range(4))
    return rows[:2] + physics + rows[4:]


def field(raw, width, pad=b"\0"):
    raw = raw[:width]
    if len(raw) == width:
        return raw
    rest = width - len(raw) - 1
    return raw + b"\0" + (pad * rest)[:rest]


def header(model=b"", sig=SIG2, filler=b"\0" * 5, name_len=20):
    return sig + filler + field(model, name_len)


def bone(name, frame, pos=(0, 0, 0), rot=(0, 0, 0, 1), ip=None, pad=b"\0"):
    return (field(name, 15, pad) + struct.pack("<I3f4f", frame, *pos, *rot) +
            (ip if ip is not None else interp(LINEAR)))


def morph(name, frame, w, pad=b"\0"):
    return field(name, 15, pad) + struct.pack("<If", frame, w)


def camera(frame, dist=-45.0, pos=(0, 10, 0), rot=(0, 0, 0), fov=30, persp=0):
    return (struct.pack("<If3f3f", frame, dist, *pos, *rot) + bytes([20, 107, 20, 107] * 6) +
            struct.pack("<IB", fov, persp))


def light(frame):
    return struct.pack("<I3f3f", frame, 0.6, 0.6, 0.6, -0.5, -1.0, 0.5)


def shadow(frame, mode=1, dist=0.0875):
    return struct.pack("<IBf", frame, mode, dist)


def ik(frame, show, states):
    out = struct.pack("<IBI", frame, show, len(states))
    for name, on in states:
        out += field(name, 20) + bytes([on])
    return out


def sections(*secs):
    """secs: lists of records; fewer than six = the file ends early."""
    return b"".join(struct.pack("<I", len(s)) + b"".join(s) for s in secs)


def vmd_seeds():
    curved = interp([64, 20, 20, 10, 0, 20, 20, 117, 64, 107, 107, 127, 127, 107, 107, 10])
    yield "minimal", header() + sections([], [], [], [], [], [])
    yield "one_bone", header(b"model") + sections([bone(CENTER, 0)], [], [], [], [], [])
    yield "dance", header("初音ミク".encode("cp932")) + sections(
        [bone(CENTER, 0), bone(RWRIST, 0), bone(CENTER, 30, (1, 0.5, -2), (0, 0.3826834, 0, 0.9238795), curved),
         bone(RWRIST, 15, (0, 0, 0), (0.5, 0.5, 0.5, 0.5), curved), bone(CENTER, 10, (0, 1, 0))],
        [morph(BLINK, 0, 0.0), morph(BLINK, 12, 1.0), morph(BLINK, 20, 0.25)],
        [], [], [], [ik(0, 1, [("左足ＩＫ".encode("cp932"), 1), ("右足ＩＫ".encode("cp932"), 0)])])
    yield "ends_after_light", header() + sections([bone(CENTER, 0)], [], [camera(0)], [light(0)])
    yield "ends_after_shadow", header() + sections([], [], [], [], [shadow(0)])
    yield "ends_after_bones", header() + sections([bone(CENTER, 0)])
    yield "camera", header("カメラ・照明".encode("cp932") + b"\0on Data") + sections(
        [], [], [camera(0), camera(1, -30, (0, 12, 0), (0.1, 3.1, 0), 20), camera(3, fov=45, persp=1)],
        [light(0)], [shadow(0), shadow(30, 0, 0.1)], [])
    yield "fd_padding", header(b"old", filler=b"\0JKLM") + sections(
        [bone(b"a", 0, pad=b"\xfd")], [morph(b"m", 0, 1.0, pad=b"\xfd")], [], [], [], [])
    yield "garbage_filler", header() + sections(
        [bone(CENTER, 0, ip=interp(LINEAR, filler=b"\x81\x42\x8d", physics=b"\x63\x0f"))], [], [], [], [], [])
    yield "name_cut_lead_byte", header("ニルヴァ / Nirva デ".encode("cp932")[:19] + b"\x83") + sections(
        [bone("アホ毛-+アホ毛".encode("cp932")[:14] + b"\x83", 0)], [], [], [], [], [])
    yield "name_15_bytes", header(b"x" * 20) + sections(
        [bone(b"123456789012345", 0), bone(b"123456789012345", 0)], [], [], [], [], [])
    yield "trailing_bytes", header() + sections([], [], [], [], [], []) + b"\0\0\0\0junk"
    yield "v1_header", header(b"v1model", sig=SIG1, name_len=10) + sections([bone(CENTER, 0)], [], [])
    yield "no_version_sig", (b"Vocaloid Motion Data" + b"\0" * 10 + field(b"gen", 20) +
                             sections([bone(b"j", 0, ip=bytes([0x14]) * 64)], [], [], [], [], []))
    yield "nan_inf", header() + sections(
        [bone(CENTER, 0, (float("nan"), float("inf"), -float("inf")), (0, 0, 0, float("nan")))],
        [morph(BLINK, 0, float("nan"))], [], [], [], [])
    yield "count_ffffffff", header() + struct.pack("<I", 0xFFFFFFFF) + bone(CENTER, 0)
    yield "count_too_big", header() + struct.pack("<I", 3) + bone(CENTER, 0)
    yield "truncated_header", header()[:40]


# ---------------------------------------------------------------- VPD text
def vpd_text(bones, morphs=(), model="初音ミク", eol="\r\n", comments=True, count=None, fmt="%f"):
    def num(v):
        return fmt % v
    c = (lambda s: s) if comments else (lambda s: "")
    out = ["Vocaloid Pose Data file", "", model + ".osm;" + c("\t\t// 親ファイル名"),
           "%d;" % (len(bones) if count is None else count) + c("\t\t\t\t// 総ポーズボーン数"), ""]
    for i, (name, pos, rot) in enumerate(bones):
        out += ["Bone%d{%s" % (i, name),
                "  " + ",".join(num(v) for v in pos) + ";" + c("\t\t\t\t// trans x,y,z"),
                "  " + ",".join(num(v) for v in rot) + ";" + c("\t\t// Quaternion x,y,z,w"),
                "}", ""]
    for i, (name, w) in enumerate(morphs):
        out += ["Morph%d{%s" % (i, name), "  " + num(w) + ";" + c("\t\t\t\t// weight"), "}", ""]
    return (eol.join(out) + eol).encode("cp932")


BONES = [("センター", (0.5, -1.25, 0), (0, 0, 0, 1)),
         ("右手首", (0, 0, 0), (0.1, -0.2, 0.3, 0.927362)),
         ("マント", (0, 0, 0), (-0.0, 0.0, -0.0, 1.0))]


def vpd_seeds():
    yield "mmd_crlf", vpd_text(BONES)
    yield "lf", vpd_text(BONES, eol="\n")
    yield "cr", vpd_text(BONES, eol="\r")
    yield "morphs", vpd_text(BONES[:1], [("まばたき", 0.190476), ("あ", 1.0)])
    yield "morph_only", vpd_text([], [("笑い", 0.5)])
    yield "no_comments", vpd_text(BONES, comments=False, eol="\n", fmt="%g")
    yield "exponents", vpd_text([("a", (1e-05, -2.5e+3, 0), (0, 0, 0, 1))], fmt="%.6e")
    yield "count_mismatch", vpd_text(BONES, count=7)
    yield "bom", b"\xef\xbb\xbf" + vpd_text(BONES[:1]).replace(b"\r\n", b"\n")
    yield "comma_decimal", vpd_text(BONES[:1]).replace(b".", b",").replace(b",osm", b".osm")
    yield "missing_brace", vpd_text(BONES[:1]).replace(b"}\r\n", b"")
    yield "name_19_cut", (b"Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{" +
                          "アホ毛-+アホ毛-+ア".encode("cp932")[:18] + b"\x83\r\n" +
                          b"  0.000000,0.000000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n\r\n")
    yield "whitespace_mess", (b"Vocaloid Pose Data file  \n\t\n  m.osm ;\n 1 ;// c\n"
                              b"   Bone0 {x\n // c\n+1 , .5 ,2.;\n0,0,0,1;\n\t}\n")
    yield "nan_text", vpd_text([("a", (float("nan"), 0, 0), (0, 0, 0, 1))])
    yield "empty_model", vpd_text([], model="")


def vpd_hybrid(bones, model=b"model", eol=b"\r\n"):
    out = b"Vocaloid Pose Data file".ljust(30, b"\0") + field(model, 20)
    out += struct.pack("<I", len(bones))
    for i, (name, pos, rot) in enumerate(bones):
        line = "%d;%s;%s;" % (i, ",".join("%f" % v for v in pos), ",".join("%f" % v for v in rot))
        out += field(name.encode("cp932"), 15) + line.encode() + eol
    return out


def hybrid_seeds():
    yield "three_bones", vpd_hybrid(BONES)
    yield "lf", vpd_hybrid(BONES, eol=b"\n")
    yield "empty", vpd_hybrid([])
    yield "count_big", vpd_hybrid(BONES)[:50] + struct.pack("<I", 0xFFFFFFFF) + vpd_hybrid(BONES)[54:]


# ---------------------------------------------------------------- YAML
RULES = {
    "full": """include: [standard.yaml]
rename:
  センター: center
  "右*": "*_R"
  "左*": "*_L"
morphs:
  まばたき: blink
groups:
  hand_R: [右手首, "右親指*", "右人指*", "右中指*", "右薬指*", "右小指*"]
  both: ["@hand_R", center]
mirror:
  - [左, 右]
stance:
  - {bone: 左腕, rotate: [0, 0, 35], chain: "@arm_below_L"}
scale:
  default: 1.0
  bones: {センター: 0.9, グルーブ: 0.9}
""",
    "empty": "",
    "rename_only": "rename:\n  a: b\n  c: d\n",
    "collision": "rename:\n  a: x\n  b: x\n",
    "unknown_key": "renames:\n  a: b\n",
    "wrong_type": "rename: [a, b]\nscale: {default: fast}\n",
    "anchors": "groups:\n  g: &g [a, b]\n  h: *g\n",
    "self_include": "include: [rules.yaml]\n",
    "bad_yaml": "rename:\n  a: [b\n  c: d\n",
    "long_name": "rename:\n  a: あいうえおかきくけこさしすせそたちつてと\n",
    "glob_two_stars": "rename:\n  \"*a*\": b\n",
}

JOBS = {
    "hand_overlay": """inputs:
  dance: dance.vmd
  fist: fist_R.vpd
rules: [standard.yaml]
steps:
  - overlay: {base: dance, pose: fist, bones: "@hand_R", frames: 30-60, fade: 5, as: out1}
  - rename: {input: out1, rules: english.yaml, as: out2}
outputs:
  out2: result.vmd
""",
    "empty": "",
    "no_steps": "inputs: {a: a.vmd}\noutputs: {a: b.vmd}\n",
    "bad_step": "inputs: {a: a.vmd}\nsteps:\n  - explode: {input: a}\n",
    "merge": "inputs: {a: a.vmd, b: b.vmd}\nsteps:\n  - merge: {inputs: [a, b], offset: [0, 30], prefer: last, as: m}\noutputs: {m: m.vmd}\n",
}


BODIES = {
    "example": """# the format's example (rules/bodies/README.md)
posekit_body: 1
name: "mine"
bones:
  - {name: "センター", pos: [0, 8, 0], flags: [rotate, move, visible, operable]}
  - {name: "上半身", parent: "センター", pos: [0, 13.3, -0.26], tail: "首"}
  - {name: "首", parent: "上半身", pos: [0, 16.4, 0], tail: [0, 0.4, 0]}
  - {name: "頭", parent: "首", pos: [0, 16.8, 0]}
  - {name: "両目", parent: "頭", pos: [0, 17.9, -0.3]}
  - {name: "左目", parent: "頭", pos: [0.35, 17.86, -0.35], layer: 2,
     append: {bone: "両目", ratio: 1.0, rotate: true}}
  - {name: "左腕", parent: "上半身", pos: [0.89, 15.69, 0.32], local_axes: {x: [1, 0, 0], z: [0, 0, 1]}}
  - {name: "左腕捩", parent: "左腕", pos: [1.84, 15.37, 0.30], fixed_axis: [0.82, -0.57, 0]}
  - {name: "左足", parent: "センター", pos: [0.9, 10.6, 0]}
  - {name: "左ひざ", parent: "左足", pos: [0.9, 5.9, 0]}
  - {name: "左足首", parent: "左ひざ", pos: [0.9, 1.3, 0]}
  - {name: "左足ＩＫ", pos: [0.88, 1.34, 0], layer: 1, flags: [rotate, move, visible, operable],
     ik: {target: "左足首", loops: 40, limit: 2.0,
          links: [{bone: "左ひざ", min: [-3.1415927, 0, 0], max: [-0.008726646, 0, 0]}, "左足"]}}
morphs:
  - {name: "まばたき", panel: eye, kind: vertex}
  - "あ"
rigid_bodies:
  - {name: "頭", bone: "頭", group: 0, mask: 65535, shape: sphere, size: [1.5, 0, 0],
     pos: [0, 17.5, 0], rot: [0, 0, 0], mass: 1, linear_damping: 0.5,
     angular_damping: 0.5, restitution: 0, friction: 0.5, mode: follow_bone}
""",
    "empty": "",
    "no_version": "bones:\n  - {name: a, pos: [0, 0, 0]}\n",
    "version_2": "posekit_body: 2\nbones:\n  - {name: a, pos: [0, 0, 0]}\n",
    "minimal": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n",
    "json": '{"posekit_body": 1, "bones": [{"name": "a", "pos": [0, 1, 2]}, {"name": "b", "parent": "a", "pos": [0, 2, 2]}]}',
    "aliases": "posekit_body: 1\nbones:\n  - {name: a, pos: &p [0, 0, 0]}\n  - {name: b, parent: a, pos: *p}\n"
               "morphs: [&m x, *m, *m]\nrigid_bodies:\n  - &r {name: r, bone: a, shape: box}\n  - *r\n",
    "ids": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n  - {name: a, id: a#2, parent: a, pos: [0, 1, 0]}\n"
           "  - {name: b, parent: a#2, pos: [0, 2, 0], tail: a#2}\n",
    "twice": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n  - {name: a, pos: [0, 1, 0]}\n",
    "cycle": "posekit_body: 1\nbones:\n  - {name: a, parent: b, pos: [0, 0, 0]}\n  - {name: b, parent: a, pos: [0, 1, 0]}\n",
    "self_parent": "posekit_body: 1\nbones:\n  - {name: a, parent: a, pos: [0, 0, 0]}\n",
    "unknown_key": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], colour: red}\n",
    "repeated_key": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], pos: [1, 1, 1]}\n",
    "wrong_kinds": "posekit_body: 1\nbones:\n  - {name: [a], pos: [0, 0], layer: x, flags: fly}\n",
    "ik_bad": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n"
              "  - {name: k, pos: [0, 0, 0], ik: {target: zz, loops: -1, limit: nan, links: [{bone: a, min: [1, 2]}, q]}}\n",
    "nulls": "posekit_body: 1\nname: ~\nbones:\n  - name: a\n    parent:\n    pos: [0, 0, 0]\n    tail: ~\n",
    "numbers": "posekit_body: 1\nbones:\n  - {name: c, pos: [1.0000000000000000001, 3.4028235e38, 1e-46]}\n"
               "  - {name: d, pos: [-0.0, 0x10, 1_000]}\n",
    "numbers_huge": "posekit_body: 1\nbones:\n  - {name: a, pos: [1e308, 0, 0]}\n",
    "numbers_inf": "posekit_body: 1\nbones:\n  - {name: b, pos: [.inf, -.inf, .nan]}\n",
    "two_docs": "posekit_body: 1\nbones: []\n---\nposekit_body: 1\n",
    "bad_yaml": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0\n",
    "long_name": "posekit_body: 1\nbones:\n  - {name: あいうえおかきくけこさしすせそたちつてと, pos: [0, 0, 0]}\n",
    "not_cp932": "posekit_body: 1\nbones:\n  - {name: \"\U0001F600\", pos: [0, 0, 0]}\n",
    "append_local": "posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n"
                    "  - {name: b, pos: [0, 1, 0], append: {bone: a, ratio: -2, rotate: true, move: true, local: true}, external: 3}\n",
}


# ---------------------------------------------------------------- PMX / PMD
def pmx_text(s, enc):
    b = s.encode("utf-16-le" if enc == 0 else "utf-8")
    return struct.pack("<i", len(b)) + b


def pmx_idx(v, size):
    return struct.pack({1: "<b", 2: "<h", 4: "<i"}[size], v)


def pmx(version=2.0, enc=0, extra=0, isz=(2, 1, 1, 2, 2, 1), deforms=(0, 1, 2, 3),
        soft=False, qdef=False):
    """A small PMX: a few vertices of the given deform types, one bone of
    each flavour (plain, append + fixed axis + local axes, IK with limited
    links), morphs of every kind, display frames, a rigid body and joint."""
    vs, ts, ms, bs, mos, rs = isz
    t = lambda s: pmx_text(s, enc)
    out = b"PMX " + struct.pack("<fB", version, 8) + bytes([enc, extra]) + bytes(isz)
    out += t("モデル") + t("model") + t("コメント") + t("")
    out += struct.pack("<i", len(deforms))
    for d in deforms:
        out += struct.pack("<8f", 0, 1, 0, 0, 1, 0, 0, 0) + struct.pack("<4f", 0, 0, 0, 0) * extra
        out += bytes([d])
        nb = {0: 1, 1: 2, 2: 4, 3: 2, 4: 4}[d]
        out += b"".join(pmx_idx(0, bs) for _ in range(nb))
        out += {0: b"", 1: struct.pack("<f", 1), 2: struct.pack("<4f", 1, 0, 0, 0),
                3: struct.pack("<10f", 1, *([0] * 9)), 4: struct.pack("<4f", 1, 0, 0, 0)}[d]
        out += struct.pack("<f", 1)
    out += struct.pack("<i", 3) + b"".join(pmx_idx(0, vs) if vs != 1 else b"\0" for _ in range(3))
    out += struct.pack("<i", 1) + t("tex.png")
    out += struct.pack("<i", 1) + t("材質") + t("mat") + bytes(65) + pmx_idx(0, ts) + pmx_idx(-1, ts)
    out += b"\0\x01\x02" + t("") + struct.pack("<i", 3)
    bones = []
    bones.append(t("センター") + t("center") + struct.pack("<3f", 0, 8, 0) + pmx_idx(-1, bs)
                 + struct.pack("<iH", 0, 0x1E) + struct.pack("<3f", 0, 1, 0))
    bones.append(t("右腕捩") + t("arm twist_R") + struct.pack("<3f", 1, 15, 0) + pmx_idx(0, bs)
                 + struct.pack("<iH", 1, 0x0001 | 0x0002 | 0x0008 | 0x0010 | 0x0100 | 0x0400 | 0x0800 | 0x2000)
                 + pmx_idx(0, bs) + pmx_idx(0, bs) + struct.pack("<f", 0.5)
                 + struct.pack("<3f", 1, 0, 0) + struct.pack("<6f", 1, 0, 0, 0, 0, 1) + struct.pack("<i", 3))
    bones.append(t("右足ＩＫ") + t("leg IK_R") + struct.pack("<3f", -1, 1, 0) + pmx_idx(0, bs)
                 + struct.pack("<iH", 0, 0x003F) + pmx_idx(-1, bs) + pmx_idx(1, bs)
                 + struct.pack("<if", 40, 2.0) + struct.pack("<i", 2)
                 + pmx_idx(1, bs) + b"\x01" + struct.pack("<6f", -3.14, 0, 0, -0.01, 0, 0)
                 + pmx_idx(0, bs) + b"\0")
    out += struct.pack("<i", len(bones)) + b"".join(bones)
    kinds = list(range(11 if version > 2.05 else 9))
    out += struct.pack("<i", len(kinds))
    for k in kinds:
        out += t("モーフ%d" % k) + t("") + bytes([k % 5, k]) + struct.pack("<i", 1)
        if k in (0, 9):
            out += pmx_idx(0, mos) + struct.pack("<f", 1)
        elif k == 1:
            out += (b"\0" * vs) + bytes(12)
        elif k == 2:
            out += pmx_idx(0, bs) + bytes(28)
        elif k == 8:
            out += pmx_idx(0, ms) + bytes(113)
        elif k == 10:
            out += pmx_idx(0, rs) + bytes(25)
        else:
            out += (b"\0" * vs) + bytes(16)
    out += struct.pack("<i", 2)
    out += t("Root") + t("Root") + b"\x01" + struct.pack("<i", 1) + b"\0" + pmx_idx(0, bs)
    out += t("表情") + t("Exp") + b"\x01" + struct.pack("<i", 2) + b"\x01" + pmx_idx(0, mos) + b"\0" + pmx_idx(2, bs)
    out += struct.pack("<i", 1) + t("剛体") + t("") + pmx_idx(0, bs) + bytes(61)
    out += struct.pack("<i", 1) + t("J") + t("") + b"\0" + pmx_idx(0, rs) + pmx_idx(-1, rs) + bytes(96)
    if soft:
        out += struct.pack("<i", 1) + t("soft") + t("") + b"\0" + pmx_idx(0, ms) + bytes(124)
        out += struct.pack("<i", 1) + pmx_idx(0, rs) + (b"\0" * vs) + b"\0"
        out += struct.pack("<i", 1) + (b"\0" * vs)
    return out


def pmd_field(raw, width):
    return raw + b"\0" * (width - len(raw))


def pmd(english=True, physics=True):
    """A small PMD: three bones (rotate+move, IK-influenced, IK), one IK
    chain, the base morph and one morph, a bone frame, extensions."""
    out = b"Pmd" + struct.pack("<f", 1.0) + pmd_field("モデル".encode("cp932"), 20)
    out += pmd_field(b"comment", 256)
    out += struct.pack("<I", 1) + bytes(38) + struct.pack("<I", 0) + struct.pack("<I", 0)
    bones = [("センター", -1, 1, 1, 0, 8), ("右ひざ", 0, -1, 4, 0, 4), ("右足ＩＫ", 0, -1, 2, 0, 1)]
    out += struct.pack("<H", len(bones))
    for name, parent, tail, kind, ik, y in bones:
        out += pmd_field(name.encode("cp932"), 20) + struct.pack("<hhBh3f", parent, tail, kind, ik, 0, y, 0)
    out += struct.pack("<H", 1) + struct.pack("<hhBHf", 2, 1, 1, 40, 0.5) + struct.pack("<h", 1)
    out += struct.pack("<H", 2)
    out += pmd_field(b"base", 20) + struct.pack("<IB", 1, 0) + bytes(16)
    out += pmd_field("まばたき".encode("cp932"), 20) + struct.pack("<IB", 0, 2)
    out += b"\x01" + struct.pack("<H", 1)
    out += b"\x01" + pmd_field("足\n".encode("cp932"), 50)
    out += struct.pack("<I", 1) + struct.pack("<HB", 1, 1)
    if english:
        out += b"\x01" + pmd_field(b"model", 20) + pmd_field(b"comment", 256)
        out += b"".join(pmd_field(n, 20) for n in (b"center", b"knee_R", b"leg IK_R"))
        out += pmd_field(b"blink", 20) + pmd_field(b"Legs", 50)
        out += bytes(1000)
        if physics:
            out += struct.pack("<I", 1) + bytes(83) + struct.pack("<I", 0)
    return out


def model_seeds():
    yield "pmx", "utf16_2.pmx", pmx()
    yield "pmx", "utf8_1.pmx", pmx(enc=1, isz=(1, 1, 1, 1, 1, 1))
    yield "pmx", "idx4_uv2.pmx", pmx(extra=2, isz=(4, 4, 4, 4, 4, 4))
    yield "pmx", "v21_soft.pmx", pmx(version=2.1, deforms=(0, 1, 2, 3, 4), soft=True)
    yield "pmx", "noverts.pmx", pmx(deforms=())
    yield "pmd", "full.pmd", pmd()
    yield "pmd", "noext.pmd", pmd(english=False)
    yield "pmd", "no_physics.pmd", pmd(physics=False)


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed_" + name), "wb") as f:
        f.write(data)


def copy_project_files():
    """The project's own files (samples/, rules/), self-made and freely
    copyable: real-size inputs next to the small generated quirks."""
    root = os.path.dirname(os.path.dirname(HERE))
    picks = [("samples/dance.vmd", ["vmd", "roundtrip"]),
             ("samples/hands/right_fist.vpd", ["vpd_text", "roundtrip"]),
             ("samples/hands/left_peace.vpd", ["vpd_text", "roundtrip"]),
             ("samples/hand-overlay.yaml", ["job"])]
    rules_dir = os.path.join(root, "rules")
    if os.path.isdir(rules_dir):
        picks += [("rules/" + f, ["rules"]) for f in sorted(os.listdir(rules_dir))
                  if f.endswith(".yaml")]
    bodies_dir = os.path.join(rules_dir, "bodies")
    if os.path.isdir(bodies_dir):
        picks += [("rules/bodies/" + f, ["body"]) for f in sorted(os.listdir(bodies_dir))
                  if f.endswith(".yaml")]
    for rel, targets in picks:
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        for t in targets:
            d = os.path.join(CORPUS, t)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "samples_" + os.path.basename(rel)), "wb") as f:
                f.write(data)


def main():
    for name, data in vmd_seeds():
        write("vmd", name + ".vmd", data)
        write("roundtrip", name + ".vmd", data)
    for name, data in vpd_seeds():
        write("vpd_text", name + ".vpd", data)
        write("roundtrip", name + ".vpd", data)
    for name, data in hybrid_seeds():
        write("vpd_hybrid", name + ".vpd", data)
        write("roundtrip", "hybrid_" + name + ".vpd", data)
    for name, text in RULES.items():
        write("rules", name + ".yaml", text.encode("utf-8"))
    for name, text in JOBS.items():
        write("job", name + ".yaml", text.encode("utf-8"))
    for name, text in BODIES.items():
        write("body", name + ".yaml", text.encode("utf-8"))
    for target, name, data in model_seeds():
        write(target, name, data)
    copy_project_files()


if __name__ == "__main__":
    main()
