# bake then reduce gives back a motion within tolerance with no more keys
# than the original; camera/IK records and unselected bones stay; option
# errors exit 2.  The stand motion's 8 duplicate keys (2 bone, 6 morph) are
# dropped by bake (the output of an edit has none): 470 bone keys bake into
# 8502.
need_corpus
in=$(corpus vmd_mmdagent_stand.vmd)
expect_exit 0 "$POSEKIT" bake "$in" -o baked.vmd
expect_stderr_matches '^posekit bake: bone keys 470 -> 8502'
expect_exit 0 "$POSEKIT" reduce baked.vmd -o back.vmd --max-deg 0.05 --max-pos 0.001 --max-morph 0.001
expect_stderr_matches '^posekit reduce: bone keys 8502 -> [0-9]+, .*worst error'
expect_exit 0 "$POSEKIT" reduce baked.vmd -o back2.vmd --json
expect_stdout_contains '"bones": {"before": 8502'
# back.vmd is within the tolerances of what it reduced at every frame,
# by diff's measure: --max-pos bounds the distance, not each axis
expect_exit 0 "$POSEKIT" diff baked.vmd back.vmd --threshold 0.05 --pos-threshold 0.001 --frames all
expect_stdout_contains ': 0 of 222 bones differ, 0 of 178 morphs differ'
# a selection leaves the other bones' records alone
expect_exit 0 "$POSEKIT" reduce baked.vmd -o one.vmd --bones 右腕
expect_stderr_matches '1 bone and 0 morph tracks rewritten'
# --camera: the camera baked (a key per frame) and reduced again, within
# tolerance at every frame by diff's camera rows; without --camera the
# camera records are the same bytes
cam=$(corpus vmd_wavefile_camera.vmd)
expect_exit 0 "$POSEKIT" bake "$cam" --camera -o cam_baked.vmd
expect_stderr_contains 'camera keys 70 -> 2817'
expect_exit 0 "$POSEKIT" reduce cam_baked.vmd --camera --max-deg 0.05 --max-pos 0.001 -o cam_back.vmd
expect_stderr_matches 'camera keys 2817 -> [0-9]{2}; worst error .*, camera [0-9.e-]+ deg'
expect_exit 0 "$POSEKIT" diff cam_baked.vmd cam_back.vmd --threshold 0.05 --pos-threshold 0.001 --frames all
expect_stdout_contains '0 of 5 camera/light/shadow/IK channels differ'
# a motion with camera keys alone: its camera is what reduce means
expect_exit 0 "$POSEKIT" reduce cam_baked.vmd --max-deg 0.05 --max-pos 0.001 -o cam_alone.vmd
expect_stderr_contains '(a motion with camera keys alone)'
expect_same_bytes cam_back.vmd cam_alone.vmd
# with bone keys too, the camera records stay the same bytes
expect_exit 0 "$POSEKIT" merge "$PK_SOURCE/samples/dance.vmd" cam_baked.vmd -o mixed.vmd
expect_exit 0 "$POSEKIT" reduce mixed.vmd -o mixed_r.vmd
expect_exit 0 "$POSEKIT" dump mixed.vmd
grep '"distance"' "$OUT" >cams_in.txt
expect_exit 0 "$POSEKIT" dump mixed_r.vmd
grep '"distance"' "$OUT" >cams_out.txt
[ -s cams_in.txt ] || fail "no camera records dumped"
cmp -s cams_in.txt cams_out.txt || fail "camera records changed without --camera"
# errors
expect_exit 2 "$POSEKIT" reduce baked.vmd -o x.vmd --max-deg -1
expect_exit 2 "$POSEKIT" reduce baked.vmd -o x.vmd --step 2
expect_exit 2 "$POSEKIT" bake baked.vmd -o x.vmd --max-deg 1
expect_exit 2 "$POSEKIT" reduce baked.vmd
expect_no_file x.vmd

# a motion with duplicate keys (morph names MMD cut to one 15 bytes): the
# summary counts every duplicate record of the input, those the rewritten
# tracks absorbed (the later record wins) as well as those dropped after
cp "$(corpus vmd_mmdagent_00_normal.vmd)" dup.vmd
expect_exit 0 "$POSEKIT" dump dup.vmd
dups=$(json_eval "$OUT" 'sum(v - 1 for v in __import__("collections").Counter((m["name"], m["frame"]) for m in d["morphs"]).values())')
[ "$dups" -gt 0 ] || fail "dup.vmd holds no duplicate morph keys"
for cmd in reduce bake; do
    expect_exit 0 "$POSEKIT" "$cmd" dup.vmd -o "dup_$cmd.vmd" --json
    expect_eq "$(json_eval "$OUT" 'd["duplicates_dropped"]')" "$dups" "$cmd: duplicates_dropped"
    expect_exit 0 "$POSEKIT" "$cmd" dup.vmd -o "dup_$cmd.vmd"
    expect_stderr_contains "; $dups duplicate keys dropped"
done
