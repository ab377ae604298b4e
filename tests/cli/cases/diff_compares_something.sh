# diff never says "identical" when it compared nothing:
# a --bones selection that matches nothing is an error; a selection that
# names no morph compares no morphs; cameras, lights and self-shadows are
# compared channel by channel.
DANCE="$PK_SOURCE/samples/dance.vmd"
FIST="$PK_SOURCE/samples/hands/right_fist.vpd"

expect_exit 2 "$POSEKIT" diff "$DANCE" "$DANCE" --bones 存在しない
expect_stderr_contains "the selection '存在しない' matches no bone or morph of either input"
expect_stdout_empty
expect_exit 2 "$POSEKIT" diff "$DANCE" "$DANCE" --frames all --bones 'nothing*'
expect_stderr_contains "matches no bone or morph"
# part of a selection matching is enough
expect_exit 0 "$POSEKIT" diff "$DANCE" "$DANCE" --bones 存在しない,センター
expect_stdout_contains '0 of 1 bones differ'

# B = the fist with one morph more: bones equal, one morph differs
{ cat "$FIST"; printf 'Morph0{\x82\xa0\r\n  0.500000;\t\t\t\t// weight\r\n}\r\n\r\n'; } >B.vpd
expect_exit 1 "$POSEKIT" diff "$FIST" B.vpd
expect_stdout_contains '1 of 1 morphs differ'
# a bone group selects no morph: nothing differs
expect_exit 0 "$POSEKIT" diff "$FIST" B.vpd --bones @hand_R
expect_stdout_contains '0 of 16 bones differ, 0 of 0 morphs differ'
# naming the morph (or its group) selects it
expect_exit 1 "$POSEKIT" diff "$FIST" B.vpd --bones @hand_R,@mouth
expect_stdout_contains '0 of 16 bones differ, 1 of 1 morphs differ'
expect_exit 1 "$POSEKIT" diff "$FIST" B.vpd --bones あ --json
expect_stdout_contains '"morphs":[{"name":"あ"'

# two empty poses, or morphs alone with --no-morphs: "0 of 0 bones differ"
# is no finding, a warning says nothing was compared (an error with
# --strict)
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n\r\n' >zero.vpd
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n\r\nMorph0{\x82\xa0\r\n  0.500000;\r\n}\r\n' >morph.vpd
expect_exit 0 "$POSEKIT" diff zero.vpd zero.vpd
expect_stderr <<'EOF'
posekit: zero.vpd: warning: nothing compared: neither input holds a bone or morph
EOF
expect_exit 0 "$POSEKIT" diff morph.vpd morph.vpd --no-morphs
expect_stderr_contains "posekit: morph.vpd: warning: nothing compared: neither input holds a bone (--no-morphs leaves morphs out)"
expect_exit 2 "$POSEKIT" diff zero.vpd zero.vpd --strict
expect_stdout_empty
# one bone is enough
expect_exit 0 "$POSEKIT" diff "$FIST" "$FIST" --no-morphs
expect_stderr_empty

need_corpus
CAM="$(corpus vmd_vmd2xml_camera.vmd)"
"$POSEKIT" mirror "$CAM" -o cm.vmd 2>/dev/null
expect_exit 1 "$POSEKIT" diff "$CAM" cm.vmd --frames all
expect_stdout_contains 'camera rotation (deg)'
expect_stdout_contains '1 of 5 camera/light/shadow/IK channels differ'
expect_stdout_lacks 'camera position'
# a pose diff of two motions compares the camera at that frame
expect_exit 1 "$POSEKIT" diff "$CAM" cm.vmd --frame 5
expect_stdout_contains 'camera rotation'
expect_exit 0 "$POSEKIT" diff "$CAM" "$CAM" --frames all
expect_stdout_contains '0 of 5 camera/light/shadow/IK channels differ'
expect_exit 1 "$POSEKIT" diff "$CAM" cm.vmd --frames all --json
json_eval _stdout 'd["summary"]["scene_differ"] == 1 and d["scene"][2]["name"] == "camera rotation" and d["scene"][2]["unit"] == "deg" and d["scene"][2]["differs"]' | grep -q True ||
    fail "JSON should hold the camera channels"
expect_exit 1 "$POSEKIT" diff "$CAM" cm.vmd --frames all --csv
expect_stdout_contains 'scene,camera rotation,,,'
# self-shadow on one side only: compared with MMD's default
expect_exit 1 "$POSEKIT" diff "$(corpus vmd_vmd2xml_allShadow.vmd)" "$CAM" --frames all
expect_stdout_contains 'shadow mode  (only in A)'


# in the world (--vs-model): two models that draw no bone in common
# compare nothing; the warning names the models, not the inputs (which
# hold 101 bones each: "neither input holds a bone or morph" was false)
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
expect_exit 0 "$POSEKIT" diff bow.vmd bow.vmd --model "$(corpus pmd_mei.pmd)" --vs-model "$(corpus pmx_babylon_bone_flag_test.pmx)"
expect_stderr_contains "warning: nothing compared: $(corpus pmd_mei.pmd) and $(corpus pmx_babylon_bone_flag_test.pmx) have no bone in common that both draw (in the world a bone is compared where both models have it)"
expect_stderr_lacks "neither input holds"
# ... and an input that keys none of its model's bones (a camera given
# for the dance it frames) compares that model's rest pose: said, as
# draw says it (the table of 50 bones differing read as the dance's)
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
expect_exit 1 "$POSEKIT" diff camera.vmd bow.vmd --model mei.pmd --vs-model sd.pmd
expect_stderr_contains "posekit: camera.vmd: warning: a camera motion (70 camera keys, no bone key): mei.pmd is compared at rest (compare the dance the camera frames)"
expect_exit 2 "$POSEKIT" diff camera.vmd bow.vmd --model mei.pmd --vs-model sd.pmd --strict
expect_exit 1 "$POSEKIT" diff bow.vmd bow.vmd --model mei.pmd --vs-model sd.pmd
expect_stderr_empty
