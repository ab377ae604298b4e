# info on corpus VMDs: the counts and section ends recorded in
# shared/corpus/PROVENANCE.tsv and doc/formats.md §8 (written from the files
# before posekit existed).
need_corpus

# wavefile_v2: "14160 bone keys, 1279 morph keys, ends after self-shadow count"
expect_exit 0 "$POSEKIT" info "$(corpus vmd_wavefile_v2.vmd)"
expect_stdout_contains '  format: VMD version 2'
expect_stdout_contains '  ended: after the shadows (5 of 6 sections)'
expect_stdout_contains '  bone keys: 14160 ('
expect_stdout_contains '  morph keys: 1279 ('
expect_stdout_contains '  trailing bytes: 0'

# wavefile_camera: "camera-only, 70 keys, file ends after light count"
expect_exit 0 "$POSEKIT" info "$(corpus vmd_wavefile_camera.vmd)"
expect_stdout_contains '  ended: after the lights (4 of 6 sections)'
expect_stdout_contains '  camera keys: 70'
expect_stdout_contains '  bone keys: 0 (0 bones)'
# The camera model name カメラ・照明 (doc/formats.md §3.2).
expect_stdout_contains '  model: カメラ・照明'

# mmdtools_test: "1316 bone keys; all six sections present"
expect_exit 0 "$POSEKIT" info "$(corpus vmd_mmdtools_test.vmd)"
expect_stdout_contains '  ended: complete (6 of 6 sections)'
expect_stdout_contains '  bone keys: 1316 ('

# imas face16: "3 bone + 36 morph keys", MMD 5.23a-7.36 (ends after self-shadow)
expect_exit 0 "$POSEKIT" info "$(corpus vmd_imas_face16.vmd)"
expect_stdout_contains '  bone keys: 3 (3 bones)'
expect_stdout_contains '  morph keys: 36 (36 morphs)'
expect_stdout_contains '  frames: 0-0'
# The model name, decoded independently of posekit with iconv.
model=$(head -c 50 "$(corpus vmd_imas_face16.vmd)" | tail -c 20 | tr '\000' '\n' | head -n 1 | iconv -f CP932 -t UTF-8)
expect_stdout_contains "  model: $model"

# IK_Test: "107 duplicate base morph keys at frame 0" (doc/formats.md §3.5:
# "107 `base` keys at frame 0"): 107 records of one track at one frame, so
# 106 of them are hidden by a later one, and a warning says so.
expect_exit 0 "$POSEKIT" info "$(corpus vmd_mmd4unity_IK_Test.vmd)"
grep -qE '^ +107  base$' "$OUT" || fail "expected 107 keys for morph base"
n=$(sed -n 's/^  duplicate keys: //p' "$OUT")
[ "$n" -ge 106 ] || fail "expected at least 106 duplicate keys, got '$n'"
expect_stderr_contains 'warning: '
expect_stderr_contains 'base'

# Vmd2XML fixtures: 3 camera, 4 light, 3 self-shadow, 2 show/IK keys.
expect_exit 0 "$POSEKIT" info "$(corpus vmd_vmd2xml_camera.vmd)" "$(corpus vmd_vmd2xml_luminous.vmd)" \
    "$(corpus vmd_vmd2xml_allShadow.vmd)" "$(corpus vmd_vmd2xml_flag.vmd)"
expect_stdout_contains '  camera keys: 3'
expect_stdout_contains '  light keys: 4'
expect_stdout_contains '  shadow keys: 3'
expect_stdout_contains '  ik keys: 2'
# Four reports, separated by blank lines, in argument order.
expect_eq "$(grep -c '^/' "$OUT")" 4 "reports"
expect_eq "$(grep '^/' "$OUT" | sed 's,.*/,,' | tr '\n' ' ')" \
    "vmd_vmd2xml_camera.vmd vmd_vmd2xml_luminous.vmd vmd_vmd2xml_allShadow.vmd vmd_vmd2xml_flag.vmd " "order"
