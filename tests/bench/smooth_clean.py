#!/usr/bin/env python3
"""What `posekit smooth` does to clean, hand-keyed dances.

usage: smooth_clean.py POSEKIT [CORPUS]

Smooths samples/dance.vmd and every VMD dance of CORPUS/PROVENANCE.tsv
(a file with bone keys) with the defaults and prints, per dance, the
bone keys in -> out, the tracks smoothed, and the largest rotation
(degrees) and translation (units) change over every frame (`posekit
diff --frames all`).  A clean dance should come out unchanged.
"""
import json
import os
import subprocess
import sys
import tempfile


def run(exe, args):
    p = subprocess.run([exe] + args, capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) > 2 else None
    files = ["samples/dance.vmd"]
    if corpus:
        with open(os.path.join(corpus, "PROVENANCE.tsv"), encoding="utf-8") as f:
            for line in f.read().splitlines()[1:]:
                name = line.split("\t")[0]
                if name.lower().endswith(".vmd"):
                    files.append(os.path.join(corpus, name))
    print("| dance | bone keys in -> out | tracks smoothed | largest deg | largest units |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "s.vmd")
        for path in files:
            rc, js = run(exe, ["smooth", path, "-o", out, "--json", "--quiet"])
            if rc != 0:
                continue
            s = json.loads(js)
            b = s["sections"]["bones"]
            if b["before"] == 0:
                continue
            rc, dj = run(exe, ["diff", path, out, "--frames", "all", "--json"])
            d = json.loads(dj) if rc in (0, 1) and dj.strip() else {"bones": []}
            deg = max([x["angle_deg"] for x in d["bones"]] + [0.0])
            pos = max([x["pos_delta"] for x in d["bones"]] + [0.0])
            print("| %s | %d -> %d | %d bone, %d morph | %.4f | %.5f |" % (
                os.path.basename(path), b["before"], b["after"], s["bone_tracks"],
                s["morph_tracks"], deg, pos))
    return 0


if __name__ == "__main__":
    sys.exit(main())
