#!/usr/bin/env python3
"""sizing_table.py — the measures of retarget's sizing over the corpus: every
dance with bone keys x every ordered pair of corpus models, one run of

    posekit retarget DANCE --from A --to B -o OUT.vmd --report OUT.json [OPTIONS]

each, and a table per model pair of the measures summed over the dances
(doc/commands.md, "retarget", the measures).  Not a test: it prints.

usage: sizing_table.py [--posekit BIN] [--corpus DIR] [--per-dance]
                       [--dances a,b] [--models a,b] [--keep DIR]
                       [-- RETARGET OPTIONS...]
(--keep DIR: each run's VMD, JSON and standard error kept in DIR, to cmp
two builds' outputs.)

Columns (fractions of B's arm or leg as in the report):
  contact frames    (contact, frame) pairs on A's dances
  hands before/after  mean / p95 of |gap_B - gap_A x k| / B's arm
  reachable after  the same after, on the contact frames B can hold (in
          parentheses: frames out of B's reach / blocked by B's body / apart:
          not holding together with the hand's other contacts / refused: the
          elbow law refused the correction)
  slide+  worst over the dances of mean B's slide - mean A's scaled, of B's leg,
          on A's planted frames (after)
  slidemax  worst per-frame B's slide - A's scaled, of B's leg, on A's planted
          frames, before -> after (goal: 0.05%)
  floor95 p95 |B's ankle lift - A's scaled| / B's leg, before -> after
  drift   worst arm direction change (deg) > 15 frames from contacts
  pen     penetration frames before -> after (B has bodies), '-' none
  past    elbow / knee frames past the rest plane beyond A's, before -> after
          (in parentheses: elbow frames the sizing steps made worse)
  head    worst / mean degrees between A's and B's neck root (首) directions from
          the hips (上半身), before -> after the body steps (goal: worst 1)
  cog     worst / mean ground offset of B's centre of gravity from its feet
          against A's scaled, of B's leg, before -> after (goal: 2%)
  toes    frames of a toe of B below the floor where A's is not, before -> after
  ms      wall time of the run (with --report: the measures included)
"""
import json
import os
import subprocess
import sys
import shutil
import tempfile

KEEP = None  # --keep DIR: each run's VMD, JSON and standard error kept there
import time

MODELS = ["pmx_gene.pmx", "pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx",
          "pmx_mmt_test_model.pmx", "pmd_mei.pmd", "pmd_sd_mei.pmd"]
SHORT = {"pmx_gene.pmx": "GeneX", "pmd_gene.pmd": "GeneD",
         "pmx_nanoem_miku_bones.pmx": "classic", "pmx_mmt_test_model.pmx": "mmt",
         "pmd_mei.pmd": "Mei", "pmd_sd_mei.pmd": "SDMei"}


def dances(corpus, posekit):
    out = []
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".vmd"):
            continue
        info = subprocess.run([posekit, "info", "--json", os.path.join(corpus, name)],
                              capture_output=True, text=True)
        try:
            d = json.loads(info.stdout)
        except ValueError:
            continue
        if d.get("counts", {}).get("bones", 0) > 0:
            out.append(name)
    return out


def run(posekit, corpus, dance, a, b, extra, tmp):
    out = os.path.join(tmp, "out.vmd")
    rep = os.path.join(tmp, "rep.json")
    if os.path.exists(rep):
        os.remove(rep)
    t0 = time.time()
    p = subprocess.run([posekit, "retarget", os.path.join(corpus, dance), "--from",
                        os.path.join(corpus, a), "--to", os.path.join(corpus, b), "-o", out,
                        "--report", rep] + extra, capture_output=True, text=True)
    ms = (time.time() - t0) * 1000
    if p.returncode != 0 or not os.path.exists(rep):
        return None, ms, p.stderr.strip().splitlines()[-1:] if p.stderr else []
    if KEEP:
        stem = os.path.join(KEEP, "%s_%s_%s" % (dance[:-4], SHORT[a], SHORT[b]))
        shutil.copyfile(out, stem + ".vmd")
        shutil.copyfile(rep, stem + ".json")
        with open(stem + ".err", "w") as f:
            f.write(p.stderr)
    with open(rep) as f:
        return json.load(f), ms, p.stderr


class Acc:
    def __init__(self):
        self.frames = 0
        self.hb = []
        self.ha = []
        self.ra = []
        self.far = [0, 0, 0, 0]
        self.slide = 0.0
        self.slidemax = [0.0, 0.0]
        self.floor = [0.0, 0.0]
        self.drift = 0.0
        self.pen = [0, 0]
        self.bodies = False
        self.past = [0, 0, 0, 0]
        self.worse = 0
        self.ms = 0.0
        self.runs = 0
        self.head = [0.0, 0.0, 0.0, 0.0]  # worst before, after; mean sums
        self.cog = [0.0, 0.0, 0.0, 0.0]
        self.toes = [0, 0]
        self.nbody = 0

    def add(self, r, ms):
        m = r
        self.runs += 1
        self.ms += ms
        h = m.get("hands")
        if h and h["frames"]:
            n = h["frames"]
            self.frames += n
            self.hb.append((n, h["before"]["mean"], h["before"]["p95"]))
            self.ha.append((n, h["after"]["mean"], h["after"]["p95"]))
            rch = h.get("reachable")
            if rch is not None:
                for c in m.get("contacts", []):
                    self.far[0] += c.get("out_of_reach", {}).get("frames", 0)
                    self.far[1] += c.get("blocked_by_body", 0)
                    self.far[2] += c.get("apart", {}).get("frames", 0)
                    self.far[3] += c.get("refused", 0)
                if rch["frames"]:
                    self.ra.append((rch["frames"], rch["after"]["mean"], rch["after"]["p95"]))
        f = m.get("feet", {})
        if f.get("planted_frames"):
            self.slide = max(self.slide, f["slide"]["after"] - f["slide_from"])
            self.slidemax = [max(self.slidemax[0], f.get("slide_excess_max_before", 0)),
                             max(self.slidemax[1], f["slide_excess_max"])]
            self.floor = [max(self.floor[0], f["floor_p95"]["before"]),
                          max(self.floor[1], f["floor_p95"]["after"])]
        self.drift = max(self.drift, m.get("arms_far_from_contacts", {}).get("max_deg", 0))
        p = m.get("penetration", {})
        self.bodies = p.get("bodies", False)
        self.pen[0] += p.get("before", {}).get("frames", 0)
        self.pen[1] += p.get("after", {}).get("frames", 0)
        body = m.get("body")
        if body:
            h = body["head_from_hips_deg"]
            c = body["centre_of_gravity"]
            self.head = [max(self.head[0], h["before"]["max"]), max(self.head[1], h["after"]["max"]),
                         self.head[2] + h["before"]["mean"], self.head[3] + h["after"]["mean"]]
            self.cog = [max(self.cog[0], c["before"]["max"]), max(self.cog[1], c["after"]["max"]),
                        self.cog[2] + c["before"]["mean"], self.cog[3] + c["after"]["mean"]]
            self.toes[0] += body["toes_below_floor"]["before"]
            self.toes[1] += body["toes_below_floor"]["after"]
            self.nbody += 1
        b = m.get("bends", {})
        self.past[0] += b.get("elbows", {}).get("past_rest_before", 0)
        self.past[1] += b.get("elbows", {}).get("past_rest", 0)
        self.worse += b.get("elbows", {}).get("worse", 0)
        self.past[2] += b.get("knees", {}).get("past_rest_before", 0)
        self.past[3] += b.get("knees", {}).get("past_rest", 0)

    @staticmethod
    def hands(v):
        n = sum(x[0] for x in v)
        if not n:
            return "-"
        mean = sum(x[0] * x[1] for x in v) / n
        p95 = max(x[2] for x in v)
        return "%.1f%% / %.1f%%" % (100 * mean, 100 * p95)

    def row(self, label):
        pen = "%d -> %d" % tuple(self.pen) if self.bodies else "-"
        nb = max(self.nbody, 1)
        body = "%.2f / %.2f -> %.2f / %.2f | %.2f%% / %.2f%% -> %.2f%% / %.2f%% | %d -> %d" % (
            self.head[0], self.head[2] / nb, self.head[1], self.head[3] / nb,
            100 * self.cog[0], 100 * self.cog[2] / nb, 100 * self.cog[1], 100 * self.cog[3] / nb,
            self.toes[0], self.toes[1])
        return "| %s | %d | %s | %s | %s (%d / %d / %d / %d) | %.3f%% | %.3f%% -> %.3f%% | %.2f%% -> %.2f%% | %.3f | %s | %d -> %d (%d) / %d -> %d | %s | %.0f |" % (
            label, self.frames, self.hands(self.hb), self.hands(self.ha), self.hands(self.ra),
            self.far[0], self.far[1], self.far[2], self.far[3], 100 * self.slide,
            100 * self.slidemax[0], 100 * self.slidemax[1],
            100 * self.floor[0], 100 * self.floor[1], self.drift, pen, self.past[0], self.past[1],
            self.worse, self.past[2], self.past[3], body, self.ms)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        extra = argv[i + 1:]
        argv = argv[:i]
    here = os.path.dirname(os.path.abspath(__file__))
    posekit = os.path.join(here, "..", "..", "build", "cli", "posekit")
    corpus = os.environ.get("PK_CORPUS", os.path.join(here, "..", "..", "..", "shared", "corpus"))
    per_dance = False
    only_d = only_m = None
    while argv:
        a = argv.pop(0)
        if a == "--posekit":
            posekit = argv.pop(0)
        elif a == "--corpus":
            corpus = argv.pop(0)
        elif a == "--per-dance":
            per_dance = True
        elif a == "--dances":
            only_d = argv.pop(0).split(",")
        elif a == "--models":
            only_m = argv.pop(0).split(",")
        elif a == "--keep":
            global KEEP
            KEEP = argv.pop(0)
            os.makedirs(KEEP, exist_ok=True)
        else:
            sys.exit(__doc__)
    ds = [d for d in dances(corpus, posekit) if not only_d or any(x in d for x in only_d)]
    ms = [m for m in MODELS if not only_m or any(x in m for x in only_m)]
    print("dances: " + ", ".join(ds))
    print("options: " + (" ".join(extra) if extra else "(none)"))
    print()
    print("| A -> B | contact frames | hands before (mean / p95) | hands after | reachable after | "
          "slide+ | slidemax | floor95 | drift deg | pen frames | elbow / knee past | head deg | cog | "
          "toes | ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    total = Acc()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for a in ms:
            for b in ms:
                if a == b:
                    continue
                acc = Acc()
                for d in ds:
                    r, t, err = run(posekit, corpus, d, a, b, extra, tmp)
                    if r is None:
                        failures.append("%s %s -> %s: %s" % (d, a, b, " ".join(err)))
                        continue
                    acc.add(r, t)
                    total.add(r, t)
                    total.bodies = True
                    if per_dance:
                        one = Acc()
                        one.add(r, t)
                        print(one.row("  %s %s -> %s" % (d[4:-4], SHORT[a], SHORT[b])))
                print(acc.row("%s -> %s" % (SHORT[a], SHORT[b])))
    print(total.row("all"))
    for f in failures:
        print("failed: " + f)


if __name__ == "__main__":
    main()
