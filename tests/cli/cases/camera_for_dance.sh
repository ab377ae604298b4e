# A camera motion (camera keys, no bone or morph key) given where an edit
# wants the dance it frames is said, naming the file, as check and draw say
# it (--strict: an error, nothing written): overlay would key the pose into
# the camera's file, which MMD loads on no model.
need_corpus
CAM=$(corpus vmd_wavefile_camera.vmd)
FIST="$PK_SOURCE/samples/hands/right_fist.vpd"
expect_exit 0 "$POSEKIT" overlay "$CAM" --pose "$FIST" --bones @fingers_R -o out.vmd
expect_stderr_contains "posekit: $CAM: warning: a camera motion (70 camera keys, no bone or morph key): the pose is keyed into the camera's file (overlay the dance the camera frames)"
expect_exit 2 "$POSEKIT" overlay "$CAM" --pose "$FIST" --bones @fingers_R --strict -o strict.vmd
expect_no_file strict.vmd

# Two camera motions crossfaded: the camera moves across the fade from the
# first's to the second's, so the run is no "nothing faded", and the summary
# (and --json) count the camera keys.
CAM2=$(corpus vmd_hashi4_projectile_camera.vmd)
expect_exit 0 "$POSEKIT" crossfade "$CAM" "$CAM2" --at 100 -o cams.vmd
expect_stderr <<'ERR'
posekit crossfade: frames 100-110 faded over 0 bones and 0 morphs: 0 keys from the first, 0 from the second, 0 inside the fade (within 0 deg, 0 units, 0 weight); camera and light moved linearly across the fade: 32 camera keys, 0 light keys
ERR
expect_exit 0 "$POSEKIT" crossfade "$CAM" "$CAM2" --at 100 --strict --json -o cams2.vmd
expect_stdout_contains '"camera_keys": 32, "light_keys": 0, "duplicates_dropped": 0}'
expect_same_bytes cams.vmd cams2.vmd

# A camera motion crossfaded with a dance: the dance's bones fade in from
# rest (the camera first) or out to it (the camera second), said naming the
# camera's file.
DANCE="$PK_SOURCE/samples/dance.vmd"
expect_exit 0 "$POSEKIT" crossfade "$CAM" "$DANCE" --at 10 -o in.vmd
expect_stderr_contains "posekit: $CAM: warning: a camera motion (70 camera keys, no bone or morph key) crossfaded with a dance: the dance's bones and morphs fade in from rest (crossfade two dances, or two cameras)"
expect_exit 2 "$POSEKIT" crossfade "$DANCE" "$CAM" --at 10 --strict -o out_to.vmd
expect_stderr_contains "posekit: $CAM: warning: a camera motion (70 camera keys, no bone or morph key) crossfaded with a dance: the dance's bones and morphs fade out to rest (crossfade two dances, or two cameras)"
expect_no_file out_to.vmd
