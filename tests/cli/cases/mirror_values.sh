# mirror on a hand-made VMD: names swap (start and end of the name),
# translation x and rotation y, z change sign, unpaired bones mirror in place.
vmd_header 'model' > in.vmd
pack 'V' 3 >> in.vmd
vmd_bone '\x8d\xb6\x98\x72' 5 1.5 2 3 0.1 0.2 0.3 0.9 >> in.vmd                   # 左腕
vmd_bone '\x8d\x98\x83\x4c\x83\x83\x83\x93\x83\x5a\x83\x8b\x89\x45' 0 0 0 0 0 0 0 1 >> in.vmd  # 腰キャンセル右
vmd_bone 'center' 0 -1 0 0 0 0.5 0 0.5 >> in.vmd
pack 'V' 0 >> in.vmd
expect_exit 0 "$POSEKIT" mirror in.vmd -o out.vmd --verbose
expect_stderr <<'ERR'
posekit mirror: 2 of 3 bones swapped left/right, 3 keys mirrored
posekit mirror: no partner for 'center' (mirrored in place)
ERR
expect_exit 0 "$POSEKIT" dump out.vmd
need_cmd python3
expect_eq "$(json_eval _stdout '[b["name"] for b in d["bones"]]')" "['右腕', '腰キャンセル左', 'center']" names
expect_eq "$(json_eval _stdout 'd["bones"][0]["pos"]')" "[-1.5, 2.0, 3.0]" pos
expect_eq "$(json_eval _stdout '[round(x, 6) for x in d["bones"][0]["rot"]]')" "[0.1, -0.2, -0.3, 0.9]" rot
expect_eq "$(json_eval _stdout 'd["bones"][2]["pos"] + d["bones"][2]["rot"]')" "[1.0, 0.0, 0.0, 0.0, -0.5, -0.0, 0.5]" center
# Twice: the input again.
expect_exit 0 "$POSEKIT" mirror out.vmd -o back.vmd
expect_same_bytes back.vmd in.vmd

# Morphs swap too: the wink pair by whole names, 困り左
# by the fragment; the summary counts them.
vmd_header 'model' > face.vmd
pack 'V' 0 >> face.vmd
pack 'V' 3 >> face.vmd
vmd_morph '\x83\x45\x83\x42\x83\x93\x83\x4e' 0 1 >> face.vmd        # ウィンク
vmd_morph '\x8d\xa2\x82\xe8\x8d\xb6' 0 0.5 >> face.vmd                # 困り左
vmd_morph '\x82\xa0' 0 0.25 >> face.vmd                               # あ
pack 'V' 0 >> face.vmd
expect_exit 0 "$POSEKIT" mirror face.vmd -o face_m.vmd
expect_stderr <<'ERR'
posekit mirror: 0 of 0 bones swapped left/right, 2 of 3 morphs swapped, 0 keys mirrored
ERR
expect_exit 0 "$POSEKIT" dump face_m.vmd
expect_eq "$(json_eval _stdout '[m["name"] for m in d["morphs"]]')" "['ウィンク右', '困り右', 'あ']" morphs
expect_exit 0 "$POSEKIT" mirror face_m.vmd -o face_back.vmd
expect_same_bytes face_back.vmd face.vmd
