# retarget with rules/a-to-t-stance.yaml: the arm bone's rotation q becomes
# q·r⁻¹ (r = 35° about Z for the left arm): from rest that is
# (0, 0, -sin 17.5°, cos 17.5°) = (0, 0, -0.300706, 0.953717).  The right
# arm has no key and no bone of its chain (@arm_below_R) has one either: the
# rule does not apply to this motion, so a warning and no key (an error with
# --strict); the keys are counted once: in, out, changed (bytes differ),
# added, removed (2 changed).
vmd_header 'model' > in.vmd
pack 'V' 2 >> in.vmd
vmd_bone '\x8d\xb6\x98\x72' 0 0 0 0 0 0 0 1 >> in.vmd        # 左腕 at rest
vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 1 2 3 0 0 0 1 >> in.vmd   # センター
pack 'V' 0 >> in.vmd
printf 'include: [a-to-t-stance.yaml]\nscale:\n  bones: {センター: 0.5}\n' > r.yaml
cp "$PK_SOURCE/rules/a-to-t-stance.yaml" .
expect_exit 0 "$POSEKIT" retarget in.vmd --rules r.yaml -o out.vmd
expect_stderr <<'ERR'
posekit: in.vmd: warning: stance bone '右腕' is not in the motion and no bone of its chain is; nothing added for it
posekit retarget: 0 of 2 bones renamed, 0 of 0 morphs renamed; 2 keys in, 2 out: 2 changed, 0 added, 0 removed
ERR
expect_exit 0 "$POSEKIT" dump out.vmd
need_cmd python3
expect_eq "$(json_eval _stdout '[round(x, 6) for x in d["bones"][0]["rot"]]')" "[0.0, 0.0, -0.300706, 0.953717]" left
expect_eq "$(json_eval _stdout 'd["bones"][1]["pos"]')" "[0.5, 1.0, 1.5]" scaled
expect_eq "$(json_eval _stdout 'len(d["bones"])')" "2" "no key added"
expect_exit 2 "$POSEKIT" retarget in.vmd --rules r.yaml -o strict.vmd --strict
expect_stderr_contains "stance bone '右腕' is not in the motion"
expect_no_file strict.vmd

# A key of the chain (右ひじ) off rest without the stance bone: the right
# arm's rest orientation must turn, so it gets a key at frame 0 with (0, 0,
# +0.300706, 0.953717), and the bent elbow key is conjugated (changed).
vmd_header 'model' > in2.vmd
pack 'V' 2 >> in2.vmd
vmd_bone '\x8d\xb6\x98\x72' 0 0 0 0 0 0 0 1 >> in2.vmd        # 左腕 at rest
vmd_bone '\x89\x45\x82\xd0\x82\xb6' 5 0 0 0 0 0.6 0 0.8 >> in2.vmd   # 右ひじ bent
pack 'V' 0 >> in2.vmd
expect_exit 0 "$POSEKIT" retarget in2.vmd --rules a-to-t-stance.yaml -o chain.vmd --strict
expect_stderr <<'ERR'
posekit retarget: 0 of 2 bones renamed, 0 of 0 morphs renamed; 2 keys in, 3 out: 2 changed, 1 added, 0 removed
ERR
expect_exit 0 "$POSEKIT" dump chain.vmd
expect_eq "$(json_eval _stdout 'd["bones"][2]["name"]')" "右腕" added
expect_eq "$(json_eval _stdout '[round(x, 6) for x in d["bones"][2]["rot"]]')" "[0.0, 0.0, 0.300706, 0.953717]" right

# The same elbow at rest: MMD shows a resting key as no key, so the chain
# does not move and the rule does not apply to the right arm (a warning
# naming the resting chain; no key).  The left arm's key is rewritten.
vmd_header 'model' > in3.vmd
pack 'V' 2 >> in3.vmd
vmd_bone '\x8d\xb6\x98\x72' 0 0 0 0 0 0 0 1 >> in3.vmd        # 左腕 at rest
vmd_bone '\x89\x45\x82\xd0\x82\xb6' 5 0 0 0 0 0 0 1 >> in3.vmd   # 右ひじ at rest
pack 'V' 0 >> in3.vmd
expect_exit 0 "$POSEKIT" retarget in3.vmd --rules a-to-t-stance.yaml -o rest.vmd
expect_stderr <<'ERR'
posekit: in3.vmd: warning: stance bone '右腕' is not in the motion and no bone of its chain moves (1 key of it, all at rest, the first '右ひじ'); nothing added for it
posekit retarget: 0 of 2 bones renamed, 0 of 0 morphs renamed; 2 keys in, 2 out: 1 changed, 0 added, 0 removed
ERR

# doc/commands.md's case ("With rules"): the stand motion renamed to English,
# played with the Japanese stance rules.  ja-en leaves the finger tips
# (左中指先 ...) Japanese and resting, and @arm_below_L's globs match them;
# the arms are arm_L/arm_R.  Neither arm gets a (Japanese) key: a warning
# each, the run changes nothing (--strict: an error, nothing written).
if [ -n "${PK_CORPUS:-}" ] && [ -d "$PK_CORPUS" ]; then
    cp "$PK_SOURCE/rules/ja-en.yaml" .
    expect_exit 0 "$POSEKIT" rename "$PK_CORPUS/vmd_mmdagent_stand.vmd" --rules ja-en.yaml -o stand_en.vmd
    expect_exit 0 "$POSEKIT" retarget stand_en.vmd --rules a-to-t-stance.yaml -o rt2.vmd
    expect_stderr_contains "posekit: stand_en.vmd: warning: stance bone '左腕' is not in the motion and no bone of its chain moves (13 keys of it, all at rest, the first '左親指先'); nothing added for it"
    expect_stderr_contains "posekit: stand_en.vmd: warning: stance bone '右腕' is not in the motion and no bone of its chain moves"
    expect_stderr_contains "nothing to retarget: no key changed, the output is the input unchanged"
    expect_stderr_contains "posekit retarget: 0 of 222 bones renamed, 0 of 178 morphs renamed; 647 keys in, 647 out: 0 changed, 0 added, 0 removed"
    expect_same_bytes stand_en.vmd rt2.vmd
    expect_exit 2 "$POSEKIT" retarget stand_en.vmd --rules a-to-t-stance.yaml -o rt2s.vmd --strict
    expect_no_file rt2s.vmd
    # the Japanese motion itself: its arms are keyed, rewritten as before;
    # its 8 duplicate keys (names MMD cut to the same 15 bytes) are dropped
    # and counted among the removed
    expect_exit 0 "$POSEKIT" retarget "$PK_CORPUS/vmd_mmdagent_stand.vmd" --rules a-to-t-stance.yaml -o stand_t.vmd
    expect_stderr_contains "posekit retarget: 0 of 222 bones renamed, 0 of 178 morphs renamed; 655 keys in, 647 out: 70 changed, 0 added, 8 removed (8 of them duplicates: of two records of one key the later wins, as MMD reads them)"
    expect_exit 0 "$POSEKIT" info stand_t.vmd
    expect_stderr_lacks "duplicate"
fi

# Scale only: every key of a bone with a factor is multiplied, but a key
# at the origin keeps its bytes and is not counted as changed.
printf 'scale:\n  default: 2\n' > s.yaml
expect_exit 0 "$POSEKIT" retarget in.vmd --rules s.yaml -o out3.vmd
expect_stderr <<'ERR'
posekit retarget: 0 of 2 bones renamed, 0 of 0 morphs renamed; 2 keys in, 2 out: 1 changed, 0 added, 0 removed
ERR
expect_exit 2 "$POSEKIT" retarget in.vmd -o out2.vmd
expect_stderr_contains "no rules given"
expect_no_file out2.vmd
