# retarget with rules/a-to-t-stance.yaml: the arm bone's rotation q becomes
# q·r⁻¹ (r = 35° about Z for the left arm): from rest that is
# (0, 0, -sin 17.5°, cos 17.5°) = (0, 0, -0.300706, 0.953717); the right arm
# gets a key (it had none) with (0, 0, +0.300706, 0.953717).
vmd_header 'model' > in.vmd
pack 'V' 2 >> in.vmd
vmd_bone '\x8d\xb6\x98\x72' 0 0 0 0 0 0 0 1 >> in.vmd        # 左腕 at rest
vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 1 2 3 0 0 0 1 >> in.vmd   # センター
pack 'V' 0 >> in.vmd
printf 'include: [a-to-t-stance.yaml]\nscale:\n  bones: {センター: 0.5}\n' > r.yaml
cp "$PK_SOURCE/rules/a-to-t-stance.yaml" .
expect_exit 0 "$POSEKIT" retarget in.vmd --rules r.yaml -o out.vmd
expect_stderr <<'ERR'
posekit retarget: 0 of 2 bones renamed, 0 of 0 morphs renamed; 2 keys changed, 1 added
ERR
expect_exit 0 "$POSEKIT" dump out.vmd
need_cmd python3
expect_eq "$(json_eval _stdout '[round(x, 6) for x in d["bones"][0]["rot"]]')" "[0.0, 0.0, -0.300706, 0.953717]" left
expect_eq "$(json_eval _stdout 'd["bones"][1]["pos"]')" "[0.5, 1.0, 1.5]" scaled
expect_eq "$(json_eval _stdout 'd["bones"][2]["name"]')" "右腕" added
expect_eq "$(json_eval _stdout '[round(x, 6) for x in d["bones"][2]["rot"]]')" "[0.0, 0.0, 0.300706, 0.953717]" right
expect_exit 2 "$POSEKIT" retarget in.vmd -o out2.vmd
expect_stderr_contains "no rules given"
expect_no_file out2.vmd
