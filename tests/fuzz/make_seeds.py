#!/usr/bin/env python3
"""make_seeds.py — writes the generated seed inputs of the fuzz corpora.

Every seed here is built from the byte layouts in FORMATS.md (no real-world
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
    copy_project_files()


if __name__ == "__main__":
    main()
