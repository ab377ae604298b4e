#!/usr/bin/env python3
"""legs_table.py — bake --ik-to-fk and --fk-to-ik measured on every corpus
dance with leg keys × the six corpus models with legs, one run of

    posekit bake DANCE --ik-to-fk --model M -o FK.vmd --json
    posekit bake FK.vmd --fk-to-ik --model M -o IK.vmd --json

each, and a table per dance (doc/performance.md, "Legs: IK to FK").
Not a test: it prints.

usage: legs_table.py [--posekit BIN] [--corpus DIR] [--models] [DANCE ...]

Columns: the input's leg keys (hip, knee, ankle, leg and toe IK); IK to FK's
keys written (fewest–most over the models, and the ratio to the leg keys);
FK to IK's, from IK to FK's output (its leg keys in → out); the worst
ankle of either over the models; IK to FK's CPU seconds (the most).
--models prints a row per model too.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile

MODELS = ["pmx_gene.pmx", "pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx", "pmx_mmt_test_model.pmx",
          "pmd_mei.pmd", "pmd_sd_mei.pmd"]
SHORT = {"pmx_gene.pmx": "Gene", "pmd_gene.pmd": "Gene (PMD)",
         "pmx_nanoem_miku_bones.pmx": "classic", "pmx_mmt_test_model.pmx": "mmt",
         "pmd_mei.pmd": "Mei", "pmd_sd_mei.pmd": "SD Mei"}


def bake(posekit, args):
    """The --json report's "legs" object and the child's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([posekit, "bake"] + args + ["--json"], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        return None, cpu
    return json.loads(p.stdout)["legs"], cpu


def ratio(a, b):
    return a / b if b else 0.0


def main(argv):
    posekit, corpus = "build/cli/posekit", os.environ.get("PK_CORPUS", "")
    per_model, dances = False, []
    i = 0
    while i < len(argv):
        if argv[i] == "--posekit":
            posekit, i = argv[i + 1], i + 2
        elif argv[i] == "--corpus":
            corpus, i = argv[i + 1], i + 2
        elif argv[i] == "--models":
            per_model, i = True, i + 1
        else:
            dances.append(argv[i])
            i += 1
    if not corpus:
        sys.exit("legs_table.py: --corpus DIR (or PK_CORPUS)")
    if not dances:
        dances = sorted(f for f in os.listdir(corpus) if f.endswith(".vmd"))
    tmp = tempfile.mkdtemp(prefix="legs_table.")
    print("| dance (leg keys in) | IK → FK keys | × | FK → IK keys (in → out) | × | worst ankle "
          "| IK → FK CPU s |")
    print("|---|---|---|---|---|---|---|")
    for d in dances:
        rows = []
        for m in MODELS:
            fk, ik = os.path.join(tmp, "fk.vmd"), os.path.join(tmp, "ik.vmd")
            a, cpu = bake(posekit, [os.path.join(corpus, d), "--ik-to-fk", "--model",
                                    os.path.join(corpus, m), "-o", fk])
            if not a or a["keys_before"] == 0:
                break
            b, _ = bake(posekit, [fk, "--fk-to-ik", "--model", os.path.join(corpus, m), "-o", ik])
            rows.append((m, a, b, cpu))
        if not rows:
            continue
        kin = rows[0][1]["keys_before"]
        fk = [r[1]["keys_after"] for r in rows]
        ikr = [ratio(r[2]["keys_after"], r[2]["keys_before"]) for r in rows]
        worst = max(max(r[1]["worst"], r[2]["worst"]) for r in rows)
        print("| %s (%d) | %d–%d | %.2f–%.2f | %s | %.2f–%.2f | %.2g | %.2f |" % (
            d[4:-4], kin, min(fk), max(fk), ratio(min(fk), kin), ratio(max(fk), kin),
            ", ".join("%d → %d" % (r[2]["keys_before"], r[2]["keys_after"]) for r in rows),
            min(ikr), max(ikr), worst, max(r[3] for r in rows)))
        if per_model:
            for m, a, b, cpu in rows:
                print("|   %s | %d | %.2f | %d → %d | %.2f | %.2g / %.2g | %.2f |" % (
                    SHORT[m], a["keys_after"], ratio(a["keys_after"], kin), b["keys_before"],
                    b["keys_after"], ratio(b["keys_after"], b["keys_before"]), a["worst"],
                    b["worst"], cpu))
    for f in ("fk.vmd", "ik.vmd"):
        if os.path.exists(os.path.join(tmp, f)):
            os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main(sys.argv[1:])
