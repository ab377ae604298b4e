# --bones @frame:NAME with --model: a display frame of the model as a bone
# selection in diff and overlay (pmx_nanoem_miku_bones.pmx: 足 holds 左足
# 左ひざ 左足首 右足 右ひざ 右足首).
need_corpus
model=$(corpus pmx_nanoem_miku_bones.pmx)
vpd_text 'm' '\x8d\xb6\x91\xab|0,0,0|0.5,0,0,0.866025' '\x8f\xe3\x94\xbc\x90\x67|0,0,0|0.5,0,0,0.866025' >a.vpd
vpd_text 'm' '\x8d\xb6\x91\xab|0,0,0|0,0,0,1' '\x8f\xe3\x94\xbc\x90\x67|0,0,0|0,0,0,1' >b.vpd
# without a selection both bones differ; with the 足 frame only 左足
expect_exit 1 "$POSEKIT" diff a.vpd b.vpd --json
expect_eq "$(json_eval "$OUT" 'len(d["bones"])')" 2
expect_exit 1 "$POSEKIT" diff a.vpd b.vpd --json --model "$model" --bones '@frame:足'
expect_eq "$(json_eval "$OUT" '[b["name"] for b in d["bones"]]')" "['左足']"
# the English name of a frame is not in this PMX; the Japanese one is
expect_exit 1 "$POSEKIT" diff a.vpd b.vpd --json --model "$model" --bones '@frame:体(上)'
expect_eq "$(json_eval "$OUT" '[b["name"] for b in d["bones"]]')" "['上半身']"
# mixed with names and groups
expect_exit 1 "$POSEKIT" diff a.vpd b.vpd --json --model "$model" --bones '@frame:足,上半身'
expect_eq "$(json_eval "$OUT" 'len(d["bones"])')" 2
# overlay: the pose laid over the frame's bones only
expect_exit 0 "$POSEKIT" overlay b.vpd --pose a.vpd --model "$model" --bones '@frame:足' -o o.vpd
expect_exit 1 "$POSEKIT" diff o.vpd a.vpd --json
expect_eq "$(json_eval "$OUT" '[b["name"] for b in d["bones"] if b["angle_deg"] > 1]')" "['上半身']"
# errors
expect_exit 2 "$POSEKIT" diff a.vpd b.vpd --bones '@frame:足'
expect_stderr_contains '@frame:足: a display frame needs a model (--model MODEL)'
expect_exit 2 "$POSEKIT" diff a.vpd b.vpd --model "$model" --bones '@frame:尻尾'
expect_stderr_contains '@frame:尻尾: the model has no display frame of that name (it has: Root, ＩＫ, 体(上), 髪, 腕, 指, 体(下), 足)'
expect_exit 2 "$POSEKIT" overlay b.vpd --pose a.vpd --model a.vpd --bones '@frame:足' -o o2.vpd
expect_stderr_contains 'a.vpd: a VPD pose, not a model (a PMX, PMD or body file)'
expect_no_file o2.vpd
