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
