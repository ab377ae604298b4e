# check of a camera motion: without a model an error (nothing to fit a
# body to); with a model, "0 missing" and exit 0 read as a fit, so a
# warning says a camera plays on no model (--strict: an error).
need_corpus
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
expect_exit 2 "$POSEKIT" check camera.vmd
expect_stderr_contains "posekit: camera.vmd: the motion keys no bone: there is nothing to fit a body to (a camera, 70 camera keys: the dance it frames keys the bones)"
# retarget --from @auto of the camera alone (without --motion) likewise
expect_exit 2 "$POSEKIT" retarget camera.vmd --from @auto --to gene.pmx -o cam_auto.vmd
expect_stderr_contains "posekit: camera.vmd: the motion keys no bone: there is nothing to fit a body to (a camera, 70 camera keys: the dance it frames keys the bones)"
expect_no_file cam_auto.vmd
expect_exit 0 "$POSEKIT" check camera.vmd --model gene.pmx
expect_stderr_contains "posekit: camera.vmd: warning: a camera motion (70 camera keys, no bone or morph key): nothing of it plays on gene.pmx (check the dance the camera frames)"
expect_stdout_contains "bones keyed: 0, missing on the model: 0 (0 moving)"
expect_exit 2 "$POSEKIT" check camera.vmd --model gene.pmx --strict
# a dance: no such warning
expect_exit 0 "$POSEKIT" check "$(corpus vmd_mmdagent_stand.vmd)" --model gene.pmx
expect_stderr_lacks "camera"
