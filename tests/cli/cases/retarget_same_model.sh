# The same model twice (or a model and the body written from it): each
# sizing step's goal, "as on the source", is the input itself, so none
# runs and the dance comes back byte for byte, with the warning that
# nothing was retargeted (commands.md: "--from X --to X").  Before, the
# steps reworked the dance on the model it was made for: Gene's dance on
# Gene had 3,223 keys changed (an elbow turned 88 degrees into 手捩, toes
# lifted, hips lowered).
need_corpus
need_cmd python3
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to gene.pmx -o same.vmd --report same.json
expect_same_bytes same.vmd dance.vmd
expect_stderr_contains "posekit: dance.vmd: warning: nothing to retarget: no key changed (the models differ in nothing the motion keys), the output is the input unchanged"
expect_stderr_contains "posekit retarget: 15439 keys in, 15439 out: 0 changed, 0 added, 0 removed"
expect_stderr_contains "posekit retarget: sizing: none, the target model has the source model's bones at the same places (the input is what each step would make)"
expect_stderr_lacks "twist:"
expect_eq "$(json_eval same.json 'd["same_bones"] is True and d["steps"]["contacts"] is None and d["steps"]["twist"] is None and d["body_steps"]["centre"] is None and d["body_steps"]["toes"] is None')" True "steps left out in the report"
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to gene.pmx -o strict.vmd --strict
expect_no_file strict.vmd
# the built-in classic body is the classic model's skeleton
expect_exit 0 "$POSEKIT" retarget dance.vmd --from @classic --to classic.pmx -o classic.vmd
expect_same_bytes classic.vmd dance.vmd
expect_stderr_contains "sizing: none"
# asked to move the feet apart, the body steps run on the same model
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to gene.pmx --feet-apart 0.3 -o apart.vmd
expect_stderr_lacks "sizing: none"
expect_different_bytes apart.vmd dance.vmd

# a camera between the same model twice: the dance plays alike on both,
# so the camera is written unchanged, as the dance is (it was refitted to
# float noise: every key's distance and angles a few ulps off)
cp "$(corpus vmd_wavefile_camera.vmd)" cam.vmd
expect_exit 0 "$POSEKIT" retarget cam.vmd --from gene.pmx --to gene.pmx --motion dance.vmd -o same_cam.vmd --report cam.json
expect_same_bytes same_cam.vmd cam.vmd
expect_stderr_contains "posekit: cam.vmd: warning: nothing to retarget: the target model has the source model's bones and the dance is unchanged on it, the output is the camera unchanged"
expect_stderr_contains "posekit retarget: camera: 70 keys in, 70 out, unchanged (the dance plays alike on both models)"
expect_stderr_contains "posekit retarget: sizing: none"
expect_eq "$(json_eval cam.json 'd["same_bones"] is True and d["camera"] is None')" True "camera left alone in the report"
expect_exit 2 "$POSEKIT" retarget cam.vmd --from gene.pmx --to gene.pmx --motion dance.vmd -o strict_cam.vmd --strict
expect_no_file strict_cam.vmd
# scaled, the camera moves
expect_exit 0 "$POSEKIT" retarget cam.vmd --from gene.pmx --to gene.pmx --motion dance.vmd --scale 1.1 -o scaled_cam.vmd
expect_different_bytes scaled_cam.vmd cam.vmd
