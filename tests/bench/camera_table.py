#!/usr/bin/env python3
"""camera_table.py — retarget's camera correction measured on the corpus
camera (vmd_wavefile_camera.vmd, made for vmd_wavefile_v2.vmd) for pairs of
corpus models, one run of

    posekit retarget CAMERA --from A --to B --motion DANCE -o OUT.vmd --json [OPTIONS]

each, and a table of the screen errors
(doc/commands.md, "The camera: --motion DANCE").  Not a test: it prints.

usage: camera_table.py [--posekit BIN] [--corpus DIR] [--pairs A:B,...]
                       [--certify BENCH_CAMERA_BOUND [--budget CELLS]]
                       [-- RETARGET OPTIONS...]

Columns (screen heights, over the frames where A's head is on the screen;
worst / mean distance of B's head, wrists and ankles from A's):
  moved           the camera written
  frame by frame  the correction at every frame, before the keys
  bound           the best camera per frame (every parameter free, the view
                  angle a whole degree; the least any camera was found to
                  leave, searched from several starts)
  unchanged       the camera as it was
  within 2%       frames whose every point is within 2%: moved, frame by
                  frame, bound of the frames measured (unchanged)
  out of reach    frames the bound misses 2% on, in how many runs of frames
  keys            camera keys in → out (the new shots cut to)
  turn            the largest turn of the camera written (degrees, measured
                  frames outside the new shots)
  frame to frame  the largest turn (degrees) and eye move (how far it moves
                  the head on the screen, screen heights) from one frame to
                  the next, written (original's in parentheses; not at cuts)
  CPU s           the run's CPU time (user + system, seconds)
  certified       (with --certify: build-rel/tests/bench/bench_camera_bound
                  run on the frames out of reach, B's dance written by
                  `posekit retarget DANCE --from A --to B` with the same
                  options) of those frames: proved out of reach / a camera
                  found within 2% / left open within the budget of cells
then the runs' wall and CPU time.
"""
import json
import os
import resource
import re
import subprocess
import sys
import tempfile
import time

SHORT = {"pmx_gene.pmx": "Gene", "pmd_gene.pmd": "Gene (PMD)",
         "pmx_nanoem_miku_bones.pmx": "classic", "pmx_mmt_test_model.pmx": "mmt",
         "pmd_mei.pmd": "Mei", "pmd_sd_mei.pmd": "SD Mei", "@classic": "@classic"}
PAIRS = ([("@classic", b) for b in ("pmx_gene.pmx", "pmx_mmt_test_model.pmx", "pmd_mei.pmd",
                                    "pmd_sd_mei.pmd")]
         + [("pmx_gene.pmx", b) for b in ("pmd_gene.pmd", "pmx_nanoem_miku_bones.pmx",
                                          "pmx_mmt_test_model.pmx", "pmd_mei.pmd",
                                          "pmd_sd_mei.pmd")]
         + [(a, "pmx_gene.pmx") for a in ("pmx_mmt_test_model.pmx", "pmd_mei.pmd",
                                          "pmd_sd_mei.pmd")])


def pct(p):
    return "%.2f%% / %.2f%%" % (100 * p["worst"], 100 * p["mean"])


def main(argv):
    posekit, corpus, pairs, extra = "build/cli/posekit", os.environ.get("PK_CORPUS", ""), PAIRS, []
    certify, budget = None, "100000"
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    i = 0
    while i < len(argv):
        if argv[i] == "--posekit":
            posekit = argv[i + 1]
        elif argv[i] == "--corpus":
            corpus = argv[i + 1]
        elif argv[i] == "--certify":
            certify = argv[i + 1]
        elif argv[i] == "--budget":
            budget = argv[i + 1]
        elif argv[i] == "--pairs":
            pairs = [tuple(p.split(":")) for p in argv[i + 1].split(",")]
        else:
            sys.exit(__doc__)
        i += 2
    if not corpus:
        sys.exit("camera_table.py: --corpus DIR (or PK_CORPUS)")
    # the built-in bodies (@classic) of the source tree, unless told
    os.environ.setdefault("POSEKIT_BODIES_DIR", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "rules", "bodies"))
    c = lambda n: n if n.startswith("@") or os.sep in n else os.path.join(corpus, n)
    print("| A → B | moved | frame by frame | bound | unchanged | frames within 2%: moved, frame by frame, bound (unchanged) | out of reach | keys | turn | frame to frame | CPU s |"
          + (" certified |" if certify else ""))
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if certify else ""))
    total = total_cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for a, b in pairs:
            t0 = time.time()
            u0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = subprocess.run([posekit, "retarget", c("vmd_wavefile_camera.vmd"), "--from", c(a),
                                "--to", c(b), "--motion", c("vmd_wavefile_v2.vmd"), "-o",
                                os.path.join(tmp, "cam.vmd"), "--json"] + extra,
                               capture_output=True, text=True)
            ms = 1000 * (time.time() - t0)
            u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = u1.ru_utime - u0.ru_utime + u1.ru_stime - u0.ru_stime
            if r.returncode != 0:
                print("| %s → %s | failed: %s |" % (a, b, r.stderr.strip().splitlines()[-1]))
                continue
            cam = json.loads(r.stdout)["camera"]
            bound = pct(cam["bound"]) if "bound" in cam else pct(cam["frame_by_frame"])
            sd, se = cam.get("step_deg", {}), cam.get("step_eye", {})
            unmet = cam.get("unmet_frames", [])
            cert = ""
            if certify and unmet:
                dance_b = os.path.join(tmp, "dance_b.vmd")
                subprocess.run([posekit, "retarget", c("vmd_wavefile_v2.vmd"), "--from", c(a),
                                "--to", c(b), "-o", dance_b] + extra, capture_output=True,
                               check=True)
                frames = ",".join("%d-%d" % (x, y) for x, y in unmet)
                q = subprocess.run([certify, c("vmd_wavefile_camera.vmd"), c(a),
                                    c("vmd_wavefile_v2.vmd"), c(b), dance_b, "--frames", frames,
                                    "--budget", budget, "--quiet"],
                                   capture_output=True, text=True, check=True)
                m = re.search(r"proved out of reach (\d+), reachable (\d+), open (\d+)", q.stdout)
                cert = " %s / %s / %s |" % m.groups()
            elif certify:
                cert = " - |"
            print("| %s → %s | %s | %s | %s | %s | %d, %s, %s of %d (%d) | %d in %d | %d → %d%s | %.1f° | %.2f°, %.1f%% (%.2f°, %.1f%%) | %.1f |" % (
                SHORT.get(a, a), SHORT.get(b, b), pct(cam["moved"]),
                pct(cam["frame_by_frame"]), bound,
                pct(cam["unchanged"]), cam["within_goal"],
                cam.get("within_goal_frame_by_frame", "-"), cam.get("within_goal_bound", "-"),
                cam["frames"], cam["within_goal_unchanged"],
                sum(b - a + 1 for a, b in unmet), len(unmet), cam["keys_in"], cam["keys_out"],
                " (%d new shot%s)" % (cam["cuts"], "" if cam["cuts"] == 1 else "s")
                if cam.get("cuts") else "", cam.get("turn_deg", 0), sd.get("moved", 0), 100 * se.get("moved", 0),
                sd.get("unchanged", 0), 100 * se.get("unchanged", 0), cpu) + cert)
            total_cpu += cpu
            total += ms
            sys.stdout.flush()
    print("\n(%d run%s, %.1f s wall, %.1f s CPU)" % (len(pairs), "" if len(pairs) == 1 else "s",
                                                 total / 1000, total_cpu))


if __name__ == "__main__":
    main(sys.argv[1:])
