#!/usr/bin/env python3
"""dancers_table.py — the measures of dancers sized together over the
corpus (doc/commands.md, "Several dancers").  Not a test: it prints.

Material (the corpus has no dance for several dancers):
  formation  each corpus dance with bone keys twice, the second placed
             --apart units to the side (an overlay of 全ての親, as a user
             would place it), from Gene (PMX) to every pair of targets;
  pair       two Genes walking up to each other until dancer 1's right
             wrist meets dancer 2's left one (frames 20-40), to every pair
             of targets.
One run of

    posekit retarget D1 --from A --to B1 -o O1 --and D2 --from A --to B2 -o O2 --json

each.  Columns: the shared scale; spacing max / mean (% of the mean leg);
contacts between the dancers, their (contact, frame) pairs and the hands'
gap error before -> after, mean / p95 (% of the hand's B arm); frames out
the most B's arms stretched leave between the touching points where they
cannot close (% of the arm: no arm pose does better); the (contact, frame)
pairs within reach and their gap after, mean / p95; ms (wall, both dancers and the measures).  --own: each dancer
its own scale (the spacing as each sized alone would have it).

usage: dancers_table.py [--posekit BIN] [--corpus DIR] [--apart X] [--own]
                        [--dances a,b] [--targets a,b]
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sizing_table import dances  # noqa: E402  the corpus dances, one rule for both tables

TARGETS = ["pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx", "pmx_mmt_test_model.pmx",
           "pmd_mei.pmd", "pmd_sd_mei.pmd"]
SHORT = {"pmx_gene.pmx": "Gene", "pmd_gene.pmd": "GeneD",
         "pmx_nanoem_miku_bones.pmx": "classic", "pmx_mmt_test_model.pmx": "mmt",
         "pmd_mei.pmd": "Mei", "pmd_sd_mei.pmd": "SDMei"}
GENE_WRIST_X = 6.245398  # Gene's right wrist at rest (dump --body)


def vpd(path, x):
    name = "全ての親"
    text = ("Vocaloid Pose Data file\r\n\r\nplace.osm;\t\t// parent\r\n1;\t\t\t\t// bones\r\n\r\n"
            "Bone0{%s\r\n  %g,0,0;\t\t\t\t// trans x,y,z\r\n  0,0,0,1;\t\t// Quaternion x,y,z,w\r\n"
            "}\r\n\r\n" % (name, x))
    open(path, "wb").write(text.encode("cp932"))


def pair(p1, p2, d):
    lin = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
    name = "全ての親".encode("cp932").ljust(15, b"\0")
    for path, s in ((p1, 1.0), (p2, -1.0)):
        keys = [(0, s * (d + 3)), (20, s * d), (40, s * d), (60, s * (d + 3))]
        out = b"Vocaloid Motion Data 0002".ljust(30, b"\0") + b"pair".ljust(20, b"\0")
        out += struct.pack("<I", len(keys))
        for f, x in keys:
            out += name + struct.pack("<I3f4f", f, x, 0, 0, 0, 0, 0, 1) + lin
        out += struct.pack("<IIII", 0, 0, 0, 0)
        open(path, "wb").write(out)


def group(posekit, corpus, d1, d2, b1, b2, own, tmp):
    gene = os.path.join(corpus, "pmx_gene.pmx")
    cmd = [posekit, "retarget", d1, "--from", gene, "--to", os.path.join(corpus, b1),
           "-o", os.path.join(tmp, "o1.vmd"), "--json"]
    if own:
        cmd += ["--scale", "own"]
    cmd += ["--and", d2, "--from", gene, "--to", os.path.join(corpus, b2),
            "-o", os.path.join(tmp, "o2.vmd")]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    ms = (time.time() - t0) * 1000
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1:], ms
    return json.loads(r.stdout), None, ms


def row(label, d, err, ms):
    if d is None:
        print("%-34s failed: %s" % (label, err))
        return
    s, p = d["spacing"], d["partners"]
    q = p["reachable"]
    print("%-34s %6.4f %6.2f %6.2f %4d %5d %6.1f/%-6.1f -> %5.1f/%-5.1f %5.1f %5d %5.1f/%-5.1f %6.0f" % (
        label, d["scale"]["xz"], 100 * s["max"], 100 * s["mean"], len(p["contacts"]),
        p["frames"], 100 * p["before"]["mean"], 100 * p["before"]["p95"],
        100 * p["after"]["mean"], 100 * p["after"]["p95"], 100 * q["beyond_by"], q["frames"],
        100 * q["after"]["mean"], 100 * q["after"]["p95"], ms))


def main(argv):
    posekit = "build/cli/posekit"
    corpus = os.environ.get("PK_CORPUS", "/work/shared/corpus")
    apart, own, only, targets = 12.0, False, None, TARGETS
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--posekit":
            posekit = argv[i + 1]
            i += 1
        elif a == "--corpus":
            corpus = argv[i + 1]
            i += 1
        elif a == "--apart":
            apart = float(argv[i + 1])
            i += 1
        elif a == "--own":
            own = True
        elif a == "--dances":
            only = argv[i + 1].split(",")
            i += 1
        elif a == "--targets":
            targets = argv[i + 1].split(",")
            i += 1
        else:
            print(__doc__)
            return 2
        i += 1
    pairs = [(a, b) for k, a in enumerate(targets) for b in targets[k:]]
    print("%-34s %6s %6s %6s %4s %5s %-22s %5s %5s %-11s %6s" % (
        "dances: targets", "scale", "spMax", "spMean", "ctc", "frms",
        "gap before -> after", "far", "reach", "its gap", "ms"))
    with tempfile.TemporaryDirectory() as tmp:
        p1, p2 = os.path.join(tmp, "p1.vmd"), os.path.join(tmp, "p2.vmd")
        pair(p1, p2, GENE_WRIST_X)
        for b1, b2 in pairs:
            d, err, ms = group(posekit, corpus, p1, p2, b1, b2, own, tmp)
            row("pair: %s+%s" % (SHORT[b1], SHORT[b2]), d, err, ms)
        place = os.path.join(tmp, "place.vpd")
        vpd(place, -apart)
        for dance in dances(corpus, posekit) if only is None else only:
            src = os.path.join(corpus, dance)
            moved = os.path.join(tmp, "moved.vmd")
            r = subprocess.run([posekit, "overlay", src, "--pose", place, "--bones", "全ての親",
                                "--mode", "add", "-o", moved], capture_output=True, text=True)
            if r.returncode != 0:
                print("%-34s cannot place: %s" % (dance, r.stderr.strip().splitlines()[-1:]))
                continue
            for b1, b2 in pairs:
                d, err, ms = group(posekit, corpus, src, moved, b1, b2, own, tmp)
                row("%s: %s+%s" % (dance[4:20], SHORT[b1], SHORT[b2]), d, err, ms)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
