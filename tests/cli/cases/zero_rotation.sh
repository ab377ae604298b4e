# A bone key whose rotation is all zeros is read as no rotation (the
# identity), as a NaN one is; the reader says so once per file, and
# --strict refuses the file.
vmd_header 'model' > z.vmd
pack 'V' 3 >> z.vmd
vmd_bone 'a' 0 0 0 0 0 0 0 0 >> z.vmd
vmd_bone 'a' 10 0 0 0 0 0 0 0 >> z.vmd
vmd_bone 'b' 0 0 0 0 0 0 0 1 >> z.vmd
pack 'V' 0 >> z.vmd
expect_exit 0 "$POSEKIT" info z.vmd
expect_stderr_lines 1
expect_stderr_contains "z.vmd:"
expect_stderr_contains "2 bone keys with an all-zero rotation, read as no rotation (first: key 0)"
expect_exit 2 "$POSEKIT" info z.vmd --strict
# sampled, it is the rest pose
expect_exit 0 "$POSEKIT" convert z.vmd --frame 5 -o z.vpd
expect_exit 0 "$POSEKIT" dump z.vpd
need_cmd python3
expect_eq "$(json_eval _stdout 'd["bones"][0]["rot"]')" "[0.0, 0.0, 0.0, 1.0]" rest

vpd_text 'model' 'a|0,0,0|0,0,0,0' 'b|0,0,0|0,0,0,1' > z.vpd
expect_exit 0 "$POSEKIT" info z.vpd
expect_stderr_lines 1
expect_stderr_contains "1 bone with an all-zero rotation, read as no rotation (first: 'a')"
