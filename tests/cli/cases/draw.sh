# draw: a pose on a model as a stick figure.  Well-formed SVG (xmllint),
# one bone line per visible bone with a tail (counted from the model's own
# dump), per view and per figure; --vs draws the second figure's lines;
# --json gives every bone's world transform (a moved センター lands where
# the key puts it); the output rules; and the job step `draw` writes the
# same bytes as the command (.svg and .json).
need_corpus
need_cmd xmllint
cp "$(corpus pmx_nanoem_miku_bones.pmx)" miku.pmx
cp "$(corpus vpd_keitel_03.vpd)" k3.vpd
cp "$(corpus vpd_keitel_04.vpd)" k4.vpd
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
# センター moved up 2 and right 1, 上半身 turned 90 degrees about Y
vpd_text 'm' '\x83\x5a\x83\x93\x83\x5e\x81\x5b|1,2,0|0,0,0,1' \
    '\x8f\xe3\x94\xbc\x90\x67|0,0,0|0,0.7071068,0,0.7071068' >moved.vpd

expect_exit 0 "$POSEKIT" dump miku.pmx
# a line per visible bone with a tail, but for IK bones (a goal mark) and
# the model's one control bone, センター (the parent of 上半身 and 下半身:
# a mark at its place; its tail is a pole down through the floor)
lines=$(json_eval "$OUT" 'sum(1 for i, b in enumerate(d["bones"]) if b["flags"] & 8 and not b["flags"] & 32 and b["name"] != "センター" and ((isinstance(b["tail"], int) and b["tail"] >= 0 and b["tail"] != i) or (isinstance(b["tail"], list) and any(b["tail"]))))')
[ "$lines" -gt 50 ] || fail "expected many drawable bones, counted $lines"
nbones=$(json_eval "$OUT" 'len(d["bones"])')

count() { grep -o "class=\"$1\"" "$2" | wc -l; }

expect_exit 0 "$POSEKIT" draw k3.vpd --model miku.pmx -o one.svg
expect_stderr_contains 'posekit draw: 1 figure drawn'
xmllint --noout one.svg || fail "one.svg is not well-formed"
expect_eq "$(count bone one.svg)" "$lines" "bone lines"
grep -q '<title>左ひじ (arm_L' one.svg || grep -q '<title>左ひじ' one.svg || fail "no hover name"
grep -q "Noto Sans CJK JP" one.svg || fail "no CJK font list"
grep -q 'class="ik"' one.svg || fail "no IK goal marked"
expect_eq "$(grep -o '<rect class="control"[^>]*><title>[^<]*' one.svg | sed 's/.*<title>//')" \
    "センター (center) (control bone: its place)" "control marks"
# hair and necktie IK goals in their own style: the model's 左髪ＩＫ,
# 右髪ＩＫ, ﾈｸﾀｲＩＫ
expect_eq "$(grep -c 'class="ik-other"' one.svg)" 3 "IK goals of hair and clothes"
expect_eq "$(grep -c 'class="ik"' one.svg)" 4 "IK goals of the legs and toes"
grep -q 'class="ground"' one.svg || fail "no ground line"
grep -q 'k3.vpd on miku.pmx' one.svg || fail "title names the files"

expect_exit 0 "$POSEKIT" draw k3.vpd --model miku.pmx --view all -o all.svg
xmllint --noout all.svg || fail "all.svg is not well-formed"
expect_eq "$(count bone all.svg)" "$((3 * lines))" "bone lines, three views"

expect_exit 0 "$POSEKIT" draw dance.vmd --model miku.pmx --frames 0-150 --every 30 -o strip.svg
expect_stderr_contains '6 figures drawn'
xmllint --noout strip.svg || fail "strip.svg is not well-formed"
expect_eq "$(count bone strip.svg)" "$((6 * lines))" "bone lines, 6 figures"
grep -q 'frames 0-150 every 30' strip.svg || fail "strip title"
grep -q '>frame 150<' strip.svg || fail "the last figure's label"
# a range past the last key (150) stops there, warned: after it the motion
# holds its last pose, and 0-10000 would draw frames 0, 1429, ... 8574,
# every one that pose; --strict refuses it; a range wholly after the last
# key has no frame of the motion to draw
expect_exit 0 "$POSEKIT" draw dance.vmd --model miku.pmx --frames 0-10000 -o past.svg
expect_stderr_contains 'posekit draw: warning: frames 0-10000 run past the last key of dance.vmd (frame 150), after which a motion holds its last pose: drawing frames 0-150'
expect_stderr_contains "8 figures drawn"
grep -q 'frames 0-150 every 22' past.svg || fail "past.svg: the range within the motion"
grep -q '>frame 132<' past.svg || fail "past.svg: frame 132"
grep -q '>frame 1429<' past.svg && fail "past.svg: a frame after the last key"
expect_exit 0 "$POSEKIT" draw dance.vmd --model miku.pmx --frames 100-10000 --every 25 -o past2.svg
expect_stderr_contains 'drawing frames 100-150'
expect_stderr_contains '3 figures drawn'
expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --frames 0-10000 --strict -o strict.svg
expect_no_file strict.svg
expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --frames 200-300 -o after.svg
expect_stderr_contains 'draw: frames 200-300 lie after the last key of dance.vmd (frame 150)'
expect_no_file after.svg
# a pose holds at every frame: with --vs it sets no end, the motion does
expect_exit 0 "$POSEKIT" draw k3.vpd --vs dance.vmd --model miku.pmx --frames 0-400 -o pv.svg
expect_stderr_contains 'run past the last key of dance.vmd (frame 150)'

expect_exit 0 "$POSEKIT" draw k3.vpd --vs k4.vpd --model miku.pmx -o vs.svg
xmllint --noout vs.svg || fail "vs.svg is not well-formed"
expect_eq "$(count bone vs.svg)" "$lines" "bone lines of the pose"
expect_eq "$(count vsbone vs.svg)" "$lines" "bone lines of the vs pose"
grep -q '>thin: k3.vpd; thick underneath: k4.vpd, ' vs.svg || fail "no legend for the shading"
grep -q ' deg apart as drawn (keys [0-9.]* deg)</title>' vs.svg || fail "no degrees on hover"
# the picture is as wide as its drawing, not as its title: the title names
# the files without their folders and wraps; every title line fits the
# picture (at least 0.62 em a character: Noto Sans CJK JP Bold draws
# this one at 0.56, DejaVu Sans Bold at 0.64)
mkdir -p some/deep/folder
cp k4.vpd some/deep/folder/a_rather_long_second_pose_name.vpd
cp miku.pmx some/deep/folder/second_model_with_a_long_name.pmx
expect_exit 0 "$POSEKIT" draw "$PWD/dance.vmd" --frame 45 --model "$PWD/miku.pmx" \
    --vs some/deep/folder/a_rather_long_second_pose_name.vpd \
    --vs-model some/deep/folder/second_model_with_a_long_name.pmx -o long.svg
python3 - long.svg <<'PY' || fail "long.svg: the picture follows its title"
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
width = int(re.search(r'<svg [^>]*width="(\d+)"', svg).group(1))
panel = max(float(w) for w in re.findall(r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="none" stroke="#e0e0e0"', svg))
title = re.findall(r'font-weight="bold">([^<]*)<', svg)
assert len(title) > 1, title
text = " ".join(title)
assert "/" not in text, text
assert text.startswith("dance.vmd vs a_rather_long_second_pose_name.vpd on miku.pmx"), text
assert text.endswith("(a_rather_long_second_pose_name.vpd on second_model_with_a_long_name.pmx), frame 45"), text
for t in title:
    assert 10 + 0.62 * 15 * len(t) <= width, (t, width)
# the canvas: the drawing, or the 400 px a legend line needs, and margins
assert width <= max(panel, 400) + 30, (width, panel)
PY

expect_exit 0 "$POSEKIT" draw k3.vpd --model miku.pmx --bones '左ひじ,左手首' -o sel.svg
expect_eq "$(count bone sel.svg)" 2 "bone lines of a selection"
# the legend lists what the picture shows: no IK goal, centre or right
# side for two left arm bones; all of them for the whole figure
grep -q '>left (左)<' sel.svg || fail "sel.svg: no legend for the left side"
for absent in 'IK goal' '>centre<' '>right (右)<'; do
    grep -q "$absent" sel.svg && fail "sel.svg: the legend lists '$absent', which is not drawn"
done
for present in 'IK goal (hollow' '>centre<' '>left (左)<' '>right (右)<'; do
    grep -q "$present" one.svg || fail "one.svg: the legend lacks '$present'"
done
# a selection that leaves nothing to draw is an error (as in diff), not an
# empty frame: no bone of that name, a glob that matches none, bones MMD
# hides; with --json too, and as a job step
for spec in 存在しない 'zz*'; do
    expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --bones "$spec" -o none.svg
    expect_stderr_contains "draw: the selection '$spec' matches no bone of miku.pmx: nothing to draw"
    expect_stderr_lacks 'drawn'
    expect_no_file none.svg
done
expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --bones '頭先,左目先' --json -o none.json
expect_stderr_contains "the selection '頭先,左目先' matches 2 bones of miku.pmx, none of them visible"
expect_no_file none.json
expect_exit 2 "$POSEKIT" draw k3.vpd --vs k4.vpd --model miku.pmx --bones 'zz*' -o none.svg
expect_stderr_contains "the selection 'zz*' matches no bone of miku.pmx"
expect_no_file none.svg
cat >none.yaml <<'YAML'
inputs: {dance.vmd: dance.vmd, miku.pmx: miku.pmx}
steps:
  - draw: {in: dance.vmd, model: miku.pmx, bones: "zz*", out: pic}
outputs: {pic: none.svg}
YAML
expect_exit 2 "$POSEKIT" run none.yaml
expect_stderr_contains "none.yaml:3:5: the selection 'zz*' matches no bone of miku.pmx: nothing to draw"
expect_no_file none.svg
# a name of the selection that matches no bone beside others that do is
# a warning naming the model, with the nearest name (as in diff, overlay,
# reduce); --strict: an error, nothing written
expect_exit 0 "$POSEKIT" draw dance.vmd --model miku.pmx --bones 'センター,右人指1' -o some.svg
expect_stderr_contains "posekit: miku.pmx: warning: '右人指1' in the selection matches no bone of the model; did you mean '右人指１'"
expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --bones 'センター,右人指1' -o some2.svg --strict
expect_no_file some2.svg

# --json: world transforms; センター at rest (0,8,0) moved by (1,2,0)
expect_exit 0 "$POSEKIT" draw moved.vpd --model miku.pmx --json
expect_eq "$(json_eval "$OUT" 'len(d["figures"][0]["bones"])')" "$nbones" "bones in the JSON"
expect_eq "$(json_eval "$OUT" '[round(float(v), 6) for v in d["figures"][0]["bones"][0]["pos"]]')" "[1.0, 10.0, 0.0]"
expect_eq "$(json_eval "$OUT" 'd["figures"][0]["bones"][0]["name"]')" "センター"
# 上半身 turned 90 degrees about Y: its child 首 swings from -z to x
expect_eq "$(json_eval "$OUT" '[round(b["rot"][1], 4) for b in d["figures"][0]["bones"] if b["name"] == "首"]')" "[0.7071]"
expect_exit 0 "$POSEKIT" draw moved.vpd --model miku.pmx --json -o w.json
expect_file w.json
# --bones with --json: the bones the selection names, in model order,
# visible or not (頭先 is hidden)
expect_exit 0 "$POSEKIT" draw moved.vpd --model miku.pmx --json --bones '首,センター,頭先'
expect_eq "$(json_eval "$OUT" '[b["name"] for b in d["figures"][0]["bones"]]')" "['センター', '首', '頭先']"
expect_eq "$(json_eval "$OUT" '[round(b["rot"][1], 4) for b in d["figures"][0]["bones"] if b["name"] == "首"]')" "[0.7071]"

# output rules: never an input or the model, .svg (.json with --json)
expect_exit 2 "$POSEKIT" draw k3.vpd --model miku.pmx -o k3.vpd
expect_stderr_contains 'is an input'
expect_exit 2 "$POSEKIT" draw k3.vpd --model miku.pmx -o out.png
expect_stderr_contains 'name it NAME.svg'
expect_exit 2 "$POSEKIT" draw k3.vpd --model miku.pmx --json -o out.svg
expect_stderr_contains 'name it NAME.json'
cp miku.pmx m2.svg
expect_exit 2 "$POSEKIT" draw k3.vpd --model m2.svg -o m2.svg
expect_stderr_contains "-o 'm2.svg' is the model this command reads: it would be overwritten"
expect_exit 2 "$POSEKIT" draw k3.vpd -o x.svg
expect_stderr_contains 'no model given'
expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --every 5 -o x.svg
expect_stderr_contains '--every needs --frames'
expect_exit 2 "$POSEKIT" draw k3.vpd --model miku.pmx --frame 3 -o x.svg
expect_stderr_contains '--frame applies to a motion (VMD); k3.vpd is a pose'
expect_exit 2 "$POSEKIT" draw k3.vpd --vs k4.vpd --model miku.pmx --frames 0-9 -o x.svg
expect_stderr_contains '--frames applies to a motion (VMD); k3.vpd and k4.vpd are poses'
expect_exit 2 "$POSEKIT" draw dance.vmd --model miku.pmx --frames 0-150 --every 1 -o x.svg
expect_stderr_contains 'more than 60 figures'
expect_no_file x.svg

# the job step: the same bytes as the command, as .svg and as .json
cat >job.yaml <<'YAML'
inputs: {k3.vpd: k3.vpd, k4.vpd: k4.vpd, dance.vmd: dance.vmd, miku.pmx: miku.pmx}
steps:
  - draw: {in: k3.vpd, vs: k4.vpd, model: miku.pmx, view: all, out: pic}
  - draw: {in: dance.vmd, model: miku.pmx, frames: 0-150, every: 30, out: strip}
outputs: {pic: job_vs.svg, strip: job_strip.svg}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_stdout_contains 'draw k3.vpd, k4.vpd -> pic: 1 figure drawn, the two poses overlaid in each'
expect_stdout_contains 'draw dance.vmd -> strip: 6 figures drawn'
expect_exit 0 "$POSEKIT" draw k3.vpd --vs k4.vpd --model miku.pmx --view all -o cli_vs.svg
expect_same_bytes cli_vs.svg job_vs.svg
expect_same_bytes strip.svg job_strip.svg
cat >job2.yaml <<'YAML'
inputs: {moved.vpd: moved.vpd, miku.pmx: miku.pmx}
steps:
  - draw: {in: moved.vpd, model: miku.pmx, out: w}
outputs: {w: job_w.json}
YAML
expect_exit 0 "$POSEKIT" run job2.yaml
expect_same_bytes w.json job_w.json
# a picture is not a motion: refused as .vmd
sed 's/job_w.json/job_w.vmd/' job2.yaml >job3.yaml
expect_exit 2 "$POSEKIT" run job3.yaml
expect_stderr_contains 'write it as .svg'

# diff --svg with --model: the table, then the two poses drawn over each
# other (one well-formed document: two nested pictures)
expect_exit 1 "$POSEKIT" diff k3.vpd k4.vpd --model miku.pmx --svg dm.svg
xmllint --noout dm.svg || fail "dm.svg is not well-formed"
expect_eq "$(count bone dm.svg)" "$lines" "bone lines under diff's table"
expect_eq "$(count vsbone dm.svg)" "$lines" "vs bone lines under diff's table"
grep -q 'Bone rotation (degrees)' dm.svg || fail "diff's bars are gone"
expect_exit 1 "$POSEKIT" diff k3.vpd k4.vpd --svg plain.svg
expect_eq "$(count bone plain.svg)" 0 "no figures without --model"
expect_exit 0 "$POSEKIT" diff dance.vmd dance.vmd --frames 0-150 --model miku.pmx --svg dr.svg
xmllint --noout dr.svg || fail "dr.svg is not well-formed"
expect_eq "$(count bone dr.svg)" "$((8 * lines))" "a strip (frames 0, 22, ... 132 and 150) under a range diff"

# a retarget's input and output drawn together (--vs, the output on its
# model): the gap labels of the contacts (two hands on one place, here
# both hands on the belly of SD Mei at frame 0) each on a line of its
# own, not printed over each other, and no gap of "-0.0%"
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o bow_sd.vmd
expect_exit 0 "$POSEKIT" draw bow.vmd --model mei.pmd --vs bow_sd.vmd --vs-model sd.pmd --frame 0 -o gaps.svg
xmllint --noout gaps.svg || fail "gaps.svg is not well-formed"
[ "$(grep -c '>gap ' gaps.svg)" -ge 2 ] || fail "expected two gap labels at least"
! grep -q -- '-0\.0%' gaps.svg || fail "a gap printed as -0.0%"
# each label's box (9-pixel text, its width at 0.6 em a character at
# most): none meets another
python3 - gaps.svg <<'PY' || fail "gap labels drawn over each other"
import re, sys
boxes = [(float(x), float(y), len(t) * 9 * 0.6) for x, y, t in
         re.findall(r'<text x="([0-9.]+)" y="([0-9.]+)" font-size="9"[^>]*>(gap [^<]*)<', open(sys.argv[1]).read())]
for i, a in enumerate(boxes):
    for b in boxes[:i]:
        if abs(a[1] - b[1]) < 9 and a[0] < b[0] + b[2] and b[0] < a[0] + a[2]:
            sys.exit("overlap: %r %r" % (a, b))
PY
# every view at once: each label inside its own panel, the narrow top
# view's too (they ran past it, over the figure beside; 0.5 em a
# character, the least a digit takes)
expect_exit 0 "$POSEKIT" draw bow.vmd --model mei.pmd --vs bow_sd.vmd --vs-model sd.pmd --frame 0 --view all -o gaps_all.svg
python3 - gaps_all.svg <<'PY' || fail "a gap label runs out of its panel"
import re, sys
svg = open(sys.argv[1]).read()
panels = [tuple(map(float, r)) for r in re.findall(
    r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)" fill="none" stroke="#e0e0e0"', svg)]
assert len(panels) == 3, panels
labels = re.findall(r'<text x="([0-9.]+)" y="([0-9.]+)" font-size="9"[^>]*>(gap [^<]*)<', svg)
assert len(labels) >= 6, labels
for x, y, t in labels:
    x, y, w = float(x), float(y), len(t) * 9 * 0.5
    if not any(px <= x and x + w <= px + pw and py <= y <= py + ph for px, py, pw, ph in panels):
        sys.exit("out of every panel: %s at %.1f,%.1f (%.0f px wide); panels %r" % (t, x, y, w, panels))
PY

# a bare test model whose bones all stand at the origin: a figure of no
# size, drawn at a readable scale (the bar read "2e-10 units
# (440000000000.00 px per unit)")
cp "$(corpus pmx_babylon_bone_flag_test.pmx)" bare.pmx
expect_exit 0 "$POSEKIT" draw bow.vmd --model bare.pmx -o bare.svg
xmllint --noout bare.svg || fail "bare.svg is not well-formed"
grep -qE '>0\.5 units \(220\.00 px per unit\)<' bare.svg || fail "the scale bar of a figure of no size: $(grep -o '[^>]*px per unit[^<]*' bare.svg)"
